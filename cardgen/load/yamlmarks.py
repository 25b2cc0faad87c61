"""Where a YAML card file's cards may be read from, as its check reads them: a build's worker
process passes over the other workers' chunks (cursor.py) by reading from the card just before
its own, as it does in a CSV file.

A file that libyaml read whole (yamlstream.card_entries: nothing in it only read_yaml may read)
as a list in block style at its top, the README's first example, has a place where each card
may be read from: the start of the line of its list item's "-", when nothing comes before that
on its line but spaces. From there on, the text is the rest of that list, and libyaml reads it
as a list of its own, each card as a reading from the start gives it; only the lines are counted
from that card's (yamlstream.card_entries_from).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

_ITEM_START = re.compile(rb" *- ")  # (a tab, a byte order mark: never in a file read so)


def item_offsets(path: Path, lines: Iterable[int]) -> list[int]:
    """For each of ``lines`` (1-based, in order, each the line of a card's mapping), the byte
    offset at which the line starts if it holds that card's list item from its start (``- ``,
    after spaces), else -1. Lines end as libyaml counts them in a file it read whole: at "\\n"."""
    offsets: list[int] = []
    number, at, text = 0, 0, b""  # the line read last, where it starts and its bytes
    with open(path, "rb") as handle:
        for line in lines:
            while number < line and (number == 0 or text):
                at += len(text)
                text = handle.readline()
                number += 1
            offsets.append(at if number == line and _ITEM_START.match(text) else -1)
    return offsets
