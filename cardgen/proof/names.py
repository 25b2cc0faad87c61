"""File names for face images: ``<card slug>-<copy>-<side>.png``, unique within a set."""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable


# letters that Unicode does not decompose into a Latin letter and a mark: dropped by the ASCII
# step below, they made "Größe Łódź" the file "groe-odz"; written as the languages spell them
# without the letter (German ss, Danish oe, ...)
_LATIN = str.maketrans({"ß": "ss", "ẞ": "SS", "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae",
                        "Œ": "OE", "œ": "oe", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th",
                        "ı": "i", "Ħ": "H", "ħ": "h", "Ŧ": "T", "ŧ": "t", "Ŋ": "N", "ŋ": "n", "ĸ": "k"})


def slug(name: str, empty: str = "card") -> str:
    """A name in lower-case ASCII letters and digits joined by "-" (``empty`` when none is left)."""
    ascii_name = unicodedata.normalize("NFKD", name.translate(_LATIN)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or empty


def card_slugs(names: Iterable[str | tuple[str, int]]) -> dict:
    """A slug per card name, in order; names that slug alike get -2, -3... after the first. A
    name may come as (name, n): the n-th card of that name (see ``card_rows``), a slug of its own."""
    slugs: dict = {}
    taken: set[str] = set()
    for name in names:
        if name in slugs:
            continue
        base = candidate = slug(name if name.__class__ is str else name[0])
        number = 1
        while candidate in taken:
            number += 1
            candidate = f"{base}-{number}"
        slugs[name] = candidate
        taken.add(candidate)
    return slugs


def card_rows(faces: Iterable[dict]) -> list[tuple[str, int]]:
    """(name, n) for each face (a manifest's, in order): the n-th card of that name it is on. Two
    rows of a set may name one card (each with its own text): their faces are told apart where a
    face of the name's last card (its copy and side) comes again, and each card gets files of its
    own, never one file for two faces."""
    met: dict[str, set] = {}  # name -> the (copy, side) of the faces of its last card
    rows: dict[str, int] = {}
    found = []
    for face in faces:
        name, which = face["card"], (face["copy"], face["side"])
        if which in met.setdefault(name, set()):
            met[name] = set()
        if not met[name]:
            rows[name] = rows.get(name, 0) + 1
        met[name].add(which)
        found.append((name, rows[name]))
    return found


def face_file(card_slug: str, copy: int, side: str) -> str:
    return f"{card_slug}-{copy}-{side}.png"
