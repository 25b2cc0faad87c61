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


def _entry_without_data(placement: Placement) -> dict:
    face, slot = placement.face, placement.slot
    return {
        "card": face.card.name,
        "type": face.card.type,
        "copy": face.copy,
        "side": face.side,
        "page": slot.page,
        "x_mm": round(slot.x, 4),
        "y_mm": round(slot.y, 4),
        "w_mm": round(slot.w, 4),
        "h_mm": round(slot.h, 4),
        "shape": slot.shape,
        "rotation": slot.rotation,
        "hash": face.content_hash,
    }


def write_manifest(path: Path, card_set: CardSet, placements: Iterable[Placement], pages: int,
                   extra: dict | None = None) -> None:
    """The manifest as JSON with one face a line: readable in a diff, written by the C encoder,
    and streamed, face by face, so that a large set never holds it whole in memory."""
    head = {"set": card_set.name, "version": card_set.version, "title": card_set.title, "pages": pages}
    head.update(extra or {})
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "faces": [\n')
        separator = ""
        data: dict[int, str] = {}  # a card's data, encoded once for its front, back and copies
        for placement in placements:
            card = placement.face.card
            encoded = data.get(id(card))
            if encoded is None:
                if len(data) > 512:  # a sheet's worth and more: memory stays flat
                    data.clear()
                encoded = data[id(card)] = json.dumps(_json_value(dict(card.fields)), ensure_ascii=False)
            entry = json.dumps(_entry_without_data(placement), ensure_ascii=False)
            out.write(f'{separator}{entry[:-1]}, "data": {encoded}}}')
            separator = ",\n"
        out.write("\n]}\n")
