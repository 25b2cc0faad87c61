"""gLabels product files (cardgen/sheets/labels/glabels.py), label by label: the slots of round,
CD and rectangular labels in every unit, how far art reaches on circles pitched differently
across and down, equivalent products, and every message naming file and line (mutation testing
found these unchecked)."""
from __future__ import annotations

import math
import textwrap

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets.labels import load_template


def product(tmp_path, body, template='brand="T" part="P" size="A4"'):
    """A file of one product: its <Template> on line 2, ``body`` from line 3."""
    text = f"<Glabels-templates>\n<Template {template}>\n{textwrap.dedent(body)}</Template>\n</Glabels-templates>\n"
    (tmp_path / "p.xml").write_text(text, encoding="utf-8")
    return load_template("p.xml", tmp_path)


def refused(tmp_path, body, template='brand="T" part="P" size="A4"') -> str:
    with pytest.raises(CardgenError) as caught:
        product(tmp_path, body, template)
    return str(caught.value)


def test_lengths_in_every_unit(tmp_path):
    sheet = product(tmp_path, """\
        <Label-rectangle width="1in" height="6pc">
        <Layout nx="1" ny="1" x0="2cm" y0="72"/>
        <Layout nx="1" ny="1" x0=" 1e2 mm " y0=".5in"/>
        </Label-rectangle>
        """, template='brand="T" part="P" size="Other" width="20cm" height="+300mm"')
    assert (sheet.w, sheet.h) == (200.0, 300.0)
    # the second layout's label is the higher one: it comes first
    assert [value for s in sheet.slots for value in (s.x, s.y, s.w, s.h)] == pytest.approx(
        [100.0, 300 - 12.7 - 25.4, 25.4, 25.4, 20.0, 300 - 25.4 - 25.4, 25.4, 25.4], abs=1e-12)


def test_round_labels_reach_half_the_narrower_gap_both_ways(tmp_path):
    sheet = product(tmp_path, """\
        <Label-round radius="10mm">
        <Layout nx="2" ny="2" x0="10mm" y0="20mm" dx="30mm" dy="24mm"/>
        </Label-round>
        """)
    assert [(s.shape, s.x, s.y, s.w, s.h) for s in sheet.slots] == [
        ("circle", 10.0, 257.0, 20.0, 20.0), ("circle", 40.0, 257.0, 20.0, 20.0),
        ("circle", 10.0, 233.0, 20.0, 20.0), ("circle", 40.0, 233.0, 20.0, 20.0)]
    # gaps of 10 mm across and 4 mm down: a circle's art reaches 2 mm all round
    assert {s.room for s in sheet.slots} == {(2.0, 2.0, 2.0, 2.0)}


def test_rectangles_reach_half_the_gap_each_way_and_without_neighbours_any_distance(tmp_path):
    sheet = product(tmp_path, """\
        <Label-rectangle width="20mm" height="10mm">
        <Layout nx="2" ny="1" x0="10mm" y0="20mm" dx="30mm" dy="24mm"/>
        </Label-rectangle>
        """)
    assert {s.room for s in sheet.slots} == {(5.0, math.inf, 5.0, math.inf)}
    sheet = product(tmp_path, """\
        <Label-rectangle width="20mm" height="10mm" waste="1.5mm">
        <Layout nx="1" ny="2" x0="10mm" y0="20mm" dx="30mm" dy="11mm"/>
        </Label-rectangle>
        """)
    assert {s.room for s in sheet.slots} == {(1.5, 0.5, 1.5, 0.5)}


def test_an_equivalent_product_is_the_named_one_under_its_own_name(tmp_path):
    (tmp_path / "e.xml").write_text(textwrap.dedent("""\
        <Glabels-templates>
          <Template brand="T" part="A" size="A5">
            <Label-cd radius="20mm"><Layout nx="1" ny="1" x0="1mm" y0="2mm"/></Label-cd>
          </Template>
          <Template brand="T" part="B" equiv="A"/>
          <Template brand="U" part="C" equiv="A"/>
          <Template brand="T" part="D" equiv="B"/>
        </Glabels-templates>
        """), encoding="utf-8")
    sheet = load_template("e.xml#B", tmp_path)
    assert (sheet.name, sheet.w, sheet.h, sheet.marks, sheet.duplex) == ("T B", 148.0, 210.0, "none", False)
    assert [(s.shape, s.x, s.y, s.w) for s in sheet.slots] == [("circle", 1.0, 168.0, 40.0)]
    for part, line in (("C", 6), ("D", 7)):  # another brand's part; an equivalent of an equivalent
        with pytest.raises(CardgenError) as caught:
            load_template(f"e.xml#{part}", tmp_path)
        equiv = "A" if part == "C" else "B"
        assert str(caught.value) == f'e.xml:{line}: <Template>: equiv="{equiv}" names no product of this file'


