"""Card rows from YAML, CSV and XLSX: values, counts, lines, and the errors that name them."""
from __future__ import annotations

import pytest

import cardgen.pipeline  # named below as cardgen.pipeline: imported here, not by whichever test ran first
from cardgen import CardgenError, load_set
from cardgen.model import copies_by_type

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def error_lines(excinfo) -> list[str]:
    return [str(p) for p in excinfo.value.problems]


def test_yaml_and_csv_rows_reach_the_set_with_counts(project):
    card_set = load_set("demo", project)
    names = [c.name for c in card_set.cards]
    assert names == ["Quick Draw", "Escape Artist", "Marker", "Attack <12> & more", "Long Winded"]
    counts = {c.name: c.count for c in card_set.cards}
    assert counts == {"Quick Draw": 2, "Escape Artist": 1, "Marker": 3, "Attack <12> & more": 1, "Long Winded": 1}
    assert card_set.copies() == 8


def test_a_small_sets_cards_are_kept_once_checked(project):
    card_set = load_set("demo", project)
    first, second = list(card_set.cards), list(card_set.cards)
    assert first == second and first[0] is second[0]


def test_a_large_sets_cards_are_read_from_their_files_each_time_and_counted_when_loaded(project, monkeypatch):
    kept = list(load_set("demo", project).cards)
    monkeypatch.setattr("cardgen.load.cards.KEPT_CARDS", 4)
    card_set = load_set("demo", project)
    first, second = list(card_set.cards), list(card_set.cards)
    assert first == second == kept and first[0] is not second[0]  # read again, never held
    assert len(card_set.cards) == 5 and card_set.cards[3].name == "Attack <12> & more"
    assert copies_by_type(card_set.cards) == {"action": 5, "token": 3} == copies_by_type(tuple(first))


def test_a_card_file_broken_after_loading_fails_the_build_with_its_line(project, tmp_path, monkeypatch):
    monkeypatch.setattr("cardgen.load.cards.KEPT_CARDS", 4)  # so that the build reads the files again
    card_set = load_set("demo", project)
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Long Winded,1,", "Long Winded,two,"))
    with pytest.raises(CardgenError) as excinfo:
        cardgen.pipeline.write_set(card_set, cardgen.pipeline.Session(project), tmp_path / "x.pdf", tmp_path / "x.json")
    assert error_lines(excinfo) == ['data/demo/more.csv:3: card "Long Winded": count must be a whole number, got "two"']
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.json").exists()


def test_every_value_remembers_its_file_and_line(project):
    card_set = load_set("demo", project)
    escape = next(c for c in card_set.cards if c.name == "Escape Artist")
    assert str(escape.source) == "data/demo/cards.yaml:5"
    assert str(escape.source_of("flavor")) == "data/demo/cards.yaml:11"
    attack = next(c for c in card_set.cards if c.name == "Attack <12> & more")
    assert str(attack.source_of("text")) == "data/demo/more.csv:2"


def test_count_must_be_a_whole_number(project):
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Long Winded,1,", "Long Winded,two,"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/more.csv:3: card "Long Winded": count must be a whole number, got "two"']


def test_all_row_errors_are_reported_at_once(project):
    (project / "data/demo/more.csv").write_text("name,count,text\n,1,x\nA,-1,y\nB,1.5,z\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        "data/demo/more.csv:2: the card has no name (column `name`)",
        'data/demo/more.csv:3: card "A": count must not be negative, got -1',  # as in YAML (it was "not a whole number")
        'data/demo/more.csv:4: card "B": count must be a whole number, got "1.5"',
    ]


