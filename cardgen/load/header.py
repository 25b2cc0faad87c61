"""The names a card file gives its columns (a table's header row) and its cards' fields: those
that are no name (empty, twice, an invisible character in them), and those that look like one
cardgen reads and are not it."""
from __future__ import annotations

import unicodedata
from typing import Any

from ..errors import Source, fail
from ..lookalikes import difference


_INVISIBLE = ("Cc", "Cf", "Cs")  # control and format characters: a NUL, a byte-order mark, a zero width space


def hidden_character(name: str) -> str | None:
    """The message for a column or field name holding an invisible character ("co\\0unt" is no
    `count`: the copies were taken as 1, without a word), or None."""
    hidden = next((c for c in name if unicodedata.category(c) in _INVISIBLE), None)
    if hidden is None:
        return None
    visible = "".join(c for c in name if unicodedata.category(c) not in _INVISIBLE)
    return f'holds the invisible character U+{ord(hidden):04X}: delete it; as it is, it is not "{visible}"'


READ_BY_NAME = ("name", "count")  # the columns cardgen itself reads (a card's `type` may come from set.yaml)


def read_by_another_name(name: str, names) -> str | None:
    """The message for a column or field name that looks like one cardgen reads and is not it
    ("Count": every card was printed once, without a word; "Name": each card "has no name"),
    or None. Not when ``names`` (the header, the card's fields) hold the one it reads too."""
    for read in READ_BY_NAME:
        how = difference(name, read)
        if how is not None and read not in names:
            return f'is "{name}", not `{read}`: it differs {how}, and cardgen reads `{read}` by that exact name ' \
                   f'(rename it "{read}")'
    return None


def header(cells: list[Any], source: Source) -> list[str]:
    """The column names; empty cells after the last name are no columns: a spreadsheet saves
    them where a cell past the table was formatted (a bold header row), and exports them to CSV
    as trailing commas. A row with a value under one is refused as a row longer than the header."""
    header = [str(c).strip() if c is not None else "" for c in cells]
    while header and not header[-1]:
        header.pop()
    for column, title in enumerate(header, start=1):
        if not title:
            raise fail(f"column {column} of the header row has no name", source)
        hidden = hidden_character(title)
        if hidden is not None:
            raise fail(f"column {column} of the header row {hidden}", source)
        alike = read_by_another_name(title, header)
        if alike is not None:
            raise fail(f"column {column} of the header row {alike}", source)
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise fail(f"header names a column twice: {', '.join(duplicates)}", source)
    return header
