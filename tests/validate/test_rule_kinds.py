"""Each rule kind of the rules vocabulary, on small sets built in memory (check_set)."""
from __future__ import annotations

from cardgen.validate import check_set

from .helpers import card, lines, make_set

COLORS = {"colors": [{"name": "Red", "print": "#c00000"}, {"name": "Blue", "print": "#0000c0"}]}


def capture(color: str, line: int, count: int = 1):
    return card(f"Capture ({color})", "capture", count, line, item={"name": color})


# --- count -----------------------------------------------------------------------------------

def test_count_equals_passes_and_fails_with_excess_at_the_crossing_row(tmp_path):
    rules = """
        rules:
          - rule: count
            name: two Amnesties
            where: {name: General Amnesty}
            equals: 2
    """
    ok = make_set(tmp_path, rules, [card("General Amnesty", count=2, line=1), card("Jailbreak", line=5)])
    assert check_set(ok) == []
    extra = make_set(tmp_path, rules, [card("General Amnesty", count=2, line=1), card("General Amnesty", line=9)])
    assert lines(check_set(extra)) == [
        'data/t/cards.yaml:9: card "General Amnesty": rule "two Amnesties": '
        "3 cards where name is General Amnesty, expected exactly 2"
    ]


def test_count_shortfall_points_at_the_rule_line(tmp_path):
    rules = """
        rules:
          - rule: count
            name: two Amnesties
            where: {name: General Amnesty}
            equals: 2
    """
    short = make_set(tmp_path, rules, [card("General Amnesty", line=1)])
    assert lines(check_set(short)) == [
        'data/t/rules.yaml:2: rule "two Amnesties": 1 card where name is General Amnesty, expected exactly 2'
    ]


def test_count_zero_copies_do_not_count_and_min_max_bounds(tmp_path):
    rules = """
        rules:
          - rule: count
            name: between two and three
            min: 2
            max: 3
    """
    assert lines(check_set(make_set(tmp_path, rules, [card("A", count=0), card("B", line=4)]))) == [
        'data/t/rules.yaml:2: rule "between two and three": 1 card, expected between 2 and 3'
    ]
    four = [card("A", count=2, line=1), card("B", count=2, line=4)]
    assert lines(check_set(make_set(tmp_path, rules, four))) == [
        'data/t/cards.yaml:4: card "B": rule "between two and three": 4 cards, expected between 2 and 3'
    ]


def test_count_per_field_over_a_variables_list_counts_missing_items_as_zero(tmp_path):
    rules = """
        rules:
          - rule: count
            name: one capture per colour
            where: {type: capture}
            per: item.name
            over: colors
            equals: 1
    """
    ok = make_set(tmp_path, rules, [capture("Red", 1), capture("Blue", 5)], COLORS)
    assert check_set(ok) == []
    wrong = make_set(tmp_path, rules, [capture("Red", 1), capture("Red", 5), capture("Green", 9)], COLORS)
    assert lines(check_set(wrong)) == [
        'data/t/cards.yaml:5: card "Capture (Red)": rule "one capture per colour": '
        "2 cards where type is capture and item.name is Red, expected exactly 1",
        'data/t/rules.yaml:2: rule "one capture per colour": '
        "0 cards where type is capture and item.name is Blue, expected exactly 1",
    ]


def test_count_per_field_without_over_checks_each_value_present(tmp_path):
    rules = """
        rules:
          - rule: count
            name: five of each skill
            per: skill
            equals: 2
    """
    cards = [card("E1", skill="E", line=1), card("E2", skill="E", line=5),
             card("L1", skill="L", line=9), card("X", skill="unknown", line=13)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/rules.yaml:2: rule "five of each skill": 1 card where skill is L, expected exactly 2'
    ]


# --- distinct --------------------------------------------------------------------------------

def test_distinct_counts_different_names(tmp_path):
    rules = """
        rules:
          - rule: distinct
            name: three leaders
            where: {type: Leader}
            min: 3
    """
    cards = [card("A", "Leader", 2, 1), card("B", "Leader", 1, 5), card("C", "Personnel", 1, 9)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/rules.yaml:2: rule "three leaders": 2 different names among cards where type is Leader, '
        "expected at least 3"
    ]
    cards.append(card("D", "Leader", 1, 13))
    assert check_set(make_set(tmp_path, rules, cards)) == []


