"""The calibration sheet as printed, read back from the PDF line by line and character by
character: every scale line (where it starts and ends, its width and ink), every number (its
text, where it starts, which way it reads, its size), the scales' names and the instructions,
on both pages, for a page whose back mirrors x and one whose back mirrors y, with a back offset.

The expected layout is the design, written out here in mm from the page's bottom-left: the x
scale's meeting line 60 mm below the top, centred across the page; the y scale's up the middle
of the page, centred on (height - 85) / 2 + 5; front lines 6.5 mm apart, back lines 6.75 mm,
25 pairs; the middle line reaches 9 mm from the meeting line, the others 6 mm, and each reaches
2 mm past it; numbers 1 mm beyond a line's end, reading away from the meeting line. The back
page is the front's design mirrored about the duplex edge and moved by the offset."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.errors import CardgenError
from cardgen.sheets.calibration import write_calibration

REPO = Path(__file__).resolve().parents[2]

PT = 72 / 25.4  # points a mm
EPS = 0.002  # pt
PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}


def number(value: float) -> str:
    value = round(value, 4) + 0.0
    return "0" if value == 0 else f"{value:g}"


def design(page_w: float, page_h: float, mirror: str, offset: tuple[float, float]):
    """[(side, x0, y0, x1, y1, label, tx, ty, axis)] in mm, front coordinates, and the labels'
    values: pair ``i`` meets when the back has moved by i x 0.25 mm (against the mirrored axis)."""
    ticks = []
    for axis in "xy":
        meet = page_h - 60.0 if axis == "x" else page_w / 2
        mid = page_w / 2 if axis == "x" else (page_h - 85.0) / 2 + 5.0
        current = offset[0] if axis == "x" else offset[1]
        for i in range(-12, 13):
            moved = i * 0.25 if mirror == axis else -i * 0.25
            label = number(current - moved)
            reach = 9.0 if i == 0 else 6.0
            f, b = mid + 6.5 * i, mid + 6.75 * i
            if axis == "x":
                ticks.append(("front", f, meet - 2, f, meet + reach, label, f, meet + reach + 1, axis))
                ticks.append(("back", b, meet - reach, b, meet + 2, label, b, meet - reach - 1, axis))
            else:
                ticks.append(("front", meet - 2, f, meet + reach, f, label, meet + reach + 1, f, axis))
                ticks.append(("back", meet - reach, b, meet + 2, b, label, meet - reach - 1, b, axis))
    return ticks


def placed(x: float, y: float, side: str, page_w, page_h, mirror, offset) -> tuple[float, float]:
    """A point of the design on its page, in pt."""
    if side == "back":
        if mirror == "x":
            x = page_w - x
        else:
            y = page_h - y
        x, y = x + offset[0], y + offset[1]
    return x * PT, y * PT


def words(page) -> list[tuple[str, float, float, float, float]]:
    """Runs of characters drawn one after the other: (text, start x, start y, end x, end y) in pt
    from the bottom-left, start and end measured along the text's own direction."""
    runs = []
    for char in page.chars:
        a, b, c, d, e, f = char["matrix"]
        length = (a * a + b * b) ** 0.5
        dx, dy = a / length, b / length
        x, y = e, f
        end = (x + dx * char["adv"], y + dy * char["adv"])
        if runs and abs(runs[-1][3] - x) < 0.01 and abs(runs[-1][4] - y) < 0.01 and runs[-1][5] == (dx, dy):
            text, sx, sy, _, _, direction = runs[-1]
            runs[-1] = (text + char["text"], sx, sy, *end, direction)
        else:
            runs.append((char["text"], x, y, *end, (dx, dy)))
    return runs


@pytest.fixture(params=[("letter", "long", "x", (0.5, -1.25)), ("a4", "short", "y", (-3.0, 2.75))],
                ids=["letter-long", "a4-short"])
def sheet(request, tmp_path):
    paper, duplex, mirror, offset = request.param
    path = tmp_path / "calibration.pdf"
    write_calibration(path, paper, duplex, offset)
    return path, paper, duplex, mirror, offset


