"""``index.html``: the card browser of ``cardgen serve`` (cardgen/page/) over the proof PNGs:
every card by type with its faces named, search, filters by type and problem, the trim, bleed
and safe guides, and a detail view with the card's fields. The data is written into the page
and the script and style sit beside it, so it opens from the disk (``file://``) with no server."""
from __future__ import annotations

import json
from typing import Sequence

from ..errors import Problem
from ..model import CardSet
from ..page import PAGE, SCRIPT, STYLE, asset
from ..page.data import card_json, card_keys, problem_hits, problem_json, types_json

ASSETS = (SCRIPT, STYLE)  # copied beside index.html


def gallery_data(card_set: CardSet, faces: Sequence[dict], problems: Sequence[Problem], contact: str | None) -> dict:
    """``faces``: the proof's entries (card, side, copy, file), in print order."""
    by_card: dict[str, list[dict]] = {}
    seen: dict[str, set] = {}
    for face in faces:
        shown = by_card.setdefault(face["card"], [])
        if face["key"] in seen.setdefault(face["card"], set()):
            continue  # a copy that looks like one already shown
        seen[face["card"]].add(face["key"])
        label = face["side"] if face["copy"] == 1 else f"copy {face['copy']} {face['side']}"
        shown.append({"label": label, "side": face["side"], "src": face["file"], "print": face["file"]})
    first = {}
    for card in card_set.cards:
        first.setdefault(card.name, card)
    cards = [first[name] for name in by_card if name in first]
    hits = problem_hits(list(problems))
    data = [card_json(card, key, by_card[card.name], hits.get(card.name, []), card_set.types.get(card.type))
            for key, card in zip(card_keys(cards), cards)]
    files = [{"path": contact, "href": contact}] if contact else []
    return {"generation": 1, "sets": [{
        "name": card_set.name, "title": card_set.title, "version": card_set.version, "cards": data,
        "types": types_json(card_set, data), "problems": [problem_json(p) for p in problems], "decks": [],
        "failed": [], "changed": [], "pdf": {}, "files": files, "ready": True}]}


def gallery(data: dict) -> str:
    page = (PAGE / "index.html").read_text(encoding="utf-8")
    embedded = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    page = page.replace("static/", "").replace(
        "<!--DATA-->", f'<script id="cardgen-data" type="application/json">{embedded}</script>')
    return page


def assets() -> dict[str, bytes]:
    return {name: asset(name) for name in ASSETS}
