"""A malformed rules file is a CardgenError naming the rules file and line, every mistake at once."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.validate import check_set

from .helpers import card, make_set


def mistakes(tmp_path, rules: str) -> list[str]:
    card_set = make_set(tmp_path, rules, [card("A")])
    with pytest.raises(CardgenError) as caught:
        check_set(card_set)
    return [str(p) for p in caught.value.problems]


def test_unknown_rule_kind(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: coutn
            max: 1
    """) == ['data/t/rules.yaml:2: unknown rule kind "coutn" '
             "(one of count, distinct, copies, unique, values, present, allowed-from)"]


@pytest.mark.parametrize("kind, shown", [("[count]", "[count]"), ("{count: 1}", "{count: 1}")])
def test_a_rule_kind_that_is_a_list_or_mapping(tmp_path, kind, shown):
    """Shown as the file wrote it, not as Python does ("['count']", "{'count': 1}")."""
    assert mistakes(tmp_path, f"rules:\n  - rule: {kind}\n    max: 1\n") == [
        f'data/t/rules.yaml:2: unknown rule kind {shown} (one of count, distinct, copies, unique, values, present, '
        'allowed-from)']


@pytest.mark.parametrize("bound, shown", [("{a: 1}", "{a: 1}"), ("~", "null"), ("true", "true"), ("1.5", '"1.5"')])
def test_a_bound_that_is_no_whole_number_is_shown_as_written(tmp_path, bound, shown):
    """It was got "{'a': 1}", got "unknown" for null and got "true" in quotes like text."""
    assert mistakes(tmp_path, f"rules:\n  - rule: count\n    min: {bound}\n") == [
        f'data/t/rules.yaml:3: "min" must be a whole number (0 or more), got {shown}']


def test_missing_kind(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - name: no kind
            max: 1
    """) == ['data/t/rules.yaml:2: missing "rule:" (one of count, distinct, copies, unique, values, present, allowed-from)']


def test_unknown_key_names_its_line(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: copies
            name: one each
            maximum: 1
            max: 1
    """) == ['data/t/rules.yaml:4: unknown key "maximum" for a copies rule '
             "(allowed: rule, name, severity, message, scope, where, source, option, equals, min, max, across)"]


def test_missing_bound(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: count
            name: no bound
            where: {type: Leader}
    """) == ['data/t/rules.yaml:2: count rule needs a bound: "equals", "min" or "max"']


@pytest.mark.parametrize("bounds, expected", [
    ("equals: 3\n    min: 1", 'data/t/rules.yaml:3: "equals" cannot be combined with "min" or "max"'),
    ("min: 4\n    max: 2", 'data/t/rules.yaml:3: "min" (4) is larger than "max" (2)'),
    ("max: three", 'data/t/rules.yaml:3: "max" must be a whole number (0 or more), got "three"'),
    ("max: -1", 'data/t/rules.yaml:3: "max" must be a whole number (0 or more), got "-1"'),
    ("max: 1.5", 'data/t/rules.yaml:3: "max" must be a whole number (0 or more), got "1.5"'),
])
def test_bad_bounds(tmp_path, bounds, expected):
    assert mistakes(tmp_path, "rules:\n  - rule: count\n    " + bounds + "\n") == [expected]


def test_bad_common_keys(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: copies
            severity: fatal
            scope: sideboard
            where: Leader
            message: "{card} has {copies}"
            max: 1
    """) == [
        'data/t/rules.yaml:3: "severity" must be one of error, warning, got "fatal"',
        'data/t/rules.yaml:4: "scope" must be one of set, main, bench, deck, got "sideboard"',
        'data/t/rules.yaml:5: "where" must be a mapping of field: value or [values]',
        'data/t/rules.yaml:6: "message" uses {copies}; it may use {card}, {value}, {field}, {actual}, {expected}, {other}',
    ]


