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
