"""Rules that name a field no card has: a typo in ``where:`` or ``per:`` would otherwise match
nothing, and the check would pass. Each is an error at the rules file's line."""
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


def unknown_fields(rules: Iterable[Rule], cards: Iterable[Card]) -> list[Problem]:
    """A problem for every ``where`` field and ``per`` field of ``rules`` that no card of the
    types the rule selects has (all cards, when it selects no type)."""
    by_type: dict[str, set[str]] = {}
    for card in cards:
        known = by_type.setdefault(card.type, set(ALWAYS))
        known.update(_paths(card.fields))
    problems = []
    for rule in rules:
        per = rule.per if rule.over is None else None  # over a list: a card without the field counts 0
        for conditions, per in ((rule.where, per), (rule.from_where, None)):
            problems += _check(rule, conditions, per, by_type)
    return problems


def _check(rule: Rule, conditions: tuple[Condition, ...], per: str | None,
           by_type: Mapping[str, set[str]]) -> list[Problem]:
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
