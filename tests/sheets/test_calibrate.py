"""``cardgen calibrate``: the number where a front line meets a back line is the offset to build
with. A printer's drift is simulated by moving the back page's lines, measured from the PDF, by a
known amount before laying them behind the front (mirrored about the duplex edge); the number
read there must cancel it, and a build with that offset puts every back exactly behind its
front under the same drift."""
from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import cardgen
from cardgen import BuildOptions
from cardgen.cli import main

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
MEET = 0.02  # mm: two lines closer than this continue each other
NEAR = 20.0  # pt: a number is printed this close to its line's end, at most


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("calibrate") / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root


def calibrate(project: Path, *args: str) -> Path:
    out = project / "out" / "-".join(a.strip("-") for a in args)
    result = CliRunner().invoke(main, ["--root", str(project), "calibrate", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    (pdf,) = out.glob("calibration-*.pdf")
    assert result.output.startswith(f"wrote {pdf} ")
    return pdf


def scale(page, axis: str):
    """[(position of each line along the scale, its number)]: lines across the page for x,
    up the page for y; numbers read from the characters beside each line's end."""
    h = page.height
    if axis == "x":
        ticks = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.01]
        spots = [(line["x0"] * MM, line) for line in ticks]
    else:
        ticks = [line for line in page.lines if abs(line["top"] - line["bottom"]) < 0.01]
        spots = [((h - line["top"]) * MM, line) for line in ticks]
    out = []
    for where, line in spots:
        if axis == "x":  # numbers run along the line (turned a quarter), centred on it
            chars = [c for c in page.chars if abs((c["x0"] + c["x1"]) / 2 - line["x0"]) < 0.6
                     and (0 < line["top"] - c["bottom"] < NEAR or 0 < c["top"] - line["bottom"] < NEAR)]
            text = "".join(c["text"] for c in sorted(chars, key=lambda c: -c["top"]))  # read upwards
        else:
            chars = [c for c in page.chars if abs((c["top"] + c["bottom"]) / 2 - line["top"]) < 0.6
                     and (0 < line["x0"] - c["x1"] < NEAR or 0 < c["x0"] - line["x1"] < NEAR)]
            text = "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]))
        out.append((where, text))
    return out


def normal(text: str) -> str:
    return f"{float(text):g}"


def read(pdf_path: Path, drift: tuple[float, float], mirror: str) -> tuple[float, float]:
    """The numbers where the lines meet, with the back page moved by ``drift`` (mm, on the back)."""
    with pdfplumber.open(pdf_path) as pdf:
        front, back = pdf.pages
        pw, ph = front.width * MM, front.height * MM
        found = []
        for index, axis in enumerate("xy"):
            size = pw if axis == "x" else ph
            front_ticks = scale(front, axis)
            back_ticks = scale(back, axis)
            assert len(front_ticks) == len(back_ticks) == 25
            meets = []
            for where, label in back_ticks:
                moved = where + drift[index]
                behind = size - moved if mirror == axis else moved
                meets += [(normal(front_label), normal(label)) for spot, front_label in front_ticks
                          if abs(spot - behind) < MEET]
            assert len(meets) == 1, (axis, meets)
            (front_number, back_number), = meets
            assert front_number == back_number  # the same number on both sides
            found.append(float(front_number))
        return found[0], found[1]


@pytest.mark.parametrize("paper, duplex, mirror", [("letter", "long", "x"), ("a4", "short", "y")])
@pytest.mark.parametrize("drift", [(0.0, 0.0), (1.25, -0.5), (-2.75, 3.0)])
def test_the_number_that_lines_up_is_the_offset(project, paper, duplex, mirror, drift):
    pdf_path = calibrate(project, "--paper", paper, "--duplex", duplex)
    reader = PdfReader(pdf_path)
    assert len(reader.pages) == 2
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == ("/DuplexFlipLongEdge" if duplex == "long" else "/DuplexFlipShortEdge")
    x, y = read(pdf_path, drift, mirror)
    assert (x, y) == (-drift[0], -drift[1])


def test_a_sheet_printed_with_an_offset_reads_the_whole_offset(project):
    # A drift beyond the scales' 3 mm: printed with the offset in use (-3, 3), the back page is
    # shifted by it, and the scales read the whole offset that cancels the drift.
    pdf_path = calibrate(project, "--paper", "letter", "--back-offset", "-3,3")
    assert read(pdf_path, (3.75, -3.5), "x") == (-3.75, 3.5)
    assert read(pdf_path, (3.0, -3.0), "x") == (-3.0, 3.0)


def test_building_with_the_number_read_puts_backs_behind_fronts(project):
    drift = (1.25, -0.5)
    offset = read(calibrate(project, "--paper", "letter"), drift, "x")
    out = project / "out" / "calibrated"
    cardgen.build(["presets"], root=project, out=out, options=BuildOptions(back_offset=offset, cache=False))
    with pdfplumber.open(out / "presets.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        pw = front.width * MM

        def trims(page, rgb):
            return sorted((r["x0"] * MM, (page.height - r["bottom"]) * MM, r["x1"] * MM, (page.height - r["top"]) * MM)
                          for r in page.rects if r["stroke"] and tuple(r["stroking_color"]) == rgb)

        fronts, backs = trims(front, (1, 0, 1)), trims(back, (0, 1, 1))
        assert len(fronts) == len(backs) == 9
        # On paper the printer moves the back page by the drift; then each back is behind its front.
        landed = sorted((pw - (x1 + drift[0]), y0 + drift[1], pw - (x0 + drift[0]), y1 + drift[1])
                        for x0, y0, x1, y1 in backs)
        for got, want in zip(landed, fronts):
            assert got == pytest.approx(want, abs=0.05)


def test_calibrate_is_a_clean_error_on_paper_too_small(project):
    result = CliRunner().invoke(main, ["--root", str(project), "calibrate", "--paper", "100x150",
                                       "--out", str(project / "out" / "small")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == "the calibration sheet needs paper of at least 182 x 257 mm, got 100 x 150 mm"
    assert not list((project / "out" / "small").glob("*.pdf")) if (project / "out" / "small").exists() else True
