"""The XML reader of label files (cardgen/sheets/labels/xmltree.py): a file cut short is an
error at its end, not a partial product."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets.labels import load_template


@pytest.mark.parametrize("text, message", [
    ('<Glabels-templates>\n<Template brand="T" part="P" size="A4">\n', "cut.xml:3: invalid XML: no element found"),
    ("", "cut.xml:1: invalid XML: no element found"),
])
def test_a_file_cut_short_is_invalid_xml(tmp_path, text, message):
    (tmp_path / "cut.xml").write_text(text, encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        load_template("cut.xml", tmp_path)
    assert str(caught.value) == message


def test_elements_nest_and_keep_their_lines(tmp_path):
    # the second product's layout on line 9: its error names that line
    (tmp_path / "two.xml").write_text(
        '<Glabels-templates>\n'
        '  <Template brand="T" part="A" size="A4">\n'
        '    <Label-rectangle width="5mm" height="5mm"><Layout nx="1" ny="1" x0="1mm" y0="1mm"/>\n'
        '    </Label-rectangle>\n'
        '  </Template>\n'
        '  <Template brand="T" part="B" size="A4">\n'
        '    <Label-rectangle width="5mm" height="5mm">\n'
        '\n'
        '      <Layout nx="1" ny="0" x0="1mm" y0="1mm"/>\n'
        '    </Label-rectangle>\n'
        '  </Template>\n'
        '</Glabels-templates>\n', encoding="utf-8")
    assert [(s.x, s.y) for s in load_template("two.xml#A", tmp_path).slots] == [(1.0, 291.0)]
    with pytest.raises(CardgenError) as caught:
        load_template("two.xml#B", tmp_path)
    assert str(caught.value) == 'two.xml:9: <Layout> ny: expected a whole number of 1 or more, got "0"'
