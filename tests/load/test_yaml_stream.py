"""YAML card files read a card at a time through libyaml (load/yamlstream.py): the same values,
lines and messages as the whole-file round-trip reader, which still reads what the fast reader
is unsure of."""
from __future__ import annotations

import math

import pytest

from cardgen import CardgenError
from cardgen.load.tables import _whole_yaml_rows, read_rows
from cardgen.load.yamlstream import Unsure, card_entries
from yamlsame import same_round_trip as _same_round_trip

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

# Files the fast reader reads itself: every kind of value a card file holds.
READ_FAST = {
    "block list": """- name: A
  text: plain text here
  count: 2
- name: "B"
  text: 'single ''quoted'''
  tags: [a, b, 3, 4.5, true, null]
  stats: {atk: 1, def: 0x1F, hp: 0o17, big: 1_000, exp: 1e3, half: .5, no: -.inf}
""",
    "cards mapping, block scalars, comments": """# comment
title: Set
cards:
  - name: A   # trailing
    text: |
      line one
        indented
      line three

  - name: B
    text: >
      folded line
      continues here

      new para
        more indented
      back
    extra: >-
      stripped
    keep: |+
      kept

  - {name: C, text: "esc \\t \\n \\u00e9 \\x41 \\\\ \\" \\/ end"}
after: {nested: [1, {deep: x}]}
""",
    "multi-line scalars and YAML 1.2 words": """---
- name: Multi
  text: this plain scalar
    continues on the next line
    and another
  quoted: "a quoted
    multi line
    string"
  yes: yes
  No: No
  on: off
  nan: .NaN
  tilde: ~
  null word: Null
  true caps: TRUE
  mixed: tRue
  binary: 0b101
  leading zero: 017
  plus: +12
  time: 1:30
  empty:
...
""",
    "keys of every style": """- name: Keys
  "quoted key": 1
  ? explicit
  : value
  'single': x
  list:
  - a
  - - nested
    - deeper
  -
    k: v
-
  name: After a blank item line
""",
    "windows line ends": "- name: A\r\n  text: |\r\n    one\r\n    two\r\n- name: B\r\n  text: x\r\n",
    "unicode": "- name: Ünïcödé 😀 — “quotes”\n  text: \"emoji \\U0001F600 ok\"\n  flavour: 'résumé'\n",
    "unicode and block scalars": "- name: Über\n  text: |\n    naïve “quote” — ok\n\n    second\n- name: Zoë\n  text: >-\n    a\n    b\n",
    "tab in a comment line": "# a\tcomment\n- name: A\n  text: x\n",
    "empty list": "[]\n",
    "empty cards": "cards: []\n",
    "empty file": "# nothing yet\n",
}

# Files the fast reader leaves to read_yaml: what it cannot promise to read the same way.
UNSURE = {
    "anchor and alias": "- name: A\n  text: &t shared\n- name: B\n  text: *t\n",
    "tag": "- name: A\n  text: !!str 5\n",
    "tab": "- name: A\n  text:\tx\n",
    "byte order mark": "\ufeff- name: A\n  text: x\n",
    "date": "- name: A\n  released: 2024-01-05\n",
    "merge key": "- &base {type: action}\n- <<: *base\n  name: A\n",
    "number as key": "- name: A\n  1: one\n",
    "spaces line in a block scalar": "- name: A\n  text: >\n    \n      folded\n",
    "spaces line in a block scalar after other text": "- name: “Ü”\n  text: >\n    a\n   \n    b\n",
    "comment glued to a block header": "- name: A\n  text: >#c\n    folded\n",
    "lone carriage return": "- name: A\r  text: x\r",
    "line separator": "- name: A\n  text: x\u2028y\n",
    "directive": "%YAML 1.1\n---\n- name: A\n  on: yes\n",
    "two documents": "- name: A\n---\n- name: B\n",
    "duplicate key": "- name: A\n  text: x\n  text: y\n",
    "not a list": "name: A\n",
    "scalar entry": "- name: A\n- just text\n",
}


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or repr(a) == repr(b)  # ruamel's TaggedScalar has no ==


def _rows_as_whole(path, root):
    return [(dict(row.values), row.source.line, {k: s.line for k, s in row.sources.items()})
            for row in _whole_yaml_rows(path, root)]


def _rows_read(path, root):
    return [(dict(row.values), row.source.line, {k: s.line for k, s in row.sources.items()})
            for row in read_rows(path, root)]


