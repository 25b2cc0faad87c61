"""Fonts anywhere: cardgen's own fonts in every project without copying, a project's fonts/
adding and replacing families, OpenType CFF fonts embedded with their own outlines, a missing
style named as an error, system fonts by fontconfig, and ``cardgen fonts``."""
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
from cardgen.text.fontfolders import shipped_folder
from projects import FIXTURES, REPO
from test_hostile import cardgen as fresh_cardgen

OTF = FIXTURES / "otf/Cantarell-Regular.otf"


def project_without_fonts(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / "project", root)
    return root


def use_font(root: Path, family: str, bold: bool = False) -> None:
    """Make the action cards' body text use ``family`` (bold if asked)."""
    template = root / "templates/demo/action.xml.j2"
    text = template.read_text()
    body = re.search(r'<text name="body"[^>]*>', text).group(0)
    changed = body.replace('<text name="body"', f'<text name="body" font="{family}"'
                           + (' weight="bold"' if bold else ""))
    template.write_text(text.replace(body, changed))


def build(root: Path, out: str = "output"):
    return cardgen.build(["demo"], root, root / out, BuildOptions(cache=False)).sets[0]


def test_a_project_without_fonts_uses_the_shipped_ones(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    assert not (root / "fonts").exists()
    result = build(root)
    fonts = {f.split("+")[-1] for f in _font_names(result.pdf)}
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= fonts
    listed = cli(root, "fonts")
    assert listed.exit_code == 0
    assert listed.output.splitlines()[:5] == [
        "DejaVu Sans  (shipped, default)", "  regular      DejaVuSans.ttf", "  bold         DejaVuSans-Bold.ttf",
        "  italic       DejaVuSans-Oblique.ttf", "  bold-italic  DejaVuSans-BoldOblique.ttf"]


def test_the_shipped_fonts_are_the_repositorys_in_a_checkout():
    assert shipped_folder() == REPO / "fonts"


def _font_names(pdf: Path) -> set[str]:
    reader = PdfReader(pdf)
    names = set()
    for page in reader.pages:
        for font in _page_fonts(page):
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def _page_fonts(page) -> list:
    fonts = page["/Resources"].get_object().get("/Font")
    return list(fonts.get_object().values()) if fonts is not None else []


def _embedded_fonts(pdf: Path) -> dict[str, tuple[bytes, dict[int, str]]]:
    """Each embedded font of the PDF: its name -> (font file, code -> character from ToUnicode)."""
    fonts = {}
    for page in PdfReader(pdf).pages:
        for font in _page_fonts(page):
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


@pytest.fixture(scope="module")
def latin_otf(tmp_path_factory) -> Path:
    """The OTF cut down to Latin letters and punctuation (about 290 of its 1,322 glyphs), still
    CFF and under its own name: converting it takes a fifth of the time of the whole font's
    half second. The tests that print with it compare each glyph with the whole font's."""
    from fontTools import subset

    options = subset.Options()
    options.name_IDs, options.name_languages, options.layout_features = ["*"], ["*"], ["*"]
    options.glyph_names, options.notdef_outline = True, True
    font = TTFont(OTF)
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2000, 0x2070)])
    cutter.subset(font)
    path = tmp_path_factory.mktemp("otf") / OTF.name
    font.save(path)
    assert TTFont(path).sfntVersion == "OTTO" and len(TTFont(path).getGlyphOrder()) < 400
    return path


def otf_project(tmp_path: Path, font: Path = OTF) -> Path:
    """The demo project with its body text in the OTF face (which stands in for every style)."""
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(font, root / "fonts")
    (root / "fonts/fonts.yaml").write_text("families:\n  Cantarell:\n" + "".join(
        f"    {style}: Cantarell-Regular.otf\n" for style in ("regular", "bold", "italic", "bold-italic")))
    use_font(root, "Cantarell")
    return root


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
    names = {name.split("+")[-1] for name in _font_names(result.pdf)}
    assert "Cantarell-Regular" in names and "DejaVuSansCondensed" in names
    assert not any(name.startswith("DejaVuSans-") or name == "DejaVuSans" for name in names)
    listed = cli(root, "fonts").output.splitlines()
    at = listed.index("DejaVu Sans  (project, default)")
    assert listed[at + 1] == "  regular      fonts/Cantarell-Regular.otf"
    assert "DejaVu Serif  (shipped)" in listed


