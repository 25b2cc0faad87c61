"""Pages kept whole from the last build (write_pdf's ``kept``) are for plain builds only: a
build with proof boxes or a stamp after another build prints what it prints without the cache."""
from __future__ import annotations

import csv

import cardgen
from cardgen import BuildOptions
from pdftext import page_texts
from projects import make_project

STAMP = "Demo Deck v0.3 · 2025-04-01"


def _rows(root, count=30) -> None:
    with open(root / "data/demo/more.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "count", "text", "weight"])
        for number in range(count):
            writer.writerow([f"Card {number + 1}", 1, f"text of card {number + 1}", ""])


def _build(root, out, **options):
    return cardgen.build(["demo"], root, root / out, BuildOptions(jobs=1, **options)).sets[0]


def test_proof_boxes_and_stamps_are_never_taken_from_pages_kept_by_another_build(tmp_path):
    root = make_project(tmp_path, fonts=False)
    _rows(root)
    plain = _build(root, "plain")
    proof = dict(proof_boxes=True)
    stamp = dict(stamp=True, stamp_date="2025-04-01")
    later = dict(stamp=True, stamp_date="2025-04-02")
    for options in (proof, stamp, later):  # each after a build with other pages
        again = _build(root, "again", **options)
        fresh = _build(root, "fresh", cache=False, **options)
        assert again.pdf.read_bytes() == fresh.pdf.read_bytes(), options
    assert again.pdf.read_bytes() != plain.pdf.read_bytes()
    assert sum(STAMP.replace("01", "02") in text for text in page_texts(again.pdf)) > 4
