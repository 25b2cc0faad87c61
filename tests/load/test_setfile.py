"""set.yaml values of the wrong kind: one error at the value's line, never Python's spelling of
a list or a mapping printed as a title, a glyph or a colour."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.load.setfile import load_set

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def problems_after(project, old: str, new: str) -> list[str]:
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    assert old in text
    set_yaml.write_text(text.replace(old, new))
    with pytest.raises(CardgenError) as caught:
        load_set("demo", project)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("old, new, message", [
    ("title: Demo Deck", "title: [a, b]", "data/demo/set.yaml:2: title must be text, got a list"),
    ('version: "0.3"', "version: .nan", "data/demo/set.yaml:3: version must be text, got nan"),
    ('version: "0.3"', "version: {major: 1}", "data/demo/set.yaml:3: version must be text, got a mapping"),
    ("name: demo", "name: true", "data/demo/set.yaml:1: name must be text, got true or false"),
    ('glyph: "♠"', "glyph: {a: 1}", 'data/demo/set.yaml:20: icon "spade": glyph must be text, got a mapping'),
    ('glyph: "♠"', 'glyph: ""', 'data/demo/set.yaml:20: icon "spade": glyph must be a character, got nothing'),
    ('font: DejaVu Sans, color: "#000000"}', "font: [DejaVu Sans]}",
     'data/demo/set.yaml:20: icon "spade": font must be text, got a list'),
    ('color: "#c00000"', "color: [1]", 'data/demo/set.yaml:21: icon "heart": color must be text, got a list'),
    ("{template: demo/back.xml.j2}", "{template: true}",
     'data/demo/set.yaml:18: back "plain": template must be text, got true or false'),
    ("template: demo/token.xml.j2", "template: [demo/token.xml.j2]",
     'data/demo/set.yaml:12: card type "token": template must be text, got a list'),
])
def test_a_text_value_of_another_kind_names_its_line(project, old, new, message):
    assert problems_after(project, old, new) == [message]


@pytest.mark.parametrize("old, new, title, version", [
    ('version: "0.3"', "version: 1.0", "Demo Deck", "1.0"),
    ("title: Demo Deck", "title:", "demo", "0.3"),  # empty: the set's name, as when it is left out
])
def test_numbers_and_empty_values_still_read(project, old, new, title, version):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(old, new))
    card_set = load_set("demo", project)
    assert (card_set.title, card_set.version) == (title, version)


@pytest.mark.parametrize("paper, message", [
    ("{w: wide, h: 200}", 'paper: expected a length such as "12", "12mm", "0.5in" or "10pt", got "wide"'),
    ("{h: 200}", "paper: w is missing (give both w and h, in mm)"),
    ("{w: 200}", "paper: h is missing (give both w and h, in mm)"),
    ("{width: 100, h: 200}", 'paper: unknown key "width" (known: h, w)'),
    ("{w: 0, h: 200}", "paper sides must be greater than 0, got 0 x 200"),
    ("b5", 'unknown paper "b5" (choose letter, a4, a3 or give (w, h) in mm)'),
    ("[200]", "paper must be a name or (w, h) in mm, got [200]"),
])
def test_a_paper_that_cannot_be_printed_on_names_its_line(project, paper, message):
    assert problems_after(project, 'version: "0.3"', f'version: "0.3"\nsheet:\n  paper: {paper}') == [
        f"data/demo/set.yaml:5: {message}"]


def test_a_table_in_the_set_folder_that_cards_does_not_list_is_a_warning(project):
    """A designer adds a card file and forgets set.yaml: every card printed but its rows, unsaid.
    Editors' backups and Excel's lock file beside an open workbook are no card files."""
    (project / "data/demo/new.csv").write_text("name,count\nForgotten,2\n")
    (project / "data/demo/more.csv~").write_text("name\nBackup\n")
    (project / "data/demo/~$book.xlsx").write_bytes(b"lock")
    assert [str(p) for p in load_set("demo", project).warnings] == [
        "data/demo/new.csv: warning: set.yaml does not list this card file under `cards:`: its rows are not printed"]


@pytest.mark.parametrize("old, new, message", [
    ("size: poker", "size: poker\nsafe: 40",  # the set's safe margin, past half a poker card's width
     'data/demo/set.yaml:5: card type "action": a safe margin of 40 mm leaves no room inside its 63.5 x 88.9 mm card '
     "(it must be under 31.75 mm)"),
    ("    safe: 1", "    safe: 10",  # the token's own, exactly half its 20 mm
     'data/demo/set.yaml:16: card type "token": a safe margin of 10 mm leaves no room inside its 20 x 20 mm card '
     "(it must be under 10 mm)"),
])
def test_a_safe_margin_that_leaves_no_room_is_refused_at_its_line(project, old, new, message):
    """Every text box of every card was said to reach outside the safe zone, each at its own
    template line, and never the set.yaml line to change."""
    assert problems_after(project, old, new) == [message]


@pytest.mark.parametrize("old, new, message", [
    ("size: poker", "size: ~", "data/demo/set.yaml:4: card size must be a preset name or {w: ..., h: ...}, got null"),
    ("size: poker", "size: 2024-01-01",
     "data/demo/set.yaml:4: card size must be a preset name or {w: ..., h: ...}, got 2024-01-01"),
    ("size: poker", "size: [a, 2]", "data/demo/set.yaml:4: card size must be a preset name or {w: ..., h: ...}, got [a, 2]"),
    ("bleed: 1", "bleed: {k: v}", 'data/demo/set.yaml:15: bleed: expected a length, got {k: v}'),
    ("bleed: 1", "bleed: ~", 'data/demo/set.yaml:15: bleed: expected a length, got null'),
    ("bleed: 1", "bleed: true", 'data/demo/set.yaml:15: bleed: expected a length, got true'),
    ("size: poker", "size: poker\nsheet:\n  crop-marks: {a: 1}",
     "data/demo/set.yaml:6: sheet crop-marks must be true or false, got {a: 1}"),
    ("star: {image: icons/star.svg}", "star: {image: [icons/star.svg]}",
     'data/demo/set.yaml:22: icon "star": image must be text, got a list'),  # was: image "['icons/star.svg']" not found
    ("  - cards.yaml", "  - [cards.yaml]", "data/demo/set.yaml:24: each entry of `cards` is a file name, an address, or "
                                           "{file:, url:, type:, delimiter:}, got [cards.yaml]"),
    ("{file: more.csv, type: action}", "{file: {a: more.csv}, type: action}",
     "data/demo/set.yaml:25: card file: file must be text, got a mapping"),
])
def test_a_value_of_another_kind_is_shown_as_the_yaml_wrote_it(project, old, new, message):
    """Never Python's spelling (None, True, datetime.date(2024, 1, 1), {'k': 'v'}) of what the file holds."""
    assert problems_after(project, old, new) == [message]
