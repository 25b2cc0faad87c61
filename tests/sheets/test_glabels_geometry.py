"""gLabels products slot by slot: how far art may reach beyond a label (waste, half the gap),
CD labels, a layout without a pitch, the product database's rounding at its exact limits, and
the order of the slots when layouts interleave (mutation testing found these unchecked)."""
from __future__ import annotations

import textwrap

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets.labels import load_template

PRODUCTS = """\
<?xml version="1.0"?>
<Glabels-templates>
  <Template brand="T" part="WASTE" size="A4">
    <Label-rectangle id="0" width="50mm" height="30mm" waste="2mm">
      <Layout nx="3" ny="2" x0="10mm" y0="20mm" dx="60mm" dy="36mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="HALFGAP" size="A4">
    <Label-rectangle id="0" width="50mm" height="30mm">
      <Layout nx="3" ny="2" x0="10mm" y0="20mm" dx="60mm" dy="36mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="XWASTE" size="A4">
    <Label-rectangle id="0" width="50mm" height="30mm" waste="2mm" x_waste="1mm">
      <Layout nx="3" ny="2" x0="10mm" y0="20mm" dx="60mm" dy="36mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="YWASTE" size="A4">
    <Label-rectangle id="0" width="50mm" height="30mm" waste="2mm" y_waste="1mm">
      <Layout nx="3" ny="2" x0="10mm" y0="20mm" dx="60mm" dy="36mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="CD" size="A4">
    <Label-cd id="0" radius="20mm" hole="5mm">
      <Layout nx="2" ny="1" x0="10mm" y0="10mm" dx="50mm"/>
    </Label-cd>
  </Template>
  <Template brand="T" part="ONE" size="A4">
    <Label-rectangle id="0" width="50mm" height="30mm" waste="1mm">
      <Layout nx="1" ny="1" x0="10mm" y0="10mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="INTERLEAVED" size="A4">
    <Label-rectangle id="0" width="30mm" height="20mm">
      <Layout nx="2" ny="2" x0="10mm" y0="10mm" dx="80mm" dy="30mm"/>
      <Layout nx="2" ny="2" x0="50mm" y0="10mm" dx="80mm" dy="30mm"/>
    </Label-rectangle>
  </Template>
  <Template brand="T" part="MIXED" size="A4">
    <Label-rectangle id="0" width="30mm" height="30mm">
      <Layout nx="1" ny="1" x0="100mm" y0="10mm"/>
    </Label-rectangle>
    <Label-rectangle id="1" width="30mm" height="10mm">
      <Layout nx="1" ny="1" x0="10mm" y0="10.4mm"/>
    </Label-rectangle>
  </Template>
</Glabels-templates>
"""


@pytest.fixture
def products(tmp_path):
    (tmp_path / "t.xml").write_text(PRODUCTS, encoding="utf-8")
    return lambda part: load_template(f"t.xml#{part}", tmp_path)


@pytest.mark.parametrize("part, room", [
    ("WASTE", (2.0, 2.0, 2.0, 2.0)),  # the waste, less than half of either gap (5 and 3 mm)
    ("HALFGAP", (5.0, 3.0, 5.0, 3.0)),  # no waste: half the 10 mm and 6 mm gaps
    ("XWASTE", (1.0, 2.0, 1.0, 2.0)),  # x_waste across, the waste up and down
    ("YWASTE", (2.0, 1.0, 2.0, 1.0)),
])
def test_art_reaches_the_waste_and_never_past_half_the_gap(products, part, room):
    sheet = products(part)
    assert len(sheet.slots) == 6
    assert {s.room for s in sheet.slots} == {room}
    assert [(s.x, s.y) for s in sheet.slots] == [
        (10.0 + 60 * ix, 297.0 - 20 - 36 * iy - 30) for iy in range(2) for ix in range(3)]


def test_a_cd_label_is_a_circle_of_its_radius(products):
    sheet = products("CD")
    assert [(s.shape, s.x, s.y, s.w, s.h) for s in sheet.slots] == [
        ("circle", 10.0, 247.0, 40.0, 40.0), ("circle", 60.0, 247.0, 40.0, 40.0)]
    assert {s.room for s in sheet.slots} == {(5.0, 5.0, 5.0, 5.0)}  # half the 10 mm gap, both ways


