"""Sheet templates from files: gLabels XML and a set's own YAML."""
from __future__ import annotations

import textwrap

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets import SheetOptions, impose
from cardgen.sheets.labels import load_template

from .helpers import box, by_page, card_type, pairs

GLABELS = """\
<?xml version="1.0"?>
<Glabels-templates>
  <Template brand="Acme" part="R10" size="A4" _description="Rectangles">
    <Meta category="label"/>
    <Label-rectangle id="0" width="70mm" height="36pt" round="2mm" x_waste="1mm" y_waste="0.5mm">
      <Markup-margin size="2mm"/>
      <Layout nx="2" ny="3" x0="10mm" y0="0.5in" dx="80mm" dy="20mm"/>
      <Layout nx="1" ny="1" x0="10mm" y0="200mm" dx="0" dy="0"/>
    </Label-rectangle>
  </Template>
  <Template brand="Acme" part="R11" equiv="R10"/>
  <Template brand="Acme" part="C5" size="Other" width="100mm" height="3.5in">
    <Label-round id="0" radius="36">
      <Layout nx="2" ny="1" x0="5mm" y0="5mm" dx="1in" dy="1in"/>
    </Label-round>
  </Template>
</Glabels-templates>
"""


def flat(pairs) -> list[float]:
    """(x, y) pairs as one list: pytest.approx compares flat sequences only."""
    return [value for pair in pairs for value in pair]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_glabels_file_parsed_with_units_layouts_and_equivalents(tmp_path):
    write(tmp_path, "acme.xml", GLABELS)
    sheet = load_template("acme.xml#R10", tmp_path)
    assert sheet.name == "Acme R10" and (sheet.w, sheet.h) == (210.0, 297.0)
    assert sheet.marks == "none" and not sheet.duplex
    label_h = 36 * 25.4 / 72  # 36pt
    expected = [(10 + 80 * ix, 297 - (12.7 + 20 * iy) - label_h) for iy in range(3) for ix in range(2)]
    expected.append((10.0, 297 - 200 - label_h))
    assert flat((s.x, s.y) for s in sheet.slots) == pytest.approx(flat(expected))
    for slot in sheet.slots:
        assert (slot.w, slot.h, slot.shape) == (70.0, pytest.approx(label_h), "rect")
    assert sheet.slots[0].room == pytest.approx((1.0, 0.5, 1.0, 0.5))
    equivalent = load_template("acme.xml#R11", tmp_path)
    assert equivalent.slots == sheet.slots and equivalent.name == "Acme R11"
    # Bare numbers are points; "Other" paper takes width and height; no waste: half the gap.
    circles = load_template("acme.xml#C5", tmp_path)
    assert (circles.w, circles.h) == pytest.approx((100.0, 88.9))
    d = 72 * 25.4 / 72
    assert flat((s.x, s.w) for s in circles.slots) == pytest.approx([5.0, d, 30.4, d])
    assert [s.shape for s in circles.slots] == ["circle", "circle"]
    assert circles.slots[0].room == pytest.approx(((25.4 - d) / 2,) * 4)


def test_faces_on_a_glabels_product_named_by_path(tmp_path):
    write(tmp_path, "acme.xml", GLABELS)
    kind = card_type(70, 12, bleed=2.0)
    imposition = impose(pairs(3, kind), SheetOptions(template="acme.xml#R10", root=tmp_path))
    first = imposition.placements[0].slot
    label_h = 36 * 25.4 / 72
    assert (first.x, first.y) == pytest.approx((10.0, 297 - 12.7 - label_h + (label_h - 12) / 2))
    # The 2 mm bleed reaches no further than the label plus its waste (1 mm across, 0.5 mm up
    # and down); the 12 mm face sits 0.35 mm inside the 12.7 mm label.
    assert first.clip == pytest.approx((9.0, first.y - 0.85, 81.0, first.y + 12.85))
    assert [p.face.side for p in imposition.placements] == ["front", "back"] * 3


