"""What a build returns: a result per set and the whole build's. Apart from pipeline.py so that
a build that finds every set unchanged (unchanged.py) reports without importing the build stack."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import Problem


@dataclass(frozen=True)
class SetResult:
    """What the build of one set wrote (its PDF and manifest) and counted."""

    name: str
    pdf: Path
    manifest: Path
    faces: int
    cards: int
    pages: int
    warnings: tuple[Problem, ...] = ()
    laid_out: int = 0  # distinct faces laid out by this build
    reused: int = 0  # distinct faces drawn from the cache
    boxes: tuple[Path, ...] = ()  # tuck boxes written beside the set (components/boxes.py)


@dataclass(frozen=True)
class BuildResult:
    """The sets a build wrote, and the seconds it took."""

    sets: tuple[SetResult, ...]
    seconds: float

    @property
    def summary(self) -> str:
        cards = sum(s.cards for s in self.sets)
        pages = sum(s.pages for s in self.sets)
        boxes = sum(len(s.boxes) for s in self.sets)
        boxed = f", {boxes} tuck box{'es' * (boxes != 1)}" if boxes else ""
        return (f"built {len(self.sets)} set{'s' * (len(self.sets) != 1)}, {cards} card{'s' * (cards != 1)}, {pages} page{'s' * (pages != 1)}{boxed} "
                f"in {self.seconds:.2f} s")
