"""Card files a sweep over bad input found read wrongly (CSV, YAML, XLSX, ODS, UTF-16): each is
said as ``file:line: card "X": message`` at the place to edit, never as an internal error or a
silent misprint."""
from __future__ import annotations

import zipfile

import pytest

from cardgen import load_set

from demobuild import edit, problems

# --- card files ----------------------------------------------------------------------------------------

@pytest.mark.shipped_fonts
@pytest.mark.parametrize("value, message", [
    ("9" * 5000, "invalid YAML: a number of 5,000 digits, more than the 4,300 Python reads: put quotes round it "
                 "to keep it as text"),
    ("!custom 2", 'invalid YAML: a value tagged "!custom": cardgen reads text, numbers, true and false, dates, lists '
                  "and mappings: remove the tag"),
    ("!!python/object:os.system 2", 'invalid YAML: a value tagged "!!python/object:os.system": cardgen reads text, '
                                    "numbers, true and false, dates, lists and mappings: remove the tag"),
    ("!!binary aGVsbG8=", 'invalid YAML: a value tagged "!!binary": cardgen reads text, numbers, true and false, '
                          "dates, lists and mappings: remove the tag"),
    ("!thing {a: 1}", 'invalid YAML: a value tagged "!thing": cardgen reads text, numbers, true and false, dates, '
                      "lists and mappings: remove the tag"),
    ("<<", "invalid YAML: << written without quotes is YAML's merge key, not text: put quotes round it to keep it "
           "as text"),  # it was 'a value tagged "!!merge" ... remove the tag', where no tag was written
    ("=", "invalid YAML: = written without quotes is YAML's value key, not text: put quotes round it to keep it as "
          "text"),
    ("!!merge x", 'invalid YAML: a value tagged "!!merge": cardgen reads text, numbers, true and false, dates, lists '
                  "and mappings: remove the tag"),
    ("!!set {a, b}", 'invalid YAML: a value tagged "!!set": cardgen reads text, numbers, true and false, dates, lists '
                     "and mappings: remove the tag"),  # it was 'count must be a whole number, got "set(odict_keys(...))"'
    ("{a: 1}", 'card "Quick Draw": count must be a whole number, got {a: 1}'),  # it was got "{'a': 1}"
    ("true", 'card "Quick Draw": count must be a whole number, got true'),  # it was got "True"
    ("!!bool maybe", 'invalid YAML: the value maybe tagged "!!bool" is not true or false: remove the tag to keep it as '
                     "text"),  # it was an internal error (KeyError)
    ("!!int abc", 'invalid YAML: the value abc tagged "!!int" is not a whole number: remove the tag to keep it as '
                  "text"),  # it was "a value is not a date (invalid literal for int() ...)", with no line
], ids=["5000 digits", "custom tag", "python tag", "binary", "tagged mapping", "merge word", "value word", "merge tag",
        "set", "mapping", "true", "bool tag", "int tag"])
def test_a_yaml_value_cardgen_cannot_read_is_said_at_its_line(project, value, message):
    """The digits were "not a date", with no line; a tagged count was "not a whole number, got "2""."""
    edit(project / "data/demo/cards.yaml", "  count: 2\n", f"  count: {value}\n")
    assert problems(project) == [f"data/demo/cards.yaml:3: {message}"]


@pytest.mark.shipped_fonts
def test_a_str_tag_is_text_and_an_empty_value_is_an_empty_cell(project):
    """``flavor:`` left empty printed the word None on the card."""
    edit(project / "data/demo/cards.yaml", "  count: 2\n", "  count: !!str 2\n  flavor:\n")
    quick_draw = next(card for card in load_set("demo", project).cards if card.name == "Quick Draw")
    assert (quick_draw.count, quick_draw.fields["flavor"]) == (2, "")


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("old, new, message", [
    ("- name: Quick Draw\n", "- name: [a]\n", "data/demo/cards.yaml:1: the card's name must be text, got a list"),
    ("- name: Quick Draw\n", "- name: {a: 1}\n",
     "data/demo/cards.yaml:1: the card's name must be text, got a mapping"),
    ("  type: action\n", "  type: [action]\n",
     'data/demo/cards.yaml:2: card "Quick Draw": the card\'s type must be text, got a list'),
], ids=["name list", "name mapping", "type list"])
def test_a_name_or_type_that_is_not_text_is_refused(project, old, new, message):
    """Printed, the name read ['a'], as Python writes a list."""
    edit(project / "data/demo/cards.yaml", old, new)
    assert problems(project) == [message]


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("csv, message", [
    (b'name,count,text\n"X,1,hi', "data/demo/more.csv:2: a quoted cell on this row is never closed: the file ends "
                                  "inside it (the rows after it were read as its text)"),
    (b'name,count,text\nX,1,"hi\n', "data/demo/more.csv:2: a quoted cell on this row is never closed: the file "
                                    "ends inside it (the rows after it were read as its text)"),
    (b"name,count,text\nX," + b"9" * 5000 + b",hi\n",
     'data/demo/more.csv:2: card "X": count of 5,000 digits is too many copies; limit: copies of one card, '
     "CARDGEN_MAX_COPIES_PER_CARD=10000 (set that environment variable higher to raise it)"),
], ids=["quote open to the end", "quote open on the last line", "5000-digit count"])
def test_a_csv_broken_on_its_last_row_is_said_at_it(project, csv, message):
    (project / "data/demo/more.csv").write_bytes(csv)
    assert problems(project) == [message]


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("csv", [b"", b"\n\n", b'name,count,text\nX,1,"hi\n"\n', b"name,count,text\nX,1,hi"])
def test_an_empty_csv_and_a_closed_quote_are_read(project, csv):
    """An empty CSV was an internal error."""
    (project / "data/demo/more.csv").write_bytes(csv)
    names = [card.name for card in load_set("demo", project).cards]
    assert names == ["Quick Draw", "Escape Artist", "Marker"] + (["X"] if b"X" in csv else [])


