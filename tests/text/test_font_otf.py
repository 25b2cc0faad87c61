"""OpenType CFF fonts: embedded with their own outlines, converted once (into the cache, or a
private folder without it), the same bytes each build; a family without an asked style named
as an error; a project family replacing a shipped one of its name."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from fontTools.pens.areaPen import AreaPen
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader

import cardgen
from cardgen import BuildOptions
from fontprojects import OTF, build, font_names, otf_project, page_fonts, project_without_fonts, use_font
from test_hostile import cardgen as fresh_cardgen


def _embedded_fonts(pdf: Path) -> dict[str, tuple[bytes, dict[int, str]]]:
    """Each embedded font of the PDF: its name -> (font file, code -> character from ToUnicode)."""
    fonts = {}
    for page in PdfReader(pdf).pages:
        for font in page_fonts(page):
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None or "/FontFile2" not in descriptor.get_object():
                continue
            data = descriptor.get_object()["/FontFile2"].get_object().get_data()
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            codes = {int(code, 16): chr(int(text, 16))
                     for code, text in re.findall(r"<([0-9A-F]{2})> <([0-9A-F]{4})>", cmap)}
            fonts[str(font["/BaseFont"])] = (data, codes)
    return fonts


def _outline(glyph_set, name: str) -> tuple[float, tuple]:
    area, bounds = AreaPen(glyph_set), BoundsPen(glyph_set)
    glyph_set[name].draw(area)
    glyph_set[name].draw(bounds)
    return area.value, bounds.bounds


def test_an_otf_font_prints_its_text_with_its_own_outlines(tmp_path, latin_otf):
    root = otf_project(tmp_path, latin_otf)
    result = build(root)
    # the text reads back as written, in the Cantarell face
    with pdfplumber.open(result.pdf) as pdf:
        chars = [c for c in pdf.pages[0].chars if "Cantarell" in c["fontname"]]
    assert "".join(c["text"] for c in chars).startswith("Draw two cards, then discard")
    # every glyph embedded is the OTF's glyph for that character: the same advance, the same
    # area and the same bounds (curves made quadratic within 1 unit of 1,000)
    embedded = {name: entry for name, entry in _embedded_fonts(result.pdf).items() if "Cantarell" in name}
    assert len(embedded) == 1
    (data, codes), = embedded.values()
    subset = TTFont(io.BytesIO(data))
    original = TTFont(OTF)
    assert original.sfntVersion == "OTTO" and "CFF " in original and "glyf" in subset
    subset_cmap = subset["cmap"].tables[0].cmap  # reportlab's subset: one table, code -> glyph
    original_cmap = original.getBestCmap()
    subset_glyphs, original_glyphs = subset.getGlyphSet(), original.getGlyphSet()
    checked = 0
    for code, char in codes.items():
        if char.isspace() or code not in subset_cmap:
            continue
        mine, theirs = subset_cmap[code], original_cmap[ord(char)]
        assert subset["hmtx"][mine][0] == original["hmtx"][theirs][0], char
        area, bounds = _outline(subset_glyphs, mine)
        original_area, original_bounds = _outline(original_glyphs, theirs)
        # TrueType contours run clockwise, CFF ones counter-clockwise: the same area, opposite sign
        assert -area == pytest.approx(original_area, rel=0.005), char
        assert all(abs(a - b) <= 1.5 for a, b in zip(bounds, original_bounds)), char
        checked += 1
    assert checked >= 15


def test_the_same_otf_font_builds_the_same_bytes(tmp_path, latin_otf):
    root = otf_project(tmp_path, latin_otf)
    first = cardgen.build(["demo"], root, root / "first").sets[0]
    second = cardgen.build(["demo"], root, root / "second", BuildOptions(cache=False)).sets[0]
    assert first.pdf.read_bytes() == second.pdf.read_bytes()


def test_without_the_cache_an_otf_font_is_converted_in_a_private_folder_and_nothing_stays(tmp_path, latin_otf):
    """A shared temporary folder under a fixed name could hold a file another user put there first:
    a --no-cache build converts in a folder of its own, reads the font at once and removes it."""
    root = otf_project(tmp_path, latin_otf)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = {**os.environ, "TMPDIR": str(temporary)}
    for out, flags in (("cold", ["--no-cache"]), ("cached", [])):
        done = subprocess.run([sys.executable, "-m", "cardgen", "build", "--out", out, *flags], cwd=root,
                              env=environment, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert list(temporary.iterdir()) == []
        assert (root / ".cardgen-cache").exists() == (out == "cached")
    assert (root / "cold/demo.pdf").read_bytes() == (root / "cached/demo.pdf").read_bytes()
    assert [p.name for p in (root / ".cardgen-cache/fonts").iterdir()][0].endswith(".ttf")


def test_an_otf_font_is_converted_once_into_the_cache(tmp_path, latin_otf):
    from cardgen.text.fonts import file_digest
    from cardgen.text.otf import truetype_copy

    digest = file_digest(latin_otf)
    made = truetype_copy(latin_otf, digest, tmp_path / "cache/fonts")
    assert made.parent == tmp_path / "cache/fonts" and made.name.startswith(digest)
    stamp = made.stat().st_mtime_ns
    assert truetype_copy(latin_otf, digest, tmp_path / "cache/fonts") == made and made.stat().st_mtime_ns == stamp
    again = truetype_copy(latin_otf, digest, tmp_path / "other")  # converted anew: the same bytes
    assert again.read_bytes() == made.read_bytes()
    assert TTFont(made).sfntVersion == "\x00\x01\x00\x00"


def test_a_family_without_the_asked_style_is_an_error_naming_family_and_face(tmp_path, cli, latin_otf):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(latin_otf, root / "fonts")
    use_font(root, "Cantarell", bold=True)
    result = cli(root, "check")
    assert result.exit_code == 1
    line = next(n for n, text in enumerate((root / "templates/demo/action.xml.j2").read_text().splitlines(), 1)
                if 'name="body"' in text)
    problems = [p for p in result.output.splitlines() if "Cantarell" in p]
    assert problems[0] == (f'templates/demo/action.xml.j2:{line}: card "Quick Draw": text box "body": font family '
                           '"Cantarell" has no bold face (fonts/ holds only: regular) (and 3 more cards)')
    assert len(problems) == 1  # one cause, one message (errors.collapse)


def test_bold_inside_rich_text_needs_a_bold_face_too(tmp_path, cli, latin_otf):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(latin_otf, root / "fonts")
    (root / "fonts/fonts.yaml").write_text("families:\n  Body:\n    regular: Cantarell-Regular.otf\n"
                                           "    italic: Cantarell-Regular.otf   # declared fallback\n")
    use_font(root, "Body")
    result = cli(root, "check")
    assert result.exit_code == 1
    problems = sorted({p.split(": ", 1)[1] for p in result.output.splitlines() if "Body" in p})
    # "Draw **two** cards, then discard *one*": the italic is declared, the bold is not
    assert problems == ['card "Quick Draw": text box "body": font family "Body" has no bold face '
                        '(fonts/fonts.yaml:2 names only: regular, italic)']


def test_a_project_family_replaces_a_shipped_one_of_the_same_name(tmp_path, cli, latin_otf):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(latin_otf, root / "fonts")
    (root / "fonts/fonts.yaml").write_text(
        "families:\n  DejaVu Sans:\n    regular: Cantarell-Regular.otf\n    bold: Cantarell-Regular.otf\n"
        "    italic: Cantarell-Regular.otf\n    bold-italic: Cantarell-Regular.otf\n")
    set_yaml = root / "data/demo/set.yaml"  # the icons' glyphs are not in Cantarell
    set_yaml.write_text(set_yaml.read_text().replace("font: DejaVu Sans,", "font: DejaVu Sans Condensed,"))
    result = build(root)
    names = {name.split("+")[-1] for name in font_names(result.pdf)}
    assert "Cantarell-Regular" in names and "DejaVuSansCondensed" in names
    assert not any(name.startswith("DejaVuSans-") or name == "DejaVuSans" for name in names)
    listed = cli(root, "fonts").output.splitlines()
    at = listed.index("DejaVu Sans  (project, default)")
    assert listed[at + 1] == "  regular      fonts/Cantarell-Regular.otf"
    assert "DejaVu Serif  (shipped)" in listed


def test_what_fonttools_finds_odd_in_an_otf_font_is_not_printed(tmp_path, latin_otf):
    # a line in no form of cardgen's: "Glyph 'asciitilde' has a huge advance width (64512); is it ..."
    font = TTFont(latin_otf)
    tilde = font.getBestCmap()[ord("~")]  # a character the demo's cards never print
    font["hmtx"][tilde] = (64512, font["hmtx"][tilde][1])
    odd = tmp_path / "odd" / OTF.name
    odd.parent.mkdir()
    font.save(odd)
    root = otf_project(tmp_path, odd)
    result = fresh_cardgen(root, "check")  # a process of its own: pytest's logging would take the line
    assert (result.returncode, result.stderr) == (0, "")