def test_every_scale_line_is_where_the_design_puts_it(sheet):
    path, paper, duplex, mirror, offset = sheet
    page_w, page_h = PAPERS[paper]
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        for side, page in zip(("front", "back"), pdf.pages):
            assert (float(page.width), float(page.height)) == pytest.approx((page_w * PT, page_h * PT), abs=EPS)
            want = []
            for tick in design(page_w, page_h, mirror, offset):
                if tick[0] != side:
                    continue
                a = placed(tick[1], tick[2], side, page_w, page_h, mirror, offset)
                b = placed(tick[3], tick[4], side, page_w, page_h, mirror, offset)
                want.append((*a, *b))
            got = [(*line["pts"][0][:1], page.height - line["pts"][0][1], line["pts"][1][0],
                    page.height - line["pts"][1][1]) for line in page.lines]
            assert len(got) == len(want) == 50
            for got_line, want_line in zip(got, want_sorted(want, got)):
                assert got_line == pytest.approx(want_line, abs=EPS)
            for line in page.lines:
                assert line["linewidth"] == pytest.approx(0.3)
                assert tuple(line["stroking_color"]) == (0, 0, 0, 1)
                assert line["dash"] is None
            assert not page.rects and not page.curves


def want_sorted(want, got):
    """``want`` in the order of ``got``: each got line's nearest wanted line (all must be used)."""
    order = []
    rest = list(want)
    for line in got:
        best = min(rest, key=lambda w: sum(abs(p - q) for p, q in zip(w, line)))
        rest.remove(best)
        order.append(best)
    return order


def test_every_number_starts_beside_its_line_and_reads_away_from_the_meeting_line(sheet):
    path, paper, duplex, mirror, offset = sheet
    page_w, page_h = PAPERS[paper]
    with pdfplumber.open(path) as pdf:
        for side, page in zip(("front", "back"), pdf.pages):
            runs = [run for run in words(page) if stringWidth(run[0], "Helvetica", 5) == pytest.approx(
                ((run[3] - run[1]) ** 2 + (run[4] - run[2]) ** 2) ** 0.5, abs=EPS)]
            want = []
            for tick in design(page_w, page_h, mirror, offset):
                if tick[0] != side:
                    continue
                _, x0, y0, x1, y1, label, tx, ty, axis = tick
                anchor = placed(tx, ty, side, page_w, page_h, mirror, offset)
                line_end = placed(x1, y1, side, page_w, page_h, mirror, offset)
                line_start = placed(x0, y0, side, page_w, page_h, mirror, offset)
                if axis == "x":  # turned a quarter, reading up the page; baseline 1.75 pt right of the anchor
                    direction = (0.0, 1.0)
                    away = 1 if anchor[1] > max(line_end[1], line_start[1]) else -1
                    near = (anchor[0] + 1.75, anchor[1])
                else:
                    direction = (1.0, 0.0)
                    away = 1 if anchor[0] > max(line_end[0], line_start[0]) else -1
                    near = (anchor[0], anchor[1] - 1.75)
                width = stringWidth(label, "Helvetica", 5)
                if away == 1:  # starts at the anchor
                    start = near
                else:  # ends at it
                    start = (near[0] - direction[0] * width, near[1] - direction[1] * width)
                want.append((label, round(start[0], 2), round(start[1], 2), direction))
            got = [(text, round(sx, 2), round(sy, 2), direction) for text, sx, sy, _, _, direction in runs]
            assert sorted(got) == sorted(want)
            for char in page.chars:
                assert tuple(char["non_stroking_color"]) == (0, 0, 0, 1)
                assert char["fontname"] == "Helvetica"


def test_the_scales_names_and_the_instructions_are_placed_and_sized(sheet):
    path, paper, duplex, mirror, offset = sheet
    page_w, page_h = PAPERS[paper]
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages
        front_runs = words(front)
        text_runs = [(t, round(sx, 2), round(sy, 2)) for t, sx, sy, ex, ey, _ in front_runs
                     if stringWidth(t, "Helvetica", 8) == pytest.approx(ex - sx, abs=EPS) and ey == sy]
        ox = "0.5,-1.25" if paper == "letter" else "-3,2.75"
        assert [t for t, _, _ in text_runs] == [  # each line whole: nothing before or after it
            f"cardgen duplex calibration: {paper}, flip on {duplex} edge, printed with back offset {ox} mm",
            f"1. Print both pages on one sheet, double-sided, flip on {duplex} edge, at actual size (no scaling, "
            "no fit to page).",
            "2. Hold the sheet against a light with this side towards you. On each scale one line of this side",
            "   continues a line of the back straight on: its number (the same on both sides) is the offset.",
            "3. Build with  cardgen build --back-offset X,Y  (X from the scale across, Y from the scale up the page).",
            "   A scale with no straight pair reads beyond 3 mm: print this sheet again with --back-offset near its end.",
        ]
        for n, (_, sx, sy) in enumerate(text_runs):
            assert (sx, sy) == (round(15 * PT, 2), round((page_h - 15 - n * 4.2) * PT, 2))
        # "X" ends 4 mm left of the x scale's first line, level with the meeting line; "Y" starts
        # 2 mm left of the y scale's last line's start, 5 mm above it; both 16 pt
        names = [(t, sx, sy, ex) for t, sx, sy, ex, ey, _ in front_runs if t in ("X", "Y")]
        x_end = (page_w / 2 - 78 - 4) * PT
        y_start = (page_w / 2 - 2 - 2) * PT
        y_mid = (page_h - 85) / 2 + 5
        assert [(t, round(sx, 2), round(sy, 2), round(ex, 2)) for t, sx, sy, ex in names] == [
            ("X", round(x_end - stringWidth("X", "Helvetica", 16), 2), round((page_h - 60) * PT, 2), round(x_end, 2)),
            ("Y", round(y_start, 2), round((y_mid + 78 + 5) * PT, 2), round(y_start + stringWidth("Y", "Helvetica", 16), 2)),
        ]
        back_runs = [(t, round(sx, 2), round(sy, 2)) for t, sx, sy, ex, ey, _ in words(back)
                     if stringWidth(t, "Helvetica", 8) == pytest.approx(ex - sx, abs=EPS) and ey == sy]
        assert back_runs == [(f"Back of the calibration sheet ({paper}, flip on {duplex} edge, back offset {ox} mm). "
                              "Read the scales from the other side.",
                              round((15 + offset[0]) * PT, 2), round((page_h - 15 + offset[1]) * PT, 2))]
        assert not [t for t, *_ in words(back) if t in ("X", "Y")]