@pytest.mark.parametrize("case", sorted(READ_FAST))
def test_the_fast_reader_reads_each_card_as_the_whole_file_reader_does(tmp_path, case):
    path = tmp_path / "cards.yaml"
    path.write_bytes(READ_FAST[case].encode("utf-8"))
    fast = list(card_entries(path))  # raises Unsure if it gave up
    whole = _rows_as_whole(path, tmp_path)
    assert len(fast) == len(whole)
    for (values, line, lines), (whole_values, whole_line, whole_lines) in zip(fast, whole):
        assert _same(values, whole_values), (values, whole_values)
        assert (line, lines) == (whole_line, whole_lines)
    assert _same(_rows_read(path, tmp_path), whole)


@pytest.mark.parametrize("case", sorted(UNSURE))
def test_what_the_fast_reader_is_unsure_of_is_read_whole(tmp_path, case):
    path = tmp_path / "cards.yaml"
    path.write_bytes(UNSURE[case].encode("utf-8"))
    with pytest.raises(Unsure):
        list(card_entries(path))
    try:
        whole = _rows_as_whole(path, tmp_path)
    except CardgenError as error:
        with pytest.raises(CardgenError) as again:
            _rows_read(path, tmp_path)
        assert [str(p) for p in again.value.problems] == [str(p) for p in error.problems]
    else:
        assert _same(_rows_read(path, tmp_path), whole)


