"""A large set's workers forked before its cards are checked (issue 19): the build's process
checks the cards and the set's rules while the workers already render (see ``started_early``)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import sheets, workers
from .cache import FaceCache
from .errors import CardgenError
from .load.cards import KEPT_CARDS, CardFiles
from .load.cursor import LateCursor, LateMarks
from .load.tables import CSV_SUFFIXES, YAML_SUFFIXES
from .model import CardSet
from .options import BuildOptions, sheet_options
from .rendered import Rendered, render_set

if TYPE_CHECKING:
    from .pipeline import Session


@dataclass
class Started:
    """What a build made, and the workers it forked, before its cards were checked."""

    cache: FaceCache | None
    rendered: "Rendered"  # workers.ParallelRendered if the workers were forked
    late: LateMarks | None  # how the check's marks reach them

    def abandon(self) -> None:
        if isinstance(self.rendered, workers.ParallelRendered):
            self.rendered.close()
        if self.late is not None:
            self.late.close()
        if self.cache is not None:
            self.cache.discard()


EXPECTED_ROW = 512  # bytes a card row is taken to hold at most, to tell a large set by its files' size
EARLY_SUFFIXES = CSV_SUFFIXES + YAML_SUFFIXES


def started_early(card_set: CardSet, session: "Session", options: BuildOptions, cache_path: Path | None) -> Started | None:
    """Before the set's cards are checked (card files read, and the set's rules), the workers
    of a large set are forked when all it takes to start them is known without them: the build's
    process checks them while the workers render. That is so when the set's every card type goes
    to the same sheets (the workers' cards are then the set's, in order), and its card files, all
    CSV or YAML (whose rows a worker's cursor passes over unread once the check has marked them,
    load/cursor.py), are large enough that the check would not keep the cards (load/cards.py):
    their size gives the chunks' size. Until the check and rules pass, the build's process draws
    nothing; if they fail, the workers are stopped and the problems are raised as ever. None:
    the set builds as any other (checked first)."""
    cards = card_set.cards
    if options.deck is not None or options.changed_since is not None or not isinstance(cards, CardFiles):
        return None
    if not workers.pays(workers.resolve_jobs(options.jobs), workers.MIN_CARDS):
        return None
    if not cards.files or any(path.suffix.lower() not in EARLY_SUFFIXES for path, _ in cards.files):
        return None
    try:
        expected = sum(path.stat().st_size for path, _ in cards.files) // EXPECTED_ROW
        if expected <= KEPT_CARDS:
            return None
        layout = sheet_options(card_set, options)
        types = list(card_set.types.values())
        if layout.layout == "sheets":
            backs = {bool(card_type.back) for card_type in types}
            if len(backs) > 1:  # whether sheets are printed double-sided depends on which types have cards
                return None
            if True in backs:
                layout = replace(layout, blank_backs=True)
        if len({sheets.group_of(card_type, layout) for card_type in types}) != 1:
            return None
    except (CardgenError, OSError):  # said again, in its place, by the build as ever
        return None
    cache = FaceCache(cache_path) if cache_path is not None else None
    late = None
    try:
        rendered = render_set(card_set, session, cache)
        late = LateMarks()
        rendered = workers.early(rendered, options.jobs, expected, cache, lambda: iter(cards),
                                 lambda: LateCursor(cards, late))
    except BaseException as failure:
        if late is not None:
            late.close()
        if cache is not None:
            cache.discard()
        if isinstance(failure, Exception):  # met again by the build, after the check, in its place
            return None
        raise
    if not isinstance(rendered, workers.ParallelRendered):
        late.close()
        late = None
    return Started(cache, rendered, late)
