"""The page's data, as ``cardgen serve`` and ``cardgen proof`` both write it: a set's cards
with their faces, data fields (each with its ``file:line``) and problems, and its card types
with their counts and geometry (for the trim, bleed and safe guides)."""
from __future__ import annotations

import json
from typing import Any, Iterable

from ..errors import Problem
from ..model import Card, CardSet

def problem_json(problem: Problem) -> dict:
    return {"severity": problem.severity, "message": problem.message, "where": str(problem.source or ""),
            "card": problem.card, "text": str(problem)}


def value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, (bool, int, float)):
        return str(value)
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def card_json(card: Card, key: str, faces: list[dict], problems: list[int], card_type=None) -> dict:
    """``faces``: {"label", "side", and "hash" (served) or "src" and "print" (files)}. A field
    holding its type's default (``card_type``) is shown at the default's line of set.yaml, not
    at the card's row, which does not give it."""
    defaults = card_type.defaults if card_type is not None else {}
    fields = [[name, value_text(value), str(card_type.default_sources.get(name, card.source_of(name))
                                              if name in defaults and value is defaults[name] and name not in
                                              card.field_sources else card.source_of(name))]
              for name, value in card.fields.items()]
    return {"key": key, "name": card.name, "type": card.type, "count": card.count, "source": str(card.source),
            "faces": faces, "fields": fields, "problems": problems}


def card_keys(cards: Iterable[Card]) -> list[str]:
    """A key per card, in order: its name, or "name #2" for the second card of that name."""
    seen: dict[str, int] = {}
    keys = []
    for card in cards:
        seen[card.name] = seen.get(card.name, 0) + 1
        keys.append(card.name if seen[card.name] == 1 else f"{card.name} #{seen[card.name]}")
    return keys


def problem_hits(problems: list[Problem]) -> dict[str, list[int]]:
    """Card name -> the indexes of the problems that name it."""
    hits: dict[str, list[int]] = {}
    for index, problem in enumerate(problems):
        if problem.card:
            hits.setdefault(problem.card, []).append(index)
    return hits


def types_json(card_set: CardSet, cards: list[dict]) -> list[dict]:
    """The types of ``cards`` in order of first appearance, with cards and copies counted."""
    counts: dict[str, list[int]] = {}
    for card in cards:
        count = counts.setdefault(card["type"], [0, 0])
        count[0] += 1
        count[1] += card["count"]
    types = []
    for name, (number, copies) in counts.items():
        card_type = card_set.types[name]
        size = card_type.size
        types.append({"name": name, "cards": number, "copies": copies, "w": size.w, "h": size.h,
                      "shape": size.shape, "bleed": card_type.bleed, "safe": card_type.safe})
    return types