def test_unknown_type_names_the_line(project):
    path = project / "data/demo/cards.yaml"
    path.write_text(path.read_text().replace("type: token", "type: tokn"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/cards.yaml:13: card "Marker": unknown card type "tokn" (the set has: action, token)']


def test_broken_yaml_names_the_line(project):
    path = project / "data/demo/cards.yaml"
    path.write_text("- name: A\n  type: action\n- name: [B\n  type: action\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    (line,) = error_lines(excinfo)
    assert line == ('data/demo/cards.yaml:3: invalid YAML: the "[" opened at column 9 is never closed '
                    '(line 4 was reached without a "]")')


def test_xlsx_rows_with_row_numbers(project):
    from openpyxl import Workbook  # here, not at collection: every xdist worker imports every test module (0.14 CPU s)

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["name", "type", "count", "text"])
    sheet.append(["Sheet Card", "action", 2, "From a spreadsheet"])
    sheet.append([None, None, None, None])
    sheet.append(["Bad Count", "action", "two", "x"])
    workbook.save(project / "data/demo/sheet.xlsx")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("  - cards.yaml\n", "  - cards.yaml\n  - sheet.xlsx\n"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/sheet.xlsx:4: card "Bad Count": count must be a whole number, got "two"']
    sheet.delete_rows(4)
    workbook.save(project / "data/demo/sheet.xlsx")
    card = next(c for c in load_set("demo", project).cards if c.name == "Sheet Card")
    assert (card.count, card.fields["text"], str(card.source)) == (2, "From a spreadsheet", "data/demo/sheet.xlsx:2")


def test_each_row_becomes_one_card_per_item(project):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "defaults:", "variables:\n  colors:\n    - {name: Red, print: '#c00000'}\n    - {name: Blue, print: '#0000c0'}\ndefaults:"))
    (project / "data/demo/cards.yaml").write_text(
        "- name: Capture Challenge\n  type: action\n  each: colors\n  text: x\n"
        "- name: '{item} Marker'\n  type: token\n  each: colors\n  label: M\n")
    cards = load_set("demo", project).cards
    assert [c.name for c in cards[:4]] == ["Capture Challenge (Red)", "Capture Challenge (Blue)", "Red Marker", "Blue Marker"]
    assert cards[1].fields["item"] == {"name": "Blue", "print": "#0000c0"}


def test_an_each_that_is_no_name_is_shown_as_the_file_wrote_it(project):
    """It was each: "['a', 1]", Python's spelling of the list."""
    (project / "data/demo/cards.yaml").write_text("- name: Capture\n  type: action\n  each: [a, 1]\n  text: x\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project).cards.check()
    assert error_lines(excinfo) == ['data/demo/cards.yaml:3: card "Capture": each: [a, 1] must name a list of '
                                    "{name: ...} items in the set's variables, or a range of numbers such as 1..10"]


def test_each_a_range_of_numbers_makes_a_card_per_number(project, cli):
    """Squib's `range`, nanDECK's 1-10: `each: 1..3` numbers a row's cards without a list in
    variables; `{item}` in the name is the number, and the layout reads item.number."""
    (project / "data/demo/cards.yaml").write_text(
        "- {name: 'Rank {item}', type: token, each: 2..4, label: R}\n"
        "- {name: Scout, type: token, each: '1..2', label: S}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    cards = load_set("demo", project).cards
    assert [c.name for c in cards] == ["Rank 2", "Rank 3", "Rank 4", "Scout (1)", "Scout (2)"]
    assert cards[2].fields["item"] == {"name": "4", "number": 4}
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace("{{ label }}", "{{ item.number * 10 if item else label }}"))
    result = cli(project, "build", "demo")
    assert result.exit_code == 0, result.output
    from pdftext import page_texts

    assert "40" in " ".join(page_texts(project / "output/demo.pdf"))
    for each, message in (("5..1", "each: \"5..1\" counts down: write the smaller number first"),
                          ("1..20000", "each: 1..20000 makes 20,000 cards; limit: copies of one card, "
                                       "CARDGEN_MAX_COPIES_PER_CARD=10000 (set that environment variable higher to raise it)"),
                          ("1..99999999999999999999", "each: 1..99999999999999999999 makes 99,999,999,999,999,999,999 "
                                                     "cards; limit: copies of one card, CARDGEN_MAX_COPIES_PER_CARD=10000 "
                                                     "(set that environment variable higher to raise it)"),
                          ("\u0661..\u0663", "each: \"\u0661..\u0663\" must name a list of {name: ...} items in the set's "
                                           "variables, or a range of numbers such as 1..10")):
        (project / "data/demo/cards.yaml").write_text(f"- {{name: Rank, type: token, each: '{each}', label: R}}\n")
        with pytest.raises(CardgenError) as excinfo:
            load_set("demo", project).cards.check()
        assert error_lines(excinfo) == [f'data/demo/cards.yaml:1: card "Rank": {message}']


def test_a_csv_file_that_is_not_utf8_is_named(project):
    (project / "data/demo/more.csv").write_bytes("name,count,text\nCaf\u00e9,1,x\n".encode("latin-1"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    (line,) = error_lines(excinfo)
    assert line == "data/demo/more.csv:2: the file is not UTF-8 text: byte 0xE9 at byte offset 19 (save it as UTF-8)"


def test_a_lone_surrogate_in_a_csv_names_its_line_and_byte(project):
    rows = b"name,count,text\nGood,1,x\n" + b"Bad,1,x\xed\xa0\x80y\n"
    (project / "data/demo/more.csv").write_bytes(rows)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        "data/demo/more.csv:3: the file is not UTF-8 text: byte 0xED at byte offset 32 (save it as UTF-8)"]


def test_a_yaml_file_that_is_not_utf8_names_its_line_and_byte(project):
    (project / "data/demo/cards.yaml").write_bytes(b"- name: Quick Draw\n  type: action\n  text: caf\xe9\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        "data/demo/cards.yaml:3: the file is not UTF-8 text: byte 0xE9 at byte offset 45 (save it as UTF-8)"]


def test_a_csv_row_the_reader_cannot_read_is_named_with_its_line(project):
    huge = "x" * 200_000  # beyond the csv module's field limit
    (project / "data/demo/more.csv").write_text(f"name,count,text\nGood,1,x\nBad,1,{huge}\n", encoding="utf-8")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    (line,) = error_lines(excinfo)
    assert line == "data/demo/more.csv:3: invalid CSV: field larger than field limit (131072)"


def test_a_csv_cell_spanning_lines_keeps_the_line_it_starts_on(project):
    (project / "data/demo/more.csv").write_text('name,count,text\n"Two\nlines",1,x\nAfter,1,y\n', encoding="utf-8")
    card_set = load_set("demo", project)
    cards = {c.name: c for c in card_set.cards}
    assert str(cards["Two\nlines"].source) == "data/demo/more.csv:2"
    assert str(cards["After"].source) == "data/demo/more.csv:4"


def _sheet_set(project, workbook) -> None:
    workbook.save(project / "data/demo/sheet.xlsx")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("  - cards.yaml\n", "  - cards.yaml\n  - sheet.xlsx\n"))


def _typed_sheet():
    import datetime

    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["name", "type", "text", "when", "cost", "share", "big", "sum"])
    sheet.append(["A", "action", "x", datetime.date(2024, 3, 4), 2.5, 0.25, 1234567.891, 0.1 + 0.2])
    sheet.append(["B", None, "y", datetime.datetime(2024, 3, 4, 13, 5), 3, 1, -1234.5, 7.0])
    sheet.append(["C", None, "z", None, None, None, None, None])
    formats = {"D2": "d/m/yyyy", "D3": "dd mmm yyyy h:mm AM/PM", "E2": "0.00", "E3": '"$"#,##0.00',
               "F2": "0%", "F3": "0.0%", "G2": "#,##0", "G3": "#,##0.00;[Red](#,##0.00)"}
    for cell, number_format in formats.items():
        sheet[cell].number_format = number_format
    sheet.merge_cells("B2:B4")  # one type for three rows
    return workbook, sheet


def test_xlsx_cells_read_as_the_spreadsheet_shows_them(project):
    workbook, _ = _typed_sheet()
    _sheet_set(project, workbook)
    cards = {c.name: c for c in load_set("demo", project).cards if c.name in "ABC"}
    shown = {name: [card.type] + [card.fields[k] for k in ("when", "cost", "share", "big", "sum")]
             for name, card in cards.items()}
    assert shown == {"A": ["action", "4/3/2024", "2.50", "25%", "1,234,568", 0.3],
                     "B": ["action", "04 Mar 2024 1:05 PM", "$3.00", "100.0%", "(1,234.50)", 7],
                     "C": ["action", "", "", "", "", ""]}


def test_xlsx_formula_saved_without_its_value_names_the_cell(project):
    workbook, sheet = _typed_sheet()
    sheet["C4"] = "=A1&B1"  # openpyxl writes formulas without their values, as some programs do
    _sheet_set(project, workbook)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        "data/demo/sheet.xlsx:Sheet!C4: the formula =A1&B1 was saved without its value (the program that wrote "
        "the file does not calculate: open the file in a spreadsheet program and save it)"]


def test_xlsx_cells_merged_across_columns_are_refused_naming_them(project):
    workbook, sheet = _typed_sheet()
    sheet.merge_cells("C3:D3")
    _sheet_set(project, workbook)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        "data/demo/sheet.xlsx:Sheet!C3:D3: cells C3:D3 are merged across columns: cardgen cannot tell which column "
        "the value belongs to (unmerge them, or repeat the value)"]


