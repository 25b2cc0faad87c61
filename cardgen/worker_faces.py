"""The faces the worker processes rendered, given to the build's own renderer (workers.py): a
card whose every face a worker rendered gets its faces from their records, without rendering;
anything else is rendered here, as a one-process build renders it, so its problems are met in
their place.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from .errors import CardgenError
from .model import Card, Face, new_face
from .render.faces import FaceRenderer, Markup

if TYPE_CHECKING:
    from .worker_feed import _Feed as Feed


class ReplayingRenderer(FaceRenderer):
    """The build's renderer, given the faces the workers rendered: a face they could not render
    (a failing template, a limit reached) is rendered here, so its problem is met in its place."""

    def __init__(self, renderer: FaceRenderer, feed: "Feed"):
        super().__init__(renderer.card_set, renderer.templates, renderer.fingerprints, renderer.memo)
        self.feed = feed

    def pairs(self, cards: Iterable[Card]):
        """As ``FaceRenderer.pairs``; a card whose every face a worker rendered is given its
        faces here, without the fields and checks that only rendering a face needs."""
        card_set, feed, problems = self.card_set, self.feed, self._problems
        for card in cards:
            card_type = card_set.types[card.type]
            records, back = feed.records_now, card_type.back
            if records is None or len(records) != card.count * (2 if back else 1) or None in records:
                yield from super().pairs((card,))  # a face to render here: as a one-process build
                continue
            feed.faces = iter(())  # the card's records, taken here
            back_source = card_set.backs[back].source if back else None
            at = 0
            noting = self.noting
            for copy in range(1, card.count + 1):
                front = replayed(feed, card, card_type, copy, "front", records[at], card_type.source, noting)
                back_face = None
                if back:
                    back_face = replayed(feed, card, card_type, copy, "back", records[at + 1], back_source, noting)
                at += 2 if back else 1
                if len(problems) >= self.MAX_PROBLEMS:
                    raise CardgenError(self.problems())
                yield front, back_face

    def _face(self, card, card_type, copy, side, drawn_by, plain):
        record = self.feed.face()
        if record is None:
            return super()._face(card, card_type, copy, side, drawn_by, plain)
        return replayed(self.feed, card, card_type, copy, side, record, drawn_by[2], self.noting)


def replayed(feed: "Feed", card: Card, card_type, copy: int, side: str, record: tuple, where,
              noting: list | None = None) -> Face:
    """The face a worker rendered, by its record (markup key, content hash, refs, digest of its
    render key or None); its markup goes along when the worker sent it (``where``: the template
    line its problems name). The record is added to ``noting`` as the renderer notes a face it
    renders (kept_cards.py)."""
    key, content_hash = record[0], record[1]
    if noting is not None:
        noting.append(record)
    entry = feed.entries.get(content_hash)
    text = entry[1] if entry is not None else None
    return new_face(card, card_type, copy, side, key, content_hash,
                    Markup(text, card_type, card.name, where) if text is not None else None)
