"""Home printing, measured from the PDFs cardgen writes for tests/fixtures/sheets (set "presets":
every card size preset with a back, a second poker deck with another back, and a poker-sized
reference sheet with none). Each face outlines its trim with a 0.2 mm stroke: magenta on fronts,
cyan on "plain" backs, green on "other" backs."""
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
from cardgen.sheets import CARD_SIZES
from cardgen.sheets.capacity import capacity

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
TOL = 0.05
FRONT, PLAIN, OTHER = (1.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, 1.0, 0.0)
BLACK, WHITE = (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 0.0)
MARGIN = 4.0


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("home") / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root


def build(project: Path, name: str, **options) -> Path:
    out = project / "out" / name
    cardgen.build(["presets"], root=project, out=out, options=BuildOptions(cache=False, **options))
    return out / "presets.pdf"


def color(obj):
    value = obj.get("stroking_color")
    return tuple(round(v, 3) for v in value) if isinstance(value, (tuple, list)) else value


def mm_box(obj, page_h_pt):
    return (obj["x0"] * MM, (page_h_pt - obj["bottom"]) * MM, obj["x1"] * MM, (page_h_pt - obj["top"]) * MM)


def outlines(page, side_color):
    """Trim boxes (mm) of the faces of one side on a page (the outline's stroke is centred on the trim)."""
    return [mm_box(r, page.height) for r in page.rects if r["stroke"] and color(r) == side_color]


def lines(page, line_color):
    return [mm_box(line, page.height) for line in page.lines if color(line) == line_color
            and not (line.get("dash") and line["dash"][0])]


def note(page) -> str:
    """The small type in the margin (faces print their names at 12 pt), read up the page if
    it runs up the page."""
    chars = [c for c in page.chars if c["size"] < 7]
    if chars and not chars[0]["upright"]:
        return "".join(c["text"] for c in sorted(chars, key=lambda c: -c["top"]))
    return "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]))


def touches(segment, box, grow=0.0):
    x0, y0, x1, y1 = segment
    return x0 <= box[2] + grow and x1 >= box[0] - grow and y0 <= box[3] + grow and y1 >= box[1] - grow


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def size_of(box):
    w, h = box[2] - box[0], box[3] - box[1]
    return next((name for name, s in CARD_SIZES.items() if abs(s.w - w) <= TOL and abs(s.h - h) <= TOL), None)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_faces_per_page_of_every_preset_marks_and_notes(project, paper):
    with pdfplumber.open(build(project, paper, paper=paper)) as pdf:
        most: dict[str, int] = {}
        for number, page in enumerate(pdf.pages):
            pw, ph = page.width * MM, page.height * MM
            fronts, backs = outlines(page, FRONT), outlines(page, PLAIN) + outlines(page, OTHER)
            faces = fronts + backs
            for box in fronts:
                preset = size_of(box)
                if preset:
                    most[preset] = max(most.get(preset, 0), len(fronts))
                    # one card size a sheet
                    assert {size_of(b) for b in fronts} == {preset}
                    assert ("portrait" if pw <= ph else "landscape") == capacity(preset, paper)[2]
            # Printed double-sided, every sheet is a front page and its back page: a sheet with
            # no backs (the reference sheet) gets a blank one, which says so.
            text = note(page)
            if number % 2 == 0:
                assert fronts and not backs, number
                assert text == "Print double-sided, flip on long edge"
            elif backs:
                assert not fronts and text == "Back side: flip on long edge"
            else:
                assert all(c["size"] < 7 for c in page.chars) and text == "Back side: blank (the front has no backs)"
                assert not lines(page, BLACK) and not page.rects, number
                continue
            # Crop marks: at least 4 mm from the paper's edge, never within 0.5 mm of a trim;
            # on art (a face's bleed) only over a white halo.
            marks, halos = lines(page, BLACK), lines(page, WHITE)
            assert marks
            for mark in marks:
                x0, y0, x1, y1 = mark
                assert min(x0, y0) >= MARGIN - TOL and x1 <= pw - MARGIN + TOL and y1 <= ph - MARGIN + TOL, mark
                for box in faces:
                    assert not touches(mark, box, 0.5 - TOL), (number, mark, box)
                    if touches(mark, box, 3.0 - TOL):
                        assert any(close(mark, halo) for halo in halos), (number, mark)
            # The note: in the margin band, on no face.
            for char in page.chars:
                if char["size"] < 7:  # the note (faces print their names at 12 pt)
                    box = mm_box(char, page.height)
                    assert min(box[0], box[1]) >= MARGIN - TOL and box[2] <= pw - MARGIN + TOL
                    assert box[3] <= ph - MARGIN + TOL
                    for face in faces:
                        assert not touches(box, face, 0.0), (number, char["text"])
        assert len(pdf.pages) % 2 == 0
        assert most == {preset: capacity(preset, paper)[0] * capacity(preset, paper)[1] for preset in CARD_SIZES}
        assert most["poker"] == most["bridge"] == 9


def test_backs_are_grouped_by_deck_unless_mixed(project):
    with pdfplumber.open(build(project, "grouped")) as pdf:
        # P1..P10 (plain back) and Q1..Q4 (other back) are listed alternately: each deck has its
        # own sheets (9 + 1 plain, then 4 other).
        assert [len(outlines(pdf.pages[i], FRONT)) for i in (0, 2, 4)] == [9, 1, 4]
        assert [(len(outlines(pdf.pages[i], PLAIN)), len(outlines(pdf.pages[i], OTHER))) for i in (1, 3, 5)] == [
            (9, 0), (1, 0), (0, 4)]
        for page in pdf.pages:
            assert not (outlines(page, PLAIN) and outlines(page, OTHER))
    with pdfplumber.open(build(project, "mixed", mix_backs=True)) as pdf:
        # Mixed: the first 9 poker cards in list order share a sheet, both backs on its back page.
        assert len(outlines(pdf.pages[0], FRONT)) == 9
        assert (len(outlines(pdf.pages[1], PLAIN)), len(outlines(pdf.pages[1], OTHER))) == (5, 4)