def test_xlsx_format_cardgen_cannot_show_names_the_cell(project):
    workbook, sheet = _typed_sheet()
    sheet["E2"].number_format = "# ?/?"
    _sheet_set(project, workbook)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/sheet.xlsx:Sheet!E2: the number format "# ?/?" is not one cardgen '
                                    "can show (format the column as text)"]


def test_xlsx_numbers_whose_format_shows_them_as_they_are_stay_numbers(project):
    workbook, sheet = _typed_sheet()
    sheet["E2"].number_format = "0"  # 2.5 shows as "3": text; 3 shows as "3": the number
    sheet["E3"].number_format = "0"
    _sheet_set(project, workbook)
    cards = {c.name: c.fields["cost"] for c in load_set("demo", project).cards if c.name in "AB"}
    assert cards == {"A": "3", "B": 3}


def test_a_card_file_of_one_lone_value_names_its_line(tmp_path):
    from cardgen.load.tables import read_rows

    path = tmp_path / "cards.yaml"
    path.write_text("# cards to come\n\n---\nhello\n")
    with pytest.raises(CardgenError) as caught:
        list(read_rows(path, tmp_path))
    assert str(caught.value) == "cards.yaml:4: expected a list of cards (or a mapping with a `cards` list)"


def _workbook_bytes() -> bytes:
    import io

    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active.append(["name", "type", "text"])
    workbook.active.append(["Sheet Card", "action", "x"])
    saved = io.BytesIO()
    workbook.save(saved)
    return saved.getvalue()


