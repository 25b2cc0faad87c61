"""The render stage: every card copy and its back through its template, to checked markup.

Identical markup (copies, shared backs) is parsed once and shares one key, so later stages lay
out and draw each distinct face once.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

from ..errors import CardgenError, Problem, Source
from ..model import Card, CardSet, CardType, Face
from .environment import Templates
from .markup import Element, parse_markup


@dataclass(frozen=True)
class Markup:
    """A face's markup, kept as text until it is laid out."""

    text: str
    card_type: CardType
    card_name: str
    source: Source | None

    def elements(self) -> tuple[Element, ...]:
        """Parse and check the markup (raises CardgenError naming the template line)."""
        return parse_markup(self.text, self.card_name, self.source)


@dataclass(frozen=True)
class RenderedSet:
    pairs: tuple[tuple[Face, Face | None], ...]
    markups: Mapping[str, Markup]  # markup key -> the markup
    hashes: Mapping[str, str]  # markup key -> content hash (markup, fonts, images, icons)


class SetView(dict):
    """``set`` in templates: name, title, version and every variable, by attribute or key."""

    __getattr__ = dict.__getitem__


def template_context(card_set: CardSet, card_type: CardType, fields: Mapping[str, Any], copy: int) -> dict:
    size = card_type.size
    context = dict(fields)
    context.update(
        card=dict(fields), copy=copy, w=size.w, h=size.h, bleed=card_type.bleed, safe=card_type.safe,
        set=SetView(card_set.variables, name=card_set.name, title=card_set.title, version=card_set.version))
    context.setdefault("item", None)
    return context


def _key(markup: str, card_type: CardType) -> str:
    size = card_type.size
    head = f"{size.w}x{size.h}:{size.shape}:{card_type.bleed}:{card_type.safe}\n"
    return hashlib.sha256((head + markup).encode("utf-8")).hexdigest()


def render_faces(card_set: CardSet, templates: Templates, cards: Iterable[Card] | None = None,
                 fingerprint: Callable[[str, str], str] = lambda key, markup: key) -> RenderedSet:
    """Render fronts (one per copy) and backs. ``fingerprint(key, markup)`` gives the content
    hash of a face: its markup and the files the markup refers to (fonts, images). The markup
    is checked when it is laid out."""
    problems: dict[tuple, tuple[Problem, set]] = {}  # one line per template fault: (first problem, cards)
    markups: dict[str, Markup] = {}
    hashes: dict[str, str] = {}
    renderings: dict[tuple, str] = {}  # (template, the values it reads) -> markup key
    pairs: list[tuple[Face, Face | None]] = []

    def face(template: str, card: Card, card_type: CardType, fields, copy: int, side: str, where) -> Face | None:
        context = template_context(card_set, card_type, fields, copy)
        used = templates.names_used(template)
        memo = None
        if used is not None:  # a back that reads no card field is rendered once, not per card
            memo = (template, id(card_type), repr([(n, context.get(n)) for n in sorted(used)]))
            key = renderings.get(memo)
            if key is not None:
                return Face(card, card_type, copy, side, key, hashes[key])
        try:
            text = templates.render(template, context, card.name, where)
            key = _key(text, card_type)
            if key not in markups:
                markups[key] = Markup(text, card_type, card.name, where)
                hashes[key] = fingerprint(key, text)
        except CardgenError as error:
            for problem in error.problems:
                first, cards = problems.setdefault((problem.source, problem.message), (problem, set()))
                cards.add(problem.card)
            return None
        if memo is not None:
            renderings[memo] = key
        return Face(card, card_type, copy, side, key, hashes[key])

    for card in cards if cards is not None else card_set.cards:
        card_type = card_set.types[card.type]
        back = card_set.backs.get(card_type.back) if card_type.back else None
        for copy in range(1, card.count + 1):
            front = face(card_type.template, card, card_type, card.fields, copy, "front", card_type.source)
            back_face = None
            if back is not None:
                fields = {**card.fields, **back.fields}
                back_face = face(back.template, card, card_type, fields, copy, "back", back.source)
            if front is not None:
                pairs.append((front, back_face))
            if len(problems) >= 50:  # enough to act on; do not flood the terminal
                raise CardgenError(_with_counts(problems))
    if problems:
        raise CardgenError(_with_counts(problems))
    return RenderedSet(tuple(pairs), markups, hashes)


def _with_counts(problems: dict[tuple, tuple[Problem, set]]) -> list[Problem]:
    """A template fault met by many cards is one line, naming the first card and the count."""
    return [replace(first, message=f"{first.message} (and {len(cards) - 1} more card{'s' * (len(cards) > 2)})")
            if len(cards) > 1 else first for first, cards in problems.values()]