@pytest.mark.parametrize("template, body, message", [
    ('brand="T" size="A4"', "", 'p.xml:2: <Template>: missing attribute "part"'),
    ('brand="T" part="P"', "", 'p.xml:2: <Template>: missing attribute "size"'),
    ('brand="T" part="P" size="Other" height="10mm"', "", 'p.xml:2: <Template>: missing attribute "width"'),
    ('brand="T" part="P" size="Other" width="10mm"', "", 'p.xml:2: <Template>: missing attribute "height"'),
    ('brand="T" part="P" size="other"', "",
     'p.xml:2: <Template>: unknown paper size "other" (known: A3, A4, A5, A6, US-Letter, US-Legal, '
     'US-Executive, or "Other" with width and height)'),
    ('brand="T" part="P" size="A4"', '<Meta category="label"/>\n',
     'p.xml:2: <Template part="P">: no <Label-round>, <Label-cd> or <Label-rectangle>'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n</Label-rectangle>\n',
     "p.xml:3: <Label-rectangle>: no <Layout>"),
    ('brand="T" part="P" size="A4"', '<Label-rectangle height="5mm"/>\n',
     'p.xml:3: <Label-rectangle>: missing attribute "width"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm"/>\n',
     'p.xml:3: <Label-rectangle>: missing attribute "height"'),
    ('brand="T" part="P" size="A4"', '<Label-round radius="-2mm"/>\n',
     "p.xml:3: <Label-round>: the label size must be greater than 0"),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm" waste="a bit"/>\n',
     'p.xml:3: <Label-rectangle> waste: expected a length such as "12mm", "0.5in" or "36pt", got "a bit"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm" x_waste="1 px"/>\n',
     'p.xml:3: <Label-rectangle> x_waste: expected a length such as "12mm", "0.5in" or "36pt", got "1 px"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm" y_waste="y"/>\n',
     'p.xml:3: <Label-rectangle> y_waste: expected a length such as "12mm", "0.5in" or "36pt", got "y"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="1" ny="+1" x0="1mm" y0="1mm"/></Label-rectangle>\n',
     'p.xml:4: <Layout> ny: expected a whole number of 1 or more, got "+1"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout ny="1" x0="1mm" y0="1mm"/></Label-rectangle>\n', 'p.xml:4: <Layout>: missing attribute "nx"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="1" x0="1mm" y0="1mm"/></Label-rectangle>\n', 'p.xml:4: <Layout>: missing attribute "ny"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="1" ny="1" y0="1mm"/></Label-rectangle>\n', 'p.xml:4: <Layout>: missing attribute "x0"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="1" ny="1" x0="1mm"/></Label-rectangle>\n', 'p.xml:4: <Layout>: missing attribute "y0"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="2" ny="1" x0="1mm" y0="1mm" dx="5 mm!"/></Label-rectangle>\n',
     'p.xml:4: <Layout> dx: expected a length such as "12mm", "0.5in" or "36pt", got "5 mm!"'),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="5mm">\n'
     '<Layout nx="1" ny="2" x0="1mm" y0="1mm" dy="-"/></Label-rectangle>\n',
     'p.xml:4: <Layout> dy: expected a length such as "12mm", "0.5in" or "36pt", got "-"'),
    ('brand="T" part="P" size="A4"', '<Label-round radius="10mm">\n'  # round: the narrower gap counts
     '<Layout nx="2" ny="2" x0="1mm" y0="1mm" dx="30mm" dy="19.4mm"/></Label-round>\n',
     "p.xml:4: <Layout>: labels overlap (pitch 30.000 x 19.400 mm for 20.000 x 20.000 mm labels)"),
    ('brand="T" part="P" size="A4"', '<Label-rectangle width="5mm" height="20mm">\n'
     '<Layout nx="1" ny="2" x0="1mm" y0="1mm" dy="19.4mm"/></Label-rectangle>\n',
     "p.xml:4: <Layout>: labels overlap (pitch 0.000 x 19.400 mm for 5.000 x 20.000 mm labels)"),
])
def test_bad_products_name_file_and_line(tmp_path, template, body, message):
    assert refused(tmp_path, body, template) == message


def test_the_labels_of_all_layouts_count_towards_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_MAX_SHEET_SLOTS", "6")
    body = """\
        <Label-rectangle width="5mm" height="5mm">
        <Layout nx="2" ny="2" x0="1mm" y0="1mm" dx="10mm" dy="10mm"/>
        <Layout nx="1" ny="2" x0="50mm" y0="1mm" dx="10mm" dy="10mm"/>
        </Label-rectangle>
        """
    assert len(product(tmp_path, body).slots) == 6
    assert refused(tmp_path, body.replace('ny="2" x0="50mm"', 'ny="3" x0="50mm"')) == (
        "p.xml:5: <Layout> gives 1 x 3 = 3 labels; limit: slots on one sheet template (nx x ny), "
        "CARDGEN_MAX_SHEET_SLOTS=6 (set that environment variable higher to raise it)")


def test_whole_numbers_may_carry_spaces(tmp_path):
    sheet = product(tmp_path, """\
        <Label-rectangle width="5mm" height="5mm">
        <Layout nx=" 2 " ny="1" x0="1mm" y0="1mm" dx="10mm"/>
        </Label-rectangle>
        """)
    assert [s.x for s in sheet.slots] == [1.0, 11.0]


def test_rows_are_told_apart_to_a_millionth_of_a_millimetre(tmp_path):
    # tops 1e-7 mm apart are one row (ordered across); 2e-6 mm apart, two rows (the higher first)
    body = """\
        <Label-rectangle width="5mm" height="5mm"><Layout nx="1" ny="1" x0="100mm" y0="10mm"/></Label-rectangle>
        <Label-rectangle width="5mm" height="5mm"><Layout nx="1" ny="1" x0="10mm" y0="{y0}mm"/></Label-rectangle>
        """
    assert [s.x for s in product(tmp_path, body.format(y0="10.0000001")).slots] == [10.0, 100.0]
    assert [s.x for s in product(tmp_path, body.format(y0="10.000002")).slots] == [100.0, 10.0]