@pytest.mark.parametrize("text, message", [
    ("<Glabels-templates><Template brand='A' part='X' size='A4'>\n<Label-round radius='5mm'>\n</Glabels-templates>",
     "bad.xml:3: invalid XML: mismatched tag"),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='A4'>\n<Label-round id='0'>\n"
     "<Layout nx='1' ny='1' x0='1mm' y0='1mm'/></Label-round></Template></Glabels-templates>",
     'bad.xml:3: <Label-round>: missing attribute "radius"'),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='B7'/></Glabels-templates>",
     'bad.xml:2: <Template>: unknown paper size "B7" (known: A3, A4, A5, A6, US-Letter, US-Legal, '
     'US-Executive, or "Other" with width and height)'),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='A4'>\n<Label-round radius='5mm'>\n"
     "<Layout nx='two' ny='1' x0='1mm' y0='1mm'/></Label-round></Template></Glabels-templates>",
     'bad.xml:4: <Layout> nx: expected a whole number of 1 or more, got "two"'),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='A4'>\n<Label-round radius='5 furlongs'>\n"
     "<Layout nx='1' ny='1' x0='1mm' y0='1mm'/></Label-round></Template></Glabels-templates>",
     'bad.xml:3: <Label-round> radius: expected a length such as "12mm", "0.5in" or "36pt", got "5 furlongs"'),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='A4'>\n<Label-round radius='5mm'>\n"
     "<Layout nx='30' ny='1' x0='1mm' y0='1mm' dx='10mm'/></Label-round></Template></Glabels-templates>",
     "bad.xml:4: <Layout>: label 22,1 lies off the 210 x 297 mm sheet"),
    ("<Glabels-templates>\n<Template brand='A' part='X' size='A4'>\n<Label-ellipse width='5mm' height='3mm'>\n"
     "<Layout nx='1' ny='1' x0='1mm' y0='1mm'/></Label-ellipse></Template></Glabels-templates>",
     "bad.xml:3: <Label-ellipse>: unsupported label shape (cardgen reads Label-round, Label-cd and "
     "Label-rectangle)"),
    ("<labels/>", "bad.xml:1: not a gLabels template file (the root element is <labels>, expected "
                  "<Glabels-templates>)"),
])
def test_bad_glabels_files_name_file_and_line(tmp_path, text, message):
    write(tmp_path, "bad.xml", text)
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type(10, 10, shape="circle")), SheetOptions(template="bad.xml", root=tmp_path))
    assert str(error.value) == message


def test_a_file_with_several_products_needs_a_part(tmp_path):
    write(tmp_path, "acme.xml", GLABELS)
    with pytest.raises(CardgenError) as error:
        load_template("acme.xml", tmp_path)
    assert str(error.value) == 'acme.xml: the file holds 3 products; name one as "acme.xml#PART" (parts: R10, R11, C5)'
    with pytest.raises(CardgenError) as error:
        load_template("acme.xml#Z9", tmp_path)
    assert str(error.value) == 'acme.xml: no product "Z9" in this file (it has: R10, R11, C5)'
    with pytest.raises(CardgenError) as error:
        load_template("missing.xml", tmp_path)
    assert str(error.value) == "missing.xml: file not found"


SPRUE = """\
name: Token sprue
paper: a4
orientation: landscape
grid:
  shape: circle
  d: 30mm
  nx: 3
  ny: 2
  x0: 20
  y0: 10
  dx: 40
  dy: 40
slots:
  - {x: 200, y: 20, w: 63.5, h: 88.9}
"""