def test_the_sheet_names_itself_and_asks_for_actual_size_and_the_right_flip(sheet):
    path, paper, duplex, mirror, offset = sheet
    with pdfplumber.open(path) as pdf:
        assert pdf.metadata["Title"] == f"cardgen duplex calibration ({paper}, flip on {duplex} edge)"
        assert pdf.metadata["Creator"] == pdf.metadata["Producer"] == "cardgen"
        assert pdf.metadata["CreationDate"] == "D:20000101000000+00'00'"  # the same bytes at every build
        preferences = pdf.doc.catalog["ViewerPreferences"].resolve()
        assert preferences["PrintScaling"].name == "None"
        assert preferences["Duplex"].name == ("DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge")


def test_the_same_sheet_is_the_same_bytes(tmp_path: Path):
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_calibration(first, "a4", "long", (1.0, 0.0))
    write_calibration(second, "a4", "long", (1.0, 0.0))
    assert first.read_bytes() == second.read_bytes()


def test_a_sheet_without_a_flip_edge_is_for_long_edge_duplex(tmp_path):
    path = tmp_path / "calibration.pdf"
    write_calibration(path, "a4")
    with pdfplumber.open(path) as pdf:
        assert pdf.metadata["Title"] == "cardgen duplex calibration (a4, flip on long edge)"
        assert pdf.doc.catalog["ViewerPreferences"].resolve()["Duplex"].name == "DuplexFlipLongEdge"


def test_the_pages_use_the_font_given_and_no_other_and_are_compressed(tmp_path):
    import shutil

    import pikepdf

    from cardgen.text.fonts import FontBook

    root = tmp_path / "proj"
    shutil.copytree(REPO / "tests" / "fixtures" / "sheets", root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    font = FontBook(root).face(None).pdf_name  # the project's font, as cardgen calibrate passes it
    assert font != "Helvetica"
    path = tmp_path / "calibration.pdf"
    write_calibration(path, "letter", "long", (0.0, 0.0), font=font)
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            fonts = page.obj["/Resources"]["/Font"]
            names = [str(fonts[key]["/BaseFont"]) for key in fonts.keys()]
            assert len(names) == 1 and "Helvetica" not in names[0]  # no font the PDF does not embed
            assert "/FlateDecode" in list(page.obj["/Contents"]["/Filter"])  # a page's stream is compressed


@pytest.mark.parametrize("paper, fits", [
    ((182.0, 257.0), True),  # the least paper: 162 mm of scale and 10 mm each side across; 10 mm below the y scale
    ((181.9, 300.0), False),  # too narrow for the x scale
    ((250.0, 256.9), False),  # too short for the y scale to clear 10 mm from the bottom
    ((200.0, 235.0), False),  # the y scale would reach below the page
])
def test_the_calibration_sheet_needs_paper_of_182_by_257_mm(tmp_path, paper, fits):
    path = tmp_path / "calibration.pdf"
    if fits:
        write_calibration(path, paper)
        assert path.exists()
    else:
        with pytest.raises(CardgenError) as error:
            write_calibration(path, paper)
        got = " x ".join(f"{side:g}" for side in paper)
        assert str(error.value) == f"the calibration sheet needs paper of at least 182 x 257 mm, got {got} mm"
        assert not path.exists()
