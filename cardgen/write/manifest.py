"""The manifest beside every PDF: every placed face, with its trim box in mm.

Format 2 (``"format": 2`` in its head) keeps what faces share once: each face is one line
``[card, copy, side, page, slot, hash]``, where ``card``, ``slot`` and ``hash`` are indexes into
the tables ``cards`` (``{"card", "type", "data"}``), ``slots`` (``{"x_mm", "y_mm", "w_mm",
"h_mm", "shape", "rotation"}``) and ``hashes`` (content hashes). A face in full (format 1, one
object per face with every field) is ``{"card": cards[c]["card"], "type": cards[c]["type"],
"copy": copy, "side": side, "page": page, **slots[s], "hash": hashes[h], "data":
cards[c]["data"]}``: ``load_manifest`` reads either format and gives the faces in full.
"""
from __future__ import annotations

import json
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterable, TextIO

from ..model import Card, CardSet, Placement
from ..streams import Latest

FORMAT = 2
FACE_FIELDS = ("card", "copy", "side", "page", "slot", "hash")  # a face line's columns
SLOT_FIELDS = ("x_mm", "y_mm", "w_mm", "h_mm", "shape", "rotation")
_SPOOLED = 1 << 20  # bytes of the cards and hashes tables held in memory before they go to a file


def _json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


class _Table:
    """A table of the manifest written as it grows (to a file past a megabyte), one entry a
    line: the entries met lately are found again by key and not written twice; one met again
    long after is written again (a larger table, never a wrong one), so memory stays flat."""

    LATEST = 1024

    def __init__(self, folder: str | None):
        self.lines = tempfile.SpooledTemporaryFile(_SPOOLED, "w+", encoding="utf-8", dir=folder)
        self.latest = Latest(self.LATEST)  # key -> index
        self.count = 0
        self.pending: list[str] = []

    def new(self, key, line: str) -> int:
        """The index of a new entry, known by ``key``: the caller has found it is not among the
        latest (an entry among them is found there: ``latest.get(key)``, then moved to the end)."""
        self.pending += (",\n" if self.count else "\n", line)  # written with the page's (write_pending)
        latest = self.latest
        if len(latest) >= latest.size:  # Latest's own setting, without its call (key is new)
            latest.popitem(last=False)
        _set(latest, key, self.count)
        self.count += 1
        return self.count - 1

    def write_pending(self) -> None:
        """Write the new lines: a write to the spooled file costs a call of Python, the lines of
        a few pages together cost one."""
        if self.pending:
            self.lines.write("".join(self.pending))
            self.pending.clear()

    def copy_to(self, out: TextIO) -> None:
        self.write_pending()
        self.lines.seek(0)
        while chunk := self.lines.read(1 << 20):
            out.write(chunk)
        self.lines.close()


