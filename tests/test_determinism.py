"""The same input gives byte-identical files, whatever else differs between two runs: the clock
and time zone, the project's folder, the environment. Each test builds twice under two
conditions and compares the bytes (the sweep behind them ran in session 15)."""
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


def test_a_hidden_folder_in_the_set_does_not_move_the_pdfs_date(project, monkeypatch):
    """Without SOURCE_DATE_EPOCH the PDF's date is the newest of the set's files: a hidden
    folder's file (a set kept in its own git repository: .git/index, .git/FETCH_HEAD; an IDE's
    .idea/) counted, though the build never reads it, and a `git fetch` gave other bytes."""
    import os

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    options = BuildOptions(jobs=1, cache=False)
    (before,) = cardgen.build(["demo"], project, project / "before", options).sets
    for folder in (".git", ".idea"):
        kept = project / "data/demo" / folder / "logs/HEAD"
        kept.parent.mkdir(parents=True)
        kept.write_text("0000 1111 designer <d@example.com> 4102444800 +0000\tfetch\n", encoding="utf-8")
        os.utime(kept, (4102444800, 4102444800))  # 2100-01-01
    (after,) = cardgen.build(["demo"], project, project / "after", options).sets
    assert after.pdf.read_bytes() == before.pdf.read_bytes()


def test_the_cache_names_no_folder_of_the_machine(tmp_path):
    """.cardgen-cache/ lies in the project, which gets zipped and shared: it kept the project's
    absolute path (the built-<set> record's PDF and manifest), every font's (font-digests and
    each font's reading: cardgen's own fonts, a user-site install's in the home folder) and ruamel's
    installed folder (the YAML cache's identity). It keeps digests of paths, or paths relative
    to itself; a rebuild still finds everything (the second build is skipped whole)."""
    import os
    import sys

    import ruamel.yaml

    from projects import make_project

    root = make_project(tmp_path, fonts=True)
    options = BuildOptions(jobs=1, skip_unchanged=True)
    first = cardgen.build(["demo"], root, None, options)
    again = cardgen.build(["demo"], root, None, options)
    assert again.sets[0].laid_out == 0 and again.sets[0].pdf == first.sets[0].pdf
    folders = {str(root), str(root.resolve()), str(tmp_path), os.path.dirname(cardgen.__file__),
               os.path.dirname(os.path.dirname(cardgen.__file__)), os.path.dirname(ruamel.yaml.__file__),
               sys.prefix, os.path.expanduser("~")}
    kept = [path for path in (root / ".cardgen-cache").rglob("*") if path.is_file()]
    assert any(path.name == "font-digests.marshal" for path in kept)
    named = sorted({f"{path.name}: {folder}" for path in kept for folder in folders
                    if os.fsencode(folder) in path.read_bytes()})
    assert named == []


@pytest.mark.parametrize("name", ["Thumbs.db", "images/Thumbs.db", "desktop.ini"])
def test_a_file_browsers_own_file_does_not_move_the_pdfs_date(project, monkeypatch, name):
    """Windows Explorer writes Thumbs.db beside pictures and desktop.ini in a folder it shows
    (hidden there by an attribute, as .DS_Store is by its dot): one in the set's folder was one
    of the set's files, and opening the folder gave the next build another date."""
    import os

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    options = BuildOptions(jobs=1, cache=False)
    (before,) = cardgen.build(["demo"], project, project / "before", options).sets
    kept = project / "data/demo" / name
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
    os.utime(kept, (4102444800, 4102444800))  # 2100-01-01
    (after,) = cardgen.build(["demo"], project, project / "after", options).sets
    assert after.pdf.read_bytes() == before.pdf.read_bytes()


def test_a_faces_png_does_not_depend_on_how_many_copies_there_are(tmp_path):
    """A content met again is placed as a form its first page defined (write/pdf.py), and
    pdfium rasterises text in a form a little differently: the proof and the shops' PNGs took
    the last page of a content, so Quick Draw's front (two copies) had other pixels than with
    one copy, and a rerun after the count changed kept whichever it had. Every raster is taken
    from a content's first page."""
    from projects import make_project, run_cli

    pngs = {}
    for count in (2, 1):
        root = make_project(tmp_path / f"count{count}", fonts=False)
        cards = root / "data/demo/cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("  count: 2\n", f"  count: {count}\n", 1),
                         encoding="utf-8")
        assert run_cli(root, "proof", "demo", "--jobs", "1").returncode == 0
        assert run_cli(root, "export", "demo", "--shop", "tgc", "--jobs", "1").returncode == 0
        pngs[count] = {path.relative_to(root / "output").as_posix(): path.read_bytes()
                       for path in sorted((root / "output").rglob("*quick-draw*.png"))}
    assert sorted(pngs[1]) == ["proofs/demo/quick-draw-1-back.png", "proofs/demo/quick-draw-1-front.png",
                              "tgc/demo/poker-plain/quick-draw.png"]
    assert {name: data for name, data in pngs[2].items() if name in pngs[1]} == pngs[1]
