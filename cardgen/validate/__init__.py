"""The validation stage: a set's rules files applied to its cards, or to a deck list.

No game knowledge lives here: every count, limit and allowed value comes from the rules file
(see README, "Rules"). A rule without ``scope`` checks the set's cards in ``check_set`` and
the main deck in ``check_deck``; ``scope: set`` checks only the set, ``main`` / ``bench`` /
``deck`` (both together) only deck lists. A rule that belongs to a named reading of the source
(``option:``) runs only when that option is on: enabled in its rules file, or asked for in
``options``.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Iterable

from ..errors import CardgenError, Problem
from ..model import CardSet

if TYPE_CHECKING:
    from .deck import Deck, DeckEntry, deck_cards, load_deck
    from .engine import Context
    from .rules import Option, Rule, RulesFile
    from .rulesfile import load_rules, load_rules_file

__all__ = ["check_set", "check_deck", "load_deck", "deck_cards", "Deck", "DeckEntry", "load_rules", "load_rules_file",
           "rules_options", "Option", "Rule", "RulesFile"]

# A set without rules files, built without a deck list, needs none of these: they are imported
# when first named (``validate.load_deck``), not with the pipeline.
_LAZY = {"Deck": "deck", "DeckEntry": "deck", "deck_cards": "deck", "load_deck": "deck",
         "Collection": "engine", "Context": "engine", "Entry": "engine", "run_rule": "engine",
         "unknown_fields": "fieldnames", "Option": "rules", "Rule": "rules", "RulesFile": "rules",
         "load_rules": "rulesfile", "load_rules_file": "rulesfile"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def check_set(card_set: CardSet, options: Iterable[str] = ()) -> list[Problem]:
    """Every rule of every rules file of the set, over all its cards (copies = ``card.count``)."""
    options = tuple(options)
    if not card_set.rules:  # nothing to check: the cards are not read for it
        _unknown_options(card_set, options, {})
        return []
    from .engine import Collection, Context, Entry

    entries = tuple(Entry(card, card.count, card.source) for card in card_set.cards)
    context = Context({"set": Collection("set", entries, None)}, card_set.variables)
    return _run(card_set, context, ("set",), [entry.card for entry in entries], options)


def check_deck(card_set: CardSet, deck: Deck, options: Iterable[str] = ()) -> list[Problem]:
    """The set's rules over a deck list: scope main (the default), bench, or deck (both)."""
    from .engine import Collection, Context, Entry

    main = tuple(Entry(e.card, e.copies, e.source) for e in deck.main)
    bench = tuple(Entry(e.card, e.copies, e.source) for e in deck.bench)
    main_source = deck.main_source or deck.source
    collections = {
        "main": Collection("main", main, main_source),
        "bench": Collection("bench", bench, deck.bench_source or main_source),
        "deck": Collection("deck", main + bench, main_source),
    }
    return _run(card_set, Context(collections, card_set.variables), ("main", "bench", "deck"), card_set.cards,
                tuple(options))


def _run(card_set: CardSet, context: Context, scopes: tuple[str, ...], cards,
         asked: tuple[str, ...]) -> list[Problem]:
    from .engine import run_rule
    from .fieldnames import unknown_fields

    files = _all_files(card_set)
    rules = [rule for rules_file in files for rule in rules_file.rules]
    # every rule, an option's too: a typo in a rule would match nothing, and pass
    misnamed = unknown_fields(rules, cards, card_set.types)
    if misnamed:
        raise CardgenError(misnamed)
    declared = {option.name: option for rules_file in files for option in rules_file.options}
    _unknown_options(card_set, asked, declared)
    enabled = {name for name, option in declared.items() if option.enabled} | set(asked)
    problems: list[Problem] = []
    for rule in rules:
        if not rule.runs_with(enabled):
            continue
        for scope in scopes:
            if rule.applies_to(scope):
                problems.extend(run_rule(rule, scope, context))
    return problems


def rules_options(card_set: CardSet) -> list[Option]:
    """The named readings the set's rules files offer, in file order."""
    return [option for rules_file in _all_files(card_set) for option in rules_file.options]


def _unknown_options(card_set: CardSet, asked: tuple[str, ...], declared: dict[str, Option]) -> None:
    unknown = [name for name in asked if name not in declared]
    if unknown:
        offered = ", ".join(declared) or "none"
        raise CardgenError([Problem(f'unknown rules option "{name}" (the rules of {card_set.name} offer: {offered})',
                                    card_set.source) for name in unknown])


def _all_files(card_set: CardSet) -> list[RulesFile]:
    """The rules files, in order; every mistake of every file raised at once."""
    from .rulesfile import load_rules_file

    files: list[RulesFile] = []
    mistakes: list[Problem] = []
    for path in card_set.rules:
        path = path if path.is_absolute() else card_set.directory / path
        try:
            files.append(load_rules_file(path, card_set.root))
        except CardgenError as error:
            mistakes.extend(error.problems)
    if mistakes:
        raise CardgenError(mistakes)
    return files
