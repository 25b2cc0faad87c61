"""The synthetic deck both benchmarks build: a frame, a title, a 60-word body with bold,
italic and an icon (auto-fit on, justified), and a shared back."""
from __future__ import annotations

import csv
import random
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAX_SIZE = 14  # pt: 60 words need less, so auto-fit has to search every card
BODY_H = 52  # mm
WORDS = ("token challenge planet alien power flare colony ship warp cone attack negotiate ally reward "
         "destiny hyperspace compensation edict kicker reinforcement moon lucre base defense offense").split()

SET_YAML = """name: bench
title: Bench
version: "1"
size: poker
types:
  card: {template: bench/card.xml.j2, back: back}
backs:
  back: {template: bench/back.xml.j2}
icons:
  star: {glyph: "\u2605", font: DejaVu Sans, color: "#c08000"}
cards: [{file: cards.csv, type: card}]
"""
CARD = f"""<card>
  <rect x="{{{{ -bleed }}}}" y="{{{{ -bleed }}}}" w="{{{{ w + 2 * bleed }}}}" h="{{{{ h + 2 * bleed }}}}" fill="#27408b"/>
  <rect x="3" y="3" w="{{{{ w - 6 }}}}" h="{{{{ h - 6 }}}}" r="2" fill="#fdf6e3" stroke="#000000" stroke-width="0.3"/>
  <text name="title" x="5" y="5" w="{{{{ w - 10 }}}}" h="9" weight="bold" size="13" min-size="7" align="center" valign="middle" markup="plain">{{{{ name }}}}</text>
  <text name="body" x="5" y="17" w="{{{{ w - 10 }}}}" h="{BODY_H}" size="{MAX_SIZE}" min-size="4" align="justify">{{{{ text }}}}</text>
</card>
"""
BACK = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="#27408b"/>
  <text x="5" y="40" w="{{ w - 10 }}" h="10" size="16" weight="bold" align="center" color="#ffffff">BENCH</text>
</card>
"""


def body(rng: random.Random) -> str:
    """60 words, two of them bold, one italic, and an icon."""
    words = [rng.choice(WORDS) for _ in range(60)]
    words[3] = f"**{words[3]} {words[4]}**"
    words[10] = f"*{words[10]}*"
    words[20] = ":star:"
    return " ".join(words[:4] + words[5:])


def make_project(folder: Path, cards: int, seed: int | None = None) -> Path:
    """Write a project with ``cards`` different cards into ``folder`` (fonts copied from the repo)."""
    (folder / "data/bench").mkdir(parents=True)
    (folder / "templates/bench").mkdir(parents=True)
    shutil.copytree(REPO / "fonts", folder / "fonts")
    (folder / "data/bench/set.yaml").write_text(SET_YAML, encoding="utf-8")
    (folder / "templates/bench/card.xml.j2").write_text(CARD)
    (folder / "templates/bench/back.xml.j2").write_text(BACK)
    rng = random.Random(cards if seed is None else seed)
    with open(folder / "data/bench/cards.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "text"])
        for number in range(cards):
            writer.writerow([f"Card {number + 1}", body(rng)])
    return folder