def test_yaml_sheet_template(tmp_path):
    write(tmp_path, "sprue.yaml", SPRUE)
    sheet = load_template("sprue.yaml", tmp_path)
    assert (sheet.w, sheet.h) == (297.0, 210.0) and sheet.name == "Token sprue" and sheet.duplex
    circles = [s for s in sheet.slots if s.shape == "circle"]
    assert flat((s.x, s.y) for s in circles) == pytest.approx(
        flat((20 + 40 * ix, 210 - (10 + 40 * iy) - 30) for iy in range(2) for ix in range(3)))
    assert circles[0].room == pytest.approx((5.0,) * 4)  # half the 10 mm gap
    tokens, cards = card_type(30, 30, shape="circle", bleed=2.0, name="tok"), card_type(name="card")
    imposition = impose(pairs(4, tokens, prefix="t") + pairs(1, cards, prefix="k"),
                        SheetOptions(template="sprue.yaml", root=tmp_path))
    placed = by_page(imposition)
    assert [p.face.card.name for p in placed[1]] == ["t1", "t2", "t3", "t4"]
    # Duplex: the back page mirrors the front page (landscape, long edge: rows reverse).
    for front, back in zip(placed[1], placed[2]):
        assert (back.slot.x, back.slot.y) == pytest.approx((front.slot.x, 210 - front.slot.y - 30), abs=1e-9)
    card_page = imposition.pages[2]
    assert [p.face.card.name for p in placed[3]] == ["k1"]
    assert box(placed[3][0].slot) == pytest.approx((200.0, 210 - 20 - 88.9, 263.5, 190.0))
    assert card_page.marks  # crop marks round the card slot


@pytest.mark.parametrize("text, message", [
    ("paper: a4\ngrid:\n  nx: 2\n  ny: 1\n  x0: 1\n  y0: 1\n  w: 10\n  h: ten\n",
     'sprue.yaml:8: h: expected a length such as "12", "12mm", "0.5in" or "10pt", got "ten"'),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 10, h: 10, colour: red}\n",
     'sprue.yaml:3: slot: unknown key "colour" (known: d, h, shape, w, waste, x, y)'),
    ("paper: b5\nslots: []\n", 'sprue.yaml:1: unknown paper "b5" (choose letter, a4, a3 or give (w, h) in mm)'),
    ("paper: a4\nmarks: dots\nslots:\n  - {x: 1, y: 1, w: 10, h: 10}\n",
     'sprue.yaml:2: marks must be one of crop, outline, none, got "dots"'),
    ("paper: a4\ngrid:\n  nx: 0\n  ny: 1\n  x0: 1\n  y0: 1\n  w: 10\n  h: 10\n",
     "sprue.yaml:3: nx must be a whole number of 1 or more, got 0"),
    ("paper: a4\nslots:\n  - {x: 200, y: 1, w: 20, h: 10}\n",
     "sprue.yaml:1: a slot at 200, 1 mm lies off the 210 x 297 mm page"),
    ("paper: a4\n", "sprue.yaml:1: the sheet template has no slots (give grid or slots)"),
    ("paper: [a4\n", 'sprue.yaml:1: invalid YAML: the "[" opened at column 8 is never closed '
                     '(the file ends without a "]")'),
    ("- 1\n- 2\n", "sprue.yaml:1: a sheet template is a mapping with paper, grid and/or slots"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, h: 10}\n", "sprue.yaml:3: missing w"),
    ("paper: {w: 300}\nslots:\n  - {x: 1, y: 1, w: 10, h: 10}\n", "sprue.yaml:1: missing h"),
    ("paper: a4\nslots:\n  - {x: -1, y: 1, w: 10, h: 10}\n", "sprue.yaml:3: x must be 0 or more, got -1"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 10, h: 10, waste: -1}\n",
     "sprue.yaml:3: waste must be 0 or more, got -1"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, w: 0, h: 10}\n", "sprue.yaml:3: w must be greater than 0, got 0"),
    ("paper: a4\nslots:\n  - {x: 1, y: 1, d: 0, shape: circle}\n", "sprue.yaml:3: d must be greater than 0, got 0"),
    ("paper: a4\ngrid:\n  nx: 2\n  x0: 1\n  y0: 1\n  w: 10\n  h: 10\n",
     "sprue.yaml:3: ny must be a whole number of 1 or more, got null"),
    ("paper: a4\nsheet: x\nslots: []\n",
     'sprue.yaml:2: sheet template: unknown key "sheet" (known: duplex, grid, marks, name, orientation, paper, slots)'),
    ("paper: a4\ngrid:\n  nx: 1\n  ny: 1\n  x0: 1\n  y0: 1\n  w: 10\n  h: 10\n  dz: 3\n",
     'sprue.yaml:9: grid: unknown key "dz" (known: d, dx, dy, h, nx, ny, shape, w, waste, x0, y0)'),
])
def test_bad_yaml_templates_name_file_and_line(tmp_path, text, message):
    write(tmp_path, "sprue.yaml", text)
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type()), SheetOptions(template="sprue.yaml", root=tmp_path))
    assert str(error.value) == message


