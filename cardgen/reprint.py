"""Reprints: the faces whose content changed since an earlier manifest, and a changelog page.

A face is known by (card name, copy, side) and compared by its content hash (the manifest's
"hash"). A card copy is reprinted whole, front and back, when either side changed or is new:
a card is one piece of card stock, so a changed front needs its back printed too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth

from .errors import Source, fail
from .model import Face
from .write.manifest import FORMAT as MANIFEST_FORMAT, expand

Pair = tuple[Face, "Face | None"]
FaceKey = tuple[str, int, str]  # card name, copy, side
LETTER = (612.0, 792.0)  # points


@dataclass(frozen=True)
class Changelog:
    since: str  # the earlier manifest's file name
    since_version: str
    added: tuple[str, ...]  # card names, in the order of the new build
    removed: tuple[str, ...]  # in the order of the earlier manifest
    changed: tuple[str, ...]
    faces: int  # faces reprinted

    @property
    def page(self) -> Callable:
        """The changelog page, for ``write_pdf``'s extra pages."""
        return changelog_page(self)

    def as_json(self) -> dict:
        return {"since": self.since, "since_version": self.since_version, "added": list(self.added),
                "removed": list(self.removed), "changed": list(self.changed), "faces": self.faces}


def read_manifest(path: Path) -> dict:
    """An earlier full build's manifest; CardgenError naming the file when it is not one."""
    path = Path(path)
    where = Source(str(path))
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise fail(f"cannot read the manifest: {error.strerror}", where) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"not a cardgen manifest (not JSON: {error})", where) from None
    if isinstance(document, dict) and document.get("format") is not None and isinstance(document.get("faces"), list):
        if document["format"] != MANIFEST_FORMAT:
            raise fail(f"a manifest of format {document['format']!r}, which this cardgen does not read "
                       f"(1 and {MANIFEST_FORMAT}): rebuild it first", where)
        try:
            document = expand(document)
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise fail(f"not a cardgen manifest (its faces and tables do not agree: {error})", where) from None
    if not isinstance(document, dict) or not isinstance(document.get("faces"), list) or "set" not in document:
        raise fail('not a cardgen manifest (no "set" and "faces")', where)
    if "changelog" in document:
        raise fail("is the manifest of a reprint (only the faces changed then): "
                   "compare with the manifest of a full build", where)
    for number, entry in enumerate(document["faces"], 1):
        if (not isinstance(entry, dict) or not all(k in entry for k in ("card", "copy", "side"))
                or isinstance(entry["copy"], bool) or not isinstance(entry["copy"], int)):
            raise fail(f"face {number}: not a cardgen manifest entry (needs card, copy, side)", where)
        if not entry.get("hash"):
            raise fail(f'face {number} ("{entry["card"]}") has no content hash: '
                       "the manifest is from an older cardgen; rebuild it first", where)
    return document


def face_hashes(entries: Iterable[dict]) -> dict[FaceKey, str]:
    return {(str(e["card"]), int(e["copy"]), str(e["side"])): str(e["hash"]) for e in entries}


def _set_of(pairs: Sequence[Pair]) -> str | None:
    """The set the faces come from, read from their data file's path (data/<set>/...)."""
    for front, _ in pairs:
        parts = Path(front.card.source.file).parts
        if len(parts) >= 2 and parts[0] == "data":
            return parts[1]
    return None


def compare(old: dict[FaceKey, str], new: dict[FaceKey, str]) -> tuple[list[str], list[str], list[str]]:
    """(added, removed, changed) card names between two {(card, copy, side): hash} maps."""
    def by_card(faces: dict[FaceKey, str]) -> dict[str, set]:
        cards: dict[str, set] = {}
        for (card, copy, side), digest in faces.items():
            cards.setdefault(card, set()).add((copy, side, digest))
        return cards

    old_cards, new_cards = by_card(old), by_card(new)
    added = [name for name in new_cards if name not in old_cards]
    removed = [name for name in old_cards if name not in new_cards]
    changed = [name for name in new_cards if name in old_cards and new_cards[name] != old_cards[name]]
    return added, removed, changed


def _key(face: Face) -> FaceKey:
    return face.card.name, face.copy, face.side


def changed_pairs(pairs: Sequence[Pair], old_manifest: Path) -> tuple[tuple[Pair, ...], Changelog]:
    document = read_manifest(old_manifest)
    set_name = _set_of(pairs)
    if set_name is not None and document["set"] != set_name:
        raise fail(f'is the manifest of set "{document["set"]}", not of "{set_name}"', Source(str(old_manifest)))
    old = face_hashes(document["faces"])
    new = {_key(face): face.content_hash for pair in pairs for face in pair if face is not None}

    def copy_changed(pair: Pair) -> bool:
        front, back = pair
        sides = [face for face in (front, back) if face is not None]
        before = {side for (card, copy, side) in old if (card, copy) == (front.card.name, front.copy)}
        return before != {f.side for f in sides} or any(old.get(_key(f)) != f.content_hash for f in sides)

    subset = tuple(pair for pair in pairs if copy_changed(pair))
    added, removed, changed = compare(old, new)
    changelog = Changelog(Path(old_manifest).name, str(document.get("version", "")), tuple(added),
                          tuple(removed), tuple(changed), sum(1 for pair in subset for f in pair if f is not None))
    return subset, changelog


def _fit(lines: list[str], height: float) -> tuple[float, int, list[str]]:
    """(font size, columns, lines) so that the lists fit the page; the overflow is summed up."""
    for size in (10.0, 9.0, 8.0, 7.0, 6.0):
        for columns in (1, 2, 3):
            rows = int(height // (size * 1.3))
            if rows * columns >= len(lines):
                return size, columns, lines
    size, columns = 6.0, 3
    capacity = int(height // (size * 1.3)) * columns - 1
    rest = len(lines) - capacity
    return size, columns, lines[:capacity] + [f"... and {rest} more lines (see the manifest's changelog)"]


def _clip(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text + "..."


def changelog_lines(changelog: Changelog) -> list[str]:
    lines: list[str] = []
    for title, names in (("Added", changelog.added), ("Removed", changelog.removed), ("Changed", changelog.changed)):
        if lines:
            lines.append("")
        lines.append(f"{title} ({len(names)})")
        lines.extend(f"    {name}" for name in names or ["none"])
    return lines


def changelog_page(changelog: Changelog) -> Callable:
    """A page for ``write_pdf``'s extra pages: letter size, the title and the three lists."""
    def draw(canvas, font: str) -> None:
        width, height = LETTER
        margin = 54.0
        canvas.setPageSize(LETTER)
        canvas.setFillGray(0)
        canvas.setFont(font, 18)
        canvas.drawString(margin, height - margin - 18, "Reprint changelog")
        canvas.setFont(font, 10)
        since = f"since {changelog.since}" + (f" (version {changelog.since_version})" if changelog.since_version else "")
        canvas.drawString(margin, height - margin - 36,
                          f"{since}: {changelog.faces} face{'s' * (changelog.faces != 1)} reprinted")
        top = height - margin - 62
        size, columns, lines = _fit(changelog_lines(changelog), top - margin)
        column_width = (width - 2 * margin) / columns
        rows = -(-len(lines) // columns)
        canvas.setFont(font, size)
        for index, line in enumerate(lines):
            column, row = divmod(index, rows)
            x, y = margin + column * column_width, top - row * size * 1.3
            canvas.drawString(x, y, _clip(line, font, size, column_width - 8))
    return draw
