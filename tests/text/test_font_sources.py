"""Fonts anywhere: cardgen's own fonts in every project without copying, a project's fonts/
adding and replacing families, fonts.yaml's mistakes named at their line, system fonts by
fontconfig, and fonts in the built package (OpenType CFF fonts: test_font_otf.py)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from fontTools.ttLib import TTFont

from cardgen.text.fontfolders import shipped_folder
from fontprojects import OTF, build, font_names, project_without_fonts, use_font
from projects import REPO


def test_a_project_without_fonts_uses_the_shipped_ones(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    assert not (root / "fonts").exists()
    result = build(root)
    fonts = {f.split("+")[-1] for f in font_names(result.pdf)}
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= fonts
    listed = cli(root, "fonts")
    assert listed.exit_code == 0
    assert listed.output.splitlines()[:5] == [
        "DejaVu Sans  (shipped, default)", "  regular      DejaVuSans.ttf", "  bold         DejaVuSans-Bold.ttf",
        "  italic       DejaVuSans-Oblique.ttf", "  bold-italic  DejaVuSans-BoldOblique.ttf"]


def test_the_shipped_fonts_are_the_repositorys_in_a_checkout():
    assert shipped_folder() == REPO / "fonts"


def test_a_font_file_missing_from_fonts_yaml_is_named(tmp_path, cli):
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    (root / "fonts/fonts.yaml").write_text("families:\n  Body:\n    regular: Nowhere.ttf\n")
    result = cli(root, "check")
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == ('fonts/fonts.yaml:3: font file "Nowhere.ttf" of family "Body" is not '
                                             "in fonts/ (a .ttf or .otf file)")


@pytest.mark.parametrize("value, given", [("null", "empty (null in YAML)"), ('""', "empty (null in YAML)"),
                                          ("[a.ttf]", "a list, [a.ttf]")])
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
    assert postscript_name in {name.split("+")[-1] for name in font_names(result.pdf)}
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
    # every file the package reads at run time (the scaffold, the preview's page, the shops'
    # products, the label sheets, the preflight thresholds), not only the Python
    data_files = {p.relative_to(REPO).as_posix() for p in (REPO / "cardgen").rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc", ".marshal") and "__pycache__" not in p.parts}
    assert data_files - names == set()
    assert "cardgen/fonts/DejaVu-LICENSE.txt" in names  # the fonts' licence travels with them
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
