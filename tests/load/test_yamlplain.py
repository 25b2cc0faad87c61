"""The plainest YAML read without ruamel (cardgen/load/yamlplain.py): for every document it takes,
the values, their types and every line and column ruamel records; every other document left to
ruamel (``Unsure``)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

TAKEN = {  # read here, as ruamel reads them
    "set.yaml": "name: demo   # a comment\ntitle: \"Demo: the deck\"\nversion: '1.0'\ncount: 3\nflags: [yes, true, ~, 17]\n"
                "types:\n  action:\n    template: demo/action.xml.j2\n    back: plain\n  token: {size: {w: 20, h: 20}}\n"
                "cards:\n  - cards.yaml\n  - {file: more.csv, type: action}\n  -\n    - nested\n    - [1, 2]\nempty:\n",
    "a list": "- a\n- b: c\n  d: [e]\n",
    "an indentless list": "top:\n- x\n-\n- k: v\n  j: \"q\"\nb: -12\n",
    "empty values": "top:\nb:   # c\n\n# x\nc: 1\nd:\n  ee:\n  # q\nf:",
    "empty values at the end": "x: 1\na:\n\n\n",
    "empty flow": "g: []\nh: {}\ni: [[], {}]\n",
    "quotes": "a: 'it''s'\nb: \"x # y\"\n'c d': \"\"\n\"e\" : ''\n",
    "words": "a: b[1], c{2}\nb: http://x.org/a\nc: trueish\nd: Nulls\ne: yes\nf: é ★\n",
    "keys with spaces before the colon": "a  : 1\nb :\nc: 2\n",
    "deeper indents": "top:\n    bb:\n         - 1\n         -   x\n    c: {p: [1, [2, {q: r}]]}\n",
    "a list of lists": "-\n  - a\n  -\n    - b\n- c\n",
    "booleans and nulls": "a: True\nb: FALSE\nc: NULL\nd: ~\ne: Null\n",
    "no line break at the end": "a: [x, y]",
    "a comment after a key before its mapping": "a:  # c\n  b: 1\nc: [x]\n",
}
LEFT_TO_RUAMEL = {  # ruamel's own types, marks this reader does not promise, or ruamel's errors
    "a float": "bleed: 3.0\n",
    "zero": "count: 0\n",
    "a leading zero": "count: 07\n",
    "a date": "date: 2024-01-02\n",
    "hex": "mask: 0x1F\n",
    "a block scalar": "text: |\n  kept\n",
    "a folded scalar": "text: >-\n  kept\n",
    "an anchor": "defaults: &d {a: 1}\ntypes:\n  x: *d\n",
    "a tag": "a: !!str 5\n",
    "an escape": 'a: "\\u2605"\n',
    "a tab": "key:\tb\n",
    "a carriage return": "a: b\r\n",
    "text over lines": "a: one\n  two\n",
    "quotes over lines": "a: \"one\n  two\"\n",
    "a key given twice": "a: 1\na: 2\n",
    "a number as a key": "1: one\n",
    "a mapping in a mapping's value": "a: b: c\n",
    "a bad indent": "top:\n  b: 1\n c: 2\n",
    "a document marker": "---\na: 1\n",
    "an empty document": "",
    "a lone text": "just words\n",
    "a flow over lines": "a: [1,\n  2]\n",
    "a comma at the end": "a: [1, 2, ]\n",
    "an empty value in a flow mapping": "a: {b: }\n",
    "a colon in flow text": "a: {b: c:d}\n",
    "a hash in plain text": "a: http://x.org/a#b\n",
    "a comment after an empty value at the end": "a:  # c",
    "a byte-order mark": "\ufeffa: 1\n",
    "a control character": "a: b\x07\n",
    "a quoted text followed by more": "a: \"b\" c\n",
    "a list in a list's entry": "- - a\n",
    "a key line in a flow list": "a: [b: c]\n",
}


def _same_as_ruamel(mine, slow, where="document") -> None:
    """The same values and types, and every mark ruamel records (line and column of each key,
    value, item and container)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(slow, (CommentedMap, CommentedSeq)):
        expected = "KeptMap" if isinstance(slow, CommentedMap) else "KeptSeq"
        assert type(mine).__name__ == expected, where
        assert (mine.lc.line, mine.lc.col) == (slow.lc.line, slow.lc.col), where
        slow_marks = None if slow.lc.data is None else {key: list(mark) for key, mark in slow.lc.data.items()}
        mine_marks = None if mine.lc.data is None else {key: list(mark) for key, mark in mine.lc.data.items()}
        assert mine_marks == slow_marks, where
        assert list(mine.lc.data or ()) == list(slow.lc.data or ()), where  # in the same order
        assert len(mine) == len(slow), where
        if isinstance(slow, CommentedMap):
            assert list(mine) == list(slow), where
            for key in slow:
                _same_as_ruamel(mine[key], slow[key], f"{where}.{key}")
        else:
            for index, item in enumerate(slow):
                _same_as_ruamel(mine[index], item, f"{where}[{index}]")
    else:
        assert type(mine) is type(slow) and mine == slow, where


def _ruamel(text: str):
    from ruamel.yaml import YAML

    return YAML(typ="rt", pure=True).load(text)


def _compare(text: str) -> bool:
    """Whether the reader took ``text``; when it did, it read it as ruamel does."""
    from cardgen.load.yamlplain import Unsure, read_plain

    try:
        mine = read_plain(text)
    except Unsure:
        return False
    _same_as_ruamel(mine, _ruamel(text))  # ruamel refusing a document taken here fails too
    return True


