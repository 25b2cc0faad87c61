"""Deck lists: reading them, their mistakes, scopes main / bench / deck, and deck_cards."""
from __future__ import annotations

import textwrap

import pytest

from cardgen.errors import CardgenError
from cardgen.validate import Deck, check_deck, deck_cards, load_deck

from .helpers import card, lines, make_set

POOL = [card("Boss", "Leader", faction="Red", line=1), card("Grunt", "Personnel", 3, faction="Red", line=6),
        card("HQ", "Building", faction="Red", line=11), card("Spy", "Personnel", faction="Blue", line=16)]

RULES = """
    rules:
      - {rule: count, name: deck size, equals: 4}
      - {rule: copies, name: one Leader, where: {type: Leader}, max: 1}
      - {rule: count, name: bench size, scope: bench, max: 2}
      - {rule: copies, name: three across, scope: bench, across: deck, max: 3}
      - {rule: count, name: one Building in all, scope: deck, where: {type: Building}, equals: 1}
      - {rule: allowed-from, name: factions, field: faction, from: {where: {type: Building}, field: faction}}
"""


def write_deck(tmp_path, text: str, name: str = "deck.yaml"):
    path = tmp_path / "decks" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def deck_problems(tmp_path, text: str) -> list[str]:
    card_set = make_set(tmp_path, RULES, POOL)
    return lines(check_deck(card_set, load_deck(card_set, write_deck(tmp_path, text))))


def load_mistakes(tmp_path, text: str) -> list[str]:
    card_set = make_set(tmp_path, RULES, POOL)
    with pytest.raises(CardgenError) as caught:
        load_deck(card_set, write_deck(tmp_path, text))
    return [str(p) for p in caught.value.problems]


def test_load_deck_keeps_entries_lines_and_order(tmp_path):
    card_set = make_set(tmp_path, RULES, POOL)
    path = write_deck(tmp_path, """
        # a comment
        main:
          HQ: 1
          Grunt: 3
        bench:
          Grunt: 1
    """)
    deck = load_deck(card_set, path)
    assert isinstance(deck, Deck) and deck.path == path
    assert [(e.card.name, e.copies, str(e.source)) for e in deck.main] == [
        ("HQ", 1, "decks/deck.yaml:3"), ("Grunt", 3, "decks/deck.yaml:4")]
    assert [(e.card.name, e.copies, str(e.source)) for e in deck.bench] == [("Grunt", 1, "decks/deck.yaml:6")]
    assert str(deck.main_source) == "decks/deck.yaml:2" and str(deck.bench_source) == "decks/deck.yaml:5"


def test_deck_cards_main_then_bench_with_copies_as_count(tmp_path):
    card_set = make_set(tmp_path, RULES, POOL)
    deck = load_deck(card_set, write_deck(tmp_path, "main: {Grunt: 2, Boss: 1}\nbench: {Grunt: 1}\n"))
    cards = deck_cards(deck)
    assert [(c.name, c.count, c.fields["count"]) for c in cards] == [("Grunt", 2, 2), ("Boss", 1, 1), ("Grunt", 1, 1)]
    assert cards[0].fields["faction"] == "Red" and cards[0].source == POOL[1].source
    assert POOL[1].count == 3  # the set's card is untouched


def test_valid_deck_passes(tmp_path):
    assert deck_problems(tmp_path, """
        main:
          HQ: 1
          Boss: 1
          Grunt: 2
        bench:
          Grunt: 1
    """) == []


def test_main_is_the_default_scope_and_excess_points_at_the_entry(tmp_path):
    assert deck_problems(tmp_path, """
        main:
          HQ: 1
          Boss: 2
          Grunt: 3
    """) == [
        'decks/deck.yaml:4: card "Grunt": rule "deck size": 6 cards, expected exactly 4',
        'decks/deck.yaml:3: card "Boss": rule "one Leader": 2 copies, expected at most 1',
    ]


def test_shortfall_points_at_the_main_key(tmp_path):
    assert deck_problems(tmp_path, """
        # short
        main:
          HQ: 1
    """) == ['decks/deck.yaml:2: rule "deck size": 1 card, expected exactly 4']


def test_bench_scope_and_copies_counted_across_main_and_bench(tmp_path):
    assert deck_problems(tmp_path, """
        main:
          HQ: 1
          Boss: 1
          Grunt: 2
        bench:
          Grunt: 2
          Spy: 1
    """) == [
        'decks/deck.yaml:7: card "Spy": rule "bench size": 3 cards, expected at most 2',
        'decks/deck.yaml:6: card "Grunt": rule "three across": 4 copies in main and bench together (2 in main, 2 in bench), expected at most 3',
    ]


