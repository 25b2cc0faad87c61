"""A rule whose `where:` or `per:` names a field that no card of its types has is a mistake in
the rules file (a typo would match nothing, and the check would pass): an error at its line."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.validate import check_set

from .helpers import card, make_set

CARDS = [card("A", "Leader", faction="Red", item={"name": "Blue"}), card("B", "Building", cost=2)]


def mistakes(tmp_path, rules: str) -> list[str]:
    with pytest.raises(CardgenError) as caught:
        check_set(make_set(tmp_path, rules, CARDS))
    return [str(p) for p in caught.value.problems]


def test_a_where_field_no_card_of_the_type_has_is_an_error_at_its_line(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: count
            name: red leaders
            where:
              type: Leader
              fraction: Red
            max: 3
    """) == ['data/t/rules.yaml:6: rule "red leaders": no card of type Leader has a field "fraction" '
             '(did you mean "faction"?)']


def test_a_field_only_another_type_has_is_an_error_too(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: count
            name: cheap leaders
            where: {type: Leader, cost: 2}
            max: 3
    """) == ['data/t/rules.yaml:4: rule "cheap leaders": no card of type Leader has a field "cost"']


def test_a_per_field_no_card_has_is_an_error_at_its_line(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: count
            name: per faction
            per: factoin
            max: 3
    """) == ['data/t/rules.yaml:4: rule "per faction": no card has a field "factoin" (did you mean "faction"?)']


def test_fields_that_exist_and_dotted_paths_into_them_pass(tmp_path):
    card_set = make_set(tmp_path, """
        rules:
          - rule: count
            where: {type: Leader, faction: Red, item.name: Blue}
            per: faction
            max: 3
          - rule: count
            where: {cost: 2, name: B}
            equals: 1
    """, CARDS)
    assert check_set(card_set) == []