def test_a_font_file_missing_from_fonts_yaml_is_named(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text("families:\n  Body:\n    regular: Nowhere.ttf\n")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == ('fonts/fonts.yaml:3: font file "Nowhere.ttf" of family "Body" is not '
                                             "in fonts/ (a .ttf or .otf file)")


@pytest.mark.parametrize("value, given", [("null", "empty (null in YAML)"), ('""', "empty (null in YAML)"),
                                          ("[a.ttf]", "a list, ['a.ttf']")])
def test_a_font_file_left_empty_in_fonts_yaml_is_named_at_its_line(tmp_path, cli, value, given):
    # `regular: null` was read as the file "None"
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text(f"families:\n  Body:\n    regular: {value}\n")
    result = cli(root, "check")
    assert (result.exit_code, result.output.splitlines()[0]) == (
        1, f'fonts/fonts.yaml:3: font family "Body": regular: expected the name of a .ttf or .otf file in fonts/, '
           f"got {given}")


def _system_family() -> str | None:
    if shutil.which("fc-list") is None or shutil.which("fc-match") is None:
        return None
    listed = subprocess.run(["fc-list", ":style=Regular", "family"], capture_output=True, text=True).stdout
    for family in sorted({line.split(",")[0].strip() for line in listed.splitlines() if line.strip()}):
        if not family.startswith("DejaVu"):
            return family
    return None


@pytest.mark.skipif(_system_family() is None, reason="no fontconfig, or no system font beside DejaVu")
def test_a_system_font_is_used_when_fonts_yaml_declares_it(tmp_path, cli):
    family = _system_family()
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text(f"families:\n  {family}: system\n")
    use_font(root, family)
    result = build(root)
    expected = subprocess.run(["fc-match", "--format=%{file}", f"{family}:weight=80:slant=0"],
                              capture_output=True, text=True).stdout
    postscript_name = TTFont(expected, fontNumber=0)["name"].getDebugName(6)
    assert postscript_name in {name.split("+")[-1] for name in _font_names(result.pdf)}
    listed = cli(root, "fonts").output.splitlines()
    at = listed.index(f"{family}  (system)")
    assert listed[at + 1] == f"  regular      {expected}"


@pytest.mark.skipif(shutil.which("fc-match") is None, reason="no fontconfig")
def test_a_system_font_that_is_not_installed_is_named(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text("families:\n  Nonesuch Grotesque Zz: system\n")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == ('fonts/fonts.yaml:2: font family "Nonesuch Grotesque Zz" is not '
                                             "installed on this system (fc-match finds no such family)")


def test_a_built_package_carries_the_fonts_and_the_scaffold(tmp_path):
    """A normal (non-editable) install: what setuptools builds for the wheel from a copy of the
    sources has cardgen/fonts/ and the scaffold, and cardgen run from there finds its fonts."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(REPO / name, source / name)
    for folder in ("cardgen", "fonts"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    built = tmp_path / "site"
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)],
                          cwd=source, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    names = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()}
    shipped = {p.name for p in (REPO / "fonts").iterdir()}
    assert {f"cardgen/fonts/{name}" for name in shipped} <= names
    assert {"cardgen/scaffold/data/__SET__/set.yaml", "cardgen/scaffold/gitignore",
            "cardgen/scaffold/data/__SET__/images/coin.svg"} <= names
    found = subprocess.run([sys.executable, "-c", "from cardgen.text.fontfolders import shipped_folder; "
                            "print(shipped_folder())"], capture_output=True, text=True,
                           cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(built)})
    assert found.stdout.strip() == str(built / "cardgen/fonts"), found.stderr


def test_a_broken_font_is_named_once_with_its_file(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/Broken.otf").write_bytes(b"OTTO" + b"\0" * 8)
    (root / "fonts/fonts.yaml").write_text("families:\n  Broken:\n" + "".join(
        f"    {style}: Broken.otf\n" for style in ("regular", "bold", "italic", "bold-italic")))
    use_font(root, "Broken")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "fonts/Broken.otf: card \"Quick Draw\": cannot read font: its PostScript outlines cannot be converted "
        "(it has no 'maxp' table) (and 3 more cards)",
        "cardgen: 1 error, 0 warnings"]


def test_a_font_file_outside_the_fonts_folder_is_refused(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(OTF, root / "Outside.otf")
    (root / "fonts/fonts.yaml").write_text("families:\n  Body:\n    regular: ../Outside.otf\n")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == ('fonts/fonts.yaml:3: font file "../Outside.otf" of family "Body" is '
                                             "not in fonts/ (a .ttf or .otf file)")


def test_fonts_dropped_in_fonts_are_grouped_by_their_own_names(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(OTF, root / "fonts/anything.otf")  # the family comes from the font, not the file name
    listed = cli(root, "fonts").output.splitlines()
    at = listed.index("Cantarell  (project)")
    assert listed[at + 1:at + 5] == ["  regular      fonts/anything.otf",
                                     "  bold         -  (none: asking for it is an error)",
                                     "  italic       -  (none: asking for it is an error)",
                                     "  bold-italic  -  (none: asking for it is an error)"]
    assert "DejaVu Sans  (shipped, default)" in listed


def test_a_project_can_make_a_shipped_family_its_default(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text("default: DejaVu Serif\n")
    listed = cli(root, "fonts").output.splitlines()
    assert "DejaVu Serif  (shipped, default)" in listed and "DejaVu Sans  (shipped)" in listed
    (root / "fonts/fonts.yaml").write_text("families: {}\ndefault: Nonesuch\n")
    result = cli(root, "fonts")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == ('fonts/fonts.yaml:2: default font family "Nonesuch" is neither in fonts/ '
                                             "nor one of cardgen's (known: DejaVu Sans, DejaVu Sans Condensed, "
                                             "DejaVu Serif)")


def test_the_default_family_needs_a_regular_face(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(OTF, root / "fonts")
    (root / "fonts/fonts.yaml").write_text("families:\n  Heavy:\n    bold: Cantarell-Regular.otf\ndefault: Heavy\n")
    result = cli(root, "build")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == 'fonts/fonts.yaml:4: default font family "Heavy" needs a regular face'


@pytest.mark.parametrize("file", ["Body.ttc", "Body.woff2"])
def test_a_collection_or_a_web_font_is_named_as_what_it_is(tmp_path, cli, file):
    # it is in fonts/: "is not in fonts/ (a .ttf or .otf file)" said it was not
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(OTF, root / "fonts" / file)
    (root / "fonts/fonts.yaml").write_text(f"families:\n  Body:\n    regular: {file}\n")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f'fonts/fonts.yaml:3: font file "{file}" of family "Body" is not a .ttf or .otf file: cardgen reads '
        "TrueType and OpenType fonts (a .ttc collection or a web font: save the face as .ttf or .otf)")


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
