"""The calibration sheet's instructions, read back from the PDF: the paper, the edge to flip on
and the offset it was printed with, and every step, word for word."""
from __future__ import annotations

from cardgen.sheets.calibration import write_calibration
from pdftext import page_texts


def test_the_calibration_sheet_says_how_to_print_and_read_it(tmp_path):
    path = tmp_path / "calibrate.pdf"
    write_calibration(path, "a4", "short", (0.5, -1.25))
    text = " ".join(page_texts(path)[0].split())
    for line in [
        "cardgen duplex calibration: a4, flip on short edge, printed with back offset 0.5,-1.25 mm",
        "1. Print both pages on one sheet, double-sided, flip on short edge, at actual size (no scaling, no fit "
        "to page).",
        "2. Hold the sheet against a light with this side towards you. On each scale one line of this side "
        "continues a line of the back straight on: its number (the same on both sides) is the offset.",
        "3. Build with cardgen build --back-offset X,Y (X from the scale across, Y from the scale up the page).",
        "A scale with no straight pair reads beyond 3 mm: print this sheet again with --back-offset near its end.",
    ]:
        assert line in text