def test_a_yaml_template_on_its_own_paper_size_or_letter_with_slots_at_the_edge(tmp_path):
    write(tmp_path, "own.yaml", "paper: {w: 300, h: 200}\nslots:\n  - {x: 0, y: 0.5, w: 63.5, h: 88.9}\n")
    sheet = load_template("own.yaml", tmp_path)
    assert (sheet.w, sheet.h) == (200.0, 300.0) and sheet.name == "own"  # portrait unless told
    assert box(sheet.slots[0]) == pytest.approx((0.0, 300 - 0.5 - 88.9, 63.5, 300 - 0.5), abs=1e-9)
    write(tmp_path, "plain.yaml", "slots:\n  - {x: 10, y: 10, w: 63.5, h: 88.9}\n")
    assert (load_template("plain.yaml", tmp_path).w, load_template("plain.yaml", tmp_path).h) == (215.9, 279.4)


def test_the_product_databases_rounding_is_tolerated(tmp_path):
    # Real gLabels entries overlap their labels or pass the sheet's edge by a few hundredths of
    # a millimetre (Avery L7165 has 46.778 mm labels at a 46.743 mm pitch; Herma 4464 three
    # 199 pt labels across a 210 mm sheet). Such labels touch (no overprint); more is an error.
    write(tmp_path, "db.xml", """\
        <Glabels-templates>
          <Template brand="A" part="T" size="A4">
            <Label-rectangle width="199" height="46.778mm" waste="1mm">
              <Layout nx="3" ny="2" x0="0" y0="10mm" dx="199" dy="46.743mm"/>
            </Label-rectangle>
          </Template>
          <Template brand="A" part="U" size="A4">
            <Label-rectangle width="20mm" height="20mm">
              <Layout nx="2" ny="1" x0="0" y0="10mm" dx="19mm" dy="0"/>
            </Label-rectangle>
          </Template>
        </Glabels-templates>
        """)
    sheet = load_template("db.xml#T", tmp_path)
    assert len(sheet.slots) == 6 and sheet.slots[0].room == pytest.approx((0, 0, 0, 0))
    with pytest.raises(CardgenError) as error:
        load_template("db.xml#U", tmp_path)
    assert str(error.value) == "db.xml:9: <Layout>: labels overlap (pitch 19.000 x 0.000 mm for 20.000 x 20.000 mm labels)"


def test_a_sets_own_template_is_named_from_the_project_folder(tmp_path):
    set_folder = tmp_path / "data" / "tokens"
    set_folder.mkdir(parents=True)
    write(set_folder, "sprue.yaml", "paper: a4\nslots:\n  - {x: 1, y: 1, w: 10, h: 10, colour: red}\n")
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type()), SheetOptions(template="sprue.yaml", root=set_folder))
    assert str(error.value).startswith('data/tokens/sprue.yaml:3: slot: unknown key "colour"')
    write(set_folder, "bad.xml", "<Glabels-templates>\n<Template part='X'/></Glabels-templates>")
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type()), SheetOptions(template="bad.xml", root=set_folder))
    assert str(error.value) == 'data/tokens/bad.xml:2: <Template>: missing attribute "brand"'


def test_faces_of_one_shape_never_take_another_shapes_slot(tmp_path):
    # the sprue's card slot would hold a token: the seventh token goes on the next sheet instead
    write(tmp_path, "sprue.yaml", SPRUE)
    tokens = card_type(30, 30, shape="circle", bleed=2.0, name="tok")
    placed = by_page(impose(pairs(7, tokens, backs=False, prefix="t"), SheetOptions(template="sprue.yaml", root=tmp_path)))
    assert [len(placed[page]) for page in sorted(placed)] == [6, 1]
    assert all(p.slot.w == 30 for p in placed[1] + placed[2])
