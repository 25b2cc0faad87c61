"""Faces built in memory for the imposition tests, and geometry checks shared by them."""
from __future__ import annotations

from types import MappingProxyType

from cardgen.errors import Source
from cardgen.model import Card, CardSize, CardType, Face, Slot

SET_FILE = "data/t/set.yaml"


def card_type(w: float = 63.5, h: float = 88.9, shape: str = "rect", bleed: float = 3.0, name: str = "t",
              line: int = 7, back: str | None = "plain") -> CardType:
    return CardType(name, "t/front.xml.j2", back, CardSize(w, h, "custom", shape), bleed, 3.0,
                    source=Source(SET_FILE, line))


def face(name: str, kind: CardType, side: str = "front", copy: int = 1) -> Face:
    card = Card(name, kind.name, 1, MappingProxyType({"name": name}), Source("data/t/cards.yaml", 1))
    return Face(card, kind, copy, side, f"{name}:{side}", f"{name}:{side}")


def pairs(count: int, kind: CardType, backs: bool = True, prefix: str = "c") -> list[tuple[Face, Face | None]]:
    """``count`` cards named c1, c2... with backs (or without)."""
    out = []
    for index in range(1, count + 1):
        name = f"{prefix}{index}"
        out.append((face(name, kind), face(name, kind, "back") if backs else None))
    return out


def box(slot: Slot) -> tuple[float, float, float, float]:
    return (slot.x, slot.y, slot.x + slot.w, slot.y + slot.h)


def overlap(a, b, eps: float = 1e-9) -> bool:
    """Whether two boxes (x0, y0, x1, y1) share interior points."""
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def segment_hits_box(x0, y0, x1, y1, b, eps: float = 1e-9) -> bool:
    """Whether an axis-parallel segment touches a box (its inside or its edge)."""
    lo_x, hi_x = min(x0, x1), max(x0, x1)
    lo_y, hi_y = min(y0, y1), max(y0, y1)
    return lo_x <= b[2] + eps and hi_x >= b[0] - eps and lo_y <= b[3] + eps and hi_y >= b[1] - eps


def grow(b, d: float):
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def by_page(imposition):
    pages: dict[int, list] = {}
    for placement in imposition.placements:
        pages.setdefault(placement.slot.page, []).append(placement)
    return pages
