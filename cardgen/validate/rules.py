"""What a rules file holds once read: its rules with their bounds, and its named options.

Plain frozen data, made by :mod:`.rulesfile` (which reads and checks the YAML) and used by
:mod:`.engine` (which applies the rules to a deck).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import Source
from .fields import Condition

# Names a rule's `message` may use, filled in for each problem.
MESSAGE_NAMES = ("card", "value", "field", "actual", "expected", "other")


@dataclass(frozen=True)
class Bounds:
    equals: int | None = None
    min: int | None = None
    max: int | None = None

    def too_many(self, n: int) -> bool:
        limit = self.equals if self.equals is not None else self.max
        return limit is not None and n > limit

    def too_few(self, n: int) -> bool:
        limit = self.equals if self.equals is not None else self.min
        return limit is not None and n < limit

    def describe(self) -> str:
        if self.equals is not None:
            return f"exactly {self.equals}"
        if self.min is not None and self.max is not None:
            return f"between {self.min} and {self.max}"
        if self.min is not None:
            return f"at least {self.min}"
        return f"at most {self.max}"


@dataclass(frozen=True)
class Rule:
    kind: str
    name: str
    severity: str
    source: Source  # the rule's first line in the rules file
    scope: str | None = None  # None: the set check, and the main deck in a deck check
    where: tuple[Condition, ...] = ()
    message: str | None = None
    bounds: Bounds | None = None
    field: str = "name"
    fields: tuple[str, ...] = ()
    per: str | None = None
    per_source: Source | None = None
    over: str | None = None
    over_source: Source | None = None
    across: str | None = None
    allowed: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    unknown: str = "error"
    from_where: tuple[Condition, ...] = ()
    from_field: str | None = None
    from_scope: str | None = None
    plus: tuple[str, ...] = ()
    quotes: tuple[str, ...] = ()  # the source text the rule comes from (`source:`)
    option: str | None = None  # the named reading the rule belongs to (`option:`)
    option_negated: bool = False  # `option: {not: name}`: runs only while the option is off

    def runs_with(self, enabled: frozenset[str] | set[str]) -> bool:
        """Whether the rule runs when the options ``enabled`` are on."""
        return self.option is None or ((self.option in enabled) != self.option_negated)

    def applies_to(self, scope: str) -> bool:
        """Whether the rule runs in a check of ``scope`` ("set" or a deck part)."""
        if scope == "set":
            return self.scope in (None, "set")
        return (self.scope or "main") == scope


@dataclass(frozen=True)
class Option:
    """A named reading of the source that a rules file offers (``options:``)."""

    name: str
    about: str
    enabled: bool
    source: Source


@dataclass(frozen=True)
class RulesFile:
    rules: tuple[Rule, ...]
    options: tuple[Option, ...]
