"""Lists nested thousands deep in a YAML file: refused before ruamel's parser reads them (its
scanner weighs every open level at each token: 5,000 levels on one line took a minute, to end
in a RecursionError all the same)."""
from __future__ import annotations

import pytest

import ruamel.yaml

from cardgen.errors import CardgenError
from cardgen.load.yamlfile import MAX_FLOW_DEPTH, read_yaml


def _not_reached(*args, **kwargs):
    raise AssertionError("ruamel's parser was given the file")


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}"), ("[ ", " ]")])
def test_nesting_past_the_limit_is_refused_before_ruamel_reads_it(tmp_path, monkeypatch, opening, closing):
    path = tmp_path / "cards.yaml"
    path.write_text("- name: A\n  text: " + opening * 5000 + "x" + closing * 5000 + "\n")
    monkeypatch.setattr(ruamel.yaml.YAML, "load", _not_reached)
    with pytest.raises(CardgenError) as caught:
        read_yaml(path, tmp_path)
    assert str(caught.value) == "cards.yaml: invalid YAML: lists or mappings nested too deeply"


def test_many_lists_side_by_side_are_not_deep(tmp_path):
    path = tmp_path / "cards.yaml"
    cards = "".join(f"- name: Card {n}\n  tags: [[a, b], [c]]\n" for n in range(MAX_FLOW_DEPTH))
    path.write_text(cards)
    assert len(read_yaml(path, tmp_path)) == MAX_FLOW_DEPTH


def test_a_small_file_nested_hundreds_deep_is_refused_in_words(tmp_path, monkeypatch):
    # a set.yaml under 4 KB, read before libyaml is imported, goes through yamlplain.py first,
    # whose reader recursed a level at a time: "internal error: RecursionError"
    from cardgen.load import yamlfile

    monkeypatch.setattr(yamlfile, "_libyaml_imported", lambda: False)
    path = tmp_path / "set.yaml"
    path.write_text("name: x\nvariables:\n  deep: " + "[" * 500 + "]" * 500 + "\n")
    with pytest.raises(CardgenError) as caught:
        read_yaml(path, tmp_path)
    assert str(caught.value) == "set.yaml: invalid YAML: lists or mappings nested too deeply"


def test_brackets_in_quotes_comments_and_block_text_are_no_nesting(tmp_path):
    # the anchor sends the file to ruamel's reader (libyaml's streaming reader took it, and
    # ruamel's was refused it by a count of brackets that did not see the quotes)
    path = tmp_path / "cards.yaml"
    path.write_text(f'- name: &a A\n  text: "{"[" * 1200}"\n  note: x # {"{" * 1200}\n'
                    f"  more: |\n    {'[' * 1200}\n")
    data = read_yaml(path, tmp_path)
    assert (data[0]["text"], data[0]["note"], data[0]["more"]) == ("[" * 1200, "x", "[" * 1200 + "\n")


def test_what_is_read_does_not_depend_on_the_callers_stack(tmp_path):
    # Python's recursion limit counts the caller's frames: a card nested about 240 deep passed
    # `cardgen check` and was refused in the build's worker, whose stack is deeper
    path = tmp_path / "cards.yaml"
    path.write_text("- name: A\n  deep:\n" + "".join("    " + "  " * i + "in:\n" for i in range(150))
                    + "    " + "  " * 150 + "x\n")

    def from_deeper(frames: int):
        return read_yaml(path, tmp_path) if frames == 0 else from_deeper(frames - 1)

    value = read_yaml(path, tmp_path)[0]["deep"]
    for _ in range(150):
        value = value["in"]
    assert value == "x"
    assert from_deeper(400) == read_yaml(path, tmp_path)
