"""The plain data passed between pipeline stages. Every class is frozen.

load -> validate -> render markup -> lay out -> draw -> impose -> write
"""
from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from .errors import Source

EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return EMPTY


@dataclass(frozen=True)
class CardSize:
    """A card's trim size in millimetres; ``shape`` is "rect" or "circle"."""

    w: float
    h: float
    name: str = "custom"
    shape: str = "rect"


@dataclass(frozen=True)
class CardType:
    """How one kind of card is drawn: its template, its back, its size and margins."""

    name: str
    template: str  # path below templates/
    back: str | None  # name of an entry in the set's ``backs`` (None: no back printed)
    size: CardSize
    bleed: float  # mm drawn beyond the trim on every side
    safe: float  # mm inside the trim that text must keep clear of
    defaults: Mapping[str, Any] = field(default_factory=_empty)
    source: Source | None = None
    default_sources: Mapping[str, Source] = field(default_factory=_empty)  # the set.yaml line of each default


@dataclass(frozen=True)
class Back:
    """A card back: a template drawn once and placed behind every face that names it."""

    name: str
    template: str
    source: Source | None = None
    fields: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True)
class Icon:
    """An inline icon: an image file or a glyph of one of the project's fonts."""

    name: str
    image: Path | None = None
    glyph: str | None = None
    font: str | None = None  # family name, for glyph icons
    color: str | None = None  # glyph colour; None follows the text colour
    source: Source | None = None


@dataclass(frozen=True)
class BoxSpec:
    """A tuck box for some of a set's cards (``boxes:`` in set.yaml)."""

    name: str
    template: str  # path below templates/: the box's own layout
    where: Mapping[str, Any]  # field -> value or list of values: the cards it holds (empty: all)
    deck: Path | None  # or the cards of a deck list
    thickness: float  # mm, one card of the stock
    clearance: float  # mm added to the cards' width, height and stack
    fields: Mapping[str, Any] = field(default_factory=_empty)  # values the layout sees
    source: Source | None = None


@dataclass(frozen=True, slots=True)  # one per card or face: kept small
class Card:
    """One row of card data (before its ``count`` is expanded into copies)."""

    name: str
    type: str
    count: int
    fields: Mapping[str, Any]  # every column, including name, type and count
    source: Source  # the row or the mapping's first line
    field_sources: Mapping[str, Source] = field(default_factory=_empty)

    def source_of(self, field_name: str) -> Source:
        return self.field_sources.get(field_name, self.source)


@dataclass(frozen=True)
class CardSet:
    """A loaded set: ``data/<name>/set.yaml`` with its card rows, icons and rules."""

    name: str
    title: str
    version: str
    root: Path  # the project folder (holds data/, templates/, fonts/)
    directory: Path  # data/<name>
    types: Mapping[str, CardType]
    backs: Mapping[str, Back]
    cards: Sequence[Card]  # read from the card files each time (load/cards.py: CardFiles)
    icons: Mapping[str, Icon] = field(default_factory=_empty)
    variables: Mapping[str, Any] = field(default_factory=_empty)  # free set-level data, visible to templates as ``set.<key>``
    rules: tuple[Path, ...] = ()  # rules files read by the validator
    sheet: Mapping[str, Any] = field(default_factory=_empty)  # sheet settings (paper, template, spacing...)
    source: Source | None = None
    color: Any = None  # cardgen.color.ColorSettings (None: RGB, as written)
    meta: Mapping[str, Any] = field(default_factory=_empty)  # author, subject, date for the PDF's information
    preflight: tuple = ()  # lowered minimums for named elements, each with its reason and source
    language: str | None = None  # hyphenation language of text boxes (pyphen's names, such as en_US)
    boxes: Mapping[str, BoxSpec] = field(default_factory=_empty)  # tuck boxes (components/)
    warnings: tuple = ()  # Problems found while loading (a card file read from its offline copy)

    def copies(self) -> int:
        return sum(copies_by_type(self.cards).values())


def copies_by_type(cards: Iterable[Card]) -> dict[str, int]:
    """Copies of each card type, types in order of first appearance. A set's own cards were
    counted when their files were checked (load/cards.py), and are not read again for it."""
    counted = getattr(cards, "copies", None)
    if counted is not None:
        return counted
    copies: dict[str, int] = {}
    for card in cards:
        copies[card.type] = copies.get(card.type, 0) + card.count
    return copies


