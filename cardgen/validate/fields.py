"""Reading card fields for rules: dotted paths, the value "unknown", and `where` filters."""
from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from typing import Any, Iterable, Mapping

from ..errors import Source
from ..model import Card

UNKNOWN = "unknown"


def as_text(value: Any) -> str:
    """A field value as rules compare it: text, with missing or empty values read as "unknown"."""
    if value is None:
        return UNKNOWN
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value).strip()
    return text if text else UNKNOWN


def is_unknown(text: str) -> bool:
    return text.lower() == UNKNOWN


def field_value(card: Card, path: str) -> str:
    """The card's value at a dotted path (``item.name``), as text; a missing field is unknown."""
    first, *rest = path.split(".")
    if first in card.fields:
        value: Any = card.fields[first]
    elif first in ("name", "type", "count"):
        value = getattr(card, first)
    else:
        return UNKNOWN
    for part in rest:
        if not isinstance(value, Mapping) or part not in value:
            return UNKNOWN
        value = value[part]
    if isinstance(value, Mapping) or (isinstance(value, (list, tuple))):
        # A whole mapping or list is not a value a rule can compare against.
        return UNKNOWN
    return as_text(value)


def top_field(path: str) -> str:
    """The card column a dotted path starts from (its line is the one to point at)."""
    return path.split(".", 1)[0]


def listing(values: Iterable[str]) -> str:
    return ", ".join(values)


@dataclass(frozen=True)
class Condition:
    """One `where` entry: the field's value is (or, negated, is not) one of ``values``."""

    field: str
    values: tuple[str, ...]
    negated: bool = False
    source: Source | None = dataclass_field(default=None, compare=False)  # its line in the rules file

    def matches(self, card: Card) -> bool:
        return (field_value(card, self.field) in self.values) != self.negated

    def describe(self) -> str:
        if len(self.values) == 1:
            verb = "is not" if self.negated else "is"
            return f"{self.field} {verb} {self.values[0]}"
        verb = "is not one of" if self.negated else "is one of"
        return f"{self.field} {verb} {listing(self.values)}"


def matches_all(conditions: tuple[Condition, ...], card: Card) -> bool:
    return all(condition.matches(card) for condition in conditions)


def describe_cards(conditions: tuple[Condition, ...], noun: str = "cards") -> str:
    """``cards where type is Building and faction is Blue Claws`` (or just ``cards``)."""
    return noun + where_clause(conditions)


def where_clause(conditions: tuple[Condition, ...]) -> str:
    """`` where type is Building and ...`` (with its leading space), or nothing."""
    if not conditions:
        return ""
    return " where " + " and ".join(c.describe() for c in conditions)