def _damaged_xlsx(project, old: bytes, new: bytes) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active.append(["name", "count", "text"])
    workbook.active.append(["X", 1, "hi"])
    path = project / "data/demo/more.xlsx"
    workbook.save(path)
    with zipfile.ZipFile(path) as archive:
        parts = {item: archive.read(item) for item in archive.infolist()}
    with zipfile.ZipFile(path, "w") as archive:
        for item, data in parts.items():
            if item.filename == "xl/worksheets/sheet1.xml":
                assert old in data
                data = data.replace(old, new)
            archive.writestr(item, data)
    edit(project / "data/demo/set.yaml", "{file: more.csv, type: action}", "{file: more.xlsx, type: action}")


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("old, new, message", [
    (b'<c r="B2" t="n"><v>1</v></c>', b'<c r="B2" t="n"><v>1e300</v></c>',
     'data/demo/more.xlsx:2: card "X": count of 301 digits is too many copies; limit: copies of one card, '
     "CARDGEN_MAX_COPIES_PER_CARD=10000 (set that environment variable higher to raise it)"),
    (b'<c r="B2" t="n"><v>1</v></c>', b'<c r="B2" t="n"><v>NaN</v></c>',
     "data/demo/more.xlsx:2: cannot read the workbook: damaged cell data (a number cell holds 'NaN', which is not "
     "a number)"),
    (b'<c r="B2" t="n">', b'<c r="B2" t="n" s="999">',
     "data/demo/more.xlsx:2: cannot read the workbook: damaged cell data (a cell refers to a style or number format "
     "the workbook does not hold)"),
    (b"</sheetData>", b'</sheetData><mergeCells count="1"><mergeCell ref="x"/></mergeCells>',
     "data/demo/more.xlsx:1: cannot read the workbook: damaged cell data (a cell or merged range that cannot be "
     "read)"),
    (b"<t>X</t>", b"<t>X&#1;</t>",
     "data/demo/more.xlsx: cannot read the workbook: damaged XML inside the workbook (reference to invalid "
     "character number: line 1, column 557)"),
], ids=["1e300 copies", "cell data", "style", "merge", "xml"])
def test_a_workbook_damaged_inside_a_sheet_is_said_as_damaged(project, old, new, message):
    """Damaged data and XML were internal errors (openpyxl reads a sheet's rows as they are asked
    for); a count of 1e300 was written out whole, 301 digits."""
    _damaged_xlsx(project, old, new)
    assert problems(project) == [message]


_ODS = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
        '<table:table table:name="S"><table:table-row>{header}</table:table-row>{rows}</table:table></office:spreadsheet>'
        "</office:body></office:document-content>")


def _cell(value: str) -> str:
    return f"<table:table-cell><text:p>{value}</text:p></table:table-cell>"


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("doctype, row, reason", [
    ('<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/hostname">]>', f"<table:table-row>{_cell('&a;')}</table:table-row>",
     "a cell refers to the entity &a;, which a DOCTYPE declares: cardgen never expands one"),
    ("", f'<table:table-row table:number-rows-repeated="-5">{_cell("X")}</table:table-row>',
     "a row repeated -5 times"),
], ids=["entity", "negative repeat"])
def test_an_ods_cell_that_is_not_what_it_shows_is_refused(project, doctype, row, reason):
    """The entity became a card named "&a;"; the row repeated -5 times vanished without a word."""
    with zipfile.ZipFile(project / "data/demo/more.ods", "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", doctype + _ODS.format(header=_cell("name") + _cell("count"), rows=row))
    edit(project / "data/demo/set.yaml", "{file: more.csv, type: action}", "{file: more.ods, type: action}")
    assert problems(project) == [f"data/demo/more.ods: cannot read the spreadsheet: broken spreadsheet ({reason})"]


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("file", ["data/demo/more.csv", "data/demo/cards.yaml"])
def test_a_utf16_card_file_is_named_as_such(project, file):
    """It was "byte 0xFF at byte offset 0": a spreadsheet's "Unicode text" is UTF-16."""
    path = project / file
    path.write_bytes(path.read_text().encode("utf-16"))
    assert problems(project) == [f'{file}:1: the file is not UTF-8 text: it is UTF-16 (save it as UTF-8, from a '
                                 'spreadsheet as "CSV UTF-8")']


@pytest.mark.shipped_fonts
@pytest.mark.parametrize("file", ["data/demo/more.csv", "data/demo/cards.yaml", "data/demo/set.yaml"])
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_without_its_byte_order_mark_is_named_as_such(project, file, encoding):
    """Its bytes are UTF-8 too (text with a NUL beside each character): it was said as what that
    text broke, "row has 7 cells but the header has 6 columns", or a NUL YAML refuses."""
    path = project / file
    path.write_bytes(path.read_text().encode(encoding))
    assert problems(project) == [f'{file}:1: the file is not UTF-8 text: it is UTF-16 (save it as UTF-8, from a '
                                 'spreadsheet as "CSV UTF-8")']