@dataclass(frozen=True, slots=True)  # one per card or face: kept small
class Face:
    """One face to print: a copy of a card's front, or its back."""

    card: Card
    card_type: CardType
    copy: int  # 1-based copy number
    side: str  # "front" or "back"
    markup_key: str  # hash of the rendered markup: identical faces share it
    content_hash: str  # hash of everything that decides how the face looks
    # the markup rendered with the face, on its way to the write stage (None: render it again)
    markup: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)  # one per card or face: kept small
class Slot:
    """Where a face goes on a page: its trim box in mm from the page's bottom-left."""

    page: int  # 1-based
    x: float
    y: float
    w: float
    h: float
    shape: str = "rect"
    rotation: int = 0  # degrees, 0 or 180 (gutter-fold backs)
    clip: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 of the art clip, mm


@dataclass(frozen=True, slots=True)  # one per card or face: kept small
class Placement:
    """A face in a slot of a page."""

    face: Face
    slot: Slot


@dataclass(frozen=True)
class Page:
    """A page of the output: its size, a per-card page's boxes, its marks, and how a back page turns."""

    number: int
    w: float  # mm
    h: float
    trim_box: tuple[float, float, float, float] | None = None  # per-card pages
    bleed_box: tuple[float, float, float, float] | None = None
    marks: tuple[Any, ...] = field(default_factory=tuple)  # drawing ops from sheets/marks
    flip: str | None = None  # a duplex back page: the edge ("long" or "short") the sheet turns over


def _maker(cls, names: tuple[str, ...]):
    """``cls(*values)`` for every field of ``cls`` (a frozen dataclass with slots and no
    __post_init__), each value given: its __init__'s work without its call of
    ``object.__setattr__`` a field (a rebuild makes two faces, slots and placements a card)."""
    if tuple(f.name for f in dataclass_fields(cls)) != names or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}'s fields are not {names}")
    setters = tuple(cls.__dict__[name].__set__ for name in names)
    return object.__new__, setters


_NEW, _FACE = _maker(Face, ("card", "card_type", "copy", "side", "markup_key", "content_hash", "markup"))
_, _CARD = _maker(Card, ("name", "type", "count", "fields", "source", "field_sources"))
_, _SOURCE = _maker(Source, ("file", "line"))
_, _SLOT = _maker(Slot, ("page", "x", "y", "w", "h", "shape", "rotation", "clip"))
_, _PLACEMENT = _maker(Placement, ("face", "slot"))


def new_face(card: Card, card_type: CardType, copy: int, side: str, markup_key: str, content_hash: str,
             markup: Any = None) -> Face:
    """``Face(card, card_type, copy, side, markup_key, content_hash, markup)``, made faster."""
    face = _NEW(Face)
    s = _FACE
    s[0](face, card), s[1](face, card_type), s[2](face, copy), s[3](face, side)
    s[4](face, markup_key), s[5](face, content_hash), s[6](face, markup)
    return face


def new_card(name: str, type_name: str, count: int, fields: Mapping[str, Any], source: Source,
             field_sources: Mapping[str, Source]) -> Card:
    """``Card(name, type_name, count, fields, source, field_sources)``, made faster (a set's cards
    are made once when checked, and again each time a large set is read)."""
    card = _NEW(Card)
    s = _CARD
    s[0](card, name), s[1](card, type_name), s[2](card, count), s[3](card, fields), s[4](card, source)
    s[5](card, field_sources)
    return card


def new_source(file: str, line: int | None) -> Source:
    """``Source(file, line)``, made faster (one a card row)."""
    source = _NEW(Source)
    _SOURCE[0](source, file), _SOURCE[1](source, line)
    return source


def new_slot(page: int, x: float, y: float, w: float, h: float, shape: str, rotation: int, clip) -> Slot:
    """``Slot(page, x, y, w, h, shape, rotation, clip)``, made faster."""
    slot = _NEW(Slot)
    s = _SLOT
    s[0](slot, page), s[1](slot, x), s[2](slot, y), s[3](slot, w), s[4](slot, h), s[5](slot, shape)
    s[6](slot, rotation), s[7](slot, clip)
    return slot


def new_placement(face: Face, slot: Slot) -> Placement:
    """``Placement(face, slot)``, made faster."""
    placement = _NEW(Placement)
    _PLACEMENT[0](placement, face), _PLACEMENT[1](placement, slot)
    return placement