def test_distinct_of_a_field_with_max_points_at_the_first_value_too_many(tmp_path):
    rules = """
        rules:
          - rule: distinct
            name: two suits at most
            field: suit
            max: 2
    """
    cards = [card("A", suit="spades", line=1), card("B", suit="spades", line=5),
             card("C", suit="hearts", line=9), card("D", suit="clubs", line=13), card("E", suit="unknown", line=17)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/cards.yaml:13: card "D": rule "two suits at most": 3 different values of suit among cards, '
        "expected at most 2"
    ]


# --- copies ----------------------------------------------------------------------------------

def test_copies_limits_each_card_by_name(tmp_path):
    rules = """
        rules:
          - rule: copies
            name: one of each Leader
            where: {type: [Leader, Building]}
            max: 1
    """
    cards = [card("Boss", "Leader", 2, 1), card("HQ", "Building", 1, 5), card("HQ", "Building", 1, 9),
             card("Grunt", "Personnel", 5, 13)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/cards.yaml:1: card "Boss": rule "one of each Leader": 2 copies, expected at most 1',
        'data/t/cards.yaml:5: card "HQ": rule "one of each Leader": 2 copies, expected at most 1',
    ]


def test_where_not_selects_every_other_card(tmp_path):
    rules = """
        rules:
          - rule: copies
            name: three of the others
            where: {type: {not: [Leader, Building]}}
            max: 3
    """
    cards = [card("Boss", "Leader", 4, 1), card("Grunt", "Personnel", 4, 5), card("Gun", "Tech", 3, 9)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/cards.yaml:5: card "Grunt": rule "three of the others": 4 copies, expected at most 3'
    ]


# --- unique ----------------------------------------------------------------------------------

def test_unique_reports_the_second_card_and_copies_of_one_row(tmp_path):
    rules = """
        rules:
          - rule: unique
            name: one card per suit and rank
            fields: [suit, rank]
    """
    cards = [card("Spook!", suit="spades", rank="K", line=1), card("Curse", suit="diamonds", rank=8, line=7),
             card("Twin", suit="spades", rank="K", line=13), card("Pair", count=2, suit="clubs", rank=5, line=19),
             card("Blank", suit="unknown", rank="unknown", line=25),
             card("Blank 2", suit="unknown", rank="unknown", line=31)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/cards.yaml:13: card "Twin": rule "one card per suit and rank": '
        'suit, rank (spades, K) already on card "Spook!" (data/t/cards.yaml:1)',
        'data/t/cards.yaml:19: card "Pair": rule "one card per suit and rank": 2 copies share suit, rank (clubs, 5)',
    ]


# --- values ----------------------------------------------------------------------------------

VALUES = """
    rules:
      - rule: values
        name: four suits
        field: suit
        allowed: [spades, hearts, diamonds, clubs]
"""


def test_values_points_at_the_field_line(tmp_path):
    cards = [card("A", suit="spades", line=1), card("B", suit="cups", line=5)]
    # card() puts name, type, count, suit on lines 5, 6, 7, 8
    assert lines(check_set(make_set(tmp_path, VALUES, cards))) == [
        'data/t/cards.yaml:8: card "B": rule "four suits": suit "cups" is not one of spades, hearts, diamonds, clubs'
    ]


def test_values_unknown_is_an_error_by_default_and_a_missing_field_is_unknown(tmp_path):
    cards = [card("A", suit="unknown", line=1), card("B", suit="", line=5), card("C", line=9)]
    assert lines(check_set(make_set(tmp_path, VALUES, cards))) == [
        'data/t/cards.yaml:4: card "A": rule "four suits": suit is unknown',
        'data/t/cards.yaml:8: card "B": rule "four suits": suit is unknown',
        'data/t/cards.yaml:9: card "C": rule "four suits": suit is unknown',
    ]


def test_values_unknown_warning_and_ignore(tmp_path):
    warning = VALUES + "        unknown: warning\n"
    problems = check_set(make_set(tmp_path, warning, [card("A", suit="unknown", line=1)]))
    assert lines(problems) == ['data/t/cards.yaml:4: warning: card "A": rule "four suits": suit is unknown']
    assert [p.is_error for p in problems] == [False]
    ignore = VALUES + "        unknown: ignore\n"
    assert check_set(make_set(tmp_path, ignore, [card("A", suit="unknown", line=1)])) == []


def test_values_on_a_dotted_field_points_at_its_column(tmp_path):
    rules = """
        rules:
          - rule: values
            name: known colours
            field: item.name
            allowed: [Red, Blue]
    """
    assert lines(check_set(make_set(tmp_path, rules, [capture("Red", 1), capture("Mauve", 5)]))) == [
        'data/t/cards.yaml:8: card "Capture (Mauve)": rule "known colours": item.name "Mauve" is not one of Red, Blue'
    ]