def test_deck_scope_counts_main_and_bench_together(tmp_path):
    assert deck_problems(tmp_path, """
        main:
          HQ: 1
          Boss: 1
          Grunt: 2
        bench:
          HQ: 1
    """) == ['decks/deck.yaml:6: card "HQ": rule "one Building in all": '
             "2 cards where type is Building, expected exactly 1"]


def test_allowed_from_reads_the_deck_not_the_set(tmp_path):
    # Spy's faction Blue has no Building in this deck (nor in the set).
    assert deck_problems(tmp_path, """
        main:
          HQ: 1
          Boss: 1
          Grunt: 1
          Spy: 1
    """) == ['decks/deck.yaml:5: card "Spy": rule "factions": faction "Blue" is not the faction of a card '
             "where type is Building"]


def test_unknown_card_with_a_suggestion(tmp_path):
    assert load_mistakes(tmp_path, """
        main:
          Bos: 1
          Nobody At All: 2
    """) == [
        'decks/deck.yaml:2: unknown card "Bos" (did you mean "Boss"?)',
        'decks/deck.yaml:3: unknown card "Nobody At All"',
    ]


def test_bad_copies(tmp_path):
    assert load_mistakes(tmp_path, """
        main:
          Boss: two
          Grunt: 0
          HQ:
        bench:
          Spy: 1.5
          Boss: true
    """) == [
        'decks/deck.yaml:2: card "Boss": copies must be a whole number of at least 1, got "two"',
        'decks/deck.yaml:3: card "Grunt": copies must be a whole number of at least 1, got "0"',
        'decks/deck.yaml:4: card "HQ": copies must be a whole number of at least 1, got nothing',
        'decks/deck.yaml:6: card "Spy": copies must be a whole number of at least 1, got "1.5"',
        'decks/deck.yaml:7: card "Boss": copies must be a whole number of at least 1, got "true"',
    ]


def test_malformed_deck_files(tmp_path):
    assert load_mistakes(tmp_path, "- Boss\n- Grunt\n") == [
        'decks/deck.yaml:1: a deck file is a mapping with "main:" (and optionally "bench:"), '
        "each naming cards with their copies"]
    assert load_mistakes(tmp_path, "main:\n  - Boss\nsideboard: {Grunt: 1}\n") == [
        'decks/deck.yaml:3: unknown key "sideboard" (a deck file has "main:" and "bench:")',
        'decks/deck.yaml:1: "main" must map card names to copies, such as "Blue Claws HQ: 1"',
    ]
    broken = load_mistakes(tmp_path, "main:\n  Boss: 1\n  Grunt: [2\n")
    assert len(broken) == 1 and broken[0].startswith("decks/deck.yaml:") and "invalid YAML" in broken[0]
    duplicate = load_mistakes(tmp_path, "main:\n  Boss: 1\n  Boss: 1\n")
    assert len(duplicate) == 1 and duplicate[0].startswith("decks/deck.yaml:3: invalid YAML")
    assert load_mistakes(tmp_path, "") == [
        'decks/deck.yaml:1: a deck file is a mapping with "main:" (and optionally "bench:"), '
        "each naming cards with their copies"]


def test_missing_deck_file(tmp_path):
    card_set = make_set(tmp_path, RULES, POOL)
    with pytest.raises(CardgenError) as caught:
        load_deck(card_set, tmp_path / "decks" / "nope.yaml")
    assert str(caught.value) == "decks/nope.yaml: file not found"


def test_a_deck_outside_the_project_is_named_by_its_path(tmp_path):
    card_set = make_set(tmp_path / "project", RULES, POOL)
    path = write_deck(tmp_path, "main: {Boss: 1, Grunt: 4}\n")
    problems = lines(check_deck(card_set, load_deck(card_set, path)))
    assert problems[0] == f'{path.as_posix()}:1: card "Grunt": rule "deck size": 5 cards, expected exactly 4'


def test_copies_given_as_a_mapping_or_a_list_are_shown_as_the_deck_wrote_them(tmp_path):
    """Not Python's spelling of them ("{'k': 'v'}")."""
    assert load_mistakes(tmp_path, """
        main:
          Boss: {k: v}
          Grunt: [1, a]
    """) == [
        'decks/deck.yaml:2: card "Boss": copies must be a whole number of at least 1, got {k: v}',
        'decks/deck.yaml:3: card "Grunt": copies must be a whole number of at least 1, got [1, a]',
    ]