def test_the_yaml_12_words_keep_their_meaning(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(READ_FAST["multi-line scalars and YAML 1.2 words"], encoding="utf-8")
    ((values, line, lines),) = card_entries(path)
    assert (values["yes"], values["No"], values["on"], values["time"]) == ("yes", "No", "off", "1:30")
    assert (values["true caps"], values["mixed"], values["tilde"], values["null word"]) == (True, "tRue", None, None)
    assert (values["binary"], values["leading zero"], values["plus"], values["empty"]) == (5, 17, 12, None)
    assert values["text"] == "this plain scalar continues on the next line and another"
    assert (line, lines["text"], lines["empty"]) == (2, 3, 21)


def test_cards_come_one_at_a_time_and_a_broken_end_gives_the_whole_readers_message(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("- name: One\n  text: first\n- name: Two\n  text: second\n- name: Three\n  text: \"never closed\n",
                    encoding="utf-8")
    rows = read_rows(path, tmp_path)
    first = next(rows)  # read before the end of the file is reached
    assert (first.values["name"], first.source.line, first.sources["text"].line) == ("One", 1, 2)
    assert next(rows).values["name"] == "Two"
    with pytest.raises(CardgenError) as error:
        next(rows)
    assert [str(p) for p in error.value.problems] == [
        'cards.yaml:6: invalid YAML: the quote " at column 9 is never closed (the file ends inside it): '
        'add the closing "']


def test_a_file_the_fast_reader_gives_up_on_half_way_goes_on_where_it_stopped(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("- name: One\n  text: first\n- name: Two\n  text: &t shared\n- name: Three\n  text: *t\n",
                    encoding="utf-8")
    rows = _rows_read(path, tmp_path)
    assert rows == _rows_as_whole(path, tmp_path)
    assert [(values["name"], values["text"], line) for values, line, _ in rows] == [
        ("One", "first", 1), ("Two", "shared", 3), ("Three", "shared", 5)]


def test_a_broken_yaml_file_is_named_before_a_limit_its_cards_pass(project, cli, monkeypatch):
    monkeypatch.setenv("CARDGEN_MAX_COPIES_PER_SET", "5")
    cards = project / "data/demo/cards.yaml"
    cards.write_text("- {name: Many, type: action, count: 9, text: x}\n- {name: Fine, type: action, text: y}\n"
                     "- name: Broken\n  type: action\n  text: \"x\n", encoding="utf-8")
    result = cli(project, "check", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/demo/cards.yaml:5: invalid YAML: the quote " at column 9 is never closed (the file ends inside it): '
        'add the closing "', "cardgen: 1 error, 0 warnings"]
    cards.write_text("- {name: Many, type: action, count: 9, text: x}\n- {name: Fine, type: action, text: y}\n",
                     encoding="utf-8")
    result = cli(project, "check", "demo")
    assert result.stderr.splitlines() == [
        'data/demo/cards.yaml:1: card "Many": the set\'s cards come to more than 5 copies here; limit: card copies '
        'in one set or deck list, CARDGEN_MAX_COPIES_PER_SET=5 (set that environment variable higher to raise it)',
        "cardgen: 1 error, 0 warnings"]


# --- read_yaml: whole documents (set.yaml, rules, decks) built through libyaml -------------------

SET_LIKE = """name: demo   # a comment
title: "Demo: the deck"
version: '1.0'
size: {w: 63.5, h: 88.9}
bleed: 3.0
scale: 1e2
mask: 0x1F
flags: [yes, no, true, ~, 017, 0o17, -.inf]
types:
  action:
    template: demo/action.xml.j2
    text: |
      Literal
        kept
    note: >-
      folded
      text
  token:
    defaults:
      empty:
cards:
  - cards.yaml
  - {file: more.csv, type: action}
"""


def test_read_yaml_builds_what_ruamel_builds(tmp_path):
    from ruamel.yaml import YAML

    from cardgen.load.yamlstream import read_document

    _same_round_trip(read_document(SET_LIKE), YAML(typ="rt", pure=True).load(SET_LIKE))


def test_every_yaml_file_of_the_repository_reads_as_ruamel_reads_it():
    from ruamel.yaml import YAML

    from cardgen.load.yamlstream import read_document
    from projects import REPO

    files = [path for folder in ("data", "cardgen", "templates", "tests/fixtures")
             for pattern in ("*.yaml", "*.yml") for path in sorted((REPO / folder).rglob(pattern))]
    fast = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            slow = YAML(typ="rt", pure=True).load(text)
        except Exception:  # a fixture of broken YAML: read_document must not read it
            with pytest.raises(Unsure):
                read_document(text)
            continue
        try:
            built = read_document(text)
        except Unsure:
            continue
        _same_round_trip(built, slow, str(path.relative_to(REPO)))
        fast += 1
    assert fast >= len(files) // 2


# Small files (under SMALL_YAML) go to ruamel's own parser until libyaml has been imported, then
# through read_document: what read_yaml gives, and its messages, must not depend on which.
SMALL_CASES = {
    "set-like": SET_LIKE,
    "broken quote": 'name: demo\ntitle: "unclosed\n',
    "key given twice": "name: demo\nname: again\n",
    "impossible date": "name: demo\ndate: 2024-13-45\n",
    "anchor and alias": "defaults: &d {a: 1}\ntypes:\n  x: *d\n",
    "tab in a value": "name: demo\ntitle: a\tb\n",
    "control character": 'name: "a\\x01b"\n',
}


@pytest.mark.parametrize("case", sorted(SMALL_CASES))
def test_a_small_file_reads_the_same_before_and_after_libyaml_is_imported(tmp_path, monkeypatch, case):
    from cardgen.load import yamlfile

    path = tmp_path / "set.yaml"
    path.write_text(SMALL_CASES[case], encoding="utf-8")
    assert path.stat().st_size < yamlfile.SMALL_YAML
    outcomes = []
    for imported in (False, True):
        monkeypatch.setattr(yamlfile, "_libyaml_imported", lambda: imported)
        try:
            outcomes.append(yamlfile.read_yaml(path, tmp_path))
        except CardgenError as exc:
            outcomes.append(str(exc))
    ruamel, libyaml = outcomes
    if isinstance(ruamel, str):
        assert libyaml == ruamel
        assert ruamel.startswith("set.yaml:")
    else:
        _same_round_trip(libyaml, ruamel)


def test_the_characters_left_to_read_yaml_are_all_but_those_it_takes_as_libyaml_does():
    import re

    from cardgen.load import yamlscan

    yamlscan.unsure_text("")  # compiles the patterns
    taken = re.compile("[\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
    refused = yamlscan._UNSURE_CHARACTER
    assert [hex(code) for code in range(0x110000)
            if bool(refused.match(chr(code) + "\n")) == bool(taken.match(chr(code)))] == []
    assert yamlscan.unsure_text("a\rb") and not yamlscan.unsure_text("a\r\nb")
    # an ASCII text is searched for those of them it may hold: the same
    assert [hex(code) for code in range(0x80)
            if bool(yamlscan._UNSURE_ASCII.match(chr(code))) != bool(refused.match(chr(code)))] == []
    assert [text for text in ("a\x01", "a: |#b", "a: 'b\tc'", "\u2028", "\x85")
            if not (yamlscan.unsure_text(text) and yamlscan.unsure_text(text + "\xe9"))] == []
    assert [text for text in ("a: | #b", "# a\tb", "a\r\n", "a: b #c")
            if yamlscan.unsure_text(text) or yamlscan.unsure_text(text + "\xe9")] == []

