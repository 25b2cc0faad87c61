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