def _rezipped(keep) -> bytes:
    """The workbook's zip archive again, each part as ``keep(name, data)`` returns it (None: left out)."""
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_workbook_bytes())) as zin, zipfile.ZipFile(out, "w") as zout:
        for item in zin.infolist():
            data = keep(item.filename, zin.read(item.filename))
            if data is not None:
                zout.writestr(item, data)
    return out.getvalue()


@pytest.mark.parametrize("content, reason", [
    (lambda: b"", "the file is empty"),
    (lambda: b"name,type,text\nA,action,x\n",
     "not an Excel workbook (.xlsx): the file is not a zip archive (another kind of file renamed .xlsx?)"),
    (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504),
     "it is an old Excel .xls file or a password-protected workbook, not an .xlsx (save it as .xlsx without a "
     "password)"),
    (lambda: _workbook_bytes()[:2000], "the file is cut short or damaged (its zip archive is incomplete)"),
    (lambda: _rezipped(lambda name, data: None if name == "[Content_Types].xml" else data),
     "a zip archive, but not an Excel workbook (.xlsx): There is no item named '[Content_Types].xml' in the archive"),
    (lambda: _rezipped(lambda name, data: b"<worksheet><sheetData><row" if name.endswith("sheet1.xml") else data),
     "damaged XML inside the workbook (unclosed token: line 1, column 22)"),
    (lambda: _rezipped(lambda name, data: None if name.endswith("sheet1.xml") else data),
     "it holds no worksheet (a damaged file?)"),
], ids=["empty", "csv renamed", "xls or password", "cut short", "other zip", "damaged xml", "sheet part missing"])
def test_a_file_that_is_not_a_workbook_says_what_it_is(project, content, reason):
    """Such a file has no line to name: the file, and what it is instead (openpyxl says "File is
    not a zip file" of them all)."""
    (project / "data/demo/sheet.xlsx").write_bytes(content())
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("  - cards.yaml\n", "  - cards.yaml\n  - sheet.xlsx\n"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f"data/demo/sheet.xlsx: cannot read the workbook: {reason}"]


def test_xlsx_error_values_are_refused_naming_the_cell_never_printed(project):
    """A cell showing "#DIV/0!" was the card's text; a date past the spreadsheet's last became
    "#VALUE!" too, after openpyxl printed a Python warning with its own file's path."""
    import warnings

    workbook, sheet = _typed_sheet()
    sheet["C3"] = "#DIV/0!"  # openpyxl stores an error code as an error value, as a spreadsheet does
    _sheet_set(project, workbook)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    said = "(a formula that failed, or a date or number the spreadsheet cannot hold): correct it in the spreadsheet and save it"
    assert error_lines(excinfo) == [f"data/demo/sheet.xlsx:Sheet!C3: the cell shows the error #DIV/0! {said}"]
    sheet["C3"] = "y"
    sheet["D3"] = 9_999_999  # formatted as a date: 25,000 years on
    workbook.save(project / "data/demo/sheet.xlsx")
    with warnings.catch_warnings(record=True) as printed, pytest.raises(CardgenError) as excinfo:
        warnings.simplefilter("always")
        load_set("demo", project)
    assert error_lines(excinfo) == [f"data/demo/sheet.xlsx:Sheet!D3: the cell shows the error #VALUE! {said}"]
    assert printed == []


def test_empty_header_cells_after_the_last_column_are_no_columns(project):
    """A cell formatted past the table (a bold header row) is saved in the sheet, and a CSV
    export writes trailing commas: "column 9 of the header row has no name" refused the file."""
    from openpyxl.styles import Font

    workbook, sheet = _typed_sheet()
    sheet["J1"].font = Font(bold=True)
    _sheet_set(project, workbook)
    more = project / "data/demo/more.csv"
    more.write_text("".join(line.rstrip("\n") + ",,\n" for line in more.read_text().splitlines(keepends=True)))
    cards = {c.name: c.fields["text"][:9] for c in load_set("demo", project).cards if c.name in ("A", "Long Winded")}
    assert cards == {"A": "x", "Long Winded": "This text"}
    more.write_text(more.read_text().replace("& more,,", "& more,,x", 1))  # a value under no name is still refused
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ["data/demo/more.csv:2: row has 5 cells but the header has 3 columns"]
