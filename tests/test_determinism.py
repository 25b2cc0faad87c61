"""The same input gives byte-identical files, whatever else differs between two runs: the clock
and time zone, the project's folder, the environment. Each test builds twice under two
conditions and compares the bytes (the sweep behind them: /tmp/determinism in session 15)."""
from __future__ import annotations

import time

import pytest

import cardgen
from cardgen import BuildOptions

pytestmark = pytest.mark.shipped_fonts


def _build_in_zone(project, monkeypatch, zone: str, out: str, **options) -> bytes:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        (result,) = cardgen.build(["demo"], project, project / out,
                                  BuildOptions(jobs=1, cache=False, **options)).sets
    finally:
        monkeypatch.undo()
        time.tzset()
    return result.pdf.read_bytes()


def test_the_stamp_prints_the_pdfs_date_not_the_clocks(project, monkeypatch):
    """--stamp printed today's date in the local zone (time.strftime): the same input built in
    two zones (UTC-12 and UTC+14: never the same day), or on two days, gave other bytes. It
    prints the PDF's date, fixed by the input (here SOURCE_DATE_EPOCH: 2023-11-14 22:13 UTC)."""
    west = _build_in_zone(project, monkeypatch, "Etc/GMT+12", "west", stamp=True, layout="per-card")
    east = _build_in_zone(project, monkeypatch, "Etc/GMT-14", "east", stamp=True, layout="per-card")
    assert west == east
    import pypdfium2

    text = pypdfium2.PdfDocument(east)[0].get_textpage().get_text_range()
    assert "Demo Deck v0.3 · 2023-11-14" in text
