"""Benchmark: a deck drawn with the richer markup (issue 18): a gradient background, a banner
path with a gradient, a clipped cover image with rounded corners, a dashed frame, and the
synthetic deck's auto-fitted 60-word body with bold, italic and an icon; a shared back.

    python bench/bench_layouts.py             # 1,000 cards, 5 runs
    python bench/bench_layouts.py --cards 1000 --runs 5

Each run is a whole `cardgen build` process, import included, with the cache cleared, timed
with /usr/bin/time's wall clock by this script (the median of the runs is reported), as a user
runs it. Goal (issue 18): >= 1,000 cards/s.
"""
from __future__ import annotations

import argparse
import csv
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import REPO, body  # noqa: E402

SET_YAML = """name: rich
title: Rich
version: "1"
size: poker
types:
  card: {template: rich/card.xml.j2, back: back}
backs:
  back: {template: rich/back.xml.j2}
icons:
  star: {glyph: "\u2605", font: DejaVu Sans, color: "#c08000"}
cards: [{file: cards.csv, type: card}]
"""
CARD = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="linear-gradient(180, #1b2a49, #3b5a99 60%, #000000)"/>
  <clip>
    <rect x="4" y="4" w="{{ w - 8 }}" h="26" r="3"/>
    <image x="4" y="4" w="{{ w - 8 }}" h="26" src="art.png" fit="cover" focus="0.7 0.4"/>
  </clip>
  <path d="M 4 31 H {{ w - 4 }} l -3 4 l 3 4 H 4 l 3 -4 Z" fill="linear-gradient(90, #f3d27a, #c8a040)" stroke="#5a4010" stroke-width="0.3"/>
  <text name="title" x="8" y="31.5" w="{{ w - 16 }}" h="7" weight="bold" size="11" min-size="7" align="center" valign="middle" markup="plain" letter-spacing="0.05em">{{ name }}</text>
  <rect x="4" y="41" w="{{ w - 8 }}" h="{{ h - 45 }}" r="2" fill="#fdf6e3" stroke="#c8a040" stroke-width="0.4" dash="1.2 0.6"/>
  <text name="body" x="5.5" y="42" w="{{ w - 11 }}" h="{{ h - 47.5 }}" size="12" min-size="4" align="justify">{{ text }}</text>
</card>
"""
BACK = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="radial-gradient(#3b5a99, #1b2a49)"/>
  <path d="M {{ w/2 }} 20 L {{ w/2 + 15 }} 44 L {{ w/2 }} 68 L {{ w/2 - 15 }} 44 Z" fill="#f3d27a"/>
</card>
"""


def make_project(folder: Path, cards: int) -> Path:
    from PIL import Image, ImageDraw

    (folder / "data/rich").mkdir(parents=True)
    (folder / "templates/rich").mkdir(parents=True)
    shutil.copytree(REPO / "fonts", folder / "fonts")
    (folder / "data/rich/set.yaml").write_text(SET_YAML, encoding="utf-8")
    (folder / "templates/rich/card.xml.j2").write_text(CARD)
    (folder / "templates/rich/back.xml.j2").write_text(BACK)
    art = Image.new("RGB", (800, 400), "#88aadd")
    draw = ImageDraw.Draw(art)
    draw.ellipse((500, 120, 660, 280), fill="#d04020")
    draw.rectangle((0, 300, 800, 400), fill="#336633")
    art.save(folder / "data/rich/art.png")
    rng = random.Random(cards)
    with open(folder / "data/rich/cards.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "text"])
        for number in range(cards):
            writer.writerow([f"Card {number + 1}", body(rng)])
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_project(Path(tmp) / "project", args.cards)
        cardgen = Path(sys.executable).with_name("cardgen")
        times = []
        for _ in range(args.runs):
            shutil.rmtree(folder / ".cardgen-cache", ignore_errors=True)
            started = time.perf_counter()
            subprocess.run([str(cardgen), "build", "rich"], cwd=folder, check=True, capture_output=True)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        pdf = folder / "output/rich.pdf"
        print(f"{args.cards} cards with gradients, a banner path, a clipped cover image and a dashed frame, "
              f"whole process, cache cleared: median {median:.2f} s = {args.cards / median:,.0f} cards/s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)}); PDF {pdf.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
