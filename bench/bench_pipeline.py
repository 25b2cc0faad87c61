"""Benchmark: synthetic decks through cardgen, beside reportlab's own Paragraph auto-fit.

    python bench/bench_pipeline.py            # 1,000 and 10,000 cards
    python bench/bench_pipeline.py --sizes 1000

Each measurement runs in a fresh process, so peak memory (ru_maxrss) is that run's own; each is
repeated (``--runs``, default 3) and the median run by time is reported, because one run on a
shared machine varies by 10% or more.
Cards: a frame, a title, a 60-word body with bold and italic and an icon, auto-fit on, a back.
Goals (issue 2): >= 2,000 cards/s on one core with auto-fit; <= 0.5 KB per card beyond fonts and
images; peak memory for 10,000 cards <= 1.2 x that for 1,000.
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import BODY_H, MAX_SIZE, REPO, make_project  # noqa: E402
def run_cardgen(folder: Path) -> dict:
    sys.path.insert(0, str(REPO))
    import cardgen

    started = time.perf_counter()
    result = cardgen.build(["bench"], folder)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # of the first build alone
    # The same build again in this process, the cache off: the cost per card once fonts are
    # parsed and templates compiled.
    started = time.perf_counter()
    cardgen.build(["bench"], folder, folder / "again", cardgen.BuildOptions(cache=False))
    steady = time.perf_counter() - started
    return {"seconds": seconds, "steady_seconds": steady, "bytes": result.sets[0].pdf.stat().st_size,
            "cards": result.sets[0].cards, "peak_mb": peak_mb}


def run_paragraph(folder: Path) -> dict:
    """reportlab's Paragraph, its size searched by rewrapping (the usual way to auto-fit with it)."""
    import csv

    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph
    from reportlab.lib.fonts import addMapping

    for name, file in (("DV", "DejaVuSans.ttf"), ("DVB", "DejaVuSans-Bold.ttf"), ("DVI", "DejaVuSans-Oblique.ttf"),
                       ("DVBI", "DejaVuSans-BoldOblique.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(folder / "fonts" / file)))
    addMapping("DV", 0, 0, "DV"), addMapping("DV", 1, 0, "DVB"), addMapping("DV", 0, 1, "DVI"), addMapping("DV", 1, 1, "DVBI")
    rows = list(csv.DictReader(open(folder / "data/bench/cards.csv")))
    started = time.perf_counter()
    canvas = Canvas(str(folder / "paragraph.pdf"), pagesize=(279.4 * mm, 215.9 * mm), invariant=1)
    w, h = 53.5 * mm, BODY_H * mm
    for index, row in enumerate(rows):
        slot = index % 8
        x, y = (10 + (slot % 4) * 63.5) * mm, (10 + (slot // 4) * 88.9) * mm
        canvas.setFillColorRGB(0.15, 0.25, 0.55)
        canvas.rect(x, y, 63.5 * mm, 88.9 * mm, fill=1, stroke=0)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", row["text"])
        text = re.sub(r"\*(.+?)\*", r"<i>\1</i>", text).replace(":star:", "\u2605")
        best = Paragraph(text, ParagraphStyle("b", fontName="DV", fontSize=MAX_SIZE, leading=MAX_SIZE * 1.2))
        if best.wrap(w, h)[1] > h:  # like cardgen: the largest size first, then a search
            best = None
            low, high = 4.0, MAX_SIZE
            while high - low > 0.05:  # binary search by rewrapping (cardgen: by arithmetic)
                middle = (low + high) / 2
                paragraph = Paragraph(text, ParagraphStyle("b", fontName="DV", fontSize=middle, leading=middle * 1.2))
                if paragraph.wrap(w, h)[1] <= h:
                    low, best = middle, paragraph
                else:
                    high = middle
        paragraph = best or Paragraph(text, ParagraphStyle("b", fontName="DV", fontSize=4, leading=4.8))
        paragraph.wrap(w, h)
        paragraph.drawOn(canvas, x + 5 * mm, y + 7 * mm)
        if slot == 7:
            canvas.showPage()
    canvas.save()
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "bytes": (folder / "paragraph.pdf").stat().st_size, "cards": len(rows)}


def one(kind: str, cards: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        make_project(folder, cards)
        result = run_cardgen(folder) if kind == "cardgen" else run_paragraph(folder)
    result.setdefault("peak_mb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--one", nargs=2, metavar=("KIND", "CARDS"), help=argparse.SUPPRESS)
    parser.add_argument("--no-paragraph", action="store_true", help="skip reportlab's Paragraph comparison")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per measurement (the median is shown)")
    args = parser.parse_args()
    if args.one:
        one(args.one[0], int(args.one[1]))
        return
    base_bytes = None
    results = {}
    for kind in ("cardgen",) + (() if args.no_paragraph else ("paragraph",)):
        for cards in args.sizes:
            runs = []
            for _ in range(args.runs if kind == "cardgen" else 1):
                done = subprocess.run([sys.executable, __file__, "--one", kind, str(cards)], capture_output=True,
                                      text=True, check=True)
                runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            results[kind, cards] = sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]
    with tempfile.TemporaryDirectory() as folder:  # fonts and a back: the fixed cost of any PDF
        folder = Path(folder)
        make_project(folder, 1)
        base_bytes = run_cardgen(folder)["bytes"]
    print(f"{'engine':<10} {'cards':>7} {'cards/s':>9} {'steady':>8} {'KB/card*':>9} {'peak MB':>8}")
    for (kind, cards), r in results.items():
        per_card = (r["bytes"] - (base_bytes if kind == "cardgen" else 0)) / cards / 1024
        steady = f"{cards / r['steady_seconds']:>8.0f}" if "steady_seconds" in r else f"{'':>8}"
        print(f"{kind:<10} {cards:>7} {cards / r['seconds']:>9.0f} {steady} {per_card:>9.3f} {r['peak_mb']:>8.1f}")
    sizes = sorted(args.sizes)
    if len(sizes) > 1:
        ratio = results["cardgen", sizes[-1]]["peak_mb"] / results["cardgen", sizes[0]]["peak_mb"]
        print(f"cardgen peak memory {sizes[-1]} / {sizes[0]} cards: {ratio:.2f}")
    print("cards/s: a first build in a new process; steady: the same build again in that process (fonts")
    print("parsed, templates compiled, cache off)")
    print("* cardgen: bytes beyond a one-card PDF (fonts, back); paragraph: all bytes, no back")


if __name__ == "__main__":
    main()
