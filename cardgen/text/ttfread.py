"""reportlab's reading of a TrueType font, its slow part done in bulk.

reportlab's ``TTFontFile`` walks the character map, the metrics and the glyph locations one
number at a time (a method call and an ``unpack`` each): about 20 ms for a DejaVu face, the
largest part of a first build's fixed cost. Here reportlab reads the font's header tables
itself (``charInfo=0``), and the three large tables are read with one ``unpack_from`` each,
giving exactly the values reportlab would (tests/text/test_ttfread.py compares every value
for every font in fonts/). Anything unusual (another cmap format, a broken table) is left to
reportlab: ``read_face`` then returns None.
"""
from __future__ import annotations

from pathlib import Path
from struct import error as StructError, unpack_from

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFontFace, TTFontFile


def read_face(path: Path) -> TTFontFace | None:
    """``TTFontFace(path)``, or None when reportlab must read this font itself."""
    face = TTFontFace.__new__(TTFontFace)
    pdfmetrics.TypeFace.__init__(face, None)
    try:
        TTFontFile.__init__(face, str(path), charInfo=0)
        return face if _read_char_info(face) else None
    except (TTFError, StructError, KeyError, IndexError, ValueError):
        return None


def _read_char_info(face: TTFontFace) -> bool:
    """What ``extractInfo`` reads after the header tables when ``charInfo`` is true."""
    data, tables = face._ttf_data, face.table
    index_to_loc_format, glyph_data_format = unpack_from(">HH", data, tables["head"]["offset"] + 50)
    number_of_hmetrics = unpack_from(">H", data, tables["hhea"]["offset"] + 34)[0]
    if glyph_data_format != 0 or number_of_hmetrics == 0 or "loca" not in tables:
        return False
    mapped = _cmap(data, tables["cmap"]["offset"])
    if mapped is None:
        return False
    char_to_glyph, glyph_to_char = mapped
    face.charToGlyph, face.glyphToChar = char_to_glyph, glyph_to_char
    _hmtx(face, data, tables["hmtx"]["offset"], number_of_hmetrics)
    count = face.numGlyphs + 1
    loca = tables["loca"]["offset"]
    if index_to_loc_format == 0:
        face.glyphPos = [position << 1 for position in unpack_from(f">{count}H", data, loca)]
    elif index_to_loc_format == 1:
        face.glyphPos = list(unpack_from(f">{count}L", data, loca))
    else:
        return False
    widths = face.charWidths
    if 0x20 in char_to_glyph:
        char_to_glyph[0xA0] = char_to_glyph[0x20]
        widths[0xA0] = widths[0x20]
    elif 0xA0 in char_to_glyph:
        char_to_glyph[0x20] = char_to_glyph[0xA0]
        widths[0x20] = widths[0xA0]
    return True


def _cmap(data: bytes, cmap: int) -> tuple[dict, dict] | None:
    """The character map reportlab would choose, formats 4 and 12 (what fonts/ holds)."""
    version, count = unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count, version = version, count
    chosen, kind = None, 0
    for n in range(count):  # reportlab's choice: the last entry of the best kind
        platform, encoding, offset = unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3:
            kind, chosen = 1, offset
        elif platform == 1 and encoding == 0 and kind != 1:
            kind, chosen = 2, offset
        elif platform == 1 and encoding == 1:
            kind, chosen = 1, offset
        elif platform == 0 and encoding != 5:
            kind, chosen = 1, offset
    if chosen is None:
        return None
    table = cmap + chosen
    form = unpack_from(">H", data, table)[0]
    char_to_glyph: dict[int, int] = {}
    glyph_to_char: dict[int, list[int]] = {}
    if form == 4:
        length = unpack_from(">H", data, table + 2)[0]
        limit = table + length
        seg2 = unpack_from(">H", data, table + 6)[0]
        segments = seg2 // 2
        ends = unpack_from(f">{segments}H", data, table + 14)
        starts = unpack_from(f">{segments}H", data, table + 16 + 2 * segments)
        deltas = unpack_from(f">{segments}h", data, table + 16 + 4 * segments)
        range_start = table + 16 + 6 * segments
        range_offsets = unpack_from(f">{segments}H", data, range_start)
        for n in range(segments):
            start, delta, range_offset = starts[n], deltas[n], range_offsets[n]
            for char in range(start, ends[n] + 1):
                if range_offset == 0:
                    glyph = (char + delta) & 0xFFFF
                else:
                    offset = range_start + 2 * n + (char - start) * 2 + range_offset
                    if offset >= limit:  # reportlab's workaround for broken fonts
                        glyph = 0
                    else:
                        glyph = unpack_from(">H", data, offset)[0]
                        if glyph != 0:
                            glyph = (glyph + delta) & 0xFFFF
                char_to_glyph[char] = glyph
                glyph_to_char.setdefault(glyph, []).append(char)
    elif form == 12:
        groups = unpack_from(">L", data, table + 12)[0]
        for n in range(groups):
            start, end, first = unpack_from(">LLL", data, table + 16 + 12 * n)
            for char in range(start, end + 1):
                glyph = char + first - start
                char_to_glyph[char] = glyph
                glyph_to_char.setdefault(glyph, []).append(char)
    else:
        return None
    return char_to_glyph, glyph_to_char


def _hmtx(face: TTFontFace, data: bytes, hmtx: int, metrics: int) -> None:
    """Advance widths (scaled to 1/1000 em, by character) and the raw metrics, as reportlab
    keeps them: glyphs past ``metrics`` repeat the last width, already scaled."""
    scale = face._pdfScale
    pairs = unpack_from(f">{2 * metrics}H", data, hmtx)
    advances = pairs[0::2]
    hmetrics = face.hmetrics = list(zip(advances, pairs[1::2]))
    last = scale(advances[-1])
    rest = face.numGlyphs - metrics
    if rest > 0:
        hmetrics.extend((last, bearing) for bearing in unpack_from(f">{rest}H", data, hmtx + 4 * metrics))
    face.defaultWidth = scale(advances[0])
    widths = face.charWidths = {}
    glyph_to_char = face.glyphToChar
    for glyph in sorted(glyph_to_char):  # in glyph order, as reportlab fills it
        if glyph < len(hmetrics):
            width = scale(advances[glyph]) if glyph < metrics else last
            for char in glyph_to_char[glyph]:
                widths[char] = width
