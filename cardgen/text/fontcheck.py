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
# the tables reportlab cannot measure or cut a subset without: a font lacking one was read, or
# failed deep in the PDF's writing ("internal error: KeyError('glyf')")
REQUIRED = ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap", "name", "post")
UNICODE = 0x110000  # code points
DAMAGED = "the file is damaged or not a TrueType font"

# The fonts cardgen ships (fonts/), by the SHA-256 of their bytes: each passes the check
# (tests/text/test_font_damage.py checks them again, and that these are the folder's own). A
# font of one of these contents, the shipped file or a project's copy of it, is not summed
# again: the check costs a first build about 4 ms a face, before its workers can start.
SHIPPED_SOUND = frozenset({
    "0d977336a6d5fba34eab8e3199eb218327161b5143749f802982c2bc34df0c96",  # DejaVuSans-Bold.ttf
    "b7479266f14d71a019f79cb0ccc23acb6b130483317f7fff16182a0784031c9b",  # DejaVuSans-BoldOblique.ttf
    "eef1a593cc0a4654f147fd1aa9a11e7d327eb8be6f3a35099182db6aeb5d28fe",  # DejaVuSans-Oblique.ttf
    "abdc775b21b1bc470d50c97e790d276f2054b7504e56e5bd3e64f48d68582322",  # DejaVuSans.ttf
    "6d2f2481e2aae944e8411cc5be515c69503ff7f5db52f2c67bcbe5d4de6bec13",  # DejaVuSansCondensed-Bold.ttf
    "a0c1e726e901341f5b0a0ecae0696fef44de9a004768ba71d69909938caa1421",  # DejaVuSansCondensed-BoldOblique.ttf
    "e35007c431fa7d6c8c8b1aeac60bd68ac14869bb7ed70959c6f027e4cdfa8d35",  # DejaVuSansCondensed-Oblique.ttf
    "2d8aa290adcf1ebcbb35f63e57cf32941b012eaab4b65096b904112cf3bac972",  # DejaVuSansCondensed.ttf
    "e2fd85eba2de65ac270d1cdb1685e252eb827f600850cf62af2d20c41b22e945",  # DejaVuSerif-Bold.ttf
    "c84b722b8da77cb96873a801c9ad1bc3b75d0c847c718696898878f33186c657",  # DejaVuSerif-BoldItalic.ttf
    "889a2b9daff9f091f7cf1ff6c88e5c1a5b55b3afb221571393ccb71ec9301ec9",  # DejaVuSerif-Italic.ttf
    "13e61509f5c81d7c3132810f4f903e3523df89c802bf6e0674621e8f659cdfe1",  # DejaVuSerif.ttf
})


class DamagedFont(Exception):
    """Why a font file cannot be trusted (the message reads after "cannot read font: ")."""


def check_font(data: bytes) -> None:
    """Raise DamagedFont if ``data`` (a TrueType file) is visibly damaged. A file that does not
    start as a TrueType font is left to reportlab, which says what it is not."""
    if data[:4] not in (b"\0\1\0\0", b"true", b"ttcf"):
        return
    try:
        tables = _directory(data)
        missing = next((tag for tag in REQUIRED if tag not in tables), None)
        if missing is not None:
            raise DamagedFont(f'it has no "{missing}" table, which every TrueType font holds (a damaged or '
                              "incomplete file)")
        for tag in CHECKED:
            if tag in tables:
                _checksum(data, tag, *tables[tag])
        _units_per_em(data, tables["head"][1])
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


def _units_per_em(data: bytes, head: int) -> None:
    """The font's unit, which every width and outline is measured in: 16 to 16,384 a font size
    (the OpenType rule). reportlab divides by it: 0 failed as a damaged file, without a reason."""
    units = unpack_from(">H", data, head + 18)[0]
    if not 16 <= units <= 16384:
        raise DamagedFont(f"its units per em (head table) are {units}, outside the 16 to 16,384 a font may have "
                          "(a damaged file?)")


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
