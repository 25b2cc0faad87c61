"""Print shops: how much bleed each wants, and the pixel size of a card's upload.

The Game Crafter: PNG at 300 dpi, 1/8 in bleed a side (poker: 825 x 1125 px).
MakePlayingCards: PNG at 300 dpi, 36 px (0.12 in) a side (poker: 822 x 1122 px).
DriveThruCards: one PDF, a face a page at trim plus 1/8 in a side, TrimBox and BleedBox set.
Any card size follows its shop's rule: (trim + 2 x bleed) at 300 dpi, rounded to whole pixels.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import CardType
from ..units import MM_PER_INCH

DPI = 300


@dataclass(frozen=True)
class Shop:
    name: str
    title: str
    bleed_in: float  # inches a side
    kind: str  # "png" or "pdf"

    @property
    def bleed_mm(self) -> float:
        return self.bleed_in * MM_PER_INCH

    def pixels(self, card_type: CardType) -> tuple[int, int]:
        size = card_type.size
        return (round((size.w / MM_PER_INCH + 2 * self.bleed_in) * DPI),
                round((size.h / MM_PER_INCH + 2 * self.bleed_in) * DPI))


SHOPS = {
    "tgc": Shop("tgc", "The Game Crafter", 0.125, "png"),
    "mpc": Shop("mpc", "MakePlayingCards", 0.12, "png"),
    "drivethru": Shop("drivethru", "DriveThruCards", 0.125, "pdf"),
}
