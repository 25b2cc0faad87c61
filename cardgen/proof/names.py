"""File names for face images: ``<card slug>-<copy>-<side>.png``, unique within a set."""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "card"


def card_slugs(names: Iterable[str]) -> dict[str, str]:
    """A slug per card name, in order; names that slug alike get -2, -3... after the first."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        if name in slugs:
            continue
        base = candidate = slug(name)
        number = 1
        while candidate in taken:
            number += 1
            candidate = f"{base}-{number}"
        slugs[name] = candidate
        taken.add(candidate)
    return slugs


def face_file(card_slug: str, copy: int, side: str) -> str:
    return f"{card_slug}-{copy}-{side}.png"
