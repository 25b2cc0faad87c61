"""The validation stage: a set's rules files applied to its cards, or to a deck list.

No game knowledge lives here: every count, limit and allowed value comes from the rules file
(see README, "Rules"). A rule without ``scope`` checks the set's cards in ``check_set`` and
the main deck in ``check_deck``; ``scope: set`` checks only the set, ``main`` / ``bench`` /
``deck`` (both together) only deck lists.
"""
from __future__ import annotations

from ..errors import CardgenError, Problem
from ..model import CardSet
from .deck import Deck, DeckEntry, deck_cards, load_deck
from .engine import Collection, Context, Entry, run_rule
from .fieldnames import unknown_fields
from .rulesfile import Rule, load_rules

__all__ = ["check_set", "check_deck", "load_deck", "deck_cards", "Deck", "DeckEntry", "load_rules", "Rule"]


def check_set(card_set: CardSet) -> list[Problem]:
    """Every rule of every rules file of the set, over all its cards (copies = ``card.count``)."""
    if not card_set.rules:  # nothing to check: the cards are not read for it
        return []
    entries = tuple(Entry(card, card.count, card.source) for card in card_set.cards)
    context = Context({"set": Collection("set", entries, None)}, card_set.variables)
    return _run(card_set, context, ("set",), [entry.card for entry in entries])


def check_deck(card_set: CardSet, deck: Deck) -> list[Problem]:
    """The set's rules over a deck list: scope main (the default), bench, or deck (both)."""
    main = tuple(Entry(e.card, e.copies, e.source) for e in deck.main)
    bench = tuple(Entry(e.card, e.copies, e.source) for e in deck.bench)
    main_source = deck.main_source or deck.source
    collections = {
        "main": Collection("main", main, main_source),
        "bench": Collection("bench", bench, deck.bench_source or main_source),
        "deck": Collection("deck", main + bench, main_source),
    }
    return _run(card_set, Context(collections, card_set.variables), ("main", "bench", "deck"), card_set.cards)


def _run(card_set: CardSet, context: Context, scopes: tuple[str, ...], cards) -> list[Problem]:
    rules = _all_rules(card_set)
    misnamed = unknown_fields(rules, cards)  # a typo in a rule would match nothing, and pass
    if misnamed:
        raise CardgenError(misnamed)
    problems: list[Problem] = []
    for rule in rules:
        for scope in scopes:
            if rule.applies_to(scope):
                problems.extend(run_rule(rule, scope, context))
    return problems


def _all_rules(card_set: CardSet) -> list[Rule]:
    """The rules of every file, in order; every mistake of every file raised at once."""
    rules: list[Rule] = []
    mistakes: list[Problem] = []
    for path in card_set.rules:
        path = path if path.is_absolute() else card_set.directory / path
        try:
            rules.extend(load_rules(path, card_set.root))
        except CardgenError as error:
            mistakes.extend(error.problems)
    if mistakes:
        raise CardgenError(mistakes)
    return rules