class ManifestWriter:
    """The manifest as JSON with one face a line: readable in a diff, and written a few pages at
    a time as the PDF is, so that a large set never holds it in memory. What faces share (a card's
    name, type and data, a slot's geometry, a content hash) goes once into a table, written
    beside the faces as it grows and copied after them at the end, when the page count (and
    ``extra``, a reprint's changelog) is known."""

    PAGES_PENDING = 32  # pages whose lines are written together: a few tens of kilobytes

    def __init__(self, out: TextIO, card_set: CardSet, card_lines: Latest | None = None):
        """``card_lines``: id of a card -> (the card, its line), lines made already (kept_cards.py)."""
        self.out = out
        self.card_lines = card_lines
        head = {"set": card_set.name, "version": card_set.version, "title": card_set.title, "format": FORMAT,
                "face_fields": list(FACE_FIELDS)}
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "faces": [\n')
        self.separator = ""
        self.pending: list[str] = []  # the face lines of the pages added, not written yet
        folder = str(Path(out.name).parent) if isinstance(getattr(out, "name", None), str) else None
        self.cards = _Table(folder)
        self.card_numbers = Latest(128)  # id(card) -> (card, its index): the card kept, so its id is not reused
        self.hashes = _Table(folder)
        self.slots = _Table(folder)

    def __enter__(self) -> "ManifestWriter":
        return self

    def __exit__(self, *failure) -> None:
        """The tables' spooled files closed, whether or not the manifest was finished: a build
        that failed half-way (`cardgen watch` and `serve` keep running) leaves none open."""
        for table in (self.cards, self.hashes, self.slots):
            table.lines.close()

    def add(self, placements: Iterable[Placement]) -> None:
        cards, hashes, slots, card_numbers = self.cards, self.hashes, self.slots, self.card_numbers
        card_lines = self.card_lines
        # met lately: found here, as _Table.index finds them
        latest_cards, latest_slots, latest_hashes = cards.latest, slots.latest, hashes.latest
        lines = []
        separator = self.separator
        for placement in placements:
            face, slot = placement.face, placement.slot
            card = face.card
            known = card_numbers.get(id(card))
            if known is None or known[0] is not card:
                # taken, not read: the cards are let go once the manifest has met them
                made = card_lines.pop(id(card), None) if card_lines is not None else None
                # cards alike are one entry: the key is what is written
                line = made[1] if made is not None and made[0] is card else card_line(card)
                number = latest_cards.get(line)
                if number is None:
                    number = cards.new(line, line)
                else:
                    latest_cards.move_to_end(line)
                known = (card, number)
                if len(card_numbers) >= card_numbers.size and id(card) not in card_numbers:
                    card_numbers.popitem(last=False)  # Latest's own setting, without its call
                _set(card_numbers, id(card), known)
            number = known[1]
            key = (slot.x, slot.y, slot.w, slot.h, slot.shape, slot.rotation)
            where = latest_slots.get(key)
            if where is None:
                where = slots.new(key, _slot_line(slot))
            else:
                latest_slots.move_to_end(key)
            content = face.content_hash
            digest = latest_hashes.get(content)
            if digest is None:
                digest = hashes.new(content, f'"{content}"')  # hex digits: no escaping
            else:
                latest_hashes.move_to_end(content)
            # side is a word of cardgen's own (front, back): no escaping
            lines.append(f'{separator}[{number}, {face.copy}, "{face.side}", {slot.page}, {where}, {digest}]')
            separator = ",\n"
        self.separator = separator
        pending = self.pending
        pending.append("".join(lines))
        if len(pending) >= self.PAGES_PENDING:
            self._write_pending()

    def _write_pending(self) -> None:
        """Write the lines of the pages added since the last time: a write (to the manifest,
        and to each table's spooled file) costs a call of Python, and the pages of a large set
        are thousands."""
        self.out.write("".join(self.pending))
        self.pending.clear()
        self.cards.write_pending()
        self.hashes.write_pending()
        self.slots.write_pending()

    def close(self, pages: int, extra: dict | None = None) -> None:
        self._write_pending()
        out = self.out
        for name, table in (("slots", self.slots), ("hashes", self.hashes), ("cards", self.cards)):
            out.write(f'\n], "{name}": [')
            table.copy_to(out)
        tail = json.dumps({"pages": pages, **(extra or {})}, ensure_ascii=False)
        out.write("\n], " + tail[1:] + "\n")


def card_line(card: Card) -> str:
    """A card's line in the manifest's table of cards."""
    name, kind = card.name, card.type
    data = _flat_json(card.fields)
    if data is None:
        data = json.dumps(_json_value(dict(card.fields)), ensure_ascii=False)
    return (f'{{"card": {_string(name) if name.__class__ is str else json.dumps(name, ensure_ascii=False)}, '
            f'"type": {_string(kind) if kind.__class__ is str else json.dumps(kind, ensure_ascii=False)}, '
            f'"data": {data}}}')


_set = OrderedDict.__setitem__  # Latest's setting less its size check, done by the caller
_string = json.encoder.encode_basestring  # a string as json.dumps(..., ensure_ascii=False) writes it


def _flat_json(fields) -> str | None:
    """A card's values as json.dumps writes them, when they are only strings, integers and
    nulls under string keys (a card file's row): without building an encoder for each card.
    None for anything else."""
    items = []
    for key, value in fields.items():
        if key.__class__ is not str:
            return None
        kind = value.__class__
        if kind is str:
            items.append(f"{_string(key)}: {_string(value)}")
        elif kind is int:
            items.append(f"{_string(key)}: {int.__repr__(value)}")
        elif value is None:
            items.append(f"{_string(key)}: null")
        else:
            return None
    return "{" + ", ".join(items) + "}"


def _slot_line(slot) -> str:
    # shape is a word of cardgen's own (rect, circle): no escaping
    return (f'{{"x_mm": {round(slot.x, 4)!r}, "y_mm": {round(slot.y, 4)!r}, "w_mm": {round(slot.w, 4)!r}, '
            f'"h_mm": {round(slot.h, 4)!r}, "shape": "{slot.shape.split(":")[0]}", "rotation": {slot.rotation}}}')


def expand(document: dict) -> dict:
    """A manifest of any format with its faces in full (format 1's objects): the document
    itself when it is already so. Raises ValueError, KeyError, IndexError or TypeError on a
    format 2 manifest whose faces and tables do not agree."""
    if document.get("format") is None:
        return document
    if document["format"] != FORMAT:
        raise ValueError(f"manifest format {document['format']!r} (this cardgen reads 1 and {FORMAT})")
    cards, slots, hashes = document["cards"], document["slots"], document["hashes"]
    faces = []
    for card, copy, side, page, slot, digest in document["faces"]:
        entry = cards[card]
        faces.append({"card": entry["card"], "type": entry["type"], "copy": copy, "side": side, "page": page,
                      **{field: slots[slot][field] for field in SLOT_FIELDS}, "hash": hashes[digest],
                      "data": entry["data"]})
    shared = ("format", "face_fields", "cards", "slots", "hashes")
    return {k: faces if k == "faces" else v for k, v in document.items() if k not in shared}


def load_manifest(path: Path | str) -> dict:
    """The manifest at ``path`` (JSON, format 1 or 2), its faces in full (see ``expand``)."""
    return expand(json.loads(Path(path).read_text(encoding="utf-8")))
