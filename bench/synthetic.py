"""The synthetic decks the benchmarks build.

- ``plain`` (the first one): a frame, a title, a 60-word body with bold, italic and a glyph icon
  (auto-fit on, justified), and a shared back with a word on it.
- ``images`` (issue 19, a deck like a real game's): poker cards, a frame, an auto-fitted title,
  a 60-word body with bold and italic words and an inline *image* icon (a PNG), auto-fitted, a
  different text on every card, and a back with a logo image (a PNG); built as 3 x 3 sheets with
  crop marks and duplex back pages (the default sheets of a poker set on Letter).

Card files are CSV (``data_format="csv"``) or YAML (``"yaml"``, the README's first example),
with the same cards.
"""
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


IMAGES_SET_YAML = """name: bench
title: Bench
version: "1"
size: poker
types:
  card: {template: bench/card.xml.j2, back: back}
backs:
  back: {template: bench/back.xml.j2}
icons:
  star: {image: icons/star.png}
cards: [{file: cards.CARDS_FORMAT, type: card}]
"""
IMAGES_BACK = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="#27408b"/>
  <rect x="3" y="3" w="{{ w - 6 }}" h="{{ h - 6 }}" r="2" fill="none" stroke="#fdf6e3" stroke-width="0.5"/>
  <image x="{{ w / 2 - 20 }}" y="{{ h / 2 - 20 }}" w="40" h="40" src="logo.png"/>
</card>
"""


def _images(folder: Path) -> None:
    """The icon (64 px) and the logo (600 px): PNGs drawn the same way every time."""
    from PIL import Image, ImageDraw

    (folder / "data/bench/icons").mkdir(parents=True)
    icon = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(icon).polygon([(32, 2), (40, 24), (62, 24), (44, 38), (51, 61), (32, 47), (13, 61), (20, 38),
                                  (2, 24), (24, 24)], fill=(192, 128, 0, 255))
    icon.save(folder / "data/bench/icons/star.png")
    logo = Image.new("RGB", (600, 600), (39, 64, 139))
    draw = ImageDraw.Draw(logo)
    for ring in range(10):
        inset = ring * 28
        draw.ellipse([inset, inset, 599 - inset, 599 - inset], fill=(39 + ring * 20, 64, 139 - ring * 10))
    logo.save(folder / "data/bench/logo.png")


def make_project(folder: Path, cards: int, seed: int | None = None, deck: str = "plain",
                 data_format: str = "csv") -> Path:
    """Write a project with ``cards`` different cards into ``folder`` (fonts copied from the repo):
    the ``plain`` or the ``images`` deck, its cards in a ``csv`` or ``yaml`` file."""
    (folder / "data/bench").mkdir(parents=True)
    (folder / "templates/bench").mkdir(parents=True)
    shutil.copytree(REPO / "fonts", folder / "fonts")
    if deck == "images":
        _images(folder)
        (folder / "data/bench/set.yaml").write_text(IMAGES_SET_YAML.replace("CARDS_FORMAT", data_format),
                                                    encoding="utf-8")
        (folder / "templates/bench/back.xml.j2").write_text(IMAGES_BACK)
    elif deck == "plain":
        (folder / "data/bench/set.yaml").write_text(SET_YAML.replace("cards.csv", f"cards.{data_format}"),
                                                    encoding="utf-8")
        (folder / "templates/bench/back.xml.j2").write_text(BACK)
    else:
        raise ValueError(f"unknown deck {deck!r} (plain, images)")
    (folder / "templates/bench/card.xml.j2").write_text(CARD)
    rng = random.Random(cards if seed is None else seed)
    rows = [(f"Card {number + 1}", body(rng)) for number in range(cards)]
    if data_format == "csv":
        with open(folder / "data/bench/cards.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["name", "text"])
            writer.writerows(rows)
    elif data_format == "yaml":
        import json  # a JSON string is a YAML string: quoting stays exact

        with open(folder / "data/bench/cards.yaml", "w", encoding="utf-8") as handle:
            for name, text in rows:
                handle.write(f"- name: {json.dumps(name)}\n  text: {json.dumps(text)}\n")
    else:
        raise ValueError(f"unknown data format {data_format!r} (csv, yaml)")
    return folder
