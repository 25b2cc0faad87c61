"""A tuck box's flat net: panels, cut outline and fold lines, from the cards it holds.

The box's inside is the cards plus a clearance: width and height of a card, and a depth of the
cards' count times the stock's thickness. The net, left to right: a glue flap, the front, a
side, the back, the other side. The back carries the lid and its tuck flap above; the front a
thumb notch at its top, and the bottom flap and its tuck below; each side a dust flap at either
end. Coordinates are mm from the net's top-left corner, y down, as in card markup.
"""
from __future__ import annotations

from dataclasses import dataclass

TUCK_MAX = 15.0  # mm: a tuck flap deep enough to hold, shallow enough to slide in
GLUE = 8.0  # mm: the glue flap's width
NOTCH_MAX = 9.0  # mm: the thumb notch's radius at most


@dataclass(frozen=True)
class Panel:
    x: float
    y: float
    w: float
    h: float

    def as_dict(self) -> dict:
        return {"x": round(self.x, 4), "y": round(self.y, 4), "w": round(self.w, 4), "h": round(self.h, 4)}


@dataclass(frozen=True)
class TuckBox:
    inner_w: float  # the box's inside: a card's width plus the clearance
    inner_h: float
    depth: float  # the cards' stack plus the clearance

    @classmethod
    def for_cards(cls, card_w: float, card_h: float, count: int, thickness: float, clearance: float) -> "TuckBox":
        return cls(card_w + clearance, card_h + clearance, count * thickness + clearance)

    @property
    def tuck(self) -> float:
        return min(TUCK_MAX, self.inner_h / 4)

    @property
    def dust(self) -> float:
        """A dust flap's height: the depth, as it folds into the box's end."""
        return self.depth

    @property
    def columns(self) -> tuple[float, ...]:
        """x of the panel edges: glue | front | side | back | side."""
        x1 = GLUE
        x2 = x1 + self.inner_w
        x3 = x2 + self.depth
        x4 = x3 + self.inner_w
        return 0.0, x1, x2, x3, x4, x4 + self.depth

    @property
    def rows(self) -> tuple[float, ...]:
        """y of the panel edges: tuck | lid | body | bottom flap | bottom tuck."""
        y1 = self.tuck
        y2 = y1 + self.depth
        y3 = y2 + self.inner_h
        y4 = y3 + self.depth
        return 0.0, y1, y2, y3, y4, y4 + self.tuck

    @property
    def w(self) -> float:
        return self.columns[-1]

    @property
    def h(self) -> float:
        return self.rows[-1]

    def panels(self) -> dict[str, Panel]:
        x0, x1, x2, x3, x4, x5 = self.columns
        y0, y1, y2, y3, y4, y5 = self.rows
        body = y3 - y2
        return {
            "glue": Panel(x0, y2, x1 - x0, body),
            "front": Panel(x1, y2, x2 - x1, body),
            "right": Panel(x2, y2, x3 - x2, body),
            "back": Panel(x3, y2, x4 - x3, body),
            "left": Panel(x4, y2, x5 - x4, body),
            "lid": Panel(x3, y1, x4 - x3, y2 - y1),
            "tuck": Panel(x3, y0, x4 - x3, y1 - y0),
            "bottom": Panel(x1, y3, x2 - x1, y4 - y3),
            "bottom_tuck": Panel(x1, y4, x2 - x1, y5 - y4),
        }

    def notch(self) -> float:
        return min(NOTCH_MAX, self.inner_w / 5)

    def outline(self) -> str:
        """The cut outline, as SVG path data (mm)."""
        x0, x1, x2, x3, x4, x5 = self.columns
        y0, y1, y2, y3, y4, y5 = self.rows
        d, dust = self.depth, self.dust
        inset = min(2.0, d / 4)  # dust flaps and glue flap narrow towards their edge
        corner = min(3.0, self.tuck / 3)
        notch = self.notch()
        middle = (x1 + x2) / 2
        points = [
            f"M {x1:.3f} {y2:.3f}",
            f"L {x0:.3f} {y2 + GLUE / 2:.3f} L {x0:.3f} {y3 - GLUE / 2:.3f} L {x1:.3f} {y3:.3f}",  # glue flap
            f"L {x1:.3f} {y4:.3f} L {x1 + corner:.3f} {y5:.3f} L {x2 - corner:.3f} {y5:.3f} L {x2:.3f} {y4:.3f}",
            f"L {x2:.3f} {y3:.3f}",  # bottom flap and its tuck
            f"L {x2 + inset:.3f} {y3 + dust:.3f} L {x3 - inset:.3f} {y3 + dust:.3f} L {x3:.3f} {y3:.3f}",
            f"L {x4:.3f} {y3:.3f}",  # the back's bottom edge
            f"L {x4 + inset:.3f} {y3 + dust:.3f} L {x5 - inset:.3f} {y3 + dust:.3f} L {x5:.3f} {y3:.3f}",
            f"L {x5:.3f} {y2:.3f}",
            f"L {x5 - inset:.3f} {y2 - dust:.3f} L {x4 + inset:.3f} {y2 - dust:.3f} L {x4:.3f} {y2:.3f}",
            f"L {x4:.3f} {y1:.3f} L {x4 - corner:.3f} {y0:.3f} L {x3 + corner:.3f} {y0:.3f} L {x3:.3f} {y1:.3f}",
            f"L {x3:.3f} {y2:.3f}",  # lid and tuck
            f"L {x3 - inset:.3f} {y2 - dust:.3f} L {x2 + inset:.3f} {y2 - dust:.3f} L {x2:.3f} {y2:.3f}",
            f"L {middle + notch:.3f} {y2:.3f} A {notch:.3f} {notch:.3f} 0 0 1 {middle - notch:.3f} {y2:.3f}",
            "Z",
        ]
        return " ".join(points)

    def folds(self) -> tuple[tuple[float, float, float, float], ...]:
        """Fold lines (x1, y1, x2, y2), mm."""
        x0, x1, x2, x3, x4, x5 = self.columns
        y0, y1, y2, y3, y4, y5 = self.rows
        return (
            (x1, y2, x1, y3), (x2, y2, x2, y3), (x3, y2, x3, y3), (x4, y2, x4, y3),  # around the sides
            (x3, y1, x4, y1), (x3, y2, x4, y2),  # tuck and lid
            (x1, y3, x2, y3), (x1, y4, x2, y4),  # bottom flap and its tuck
            (x2, y2, x3, y2), (x4, y2, x5, y2), (x2, y3, x3, y3), (x4, y3, x5, y3),  # dust flaps
        )

    def template_values(self) -> dict:
        """What the box's layout sees as ``box``: every panel, the inside and the depth."""
        values = {name: panel.as_dict() for name, panel in self.panels().items()}
        values.update(inner_w=round(self.inner_w, 4), inner_h=round(self.inner_h, 4), depth=round(self.depth, 4),
                      w=round(self.w, 4), h=round(self.h, 4))
        return values
