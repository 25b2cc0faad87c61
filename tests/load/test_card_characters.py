"""Characters in card files: invisible ones in a column or field name, and control characters
in a value, refused at their line and card; those that are not printable but allowed, kept."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardgen import CardgenError, load_set

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def error_lines(excinfo) -> list[str]:
    return [str(p) for p in excinfo.value.problems]


@pytest.mark.parametrize("hidden", ["\x00", "\ufeff", "\u200b"], ids=["NUL", "byte-order mark", "zero width space"])
def test_an_invisible_character_in_a_column_name_is_refused(project, hidden):
    """A NUL, a second byte-order mark or a zero width space in the header's "count" made it a
    column of another name: every card of the file printed once, without a word."""
    (project / "data/demo/more.csv").write_text(f"name,co{hidden}unt,type,text\nA,3,action,x\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f"data/demo/more.csv:1: column 2 of the header row holds the invisible character "
                                    f'U+{ord(hidden):04X}: delete it; as it is, it is not "count"']


@pytest.mark.parametrize("hidden", ["\\0", "\\ufeff", "\\u200b"], ids=["NUL", "byte-order mark", "zero width space"])
def test_an_invisible_character_in_a_yaml_field_name_is_refused(project, hidden):
    """The same in a YAML card's field name, on ruamel's path and the streaming reader's alike."""
    path = project / "data/demo/cards.yaml"
    path.write_text(path.read_text().replace("  count: 2\n", f'  "co{hidden}unt": 2\n', 1))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    code = {"\\0": 0, "\\ufeff": 0xFEFF, "\\u200b": 0x200B}[hidden]
    assert error_lines(excinfo) == [f'data/demo/cards.yaml:3: card "Quick Draw": a field\'s name holds the invisible '
                                    f'character U+{code:04X}: delete it; as it is, it is not "count"']



@pytest.mark.parametrize("header, column, written, read", [
    ("name,Count,type,text", 2, "Count", "count"), ("NAME,count,type,text", 1, "NAME", "name"),
    ("name, COUNT ,type,text", 2, "COUNT", "count")])
def test_a_column_like_one_cardgen_reads_is_refused_at_the_header(project, header, column, written, read):
    """A header's "Count" was a field of its own: every card of the file printed once, without a
    word; a "Name" made each row "the card has no name", once a row."""
    (project / "data/demo/more.csv").write_text(f"{header}\nA,3,action,x\nB,2,action,y\n")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f'data/demo/more.csv:1: column {column} of the header row is "{written}", not '
                                    f"`{read}`: it differs in case, and cardgen reads `{read}` by that exact name "
                                    f'(rename it "{read}")']


def test_a_spreadsheet_column_like_count_is_refused_too(project):
    from openpyxl import Workbook

    book = Workbook()
    for row in (["name", "Count", "type", "text"], ["A", 3, "action", "x"]):
        book.active.append(row)
    book.save(project / "data/demo/more.xlsx")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("file: more.csv", "file: more.xlsx"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/more.xlsx:1: column 2 of the header row is "Count", not `count`: it '
                                    'differs in case, and cardgen reads `count` by that exact name (rename it "count")']


def test_a_yaml_field_like_one_cardgen_reads_is_refused_at_its_line(project):
    path = project / "data/demo/cards.yaml"
    original = path.read_text()
    path.write_text(original.replace("  count: 2\n", "  Count: 2\n", 1))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/cards.yaml:3: card "Quick Draw": a field\'s name is "Count", not `count`: '
                                    'it differs in case, and cardgen reads `count` by that exact name (rename it "count")']
    path.write_text(original.replace("- name: Quick Draw", "- Name: Quick Draw", 1))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/cards.yaml:1: a field\'s name is "Name", not `name`: it differs in case, '
                                    'and cardgen reads `name` by that exact name (rename it "name")']


def test_a_field_like_count_beside_count_itself_is_a_field_of_its_own(project):
    (project / "data/demo/more.csv").write_text("name,count,Count,type,text\nA,3,three,action,x\n")
    card = next(c for c in load_set("demo", project).cards if c.name == "A")
    assert (card.count, card.fields["Count"]) == (3, "three")


def test_control_characters_are_refused(project):
    path = project / "data/demo/cards.yaml"
    path.write_text('- name: Bell\n  type: action\n  text: "ring \\a now"\n')
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/cards.yaml:3: card "Bell": text contains the control character U+0007']


def test_control_characters_are_refused_at_the_card_whichever_reader_reads_the_file(project):
    # an anchor is for ruamel's reader, which refused the character without naming the card
    path = project / "data/demo/cards.yaml"
    path.write_text('- name: &bell Bell\n  type: action\n  text: "ring \\a now"\n')
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/cards.yaml:3: card "Bell": text contains the control character U+0007']


_FORBIDDEN = [*map(chr, [*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]), "\ufffe", "\uffff"]


@pytest.mark.parametrize("char", _FORBIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_every_forbidden_character_of_a_cell_is_refused(char):
    from cardgen.errors import Source
    from cardgen.load.cards import _cards_from_row
    from cardgen.load.tables import Row

    row = Row({"name": "Bell", "type": "action", "text": f"ring {char} now"}, Source("cards.csv", 3), {})
    with pytest.raises(CardgenError) as excinfo:
        _cards_from_row(row, {"action": SimpleNamespace(defaults={})}, {}, None)
    assert error_lines(excinfo) == [f'cards.csv:3: card "Bell": text contains the control character U+{ord(char):04X}']


def test_characters_that_are_not_printable_but_allowed_are_kept():
    from cardgen.errors import Source
    from cardgen.load.cards import _cards_from_row
    from cardgen.load.tables import Row

    text = "tab\there, lines\nand \x85 \u2028 \u200b \ufeff \U000e0001 \ud7ff caf\u00e9"
    row = Row({"name": "Bell", "type": "action", "text": text}, Source("cards.csv", 3), {})
    (card,) = _cards_from_row(row, {"action": SimpleNamespace(defaults={})}, {}, None)
    assert card.fields["text"] == text
