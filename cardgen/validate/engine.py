"""Applying rules to a collection of cards: a set's card rows or a part of a deck list.

Where a problem points: an excess or a duplicate points at the card (its row, or its deck
entry); a shortfall or a missing value points at the collection's own line (the rule in a set
check, the ``main:`` / ``bench:`` key in a deck check).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from ..errors import CardgenError, Problem, Source
from ..model import Card
from .fields import as_text, describe_cards, field_value, is_unknown, listing, matches_all, top_field, where_clause
from .rules import MESSAGE_NAMES, Rule


@dataclass(frozen=True)
class Entry:
    """A card in a collection, with how many copies of it the collection holds."""

    card: Card
    copies: int
    source: Source  # the card's row, or its line in a deck file


@dataclass(frozen=True)
class Collection:
    label: str  # "set", "main", "bench", "deck"
    entries: tuple[Entry, ...]
    source: Source | None  # where a shortfall is reported (None: at the rule)


@dataclass(frozen=True)
class Context:
    collections: Mapping[str, Collection]
    variables: Mapping[str, Any]


def run_rule(rule: Rule, scope: str, context: Context) -> list[Problem]:
    collection = context.collections[scope]
    check = _CHECKS[rule.kind]
    return list(check(rule, collection, context))


class _Report:
    """Builds the problems of one rule, applying its name, severity and message."""

    def __init__(self, rule: Rule, collection: Collection):
        self.rule = rule
        self.collection = collection

    def at_card(self, entry: Entry, text: str, severity: str | None = None, source: Source | None = None,
                **facts: Any) -> Problem:
        facts.setdefault("card", entry.card.name)
        return self._problem(text, source or entry.source, entry.card.name, severity, facts)

    def at_collection(self, text: str, **facts: Any) -> Problem:
        source = self.collection.source or self.rule.source
        return self._problem(text, source, None, None, facts)

    def _problem(self, text: str, source: Source, card: str | None, severity: str | None,
                 facts: dict[str, Any]) -> Problem:
        if self.rule.message is not None:
            values = dict.fromkeys(MESSAGE_NAMES, "")
            values.update({k: str(v) for k, v in facts.items()})
            text = self.rule.message.format_map(values)
        return Problem(f'rule "{self.rule.name}": {text}', source, card, severity or self.rule.severity)


def _selected(rule: Rule, collection: Collection) -> list[Entry]:
    return [e for e in collection.entries if e.copies > 0 and matches_all(rule.where, e.card)]


def _field_source(entry: Entry, path: str, collection: Collection) -> Source:
    # In a set, point at the field's own line; in a deck, at the deck entry.
    if collection.label == "set":
        return entry.card.source_of(top_field(path))
    return entry.source


def _check_total(report: _Report, entries: list[Entry], condition: str) -> Iterator[Problem]:
    """A bound on the total copies of ``entries``: too many points at the entry that crossed it."""
    bounds = report.rule.bounds
    total = sum(e.copies for e in entries)
    expected = bounds.describe()
    text = f"{total} {'card' if total == 1 else 'cards'}{condition}, expected {expected}"
    if bounds.too_many(total):
        running = 0
        for entry in entries:
            running += entry.copies
            if bounds.too_many(running):
                yield report.at_card(entry, text, actual=total, expected=expected)
                return
    if bounds.too_few(total):
        yield report.at_collection(text, actual=total, expected=expected)


def check_count(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    report = _Report(rule, collection)
    entries = _selected(rule, collection)
    condition = where_clause(rule.where)
    if rule.per is None:
        yield from _check_total(report, entries, condition)
        return
    groups: dict[str, list[Entry]] = {}
    if rule.over is not None:
        for name in _names_over(rule, context.variables):
            groups.setdefault(name, [])
    for entry in entries:
        value = field_value(entry.card, rule.per)
        if rule.over is not None and value not in groups:
            continue  # a value outside the list is for a `values` rule to judge
        if rule.over is None and is_unknown(value):
            continue
        groups.setdefault(value, []).append(entry)
    for value, members in groups.items():
        per = (" and " if rule.where else " where ") + f"{rule.per} is {value}"
        yield from _check_total(report, members, condition + per)


def _names_over(rule: Rule, variables: Mapping[str, Any]) -> list[str]:
    items = variables.get(rule.over)
    if not isinstance(items, (list, tuple)):
        raise CardgenError(Problem(f'rule "{rule.name}": "over: {rule.over}" names no list in the set\'s variables',
                                   rule.over_source))
    names = []
    for item in items:
        name = item.get("name") if isinstance(item, Mapping) else item
        if name is None or isinstance(name, (Mapping, list)):
            raise CardgenError(Problem(f'rule "{rule.name}": every item of variables "{rule.over}" needs a name',
                                       rule.over_source))
        names.append(as_text(name))
    return names


def check_distinct(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    report = _Report(rule, collection)
    seen: dict[str, Entry] = {}
    for entry in _selected(rule, collection):
        value = field_value(entry.card, rule.field)
        if not is_unknown(value):
            seen.setdefault(value, entry)
    count = len(seen)
    noun = "different names" if rule.field == "name" else f"different values of {rule.field}"
    what = f"{count} {noun} among {describe_cards(rule.where)}"
    expected = rule.bounds.describe()
    if rule.bounds.too_many(count):
        # The entry that brought the first value too many.
        limit = rule.bounds.equals if rule.bounds.equals is not None else rule.bounds.max
        excess = list(seen.values())[limit]
        yield report.at_card(excess, f"{what}, expected {expected}", actual=count, expected=expected)
    elif rule.bounds.too_few(count):
        yield report.at_collection(f"{what}, expected {expected}", actual=count, expected=expected)


def check_copies(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    report = _Report(rule, collection)
    first: dict[str, Entry] = {}
    for entry in _selected(rule, collection):
        first.setdefault(entry.card.name, entry)
    # Each card's copies per part: the checked collection, or main and bench for `across: deck`.
    parts = [collection]
    if rule.across == "deck" and "main" in context.collections:
        parts = [context.collections["main"], context.collections["bench"]]
    counts = {part.label: Counter() for part in parts}
    for part in parts:
        for entry in part.entries:
            if entry.card.name in first:
                counts[part.label][entry.card.name] += entry.copies
    expected = rule.bounds.describe()
    for name, entry in first.items():
        count = sum(c[name] for c in counts.values())
        if rule.bounds.too_many(count) or rule.bounds.too_few(count):
            text = f"{count} copies"
            if len(parts) > 1:
                split = ", ".join(f"{c[name]} in {label}" for label, c in counts.items())
                text += f" in main and bench together ({split})"
            yield report.at_card(entry, f"{text}, expected {expected}", actual=count, expected=expected)


def check_unique(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    report = _Report(rule, collection)
    owners: dict[tuple[str, ...], Entry] = {}
    names = listing(rule.fields)
    for entry in _selected(rule, collection):
        key = tuple(field_value(entry.card, f) for f in rule.fields)
        if any(is_unknown(v) for v in key):
            continue  # an unknown value collides with nothing
        shown = listing(key)
        if key in owners:
            other = owners[key]
            yield report.at_card(entry, f'{names} ({shown}) already on card "{other.card.name}" ({other.source})',
                                 value=shown, field=names, other=other.card.name)
        else:
            owners[key] = entry
            if entry.copies > 1:
                yield report.at_card(entry, f"{entry.copies} copies share {names} ({shown})",
                                     value=shown, field=names, actual=entry.copies)


def check_values(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    yield from _field_values(rule, collection, lambda value: value in rule.allowed,
                             lambda value: f'{rule.field} "{value}" is not one of {listing(rule.allowed)}')


def _field_values(rule: Rule, collection: Collection, allowed: Callable[[Any], bool],
                  complaint: Callable[[Any], str]) -> Iterator[Problem]:
    """A problem for every selected card whose field is unknown (as the rule says) or not allowed."""
    report = _Report(rule, collection)
    for entry in _selected(rule, collection):
        value = field_value(entry.card, rule.field)
        source = _field_source(entry, rule.field, collection)
        if is_unknown(value):
            problem = _unknown(report, entry, rule, source)
            if problem is not None:
                yield problem
        elif not allowed(value):
            yield report.at_card(entry, complaint(value), source=source, value=value, field=rule.field)


def _unknown(report: _Report, entry: Entry, rule: Rule, source: Source) -> Problem | None:
    if rule.unknown == "ignore":
        return None
    severity = "warning" if rule.unknown == "warning" else None
    return report.at_card(entry, f"{rule.field} is unknown", severity=severity, source=source,
                          value="unknown", field=rule.field)


def check_present(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    report = _Report(rule, collection)
    found = {field_value(e.card, rule.field) for e in _selected(rule, collection)}
    for value in rule.values:
        if value not in found:
            what = describe_cards(rule.where, "card")
            yield report.at_collection(f'no {what} has {rule.field} "{value}"', value=value, field=rule.field)


def check_allowed_from(rule: Rule, collection: Collection, context: Context) -> Iterator[Problem]:
    origin = context.collections.get(rule.from_scope or collection.label, collection)
    allowed = {field_value(e.card, rule.from_field) for e in origin.entries
               if e.copies > 0 and matches_all(rule.from_where, e.card)}
    allowed = {v for v in allowed if not is_unknown(v)} | set(rule.plus)
    where = describe_cards(rule.from_where, "card")
    scope = "" if origin is collection else f" in {_scope_words(origin.label)}"
    options = f"the {rule.from_field} of a {where}{scope}"
    if rule.plus:
        options += f", nor one of {listing(rule.plus)}"
    yield from _field_values(rule, collection, lambda value: value in allowed,
                             lambda value: f'{rule.field} "{value}" is not {options}')


def _scope_words(label: str) -> str:
    return {"deck": "main or bench", "main": "main", "bench": "bench", "set": "the set"}[label]


_CHECKS = {
    "count": check_count,
    "distinct": check_distinct,
    "copies": check_copies,
    "unique": check_unique,
    "values": check_values,
    "present": check_present,
    "allowed-from": check_allowed_from,
}