@pytest.mark.parametrize("duplex, entry", [("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")])
def test_viewer_preferences_carry_the_duplex_edge(project, duplex, entry):
    pdf_path = build(project, f"prefs-{duplex}", duplex=duplex)
    preferences = PdfReader(pdf_path).trailer["/Root"]["/ViewerPreferences"]
    assert (preferences["/Duplex"], preferences["/PrintScaling"]) == (entry, "/None")
    with pdfplumber.open(pdf_path) as pdf:
        assert note(pdf.pages[0]) == f"Print double-sided, flip on {duplex} edge"
        assert note(pdf.pages[1]) == f"Back side: flip on {duplex} edge"
    # No backs (gutter fold puts fronts and backs on one side): single-sided.
    preferences = PdfReader(build(project, "prefs-gutter", layout="gutter-fold")).trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == "/Simplex"
    preferences = PdfReader(build(project, "prefs-per-card", layout="per-card")).trailer["/Root"]["/ViewerPreferences"]
    assert "/Duplex" not in preferences  # print-shop pages: no home duplex setting


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
@pytest.mark.parametrize("paper, duplex, mirror", [("letter", "long", "x"), ("a4", "short", "y")])
def test_back_positions_with_and_without_an_offset(project, offset, paper, duplex, mirror):
    pdf_path = build(project, f"offset-{paper}-{duplex}-{offset[0]}", paper=paper, duplex=duplex, back_offset=offset)
    dx, dy = offset
    with pdfplumber.open(pdf_path) as pdf:
        for front_page, back_page in ((pdf.pages[0], pdf.pages[1]), (pdf.pages[4], pdf.pages[5])):
            pw, ph = front_page.width * MM, front_page.height * MM
            fronts = sorted(outlines(front_page, FRONT))
            backs = sorted(outlines(back_page, PLAIN) + outlines(back_page, OTHER))
            assert len(fronts) == len(backs) > 0
            expected = sorted(((pw - x1 + dx, y0 + dy, pw - x0 + dx, y1 + dy) if mirror == "x"
                               else (x0 + dx, ph - y1 + dy, x1 + dx, ph - y0 + dy)) for x0, y0, x1, y1 in fronts)
            for got, want in zip(backs, expected):
                assert close(got, want), (got, want)
            # The back page's marks move with it.
            front_marks = lines(front_page, BLACK)
            if offset == (0.0, 0.0):
                assert len(lines(back_page, BLACK)) == len(front_marks)
            assert note(back_page) == f"Back side: flip on {duplex} edge" + (
                " (back offset 1.5, -0.75 mm)" if offset != (0.0, 0.0) else "")


def test_a_sheet_that_applies_to_no_card_is_an_error_naming_both(project):
    result = CliRunner().invoke(main, ["--root", str(project), "build", "presets", "--sheet", "OL32",
                                       "--out", str(project / "out" / "ol32"), "--no-cache"])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        'data/presets/set.yaml:10: card "P1": sheet "OL32" does not apply to this card: the sheet has round '
        'slots only, and "P1" (type poker) is a 63.5 x 88.9 mm rectangular card')
    assert not (project / "out" / "ol32" / "presets.pdf").exists()


def test_margin_option(project):
    result = CliRunner().invoke(main, ["--root", str(project), "build", "presets", "--margin", "10",
                                       "--out", str(project / "out" / "margin10"), "--no-cache"])
    assert result.exit_code == 0, result.output
    with pdfplumber.open(project / "out" / "margin10" / "presets.pdf") as pdf:
        page = pdf.pages[0]  # a 10 mm margin leaves 4 x 2 poker cards on landscape Letter
        assert (round(page.width * MM, 1), round(page.height * MM, 1)) == (279.4, 215.9)
        assert len(outlines(page, FRONT)) == 8
        for x0, y0, x1, y1 in lines(page, BLACK):
            assert min(x0, y0) >= 10 - TOL and x1 <= 279.4 - 10 + TOL and y1 <= 215.9 - 10 + TOL


@pytest.mark.parametrize("args, message", [
    (["--per-card", "--sheet", "OL32"], "--sheet does not apply to --per-card pages (one face a page, no sheet)"),
    (["--per-card", "--margin", "3"], "--margin does not apply to --per-card pages (one face a page, no sheet)"),
    (["--per-card", "--mix-backs"], "--mix-backs does not apply to --per-card pages (one face a page, no sheet)"),
    (["--gutter-fold", "--back-offset", "1,0"], "--back-offset does not apply to --gutter-fold pages (no back pages)"),
    (["--back-offset", "1"], "Invalid value for '--back-offset': \"1\" is not two lengths in mm such as 0.5,-1"),
    (["--back-offset", "1e308,0"], "Invalid value for '--back-offset': \"1e308,0\" is not two lengths in mm such as "
                                   "0.5,-1 (at most 100 mm either way)"),
    (["--margin", "-1"], "Invalid value for '--margin': \"-1\" is not a margin in mm from 0 to 1000"),
    (["--margin", "nan"], "Invalid value for '--margin': \"nan\" is not a margin in mm from 0 to 1000"),
    (["--margin", "1e400"], "Invalid value for '--margin': \"1e400\" is not a margin in mm from 0 to 1000"),
])
def test_options_that_do_not_apply_are_usage_errors(project, args, message):
    out = project / "out" / "usage"
    result = CliRunner().invoke(main, ["--root", str(project), "build", "presets", *args, "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"
    assert not out.exists()
