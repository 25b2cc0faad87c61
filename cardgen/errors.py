"""Problems found in input, and the one exception that carries them.

Every stage reports bad input as a :class:`Problem` that names the file, the
line and the card, so that the command line can print ``file:line: message``
lines and never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)  # one per card row: kept small
class Source:
    """Where a value came from: a file (relative to the project) and a line or row."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(frozen=True)
class Problem:
    message: str
    source: Source | None = None
    card: str | None = None
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        label = "warning: " if self.severity == "warning" else ""
        who = f'card "{self.card}": ' if self.card else ""
        return f"{where}{label}{who}{self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class CardgenError(Exception):
    """Bad input: one or more problems, all reported at once."""

    def __init__(self, problems: Problem | list[Problem] | tuple[Problem, ...]):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def fail(message: str, source: Source | None = None, card: str | None = None) -> CardgenError:
    """Build the exception for a single problem (``raise fail(...)``)."""
    return CardgenError(Problem(message, source, card))


def collapse(problems) -> list[Problem]:
    """One cause, one message: problems that differ only in the card that met them (a broken
    font, a failing template line, a missing image met by every card) become one, naming the
    first card and how many more; errors come before warnings, each in the order first met."""
    groups: dict[tuple, list] = {}
    for problem in problems:
        key = (problem.severity, problem.source, problem.message)
        entry = groups.get(key)
        if entry is None:
            groups[key] = [problem, {problem.card}]
        else:
            entry[1].add(problem.card)
    merged = []
    for first, cards in groups.values():
        more = len(cards) - 1
        if more:
            first = Problem(f"{first.message} (and {more} more card{'s' * (more != 1)})", first.source, first.card,
                            first.severity)
        merged.append(first)
    return [p for p in merged if p.is_error] + [p for p in merged if not p.is_error]


def tally(problems) -> str:
    """``N errors, M warnings``."""
    errors = sum(1 for p in problems if p.is_error)
    warnings = len(problems) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


class UsageError(Exception):
    """The command was called wrongly (unknown set, bad option): exit code 2."""
