"""The render stage: every card copy and its back through its template, to markup.

Identical markup (copies, shared backs) shares one key, so later stages lay out and draw each
distinct face once.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from dataclasses import dataclass, field, fields as dataclass_fields, replace
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol

from ..errors import CardgenError, Problem, Source
from ..limits import LimitReached
from ..streams import Latest
from ..model import Card, CardSet, CardType, Face, new_face
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


_MARKUP_FIELDS = ("rendered", "card_type", "card_name", "source", "render")
if tuple(f.name for f in dataclass_fields(Markup)) != _MARKUP_FIELDS:
    raise TypeError(f"Markup's fields are not {_MARKUP_FIELDS}")
_MARKUP_SETTERS = tuple(Markup.__dict__[name].__set__ for name in _MARKUP_FIELDS)


def _new_markup(rendered: str, card_type: CardType, card_name: str, source: Source | None) -> Markup:
    """``Markup(rendered, card_type, card_name, source)``, without its __init__'s call of
    ``object.__setattr__`` a field (a face rendered makes one)."""
    markup = object.__new__(Markup)
    set_rendered, set_type, set_name, set_source, set_render = _MARKUP_SETTERS
    set_rendered(markup, rendered), set_type(markup, card_type), set_name(markup, card_name)
    set_source(markup, source), set_render(markup, None)
    return markup


class SetView(dict):
    """``set`` in templates: name, title, version and every variable, by attribute or key."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:  # an AttributeError: Jinja then makes it undefined (`set.x is defined` works)
            raise AttributeError(name) from None


def set_view(card_set: CardSet) -> SetView:
    return SetView(card_set.variables, name=card_set.name, title=card_set.title, version=card_set.version)


def template_context(set_values: SetView, card_type: CardType, fields: Mapping[str, Any], copy: int) -> dict:
    """What a template sees: the card's fields, ``card`` (the same, as one mapping), ``copy``,
    the card's size, bleed and safe zone in mm, and ``set`` (shared by every card: templates
    run in an immutable sandbox)."""
    size = card_type.size
    context = dict(fields)
    context.update(card=dict(fields), copy=copy, w=size.w, h=size.h, bleed=card_type.bleed, safe=card_type.safe,
                   set=set_values)
    context.setdefault("item", None)
    return context


def _context_value(name: str, set_values: SetView, card_type: CardType, fields: Mapping[str, Any], copy: int) -> Any:
    """``template_context(set_values, card_type, fields, copy).get(name)``, without making the
    context."""
    if name in _OWN_NAMES:
        if name == "card":
            return dict(fields)
        if name == "copy":
            return copy
        if name == "set":
            return set_values
        if name == "w":
            return card_type.size.w
        if name == "h":
            return card_type.size.h
        return card_type.bleed if name == "bleed" else card_type.safe
    return fields.get(name)  # "item" too: None when the card has none


_OWN_NAMES = frozenset(("card", "copy", "w", "h", "bleed", "safe", "set"))  # template_context's own, over the fields
_CARD_FREE = frozenset(("w", "h", "bleed", "safe", "set"))  # of those, the ones the card type alone decides


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
        for k, v in value.items():  # a card row's fields: text and numbers, met without recursion
            if type(k) is not str or (type(v) not in _PLAIN and not plain_data(v)):
                return False
        return True
    return False


def render_key(prefix: str, template: str, card_type: CardType, values_text: str) -> str:
    """What decides a face's rendering, hashed: the memo's prefix (templates, set, renderer),
    the template, the card size and the values the template reads (``values_text``, their
    repr, which tells all of them when they are plain data: see ``plain_data``)."""
    size = card_type.size
    text = f"{prefix}\0{template}\0{size.w}x{size.h}:{size.shape}:{card_type.bleed}:{card_type.safe}\0{values_text}"
    return "render:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


Pair = tuple[Face, "Face | None"]