def test_a_single_label_needs_no_pitch(products):
    (slot,) = products("ONE").slots
    assert (slot.x, slot.y, slot.w, slot.h, slot.room) == (10.0, 257.0, 50.0, 30.0, (1.0,) * 4)


def test_slots_run_row_by_row_from_the_top_left_across_layouts_and_labels(products):
    assert [(s.x, s.y) for s in products("INTERLEAVED").slots] == [
        (10.0, 267.0), (50.0, 267.0), (90.0, 267.0), (130.0, 267.0),
        (10.0, 237.0), (50.0, 237.0), (90.0, 237.0), (130.0, 237.0)]
    # tops 287 and 286.6 mm: the taller label's top is higher, though its bottom is lower
    assert [s.x for s in products("MIXED").slots] == [100.0, 10.0]


def one_product(tmp_path, layout, label='width="50mm" height="30mm"'):
    (tmp_path / "p.xml").write_text(textwrap.dedent(f"""\
        <Glabels-templates>
          <Template brand="T" part="P" size="A4">
            <Label-rectangle id="0" {label}>
              <Layout {layout}/>
            </Label-rectangle>
          </Template>
        </Glabels-templates>
        """), encoding="utf-8")
    return load_template("p.xml", tmp_path)


@pytest.mark.parametrize("layout", [
    'nx="2" ny="1" x0="10mm" y0="10mm" dx="49.5mm"',  # overlapping by the database's rounding (0.5 mm)
    'nx="2" ny="1" x0="10mm" y0="10mm" dx="49.6mm"',
    'nx="1" ny="1" x0="-1mm" y0="0.5mm"',  # 1 mm past the left edge; 0.5 mm from the top
    'nx="1" ny="1" x0="161mm" y0="-1mm"',  # 1 mm past the right edge and the top
    'nx="1" ny="1" x0="10mm" y0="268mm"',  # 1 mm past the bottom
])
def test_the_product_databases_rounding_is_tolerated_up_to_its_limit(tmp_path, layout):
    sheet = one_product(tmp_path, layout)
    assert sheet.slots and all(s.w == 50.0 for s in sheet.slots)


@pytest.mark.parametrize("layout, message", [
    ('nx="2" ny="1" x0="10mm" y0="10mm" dx="49.4mm"',
     "p.xml:4: <Layout>: labels overlap (pitch 49.400 x 0.000 mm for 50.000 x 30.000 mm labels)"),
    ('nx="1" ny="1" x0="-1.1mm" y0="10mm"', "p.xml:4: <Layout>: label 1,1 lies off the 210 x 297 mm sheet"),
    ('nx="1" ny="1" x0="10mm" y0="-1.1mm"', "p.xml:4: <Layout>: label 1,1 lies off the 210 x 297 mm sheet"),
    ('nx="1" ny="1" x0="161.1mm" y0="10mm"', "p.xml:4: <Layout>: label 1,1 lies off the 210 x 297 mm sheet"),
    ('nx="1" ny="2" x0="10mm" y0="200mm" dy="68.5mm"',  # the second label's bottom: 298.5 mm down
     "p.xml:4: <Layout>: label 1,2 lies off the 210 x 297 mm sheet"),
])
def test_past_the_rounding_a_layout_is_refused(tmp_path, layout, message):
    with pytest.raises(CardgenError) as caught:
        one_product(tmp_path, layout)
    assert str(caught.value) == message


@pytest.mark.parametrize("label, message", [
    ('width="0mm" height="30mm"', "p.xml:3: <Label-rectangle>: the label size must be greater than 0"),
    ('width="50mm" height="0"', "p.xml:3: <Label-rectangle>: the label size must be greater than 0"),
])
def test_a_label_without_size_is_refused(tmp_path, label, message):
    with pytest.raises(CardgenError) as caught:
        one_product(tmp_path, 'nx="1" ny="1" x0="10mm" y0="10mm"', label)
    assert str(caught.value) == message


def test_a_label_half_a_millimetre_across_is_a_label(tmp_path):
    sheet = one_product(tmp_path, 'nx="1" ny="1" x0="10mm" y0="10mm"', 'width="0.5mm" height="0.5mm"')
    assert [(s.w, s.h) for s in sheet.slots] == [(0.5, 0.5)]
