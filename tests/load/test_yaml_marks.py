"""Where a YAML card file's cards may be read from (cardgen/load/yamlmarks.py): the check marks
the byte offset of a card's list item, and a worker's cursor has libyaml read the file from there,
giving the cards, their lines and their fields' lines that a reading from the start gives."""
from __future__ import annotations

import json

import pytest

from cardgen.load import cards as cards_module
from cardgen.load.cards import MARK, CardFiles
from cardgen.load.setfile import load_set
from cardgen.load.yamlstream import card_entries
from projects import make_project
from workerbuilds import assert_each_worker_makes_only_its_chunks

COLORS = {"colors": [{"name": "Red"}, {"name": "Green"}, {"name": "Blue"}]}


def _odd_list(rows: int, apart: bool = True) -> str:
    """A list of cards at the file's top, indented, in every form a card takes: comments and blank
    lines between cards, text not ASCII, block scalars, quoted text over lines, a flow mapping, a
    row that makes a card per item (``each``), a nested list; with ``apart``, some items' mapping
    on the line after their "-" (no place to read them from)."""
    lines = ["# the cards\n", "---\n"]
    for number in range(rows):
        if number % 9 == 0:
            lines.append("\n  # a comment between cards, a blank line before it\n")
        name = f"Odd {number}" + {1: " é€😀", 3: " ü"}.get(number % 4, "")
        if number % 10 == 6:
            lines.append(f'  - {{name: "{name}", text: "flow {number}"}}\n')
            continue
        lines.append("  -\n    name: " if apart and number % 10 == 5 else "  - name: ")
        lines.append(json.dumps(name, ensure_ascii=number % 4 == 3) + "\n")
        lines.append(("    text: |\n      a block, line one ü\n      line two\n", "    text: >-\n      folded\n      text\n",
                      '    text: "quoted\n      over two lines"\n', f"    text: plain {number}\n")[number % 4])
        if number % 7 == 3:
            lines.append("    each: colors\n")
        if number % 6 == 2:
            lines.append("    tags:\n      - one\n      - {two: 2}\n")
    return "".join(lines)


def _card_files(root, text: str, line_end: str = "\n") -> CardFiles:
    card_set = load_set("demo", root)
    path = root / "data/demo/odd.yaml"
    path.write_bytes(text.replace("\n", line_end).encode("utf-8"))
    cards = CardFiles([(path, "action")], root, card_set.types, COLORS)
    cards.check()
    return cards


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_a_worker_takes_its_chunks_of_a_yaml_list_as_a_reading_from_the_start_gives_them(tmp_path, monkeypatch,
                                                                                        line_end):
    """Each marked card of a list has the byte offset of its item's line, but one whose mapping
    begins on the line after its "-"; from there, a cursor takes the cards (fields, lines of the
    card and of each field) that a reading from the start gives, whatever the chunks."""
    root = make_project(tmp_path, fonts=False)
    monkeypatch.setattr(cards_module, "KEPT_CARDS", 0)  # read from the files each time
    monkeypatch.setattr(cards_module, "MARK_EVERY", 1)
    cards = _card_files(root, _odd_list(30), line_end)
    every = list(cards)
    assert len(every) == 30 + 2 * 4 and len(cards.marks) == MARK * len(every)
    data = (root / "data/demo/odd.yaml").read_bytes()
    marks = [cards.marks[at:at + MARK] for at in range(0, len(cards.marks), MARK)]
    assert [card.source.line for card in every] == [line for _, line, _, _ in marks]
    assert [card.name.split()[1] for card, (_, _, _, offset) in zip(every, marks) if offset < 0] == ["5", "15", "25"]
    for card, (_, line, in_row, offset) in zip(every, marks):
        if offset >= 0:
            assert data[:offset].count(b"\n") == line - 1 and data[offset - 1:offset] == b"\n"
            assert data[offset:offset + 4] == b"  - "
        assert every[every.index(card) - in_row].source == card.source  # the row's first card
    assert every[3].source_of("text").line == every[3].source.line + 1 and every[3].fields["item"] == {"name": "Red"}
    monkeypatch.setattr(cards_module, "MARK_EVERY", 2)
    cards.check()
    for chunk in (1, 2, 3, 5):
        for jobs in (1, 2, 3):
            for index in range(jobs):
                cursor = cards.cursor()
                for number in range(index, len(every) // chunk + 2, jobs):
                    assert cursor.take(number * chunk, chunk) == every[number * chunk:(number + 1) * chunk]


def test_a_worker_makes_no_card_of_the_other_workers_yaml_items(tmp_path, monkeypatch):
    """Of a YAML list, as of a CSV file, a worker makes cards of its own chunks' items alone."""
    root = make_project(tmp_path, fonts=False)
    monkeypatch.setattr(cards_module, "KEPT_CARDS", 0)
    monkeypatch.setattr(cards_module, "MARK_EVERY", 4)
    cards = _card_files(root, _odd_list(40, apart=False))
    every = list(cards)
    assert min(cards.marks[3::MARK]) > 0
    assert_each_worker_makes_only_its_chunks(cards, every, monkeypatch)


@pytest.mark.parametrize("text, read_from_lines", [
    ("- name: A\n- name: B\n", True),
    ("# cards\n\n  - name: A\n\n  - name: B\n...\n# the end\n", True),
    ("[{name: A},\n {name: B}]\n", False),  # a list in flow style: its lines hold other items
    ("cards:\n  - name: A\n  - name: B\n", False),  # a list inside a mapping: more than it after it
    ("- name: A\n  text: &a x\n- name: B\n  text: *a\n", False),  # an alias: read_yaml's
    ("- name: A\n- name: B\n---\n- name: C\n", False),  # a second document: refused
])
def test_only_a_list_at_the_top_read_whole_by_libyaml_is_read_from_its_lines(tmp_path, text, read_from_lines):
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    told: dict = {}
    try:
        for _ in card_entries(path, told):
            pass
    except Exception:
        pass
    assert told.get("list", False) is read_from_lines



def test_a_yaml_file_changed_since_it_was_read_is_looked_through_again(tmp_path, monkeypatch):
    """What the first reading found of what only read_yaml may read holds for the file as it
    was: changed, it is looked through again (here: a block scalar's header ruamel refuses)."""
    from cardgen.errors import CardgenError

    root = make_project(tmp_path, fonts=False)
    monkeypatch.setattr(cards_module, "KEPT_CARDS", 0)
    cards = _card_files(root, "- name: A\n  text: |\n    x\n")
    assert [card.fields["text"] for card in cards] == ["x\n"]
    (root / "data/demo/odd.yaml").write_text("- name: A\n  text: |#c\n    x\n", encoding="utf-8")
    with pytest.raises(CardgenError) as raised:
        list(cards)
    assert str(raised.value) == ("data/demo/odd.yaml:2: invalid YAML: expected chomping or indentation indicators, "
                                 "but found '#' (while scanning a block scalar on line 2)")
