"""Finding a sheet template by name or path (cardgen/sheets/labels/__init__.py): what makes a
name a path, how a built-in product is matched, how a file's product is chosen, and the
messages when none is (mutation testing found these unchecked)."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets.labels import load_template

KNOWN = ("Endisch 6500012x, Online Labels OL32, Online Labels OL5275, circle-cut; or the path of a "
         "gLabels .xml or a sheet-template .yaml file")
ONE = """\
<Glabels-templates>
  <Template brand="T" part="P" size="A4">
    <Label-rectangle width="50mm" height="30mm">
      <Layout nx="1" ny="1" x0="10mm" y0="10mm"/>
    </Label-rectangle>
  </Template>
</Glabels-templates>
"""
SLOT = "paper: a4\nslots:\n  - {x: 10, y: 10, w: 50, h: 30}\n"


def refused(name, root=None) -> str:
    with pytest.raises(CardgenError) as caught:
        load_template(name, root)
    return str(caught.value)


def products(parts) -> str:
    """A gLabels file with one small product a part name."""
    return "<Glabels-templates>\n" + "".join(
        f'<Template brand="B" part="{part}" size="A4"><Label-rectangle width="5mm" height="5mm">'
        f'<Layout nx="1" ny="1" x0="1mm" y0="1mm"/></Label-rectangle></Template>\n' for part in parts
    ) + "</Glabels-templates>\n"


def test_a_folder_separator_makes_a_name_a_path_even_without_an_extension(tmp_path):
    assert refused("sheets/own", tmp_path) == "sheets/own: file not found"
    assert refused("sheets\\own", tmp_path) == "sheets\\own: file not found"


def test_only_what_comes_before_the_first_hash_decides_whether_a_name_is_a_path(tmp_path):
    assert refused("OL32#a/b#c", tmp_path) == f'unknown sheet template "OL32#a/b#c" (built-in: {KNOWN})'


@pytest.mark.parametrize("file, text", [
    ("Sheet One.XML", ONE),  # any case of the extension, and a space in the name
    ("my sheet.yaml", SLOT),
    ("S.YML", SLOT),
    ("S.YAML", SLOT),
])
def test_a_file_name_of_any_case_is_read_by_its_extension(tmp_path, file, text):
    (tmp_path / file).write_text(text, encoding="utf-8")
    sheet = load_template(file, tmp_path)
    assert [(s.x, s.y, s.w, s.h) for s in sheet.slots] == [(10.0, 257.0, 50.0, 30.0)]


def test_a_built_in_product_is_found_by_its_name_with_any_spacing_and_case():
    sheet = load_template("  online   LABELS \t ol32 ")
    assert sheet.name == "Online Labels OL32" and len(sheet.slots) == 11 * 14


def test_a_product_is_named_by_part_or_by_brand_and_part_in_any_case(tmp_path):
    (tmp_path / "two.xml").write_text(products(["P1", "P2"]), encoding="utf-8")
    assert load_template("two.xml#p2", tmp_path).name == "B P2"
    assert load_template("two.xml#b P2", tmp_path).name == "B P2"


def test_an_absolute_path_is_shown_as_given(tmp_path):
    folder = tmp_path / "data" / "tokens"
    folder.mkdir(parents=True)
    (folder / "bad.xml").write_text("<labels/>", encoding="utf-8")
    name = str(folder / "bad.xml")
    assert refused(name, folder) == (f"{name}:1: not a gLabels template file (the root element is <labels>, "
                                     "expected <Glabels-templates>)")


def test_a_relative_path_without_a_set_folder_is_shown_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.xml").write_text("<labels/>", encoding="utf-8")
    assert refused("bad.xml") == ("bad.xml:1: not a gLabels template file (the root element is <labels>, "
                                  "expected <Glabels-templates>)")
    (tmp_path / "one.xml").write_text(ONE, encoding="utf-8")
    assert load_template("one.xml").name == "T P"


def test_a_file_without_products(tmp_path):
    (tmp_path / "empty.xml").write_text("<Glabels-templates>\n</Glabels-templates>\n", encoding="utf-8")
    assert refused("empty.xml", tmp_path) == "empty.xml: the file holds no <Template>"
    assert refused("empty.xml#X", tmp_path) == 'empty.xml: no product "X" in this file (it has: )'


@pytest.mark.parametrize("count, listed", [
    (12, "P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12"),
    (13, "P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, ..."),
])
def test_the_parts_of_a_file_are_listed_up_to_twelve(tmp_path, count, listed):
    (tmp_path / "many.xml").write_text(products([f"P{i}" for i in range(1, count + 1)]), encoding="utf-8")
    assert refused("many.xml#Z", tmp_path) == f'many.xml: no product "Z" in this file (it has: {listed})'
    assert refused("many.xml", tmp_path) == (f'many.xml: the file holds {count} products; name one as '
                                             f'"many.xml#PART" (parts: {listed})')