class FaceRenderer:
    """Renders card faces as the cards stream past: fronts (one per copy) and backs, each face
    carrying its markup (checked when it is laid out) to the write stage, which lets it go.

    Faces that read the same values through the same template are one rendering, rendered once
    while it is among the latest ``SHARED`` renderings (a back that reads no card field is
    rendered once for the whole set). ``fingerprints`` gives a face's content hash: its markup
    and the files the markup names (fonts, images; see assets.py). A face that ``memo`` knows
    is not rendered unless its markup is asked for.
    """

    SHARED = 512  # latest renderings kept for sharing: memory stays flat however large the set
    MAX_PROBLEMS = 50  # enough to act on; do not flood the terminal

    def __init__(self, card_set: CardSet, templates: Templates, fingerprints=None, memo: RenderMemo | None = None):
        self.card_set, self.templates, self.fingerprints, self.memo = card_set, templates, fingerprints, memo
        self._problems: dict[tuple, tuple[Problem, set]] = {}  # one per template fault: (first problem, cards)
        # (template, type, values) -> (markup key, content hash, refs, render key or None)
        self._shared = Latest(self.SHARED)
        self._set_view = set_view(card_set)
        self._reads: dict[str, tuple[str, ...] | None] = {}  # template -> the names it reads, sorted
        # (template, id of a card type) -> (the card type, values text, its digest), for a template
        # that reads nothing of the card (a back): its values are the same for every card
        self._same_values: dict[tuple[str, int], tuple[CardType, str, bytes]] = {}
        # when a list, each face made is noted in it as its ``_shared`` entry (see kept_cards.py)
        self.noting: list | None = None
        self._backs_plain: dict[str, bool] = {}  # a back's name -> whether its values are plain data

    def pairs(self, cards: Iterable[Card]) -> Iterator[Pair]:
        """(front, back or None) for every copy of ``cards``. A card whose template fails is
        left out and its problem kept for ``problems``; raises once there are too many."""
        card_set, memo = self.card_set, self.memo
        for card in cards:
            card_type = card_set.types[card.type]
            front_side = self._side(card, card_type, "front")
            back_side = self._side(card, card_type, "back") if card_type.back else None
            plain = memo is not None and plain_data(card.fields)
            back_plain = back_side is not None and plain and self._plain_back(card_type.back)
            for copy in range(1, card.count + 1):
                front = self._face(card, card_type, copy, "front", front_side, plain)
                back_face = None
                if back_side is not None:
                    back_face = self._face(card, card_type, copy, "back", back_side, back_plain)
                if len(self._problems) >= self.MAX_PROBLEMS:
                    raise CardgenError(self.problems())
                if front is not None:
                    yield front, back_face

    def _plain_back(self, name: str) -> bool:
        """Whether a back's own values are plain data (``plain_data``): read once per build."""
        known = self._backs_plain.get(name)
        if known is None:
            known = self._backs_plain[name] = plain_data(self.card_set.backs[name].fields)
        return known

    def problems(self) -> list[Problem]:
        """The template faults met so far: a fault met by many cards is one line, naming the
        first card and the count."""
        return _with_counts(self._problems)

    def markup(self, face: Face) -> Markup:
        """The face's markup: the one it was rendered with, or rendered again."""
        if face.markup is not None:
            return face.markup
        card_type, card = face.card_type, face.card
        template, fields, where = self._side(card, card_type, face.side)
        context = template_context(self._set_view, card_type, fields, face.copy)
        return Markup(None, card_type, card.name, where,
                      lambda: self.templates.render(template, context, card.name, where))

    def _side(self, card: Card, card_type: CardType, side: str) -> tuple[str, Mapping[str, Any], Source | None]:
        """The template that draws a side of the card, the fields it sees, and where it is named."""
        if side == "front":
            return card_type.template, card.fields, card_type.source
        back = self.card_set.backs[card_type.back]
        return back.template, {**card.fields, **back.fields}, back.source

    def _content_hash(self, key: str, refs) -> str:
        return self.fingerprints.of(key, refs) if self.fingerprints is not None else key

    def _not_a_character(self, exc: UnicodeEncodeError, where, card_name: str) -> None:
        """A lone surrogate (``"\\ud800"``, half of a character) written in a template: no file
        can hold it, and no PDF print it (the card files' values are checked as they are read)."""
        code = ord(exc.object[exc.start])
        problem = Problem(f"a value here holds U+{code:04X} (not a character: half of a UTF-16 pair), "
                          "which card markup cannot carry", where, card_name)
        self._problems.setdefault((problem.source, problem.message), (problem, set()))[1].add(card_name)

    def _face(self, card: Card, card_type: CardType, copy: int, side: str, drawn_by: tuple, plain: bool) -> Face | None:
        template, fields, where = drawn_by
        reads = self._reads.get(template, ())
        if reads == ():
            used = self.templates.names_used(template)
            reads = self._reads[template] = tuple(sorted(used)) if used is not None else None
        # the values the template reads: faces with the same ones are one rendering (the
        # context itself is made only for a face rendered, most of a rebuild's are not)
        context = None
        same = self._same_values.get((template, id(card_type)))
        if same is not None and same[0] is card_type:
            values_text, digest = same[1], same[2]
        else:
            if reads is not None:
                values = [(n, _context_value(n, self._set_view, card_type, fields, copy)) for n in reads]
            else:
                context = template_context(self._set_view, card_type, fields, copy)
                values = list(context.items())
            values_text = repr(values)
            # keyed by a digest: the values of every card would otherwise stay in memory as keys
            # (a face met again, such as a shared back, is found before its render key is made)
            digest = hashlib.blake2b(values_text.encode("utf-8"), digest_size=20).digest()
            if reads is not None and _CARD_FREE.issuperset(reads):
                self._same_values[template, id(card_type)] = (card_type, values_text, digest)
        shared = (template, id(card_type), plain, digest)
        known = self._shared.get(shared)
        if known is not None:
            if self.noting is not None:
                self.noting.append(known)
            return new_face(card, card_type, copy, side, known[0], known[1])
        remembered = None
        if plain:  # the context holds the card's fields and values of cardgen's own: all plain
            remembered = render_key(self.memo.prefix, template, card_type, values_text)
        known = self.memo.recall(remembered) if remembered is not None else None
        if known is not None:
            key, refs = known
            markup = Markup(None, card_type, card.name, where, lambda: self.templates.render(
                template, context or template_context(self._set_view, card_type, fields, copy), card.name, where))
        else:
            if context is None:
                context = template_context(self._set_view, card_type, fields, copy)
            try:
                text = self.templates.render(template, context, card.name, where)
            except CardgenError as error:
                for problem in error.problems:
                    first, cards = self._problems.setdefault((problem.source, problem.message), (problem, set()))
                    cards.add(problem.card)
                if isinstance(error, LimitReached):  # each further card could cost as much again
                    raise CardgenError(self.problems()) from None
                return None
            try:
                key = _key(text, card_type)
            except UnicodeEncodeError as exc:  # a template's own "\ud800": the line it lands on
                from .markup import _last_marker_before

                line = text.count("\n", 0, exc.start) + 1
                self._not_a_character(exc, _last_marker_before(text, line, where), card.name)
                return None
            refs = self.fingerprints.refs(text) if self.fingerprints is not None else ((), ())
            markup = _new_markup(text, card_type, card.name, where)
            if remembered is not None:
                self.memo.remember(remembered, (key, refs))
        content_hash = self._content_hash(key, refs)
        known = self._shared[shared] = (key, content_hash, refs, remembered)
        if self.noting is not None:
            self.noting.append(known)
        return new_face(card, card_type, copy, side, key, content_hash, markup)


def _with_counts(problems: dict[tuple, tuple[Problem, set]]) -> list[Problem]:
    """A template fault met by many cards is one line, naming the first card and the count."""
    return [replace(first, message=f"{first.message} (and {len(cards) - 1} more card{'s' * (len(cards) > 2)})")
            if len(cards) > 1 else first for first, cards in problems.values()]
