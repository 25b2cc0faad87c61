"""The manifest beside every PDF: one entry per placed face, with its trim box in mm."""
from __future__ import annotations

import json
from typing import Any, Iterable, TextIO

from ..model import Card, CardSet, Placement


def _json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


class ManifestWriter:
    """The manifest as JSON with one face a line: readable in a diff, and written page by page
    as the PDF is, so that a large set never holds it in memory. What belongs to a card (its
    name, type and data) is encoded once for its front, back and copies. The page count (and
    ``extra``, a reprint's changelog) follows the faces: only then is it known."""

    def __init__(self, out: TextIO, card_set: CardSet):
        self.out = out
        head = {"set": card_set.name, "version": card_set.version, "title": card_set.title}
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "faces": [\n')
        self.separator = ""
        self.cards: dict[int, tuple[Card, str, str]] = {}
        self.places: dict[tuple, str] = {}  # a slot's geometry, formatted

    def add(self, placements: Iterable[Placement]) -> None:
        out, cards, places = self.out, self.cards, self.places
        for placement in placements:
            face, slot = placement.face, placement.slot
            card = face.card
            encoded = cards.get(id(card))
            if encoded is None or encoded[0] is not card:  # kept with the card: its id is not reused
                if len(cards) > 512:  # a sheet's worth and more: memory stays flat
                    cards.clear()
                encoded = cards[id(card)] = (
                    card,
                    f'{{"card": {json.dumps(card.name, ensure_ascii=False)}, '
                    f'"type": {json.dumps(card.type, ensure_ascii=False)}, "copy": ',
                    json.dumps(_json_value(dict(card.fields)), ensure_ascii=False))
            place = (slot.x, slot.y, slot.w, slot.h, slot.shape, slot.rotation)
            where = places.get(place)
            if where is None:  # every sheet repeats the same few slots
                if len(places) > 512:
                    places.clear()
                # shape is a word of cardgen's own (rect, circle): no escaping
                where = places[place] = (
                    f'"x_mm": {round(slot.x, 4)!r}, "y_mm": {round(slot.y, 4)!r}, "w_mm": {round(slot.w, 4)!r}, '
                    f'"h_mm": {round(slot.h, 4)!r}, "shape": "{slot.shape.split(":")[0]}", '
                    f'"rotation": {slot.rotation}, ')
            # side and hash are words of cardgen's own (front, back, hex digits): no escaping
            out.write(f'{self.separator}{encoded[1]}{face.copy}, "side": "{face.side}", "page": {slot.page}, '
                      f'{where}"hash": "{face.content_hash}", "data": {encoded[2]}}}')
            self.separator = ",\n"

    def close(self, pages: int, extra: dict | None = None) -> None:
        tail = json.dumps({"pages": pages, **(extra or {})}, ensure_ascii=False)
        self.out.write("\n], " + tail[1:] + "\n")
