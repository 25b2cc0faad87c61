"""A font file damaged after it was made: a table whose content no longer adds up to the checksum
the file lists for it, a character map that asks for more characters than Unicode has, glyph
locations outside the glyph table. Each is one line naming the file, before anything is drawn
with it; the earlier output stays as it was."""
from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest
from fontTools.ttLib.sfnt import calcChecksum

from cardgen.paths import shipped_folder
from cardgen.text import parsed
from cardgen.text.fontcheck import SHIPPED_SOUND, check_font
from cardgen.text.fonts import file_digest
from demobuild import built, demo_build, intact  # noqa: F401 (built, demo_build: fixtures)
from test_hostile import cardgen as limited_cardgen

FONT = "fonts/DejaVuSans.ttf"  # the demo's text font
CHECKSUM = "table is damaged (its checksum does not match the file's table directory)"


def tables(data: bytes) -> dict[str, tuple[int, int, int]]:
    """Tag -> (index in the directory, offset, length)."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        found[tag.decode("latin-1")] = (index, offset, length)
    return found


def with_checksums(data: bytes) -> bytes:
    """``data`` with every table's checksum in the directory made right again (fontTools' sum):
    damage that a checksum cannot show."""
    data = bytearray(data)
    for tag, (index, offset, length) in tables(bytes(data)).items():
        table = bytes(data[offset:offset + length])
        if tag == "head":
            table = table[:8] + bytes(4) + table[12:]
        struct.pack_into(">L", data, 12 + 16 * index + 4, calcChecksum(table))
    return bytes(data)


def damaged(project: Path, change) -> None:
    font = project / FONT
    data = bytearray(font.read_bytes())
    change(data, tables(bytes(data)))
    font.write_bytes(bytes(data))


def fails_with(project: Path, cli, before, message: str) -> None:
    result = cli(project, "build", "demo", "--no-cache")
    assert result.exit_code == 1
    # the text font is read before any card is drawn (the page's own text): no card is named
    assert result.stderr.splitlines() == [f"{FONT}: cannot read font: {message}", "cardgen: 1 error, 0 warnings"]
    intact(project, before)


@pytest.mark.parametrize("tag", ["glyf", "cmap", "hmtx", "loca", "head", "name"])
def test_a_byte_changed_in_a_table_the_pdf_needs(built, cli, tag):
    project, before = built

    def flip(data, found):
        _, offset, length = found[tag]
        data[offset + length // 2] ^= 0x5A  # in the middle: past head's checksum adjustment

    damaged(project, flip)
    fails_with(project, cli, before, f'its "{tag}" {CHECKSUM}')


@pytest.mark.parametrize("tag", ["glyf", "head", "post"])
def test_a_table_the_pdf_needs_is_missing(built, cli, tag):
    # without glyf, reportlab measured the text and failed cutting the subset: "internal error: KeyError('glyf')"
    project, before = built

    def renamed(data, found):
        index = found[tag][0]
        data[12 + 16 * index:12 + 16 * index + 4] = b"zzzz"

    damaged(project, renamed)
    fails_with(project, cli, before, f'it has no "{tag}" table, which every TrueType font holds (a damaged or '
                                     "incomplete file)")


@pytest.mark.parametrize("units", [0, 8, 20000])
def test_units_per_em_outside_what_a_font_may_have(built, cli, units):
    # 0 was "the file is damaged or not a TrueType font", without a reason; 20,000 printed specks
    project, before = built

    def unit(data, found):
        struct.pack_into(">H", data, found["head"][1] + 18, units)
        data[:] = with_checksums(bytes(data))

    damaged(project, unit)
    fails_with(project, cli, before, f"its units per em (head table) are {units}, outside the 16 to 16,384 a font "
                                     "may have (a damaged file?)")


def test_a_table_the_pdf_never_reads_may_differ_from_its_checksum(built, cli):
    # kerning: neither measured nor embedded (the glyphs print as they were made)
    project, _ = built

    def flip(data, found):
        _, offset, length = found["kern"]
        data[offset + length // 2] ^= 0x5A

    damaged(project, flip)
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr


def _format_12(data, found) -> int:
    """The offset of the font's first cmap subtable of format 12 (characters beyond U+FFFF)."""
    _, cmap, _ = found["cmap"]
    for index in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        offset = cmap + struct.unpack_from(">L", data, cmap + 4 + 8 * index + 4)[0]
        if struct.unpack_from(">H", data, offset)[0] == 12:
            return offset
    raise AssertionError("DejaVu Sans has a format 12 character map")


