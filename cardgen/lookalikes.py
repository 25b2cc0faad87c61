"""Names that look the same to a person and differ to the file system: case, Unicode
composition (NFC or NFD: macOS writes file names decomposed, most editors type them composed),
spaces around a name, invisible characters. A file or set named one way and there the other
was said "not found" with both names printed alike, and the designer saw the file right there.
"""
from __future__ import annotations

import os
import unicodedata
from pathlib import Path


_WAYS = (("invisible", "in invisible characters"), ("spaces", "in spaces at its start or end"),
         ("composition", "in how its accents are stored: Unicode NFC against NFD, the same letters in other bytes"),
         ("case", "in case"))


def _key(name: str, keep: str | None = None) -> str:
    """What stays of a name when invisible characters, outer spaces, composition and case go
    (all but ``keep``)."""
    if keep != "invisible":
        name = "".join(c for c in name if unicodedata.category(c) != "Cf")
    if keep != "spaces":
        name = name.strip()
    if keep != "composition":
        name = unicodedata.normalize("NFC", name)
    if keep != "case":
        name = unicodedata.normalize("NFC", name.casefold()) if keep != "composition" else name.casefold()
    return name


def difference(written: str, there: str) -> str | None:
    """How ``there`` differs from ``written`` when the two look alike ("in case", "in spaces at
    its start or end", ...), else None (they are equal, or not alike)."""
    if written == there or _key(written) != _key(there):
        return None
    ways = [words for way, words in _WAYS if _key(written, keep=way) != _key(there, keep=way)]
    return " and ".join(ways) if ways else None


def alike_in(names, written: str) -> tuple[str, str] | None:
    """The one name of ``names`` that looks like ``written`` and differs from it, with how it
    differs; None when there is none, or more than one."""
    found = [(name, difference(written, name)) for name in names]
    found = [(name, how) for name, how in found if how is not None]
    return found[0] if len(found) == 1 else None


def alike_on_disk(path: Path | str) -> str:
    """For a path not found: ' (the folder holds "sea.svg", which differs in case)' when the
    first part of it that is missing has a look-alike in its folder, else "". Only folders
    on the path's own way are listed."""
    path = Path(os.path.abspath(path))
    parts = path.parts
    for depth in range(1, len(parts)):
        folder = Path(*parts[:depth])
        here = folder / parts[depth]
        if os.path.lexists(here):
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            return ""
        alike = alike_in(names, parts[depth])
        if alike is None:
            return ""
        what = "file" if depth == len(parts) - 1 else "folder"
        return f' (its folder holds the {what} "{alike[0]}", which differs {alike[1]})'
    return ""
