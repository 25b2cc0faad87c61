"""Named readings of a source in a rules file: `options:`, a rule's `option:` and `source:`."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.validate import check_set, rules_options

from .helpers import card, lines, make_set

READINGS = """
    options:
      wide:
        about: The other reading, allowing up to 3.
    rules:
      - rule: count
        name: plain cap
        option: {not: wide}
        source: "up to 2 cards"
        max: 2
      - rule: count
        name: wide cap
        option: wide
        source: ["up to 2 cards", "or more"]
        max: 3
"""


def test_the_plain_reading_runs_unless_the_option_is_on(tmp_path):
    three = make_set(tmp_path, READINGS, [card("A", count=3, line=4)])
    assert lines(check_set(three)) == [
        'data/t/cards.yaml:4: card "A": rule "plain cap": 3 cards, expected at most 2']
    assert check_set(three, ["wide"]) == []
    four = make_set(tmp_path, READINGS, [card("A", count=4, line=4)])
    assert lines(check_set(four, ["wide"])) == [
        'data/t/cards.yaml:4: card "A": rule "wide cap": 4 cards, expected at most 3']


def test_an_option_enabled_in_the_rules_file_is_on(tmp_path):
    enabled = READINGS.replace("about: The other reading, allowing up to 3.",
                               "about: The other reading, allowing up to 3.\n        enabled: true")
    card_set = make_set(tmp_path, enabled, [card("A", count=3, line=4)])
    assert check_set(card_set) == []
    assert [(o.name, o.about, o.enabled) for o in rules_options(card_set)] == [
        ("wide", "The other reading, allowing up to 3.", True)]


def test_an_unknown_option_asked_for_is_an_error(tmp_path):
    card_set = make_set(tmp_path, READINGS, [card("A")])
    with pytest.raises(CardgenError) as caught:
        check_set(card_set, ["narrow"])
    assert [str(p) for p in caught.value.problems] == [
        'unknown rules option "narrow" (the rules of t offer: wide)']


def test_an_undeclared_or_malformed_option_names_its_line(tmp_path):
    card_set = make_set(tmp_path, """
        options:
          wide: {about: "", enabled: maybe, colour: red}
        rules:
          - rule: count
            option: narrow
            max: 1
          - rule: count
            option: {only: wide}
            max: 1
    """, [card("A")])
    with pytest.raises(CardgenError) as caught:
        check_set(card_set)
    assert [str(p) for p in caught.value.problems] == [
        'data/t/rules.yaml:2: unknown key "colour" in option "wide" (allowed: about, enabled)',
        'data/t/rules.yaml:2: "about" must be a text',
        'data/t/rules.yaml:2: "enabled" must be true or false, got "maybe"',
        'data/t/rules.yaml:5: option "narrow" is not declared under "options:" (declared: wide)',
        'data/t/rules.yaml:8: "option" is an option name or {not: name}',
    ]