# --- present ---------------------------------------------------------------------------------

def test_present_reports_each_missing_value_at_the_rule(tmp_path):
    rules = """
        rules:
          - rule: present
            name: every aid card
            field: name
            values: [Bad Moon Rising, Warn, Curse]
    """
    cards = [card("Warn", line=1), card("Curse", count=0, line=5)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/rules.yaml:2: rule "every aid card": no card has name "Bad Moon Rising"',
        'data/t/rules.yaml:2: rule "every aid card": no card has name "Curse"',
    ]


# --- allowed-from ----------------------------------------------------------------------------

FACTIONS = """
    rules:
      - rule: allowed-from
        name: factions of the buildings
        field: faction
        from: {where: {type: Building}, field: faction}
        plus: [General, Mercenaries]
        unknown: warning
"""


def test_allowed_from_takes_values_of_other_cards_plus_a_list(tmp_path):
    cards = [card("HQ", "Building", faction="Blue Claws", line=1), card("Boss", "Leader", faction="Blue Claws", line=6),
             card("Hired Gun", "Personnel", faction="Mercenaries", line=11),
             card("Stranger", "Personnel", faction="Red Hand", line=16),
             card("Ledger", "Tech", faction="unknown", line=21)]
    problems = check_set(make_set(tmp_path, FACTIONS, cards))
    assert lines(problems) == [
        'data/t/cards.yaml:19: card "Stranger": rule "factions of the buildings": faction "Red Hand" is not '
        "the faction of a card where type is Building, nor one of General, Mercenaries",
        'data/t/cards.yaml:24: warning: card "Ledger": rule "factions of the buildings": faction is unknown',
    ]


# --- common keys -----------------------------------------------------------------------------

def test_severity_warning_and_message_override(tmp_path):
    rules = """
        rules:
          - rule: copies
            name: singleton
            severity: warning
            message: "{card} has {actual} copies ({expected} wanted)"
            max: 1
    """
    problems = check_set(make_set(tmp_path, rules, [card("A", count=3, line=4)]))
    assert lines(problems) == ['data/t/cards.yaml:4: warning: card "A": rule "singleton": A has 3 copies (at most 1 wanted)']


def test_rule_without_name_is_named_by_kind_and_line(tmp_path):
    rules = """
        rules:
          - rule: copies
            max: 1
    """
    assert lines(check_set(make_set(tmp_path, rules, [card("A", count=2, line=4)]))) == [
        'data/t/cards.yaml:4: card "A": rule "copies at data/t/rules.yaml:2": 2 copies, expected at most 1'
    ]


def test_deck_scoped_rules_do_not_run_on_the_set(tmp_path):
    rules = """
        rules:
          - rule: count
            name: deck size
            scope: main
            equals: 43
          - rule: count
            name: set size
            scope: set
            equals: 2
          - rule: count
            name: unscoped
            max: 0
    """
    assert lines(check_set(make_set(tmp_path, rules, [card("A", line=1)]))) == [
        'data/t/rules.yaml:6: rule "set size": 1 card, expected exactly 2',
        'data/t/cards.yaml:1: card "A": rule "unscoped": 1 card, expected at most 0',
    ]


def test_every_rules_file_runs_in_order_all_problems_at_once(tmp_path):
    first = """
        rules:
          - {rule: copies, name: first, max: 1}
    """
    second = """
        rules:
          - {rule: values, name: second, field: suit, allowed: [spades]}
    """
    cards = [card("A", count=2, suit="hearts", line=1), card("B", suit="clubs", line=7)]
    assert lines(check_set(make_set(tmp_path, [first, second], cards))) == [
        'data/t/cards.yaml:1: card "A": rule "first": 2 copies, expected at most 1',
        'data/t/cards.yaml:4: card "A": rule "second": suit "hearts" is not one of spades',
        'data/t/cards.yaml:10: card "B": rule "second": suit "clubs" is not one of spades',
    ]


def test_numbers_in_data_and_rules_compare_as_text(tmp_path):
    rules = """
        rules:
          - {rule: count, name: one ten, where: {defense: 10}, max: 1}
          - {rule: values, name: ranks, field: rank, allowed: [A, 2, 3]}
    """
    # YAML 10 and CSV "10" are the same value; a whole float (3.0 from a spreadsheet) reads as 3.
    cards = [card("A", defense=10, rank="2", line=1), card("B", defense="10", rank=3.0, line=7)]
    assert lines(check_set(make_set(tmp_path, rules, cards))) == [
        'data/t/cards.yaml:7: card "B": rule "one ten": 2 cards where defense is 10, expected at most 1'
    ]
