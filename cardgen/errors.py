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


class UsageError(Exception):
    """The command was called wrongly (unknown set, bad option): exit code 2."""
