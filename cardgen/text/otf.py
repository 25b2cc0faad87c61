"""OpenType fonts with PostScript (CFF) outlines, made TrueType once.

reportlab embeds and subsets only TrueType outlines (``glyf``). An ``.otf`` file with CFF
outlines, the common format of free fonts, is converted with fontTools: every cubic curve
becomes quadratic ones within ``MAX_ERROR`` font units, which no print can show, and the metrics, character map and names stay as they are. The result is
written once, named by the source file's content hash and fontTools' version, and used from
then on (``.cardgen-cache/fonts/`` of the project). With the cache off it is written to a
private temporary folder of the build and read at once: never to a shared folder under a name
another user could write first. The conversion itself is deterministic: the same file gives the
same bytes.
"""
from __future__ import annotations

from pathlib import Path

from ..write.atomic import staged

MAX_ERROR = 1.0  # font units (of usually 1,000 an em): 0.004 mm at 10 pt


def is_cff(path: Path) -> bool:
    """Whether the file is OpenType with CFF outlines (it starts with the tag ``OTTO``)."""
    with open(path, "rb") as handle:
        return handle.read(4) == b"OTTO"


def truetype_copy(path: Path, digest: str, folder: Path) -> Path:
    """The TrueType version of the CFF font at ``path`` (content hash ``digest``), made once in
    ``folder`` (a cache's ``fonts/``, or a private temporary folder)."""
    import fontTools

    target = folder / f"{digest}-fonttools{fontTools.version}.ttf"
    if not target.is_file():
        data = _converted(path)
        with staged(target) as (temporary,):
            temporary.write_bytes(data)
    return target


def _converted(path: Path) -> bytes:
    import logging

    # fontTools logs what it finds odd in a font ("Glyph 'x' has a huge advance width") to the
    # terminal, a line in no form of cardgen's, between a build's own lines: what matters is refused
    # (an exception), the rest is the font's as made
    fonttools_log = logging.getLogger("fontTools")
    level = fonttools_log.level
    fonttools_log.setLevel(logging.ERROR)
    try:
        return _converted_quietly(path)
    finally:
        fonttools_log.setLevel(level)


def _converted_quietly(path: Path) -> bytes:
    import io

    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(path, recalcTimestamp=False, recalcBBoxes=True)
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    for table in ("VORG", "CFF2"):
        if table in font:
            del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyphs.items():  # left side bearings follow the new outlines' bounds
        advance, _ = hmtx[name]
        hmtx[name] = (advance, glyph.xMin if hasattr(glyph, "xMin") else 0)
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for key in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                "maxStackElements", "maxSizeOfInstructions"):
        setattr(maxp, key, 0)
    maxp.maxComponentElements = max((len(getattr(g, "components", ()) or ()) for g in glyphs.values()), default=0)
    maxp.compile(font)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()
