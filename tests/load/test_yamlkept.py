"""Small YAML files (set.yaml, fonts.yaml) as ruamel read them at the last build, kept in the
project's cache (cardgen/load/yamlkept.py): the same values and line records as ruamel's own
reading, and the same messages."""
from __future__ import annotations

import pytest

from yamlsame import same_round_trip as _same_round_trip


KEPT_CASES = {
    "plain": "name: demo   # a comment\ntitle: \"Demo: the deck\"\nversion: '1.0'\ncount: 3\nflags: [yes, true, ~, 17]\n"
             "types:\n  action:\n    template: demo/action.xml.j2\n    back: plain\n  token: {size: {w: 20, h: 20}}\n"
             "cards:\n  - cards.yaml\n  - {file: more.csv, type: action}\n  -\n    - nested\n    - [1, 2]\nempty:\n",
    "keys that are numbers": "1: one\n2:\n  - two\nfalse: no\n~: none\n",
    "an empty document": "",
    "a list": "- a\n- b: c\n  d: [e]\n",
}
NOT_KEPT_CASES = {  # read again by ruamel each time: what it builds is more than plain values
    "floats": "bleed: 3.0\n",
    "block scalar": "text: |\n  kept\n",
    "anchor and alias": "defaults: &d {a: 1}\ntypes:\n  x: *d\n",
    "hex": "mask: 0x1F\n",
    "a date": "date: 2024-01-02\n",
}


def _same_as_ruamel(kept, slow, where="document") -> None:
    """The same values with the same line records, as line_of reads them."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from cardgen.load.yamlfile import line_of

    assert line_of(kept) == line_of(slow), where
    if isinstance(slow, CommentedMap):
        assert type(kept).__name__ == "KeptMap" and list(kept) == list(slow), where
        for key in slow:
            assert line_of(kept, key) == line_of(slow, key) and kept.lc.key(key) == slow.lc.key(key), f"{where}.{key}"
            _same_as_ruamel(kept[key], slow[key], f"{where}.{key}")
        assert line_of(kept, "no such key") == line_of(slow, "no such key"), where
    elif isinstance(slow, CommentedSeq):
        assert type(kept).__name__ == "KeptSeq" and len(kept) == len(slow), where
        for index, item in enumerate(slow):
            assert line_of(kept, index) == line_of(slow, index), f"{where}[{index}]"
            _same_as_ruamel(kept[index], item, f"{where}[{index}]")
        assert line_of(kept, len(slow)) == line_of(slow, len(slow)), where
    else:
        assert type(kept) is type(slow) and kept == slow, where


@pytest.mark.parametrize("case", sorted(KEPT_CASES) + sorted(NOT_KEPT_CASES))
def test_a_small_file_kept_from_the_last_build_reads_as_ruamel_reads_it(tmp_path, monkeypatch, case):
    from ruamel.yaml import YAML

    from cardgen.load import yamlfile, yamlkept

    monkeypatch.setattr(yamlfile, "_libyaml_imported", lambda: False)  # as in a build's own process

    text = {**KEPT_CASES, **NOT_KEPT_CASES}[case]
    path = tmp_path / "set.yaml"
    path.write_text(text, encoding="utf-8")
    slow = YAML(typ="rt", pure=True).load(text)
    try:
        yamlkept.keep_in(tmp_path / "cache")
        first = yamlfile.read_yaml(path, tmp_path)
        again = yamlfile.read_yaml(path, tmp_path)
        assert yamlkept.recall(path, text + "\n") is None  # another text: parsed again
    finally:
        yamlkept.keep_in(None)
    if type(first).__name__ in ("KeptMap", "KeptSeq"):  # the plainest YAML, read without ruamel (yamlplain.py)
        _same_as_ruamel(first, slow)
    else:
        _same_round_trip(first, slow)
    if case in KEPT_CASES and slow is not None:
        _same_as_ruamel(again, slow)
    else:
        _same_round_trip(again, slow)


def test_a_set_files_messages_are_the_same_when_it_is_read_from_the_last_builds_parse(project, cli, monkeypatch):
    """An error found in set.yaml after it parsed (an unknown key deep in it) names the same
    line when the next build reads the kept parse."""
    from cardgen.load import yamlfile

    monkeypatch.setattr(yamlfile, "_libyaml_imported", lambda: False)  # as in a build's own process
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("    back: plain\n", "    back: plain\n    colour: red\n", 1),
                        encoding="utf-8")
    first = cli(project, "build", "demo")
    assert first.exit_code == 1 and "set.yaml:" in first.stderr
    # kept for the next build: set.yaml, the project's fonts.yaml and cardgen's own
    assert len(list((project / ".cardgen-cache").glob("yaml-*.marshal"))) == 3
    again = cli(project, "build", "demo")
    assert (again.exit_code, again.stderr) == (first.exit_code, first.stderr)