@pytest.mark.parametrize("case", sorted(TAKEN))
def test_a_plain_document_is_read_as_ruamel_reads_it(case):
    assert _compare(TAKEN[case])


@pytest.mark.parametrize("case", sorted(LEFT_TO_RUAMEL))
def test_anything_else_is_left_to_ruamel(case):
    from cardgen.load.yamlplain import Unsure, read_plain

    with pytest.raises(Unsure):
        read_plain(LEFT_TO_RUAMEL[case])


def test_the_shipped_small_files_are_read_as_ruamel_reads_them():
    """The shipped fonts.yaml and every shipped set.yaml: taken ones read as ruamel does."""
    taken = [path.relative_to(REPO).as_posix() for path in sorted(REPO.glob("data/*/set.yaml")) + [REPO / "fonts/fonts.yaml"]
             if _compare(path.read_text(encoding="utf-8"))]
    assert "fonts/fonts.yaml" in taken and "data/prohibition/set.yaml" in taken


def _random_document(rng: random.Random, depth: int = 0, indent: int = 0) -> str:
    """Block mappings and lists of the shapes set.yaml files take, with the values and comments
    that make ruamel's marks differ (empty values, comments, indentless lists)."""
    lines = []
    mapping = rng.random() < 0.6
    keys = set()
    for _ in range(rng.randint(1, 4)):
        pad = " " * indent
        if mapping:
            key = rng.choice(["a", "b", "key", "x y", '"q"', "'s'", "k1", "n", "t"])
            if key in keys:
                continue
            keys.add(key)
            head = f"{pad}{key}{rng.choice([':', ' :'])}"
        else:
            head = f"{pad}-"
        if rng.random() < 0.45 or depth > 2:
            value = rng.choice(["1", "0", "-3", "text", "two words", '"quoted: x"', "'it''s'", "[a, b]", "{x: 1, y: [2, 3]}",
                                "[]", "{}", "true", "Null", "", " # c", "x # c", "a,b", "b[1]", "http://x", "1.5"])
            lines.append(head + (" " + value if value else ""))
        elif not mapping and rng.random() < 0.4:
            lines += [f"{head} k: v", " " * (indent + 2) + "m: 2"]
        else:
            lines.append(head + rng.choice(["", "  # c"]))
            if rng.random() < 0.2:
                lines.append(rng.choice(["", "# c", "   # d"]))
            deeper = indent + (rng.choice([0, 1, 2, 4]) if mapping else 2)
            lines.append(_random_document(rng, depth + 1, max(deeper, indent + (0 if mapping else 1))))
    return "\n".join(lines)


def test_random_documents_are_read_as_ruamel_reads_them_or_left_to_it():
    rng = random.Random(19)
    taken = sum(_compare(_random_document(rng) + rng.choice(["", "\n", "\n\n"])) for _ in range(150))
    assert taken > 30  # a fair share taken: the comparison is not vacuous


def test_a_plain_set_yaml_is_read_without_ruamel(tmp_path, monkeypatch):
    """read_yaml takes a plain small file through this reader: ruamel's parser is not called,
    and its messages' lines are ruamel's (an unknown key's line in a set is found by line_of)."""
    from cardgen.load import yamlfile

    monkeypatch.setattr(yamlfile, "_libyaml_imported", lambda: False)  # as in a build's own process
    monkeypatch.setattr(yamlfile, "_round_trip", lambda text, name: pytest.fail("ruamel's parser called"))
    path = tmp_path / "set.yaml"
    path.write_text(TAKEN["set.yaml"], encoding="utf-8")
    data = yamlfile.read_yaml(path, tmp_path)
    assert yamlfile.line_of(data["types"]["token"], "size") == 10
    assert yamlfile.line_of(data["cards"], 2) == 15 and yamlfile.plain(data["cards"][2]) == ["nested", [1, 2]]


def test_the_first_characters_ruamel_resolves_are_the_readers_own():
    """A plain scalar is text unless ruamel has a resolver for its first character: the reader's
    list of those is ruamel's table, and "t", "f", "n" (and capitals) resolve only to true,
    false and null."""
    from ruamel.yaml import YAML

    from cardgen.load import yamlplain

    table = YAML(typ="rt", pure=True).resolver.versioned_resolver
    assert {first for first in table if first} == yamlplain._NOT_TEXT_START | yamlplain._WORD_START
    for first in yamlplain._WORD_START:
        assert {str(tag).rpartition(":")[2] for tag, _ in table[first]} <= {"bool", "null"}


def test_card_values_that_are_text_whole_numbers_or_words_need_no_ruamel():
    """libyaml's reading of card files (yamlstream.py) resolves such values as ruamel does,
    without importing it; the first other value asks ruamel."""
    from cardgen.load.yamlstream import _Scalars

    scalars = _Scalars()
    words = ["word", "two words", "12", "-3", "true", "False", "Null", "~", "yes", "nothing"]
    assert [scalars.value(text) for text in words] == ["word", "two words", 12, -3, True, False, None, None, "yes",
                                                       "nothing"]
    assert scalars.resolvers is None
    assert scalars.value("0") == 0 and scalars.value("1.5") == 1.5 and scalars.value("0x1F") == 31
    assert scalars.resolvers is not None