def test_a_character_map_past_unicode_with_right_checksums(built, cli):
    project, before = built

    def widen(data, found):
        struct.pack_into(">L", data, _format_12(data, found) + 16 + 4, 0xFFFFFFFF)  # the first range's end
        data[:] = with_checksums(bytes(data))

    damaged(project, widen)
    fails_with(project, cli, before, "its character map (cmap) is damaged: it maps character 0xffffffff, beyond Unicode")


def test_a_character_map_that_maps_more_characters_than_unicode_has(built, cli):
    project, before = built
    ranges = []

    def widen(data, found):
        offset = _format_12(data, found)
        struct.pack_into(">L", data, offset + 16 + 4, 0x10FFFF)  # the first range reaches Unicode's end
        data[:] = with_checksums(bytes(data))
        for group in range(struct.unpack_from(">L", data, offset + 12)[0]):
            ranges.append(struct.unpack_from(">LL", data, offset + 16 + 12 * group))

    damaged(project, widen)
    mapped = sum(end - start + 1 for start, end in ranges)
    assert ranges[0] == (0x20, 0x10FFFF) and mapped > 0x110000
    fails_with(project, cli, before, f"its character map (cmap) is damaged: it maps {mapped:,} characters, "
                                     "more than Unicode has")


def test_a_character_map_past_unicode_is_refused_before_it_takes_the_memory(built):
    """reportlab lists every character a range maps: 4 billion of them took 8 GB and more before
    the build was stopped. Here the build runs under test_hostile's memory limit."""
    project, before = built

    def widen(data, found):
        offset = _format_12(data, found)
        for group in range(struct.unpack_from(">L", data, offset + 12)[0]):
            struct.pack_into(">LL", data, offset + 16 + 12 * group, 0, 0xFFFFFFF0)
        data[:] = with_checksums(bytes(data))

    damaged(project, widen)
    result = limited_cardgen(project, "build", "demo", "--no-cache")
    assert (result.returncode, result.stderr.splitlines()) == (1, [
        f"{FONT}: cannot read font: its character map (cmap) is damaged: it maps character 0xfffffff0, beyond Unicode",
        "cardgen: 1 error, 0 warnings"])
    intact(project, before)


def test_glyph_locations_outside_the_glyph_table_with_right_checksums(built, cli):
    project, before = built

    def past_the_end(data, found):
        _, loca, length = found["loca"]
        assert struct.unpack_from(">h", data, found["head"][1] + 50)[0] == 1  # long offsets
        struct.pack_into(">L", data, loca + length - 4, found["glyf"][2] + 4)  # the end of the last glyph
        data[:] = with_checksums(bytes(data))

    damaged(project, past_the_end)
    fails_with(project, cli, before, "its glyph locations (loca) are damaged: they point outside the glyph table")


def test_a_font_cut_short_keeps_its_message(built, cli):
    project, before = built
    font = project / FONT
    font.write_bytes(font.read_bytes()[:len(font.read_bytes()) // 2])
    fails_with(project, cli, before, "the file is damaged or not a TrueType font")


def test_the_fonts_known_sound_are_the_ones_cardgen_ships():
    """A font of the very bytes of one cardgen ships is not checked again (SHIPPED_SOUND): the
    list is the shipped folder's fonts, no more and no fewer, and each passes the check."""
    digests = set()
    for path in sorted(shipped_folder().glob("*.ttf")):
        data = path.read_bytes()
        check_font(data)  # raises DamagedFont
        digests.add(hashlib.sha256(data).hexdigest())
    assert digests == SHIPPED_SOUND


def test_a_copy_of_a_shipped_font_is_not_checked_again_a_changed_one_is(tmp_path, monkeypatch):
    checked = []
    monkeypatch.setattr(parsed, "check_font", lambda data: checked.append(data))
    data = (shipped_folder() / "DejaVuSans.ttf").read_bytes()
    copy, changed = tmp_path / "copy.ttf", tmp_path / "changed.ttf"
    copy.write_bytes(data)
    _, offset, length = tables(data)["kern"]  # a table neither measured nor embedded: the font still reads
    changed.write_bytes(data[:offset] + bytes([data[offset] ^ 0x5A]) + data[offset + 1:])
    assert parsed.load_ttf("Copy", copy, file_digest(copy), None).face.charWidths
    assert checked == []
    assert parsed.load_ttf("Changed", changed, file_digest(changed), None).face.charWidths
    assert checked == [changed.read_bytes()]
