"""The render stage: every card copy and its back through its template, to checked markup.

Identical markup (copies, shared backs) is parsed once and shares one key, so later stages lay
out and draw each distinct face once.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Protocol

from ..errors import CardgenError, Problem, Source
from ..model import Card, CardSet, CardType, Face
from .environment import Templates
from .markup import Element, parse_markup


@dataclass(frozen=True, slots=True)  # one per distinct face: kept small
class Markup:
    """A face's markup, kept as text until it is laid out; a face known from an earlier build
    (see ``RenderMemo``) is rendered only if its markup is asked for."""

    rendered: str | None
    card_type: CardType
    card_name: str
    source: Source | None
    render: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        if self.rendered is None:
            object.__setattr__(self, "rendered", self.render())
        return self.rendered

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


class RenderMemo(Protocol):
    """Renderings kept from earlier builds: a render key -> (markup key, what it names)."""

    prefix: str  # everything a rendering depends on besides its template and card: see render_key

    def recall(self, key: str) -> Any: ...

    def remember(self, key: str, value: Any) -> None: ...


_PLAIN = {str, int, float, bool, type(None)}

# The renderer's own code: a kept rendering is stale once it changes.
RENDERER = hashlib.sha256(b"".join(path.read_bytes() for path in sorted(Path(__file__).parent.glob("*.py")))).hexdigest()


def plain_data(value: Any) -> bool:
    """Whether ``repr`` tells all of a value (so it can stand for it in a render key)."""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if kind is list or kind is tuple:
        return all(plain_data(v) for v in value)
    if kind is dict or kind is MappingProxyType:
        return all(type(k) is str and plain_data(v) for k, v in value.items())
    return False


def render_key(prefix: str, template: str, card_type: CardType, values_text: str) -> str:
    """What decides a face's rendering, hashed: the memo's prefix (templates, set, renderer),
    the template, the card size and the values the template reads (``values_text``, their
    repr, which tells all of them when they are plain data: see ``plain_data``)."""
    size = card_type.size
    text = f"{prefix}\0{template}\0{size.w}x{size.h}:{size.shape}:{card_type.bleed}:{card_type.safe}\0{values_text}"
    return "render:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def render_faces(card_set: CardSet, templates: Templates, cards: Iterable[Card] | None = None,
                 fingerprints=None, memo: RenderMemo | None = None) -> RenderedSet:
    """Render fronts (one per copy) and backs. ``fingerprints`` gives the content hash of a
    face: its markup and the files the markup refers to (fonts, images; see assets.py). The
    markup is checked when it is laid out. A face that ``memo`` knows is not rendered."""
    problems: dict[tuple, tuple[Problem, set]] = {}  # one line per template fault: (first problem, cards)
    markups: dict[str, Markup] = {}
    hashes: dict[str, str] = {}
    renderings: dict[tuple, str] = {}  # (template, the values it reads) -> markup key
    pairs: list[tuple[Face, Face | None]] = []

    def content_hash(key: str, refs) -> str:
        return fingerprints.of(key, refs) if fingerprints is not None else key

    def face(template: str, card: Card, card_type: CardType, fields, copy: int, side: str, where,
             plain: bool) -> Face | None:
        context = template_context(card_set, card_type, fields, copy)
        used = templates.names_used(template)
        # the values the template reads: faces with the same ones are one rendering (a back
        # that reads no card field is rendered once, not per card)
        values = [(n, context.get(n)) for n in sorted(used)] if used is not None else list(context.items())
        values_text = repr(values)
        remembered = None
        if plain:  # the context holds the card's fields and values of cardgen's own: all plain
            remembered = render_key(memo.prefix, template, card_type, values_text)
        # keyed by a digest: the values of every card would otherwise stay in memory as keys
        shared = (template, id(card_type),
                  remembered or hashlib.blake2b(values_text.encode("utf-8"), digest_size=20).digest())
        key = renderings.get(shared)
        if key is not None:
            return Face(card, card_type, copy, side, key, hashes[key])
        known = memo.recall(remembered) if remembered is not None else None
        if known is not None:
            key, refs = known
            if key not in markups:
                markups[key] = Markup(None, card_type, card.name, where,
                                      lambda: templates.render(template, context, card.name, where))
                hashes[key] = content_hash(key, refs)
        else:
            try:
                text = templates.render(template, context, card.name, where)
            except CardgenError as error:
                for problem in error.problems:
                    first, cards = problems.setdefault((problem.source, problem.message), (problem, set()))
                    cards.add(problem.card)
                return None
            key = _key(text, card_type)
            refs = fingerprints.refs(text) if fingerprints is not None else ((), ())
            if key not in markups:
                markups[key] = Markup(text, card_type, card.name, where)
                hashes[key] = content_hash(key, refs)
            if remembered is not None:
                memo.remember(remembered, (key, refs))
        renderings[shared] = key
        return Face(card, card_type, copy, side, key, hashes[key])

    for card in cards if cards is not None else card_set.cards:
        card_type = card_set.types[card.type]
        back = card_set.backs.get(card_type.back) if card_type.back else None
        plain = memo is not None and plain_data(card.fields)
        for copy in range(1, card.count + 1):
            front = face(card_type.template, card, card_type, card.fields, copy, "front", card_type.source, plain)
            back_face = None
            if back is not None:
                fields = {**card.fields, **back.fields}
                back_face = face(back.template, card, card_type, fields, copy, "back", back.source,
                                 plain and plain_data(back.fields))
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
