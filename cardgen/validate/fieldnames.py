"""Rules that name a field no card has, or select by a value no card has: a typo in ``where:``,
``per:``, ``field:`` or ``fields:`` would otherwise match nothing, and the check would pass. Each
is an error at the rules file's line."""
from __future__ import annotations

import difflib
from typing import Any, Iterable, Mapping

from ..errors import Problem
from ..model import Card
from .fields import Condition
from .rules import Rule

ALWAYS = ("name", "type", "count")  # every card has these


def _paths(fields: Mapping[str, Any], prefix: str = "", depth: int = 0) -> Iterable[str]:
    for key, value in fields.items():
        path = f"{prefix}{key}"
        yield path
        if isinstance(value, Mapping) and depth < 3:
            yield from _paths(value, path + ".", depth + 1)


def unknown_fields(rules: Iterable[Rule], cards: Iterable[Card], types: Iterable[str] = ()) -> list[Problem]:
    """A problem for every ``where`` field and ``per`` field of ``rules`` that no card of the
    types the rule selects has (all cards, when it selects no type)."""
    by_type: dict[str, set[str]] = {}
    for card in cards:
        known = by_type.setdefault(card.type, set(ALWAYS))
        known.update(_paths(card.fields))
    problems = []
    cards = tuple(cards)
    for rule in rules:
        per = rule.per if rule.over is None else None  # over a list: a card without the field counts 0
        named = [(f, None) for f in (*rule.fields, rule.field)]  # unique's fields; values', distinct's field
        for conditions, per, more in ((rule.where, per, named), (rule.from_where, None, [])):
            found = _check(rule, conditions, per, by_type, more)
            problems += found or _unmatched_values(rule, conditions, cards, types)
    return problems


def _unmatched_values(rule: Rule, conditions: tuple[Condition, ...], cards: tuple[Card, ...],
                      types: Iterable[str]) -> list[Problem]:
    """A ``where`` name that no card of the set has, or a type set.yaml does not define (a
    misspelling): the rule would select nothing by it. (A type may have no card yet, and other
    fields values no card has yet: the rules are written for the whole game.)"""
    problems = []
    for condition in conditions:
        if condition.negated or condition.field not in ("name", "type") or (condition.field == "type" and not types):
            continue
        if condition.field == "type":
            had = set(types) | {card.type for card in cards}
        else:
            had = {card.name for card in cards}
        for value in condition.values:
            if value not in had:
                close = difflib.get_close_matches(value, sorted(had), n=1, cutoff=0.75)
                hint = f' (did you mean "{close[0]}"?)' if close else ""
                what = 'the set defines no card type' if condition.field == "type" else "no card has name"
                problems.append(Problem(f'rule "{rule.name}": {what} "{value}"{hint}', condition.source or rule.source))
    return problems


def _check(rule: Rule, conditions: tuple[Condition, ...], per: str | None,
           by_type: Mapping[str, set[str]], more: list = ()) -> list[Problem]:
    types = [c for c in conditions if c.field == "type"]
    chosen = set(by_type)
    for condition in types:
        chosen = {t for t in chosen if (t in condition.values) != condition.negated}
    if not chosen:
        return []  # no card of the selected types at all: the rule itself reports what it finds
    known = set().union(*(by_type[t] for t in chosen))
    named = [(c.field, c.source) for c in conditions if c.field != "type"]
    if per is not None:
        named.append((per, rule.per_source))
    named += more
    which = "card" if not types else f"card of type {', '.join(sorted(chosen))}"
    problems = []
    for path, source in named:
        if path in known:
            continue
        close = difflib.get_close_matches(path, sorted(known), n=1, cutoff=0.75)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        problems.append(Problem(f'rule "{rule.name}": no {which} has a field "{path}"{hint}',
                                source or rule.source))
    return problems