def test_kind_specific_requirements(tmp_path):
    assert mistakes(tmp_path, """
        rules:
          - rule: values
            allowed: [a]
          - rule: unique
            name: nothing to compare
          - rule: present
            field: name
          - rule: allowed-from
            field: faction
            from: Building
          - rule: count
            over: colors
            max: 1
          - rule: copies
            scope: deck
            across: deck
            max: 1
          - rule: values
            field: suit
            allowed: [a]
            unknown: maybe
          - rule: allowed-from
            field: faction
            from: {where: {type: Building}, fields: faction}
          - rule: copies
            where: {type: {only: Leader}}
            max: 1
    """) == [
        'data/t/rules.yaml:2: values rule needs "field"',
        'data/t/rules.yaml:4: unique rule needs "fields" (a list)',
        'data/t/rules.yaml:6: present rule needs "values" (a list)',
        'data/t/rules.yaml:10: "from" must be a mapping such as {where: {type: Building}, field: faction}',
        'data/t/rules.yaml:12: "over" needs "per" (the field whose values it lists)',
        'data/t/rules.yaml:16: "across: deck" needs "scope: main" or "scope: bench"',
        'data/t/rules.yaml:21: "unknown" must be one of error, warning, ignore, got "maybe"',
        'data/t/rules.yaml:24: unknown key "fields" in "from" (allowed: where, field, scope)',
        'data/t/rules.yaml:26: "type": a mapping here can only be {not: value or [values]}',
    ]


def test_file_shape(tmp_path):
    assert mistakes(tmp_path, "- rule: count\n  max: 1\n") == [
        'data/t/rules.yaml:1: a rules file is a mapping with a "rules:" list']
    assert mistakes(tmp_path, "rules:\n  rule: count\nversion: 2\n") == [
        'data/t/rules.yaml:3: unknown key "version" (a rules file has "rules:" and "options:")',
        'data/t/rules.yaml:1: "rules" must be a list of rules',
    ]
    assert mistakes(tmp_path, "rules:\n  - count\n") == ['data/t/rules.yaml:2: a rule must be a mapping with a "rule:" kind']


def test_broken_yaml_names_the_line(tmp_path):
    found = mistakes(tmp_path, "rules:\n  - rule: count\n    max: [1\n  - rule: copies\n")
    assert found == ['data/t/rules.yaml:3: invalid YAML: the "[" opened at column 10 is never closed '
                     '(line 4 was reached without a "]")']


@pytest.mark.parametrize("text, line, character", [("rules:\n  - rule: count\n    name: \"a\\0b\"\n", 3, "U+0000"),
                                                  ("rules:\n  - rule: count\n    name: a\x01b\n", 3, "U+0001")])
def test_a_control_character_names_its_line(tmp_path, text, line, character):
    # escaped in quotes, the value holds it; written raw, YAML itself refuses the file
    found = mistakes(tmp_path, text)
    assert found == [f"data/t/rules.yaml:{line}: the text holds {character}, a control character" if "\\0" in text
                     else f"data/t/rules.yaml:{line}: invalid YAML: the file holds {character}, which YAML does not "
                          "allow (a control character?)"]


def test_mistakes_of_every_rules_file_at_once(tmp_path):
    card_set = make_set(tmp_path, ["rules:\n  - rule: nope\n", "rules:\n  - {rule: count}\n"], [card("A")])
    with pytest.raises(CardgenError) as caught:
        check_set(card_set)
    assert [str(p) for p in caught.value.problems] == [
        'data/t/rules.yaml:2: unknown rule kind "nope" (one of count, distinct, copies, unique, values, present, allowed-from)',
        'data/t/rules2.yaml:2: count rule needs a bound: "equals", "min" or "max"',
    ]


def test_over_must_name_a_list_of_the_set(tmp_path):
    card_set = make_set(tmp_path, """
        rules:
          - rule: count
            name: per colour
            per: item.name
            over: colours
            equals: 1
    """, [card("A")], {"colors": [{"name": "Red"}]})
    with pytest.raises(CardgenError) as caught:
        check_set(card_set)
    assert str(caught.value) == 'data/t/rules.yaml:5: rule "per colour": "over: colours" names no list in the set\'s variables'
