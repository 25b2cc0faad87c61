"""What a TrueType file's own structure says of its soundness, checked before reportlab reads it.

reportlab reads a damaged font without a word: a flipped byte in the glyph outlines prints a
wrong letter, one in the character map can ask it for billions of characters (a build that
took 8 GB before it was stopped). Each table the PDF carries or the build measures by carries a
checksum in the file's table directory: a table whose content does not add up to it was changed
after the font was made. And the character map may not map more characters than Unicode has.
The check reads each table once (a few milliseconds a face), on a font's first reading only (a
font read before is known by its content: parsed.py).
"""
from __future__ import annotations

import sys
from array import array
from struct import error as StructError, unpack_from

# the tables reportlab reads to measure text, and those it copies into the PDF's subsets
CHECKED = ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap", "name", "OS/2", "post", "cvt ", "fpgm", "prep")
UNICODE = 0x110000  # code points
DAMAGED = "the file is damaged or not a TrueType font"


class DamagedFont(Exception):
    """Why a font file cannot be trusted (the message reads after "cannot read font: ")."""


def check_font(data: bytes) -> None:
    """Raise DamagedFont if ``data`` (a TrueType file) is visibly damaged. A file that does not
    start as a TrueType font is left to reportlab, which says what it is not."""
    if data[:4] not in (b"\0\1\0\0", b"true", b"ttcf"):
        return
    try:
        tables = _directory(data)
        for tag in CHECKED:
            if tag in tables:
                _checksum(data, tag, *tables[tag])
        if "cmap" in tables:
            _character_map(data, *tables["cmap"][1:])
        if "loca" in tables and "glyf" in tables and "head" in tables and "maxp" in tables:
            _glyph_locations(data, tables)
    except StructError:
        raise DamagedFont(DAMAGED) from None


def _directory(data: bytes) -> dict[str, tuple[int, int, int]]:
    """Tag -> (checksum, offset, length), each table inside the file."""
    if data[:4] == b"ttcf":
        offset = unpack_from(">L", data, 12)[0]  # the first font of a collection, as cardgen uses
    else:
        offset = 0
    count = unpack_from(">H", data, offset + 4)[0]
    tables = {}
    for index in range(count):
        tag, checksum, start, length = unpack_from(">4sLLL", data, offset + 12 + 16 * index)
        name = tag.decode("latin-1")
        if start + length > len(data):
            raise DamagedFont(DAMAGED)  # cut short, as a rule
        tables[name] = (checksum, start, length)
    return tables


def _checksum(data: bytes, tag: str, expected: int, start: int, length: int) -> None:
    table = data[start:start + length]
    if tag == "head" and length >= 12:
        table = table[:8] + b"\0\0\0\0" + table[12:]  # checkSumAdjustment counts as 0 in its table's sum
    words = array("L" if array("L").itemsize == 4 else "I", table + b"\0" * (-len(table) % 4))
    if sys.byteorder == "little":
        words.byteswap()
    total = sum(words) & 0xFFFFFFFF
    if total != expected:
        raise DamagedFont(f'its "{tag.strip()}" table is damaged (its checksum does not match the '
                          f"file's table directory)")


def _character_map(data: bytes, start: int, length: int) -> None:
    """Every subtable of formats 4, 12 and 13 (those that map ranges) maps at most as many
    characters as Unicode has: reportlab lists each one."""
    count = unpack_from(">H", data, start + 2)[0]
    for index in range(count):
        offset = start + unpack_from(">L", data, start + 4 + 8 * index + 4)[0]
        form = unpack_from(">H", data, offset)[0]
        mapped = 0
        if form == 4:
            segments = unpack_from(">H", data, offset + 6)[0] // 2
            ends = unpack_from(f">{segments}H", data, offset + 14)
            starts = unpack_from(f">{segments}H", data, offset + 16 + 2 * segments)
            mapped = sum(max(0, end - first + 1) for first, end in zip(starts, ends))
        elif form in (12, 13):
            groups = unpack_from(">L", data, offset + 12)[0]
            if offset + 16 + 12 * groups > len(data):
                raise DamagedFont("its character map (cmap) is damaged: it lists more ranges than the file holds")
            for group in range(groups):
                first, end = unpack_from(">LL", data, offset + 16 + 12 * group)
                if end >= UNICODE:
                    raise DamagedFont(f"its character map (cmap) is damaged: it maps character {end:#x}, "
                                      "beyond Unicode")
                mapped += max(0, end - first + 1)
        if mapped > UNICODE:
            raise DamagedFont(f"its character map (cmap) is damaged: it maps {mapped:,} characters, "
                              "more than Unicode has")


def _glyph_locations(data: bytes, tables: dict) -> None:
    """Each glyph's outline lies inside the glyph table, after the one before it."""
    index_format = unpack_from(">h", data, tables["head"][1] + 50)[0]
    glyphs = unpack_from(">H", data, tables["maxp"][1] + 4)[0]
    start, length = tables["loca"][1:]
    if index_format == 0 and 2 * (glyphs + 1) <= length:
        locations = [2 * value for value in unpack_from(f">{glyphs + 1}H", data, start)]
    elif index_format == 1 and 4 * (glyphs + 1) <= length:
        locations = list(unpack_from(f">{glyphs + 1}L", data, start))
    else:
        raise DamagedFont("its glyph locations (loca) are damaged: fewer than its glyphs")
    glyf = tables["glyf"][2]
    if any(b < a for a, b in zip(locations, locations[1:])) or locations[-1] > glyf:
        raise DamagedFont("its glyph locations (loca) are damaged: they point outside the glyph table")
