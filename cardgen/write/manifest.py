"""The manifest beside every PDF: one entry per placed face, with its trim box in mm."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ..model import CardSet, Placement


def _json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def write_manifest(path: Path, card_set: CardSet, placements: Iterable[Placement], pages: int,
                   extra: dict | None = None) -> None:
    """The manifest as JSON with one face a line: readable in a diff, and streamed, face by face,
    so that a large set never holds it whole in memory. What belongs to a card (its name, type
    and data) is encoded once for its front, back and copies."""
    head = {"set": card_set.name, "version": card_set.version, "title": card_set.title, "pages": pages}
    head.update(extra or {})
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "faces": [\n')
        separator = ""
        cards: dict[int, tuple[str, str]] = {}
        for placement in placements:
            face, slot = placement.face, placement.slot
            card = face.card
            encoded = cards.get(id(card))
            if encoded is None:
                if len(cards) > 512:  # a sheet's worth and more: memory stays flat
                    cards.clear()
                encoded = cards[id(card)] = (
                    f'{{"card": {json.dumps(card.name, ensure_ascii=False)}, '
                    f'"type": {json.dumps(card.type, ensure_ascii=False)}, "copy": ',
                    json.dumps(_json_value(dict(card.fields)), ensure_ascii=False))
            # side, shape and hash are words of cardgen's own (front, rect, hex digits): no escaping
            out.write(f'{separator}{encoded[0]}{face.copy}, "side": "{face.side}", "page": {slot.page}, '
                      f'"x_mm": {round(slot.x, 4)!r}, "y_mm": {round(slot.y, 4)!r}, "w_mm": {round(slot.w, 4)!r}, '
                      f'"h_mm": {round(slot.h, 4)!r}, "shape": "{slot.shape}", "rotation": {slot.rotation}, '
                      f'"hash": "{face.content_hash}", "data": {encoded[1]}}}')
            separator = ",\n"
        out.write("\n]}\n")
