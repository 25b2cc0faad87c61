"""Two font files of one PostScript name: two versions of a font in a project, or a font file
edited while one process builds again (`cardgen watch`). Each is embedded as itself, under a
subset name of its own; once, reportlab gave the second the first's name, and the PDF failed."""
from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from projects import make_project, run_cli
from pdftext import page_texts


def kerning_changed(font: bytes) -> bytes:
    """The font with a byte of its kerning table changed: another file, the same PostScript name
    (kerning is neither measured nor embedded, so nothing refuses it)."""
    data = bytearray(font)
    for index in range(struct.unpack_from(">H", data, 4)[0]):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        if tag == b"kern":
            data[offset + length // 2] ^= 0x5A
            return bytes(data)
    raise AssertionError("DejaVu Sans has a kerning table")


def base_fonts(pdf: Path) -> list[str]:
    reader = PdfReader(str(pdf))
    return sorted({str(font["/BaseFont"]) for page in reader.pages
                   for font in page["/Resources"]["/Font"].values()})


def test_two_files_of_one_postscript_name_in_one_build(tmp_path):
    root = make_project(tmp_path)
    (root / "fonts/Twin.ttf").write_bytes(kerning_changed((root / "fonts/DejaVuSans.ttf").read_bytes()))
    fonts_yaml = root / "fonts/fonts.yaml"
    fonts_yaml.write_text(fonts_yaml.read_text().replace("default:", "  Twin Sans:\n    regular: Twin.ttf\n    bold: DejaVuSans-Bold.ttf\n"
                                                              "    italic: DejaVuSans-Oblique.ttf\ndefault:"))
    action = root / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace('name="body"', 'name="body" font="Twin Sans"'))
    done = run_cli(root, "build", "demo", "--no-cache")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert base_fonts(root / "output/demo.pdf") == [
        "/AAAAAA+DejaVuSans", "/AAAAAA+DejaVuSans-2", "/AAAAAA+DejaVuSans-Bold", "/AAAAAA+DejaVuSans-Oblique"]
    assert "Move up to three spaces." in page_texts(root / "output/demo.pdf")[0]


def test_a_font_file_edited_between_two_builds_of_one_process(tmp_path):
    root = make_project(tmp_path)
    assert run_cli(root, "build", "demo").returncode == 0
    font = root / "fonts/DejaVuSans.ttf"
    font.write_bytes(kerning_changed(font.read_bytes()))
    again = run_cli(root, "build", "demo")  # the same process: its fonts are registered already
    assert (again.returncode, again.stderr) == (0, "")
    rebuilt = (root / "output/demo.pdf").read_bytes()
    fresh = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(root), "build", "demo", "--no-cache",
                            "--out", str(tmp_path / "fresh")], capture_output=True, text=True)
    assert (fresh.returncode, fresh.stderr) == (0, "")
    assert rebuilt == (tmp_path / "fresh/demo.pdf").read_bytes()  # the edited font alone, as a new process has it


def test_a_missing_character_names_the_family_the_project_gave_its_file(tmp_path):
    """A project's family made of a copy of one of cardgen's own files (fonts/DejaVuSerif.ttf as
    "Body") was said by the shipped family of that file name ("the font DejaVu Serif has no
    character"), a family the layout never named."""
    import shutil

    from projects import REPO

    # this process first draws cardgen's own DejaVu Serif for another project: the face of those
    # bytes is then the one loaded from cardgen's file, whichever project asks next
    other = make_project(tmp_path / "other", fonts=False)
    action = other / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace('name="body"', 'name="body" font="DejaVu Serif"'))
    assert run_cli(other, "check", "demo").returncode == 0
    root = make_project(tmp_path / "body", fonts=False)
    (root / "fonts").mkdir()
    for style in ("", "-Bold", "-Italic"):
        shutil.copy(REPO / f"fonts/DejaVuSerif{style}.ttf", root / "fonts")
    (root / "fonts/fonts.yaml").write_text("families:\n  Body:\n    regular: DejaVuSerif.ttf\n"
                                           "    bold: DejaVuSerif-Bold.ttf\n    italic: DejaVuSerif-Italic.ttf\n"
                                           "default: Body\n")
    cards = root / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("Move up to three spaces.", "Move up to three \u2726 spaces."))
    result = run_cli(root, "check", "demo")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        'data/demo/cards.yaml:7: card "Escape Artist": field "text": the font Body has no character U+2726 (\u2726) '
        '(drawn by templates/demo/action.xml.j2:5)')
