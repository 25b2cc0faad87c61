"""Lay out one face: fit every text box, load every image, check the safe zone.

The result is everything the draw stage needs; it is computed once per distinct markup.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .draw.attributes import color as parse_color
from .draw.content import ICON, TEXT
from .draw.images import ImageStore, draw_image
from .draw.text import PreparedText
from .errors import CardgenError, Problem
from .model import CardSet, Icon
from .render.markup import Element
from .text.fit import ICON_HEIGHT, DoesNotFit, MissingGlyph, TextStyle, fit, measure
from .text.fonts import FontBook, MissingFace
from .text.rich import UnknownIcon, parse
from .units import PT_PER_MM

SAFE_TOLERANCE = 1e-6  # mm


@dataclass(frozen=True)
class LaidFace:
    items: tuple[tuple[Element, Any], ...]  # (element, what its primitive needs prepared)


class Resources:
    """What layout reads from disk, loaded once per build: fonts, images, icons."""

    def __init__(self, card_set: CardSet, fonts: FontBook, images: ImageStore):
        self.card_set = card_set
        self.fonts = fonts
        self.images = images
        self._icon_parts: dict[str, Callable] = {}
        self._icon_widths: dict[str, float] = {}

    def find_image(self, src: str) -> Path:
        for folder in (self.card_set.directory, self.card_set.root / "templates"):
            candidate = folder / src
            if candidate.is_file():
                return candidate
        raise ValueError(f'image "{src}" not found in {self.card_set.directory.name}/ or templates/')

    def icon(self, name: str) -> tuple[float, Callable]:
        """(width at 1 pt, parts(x, baseline, size, color)) for an icon of the set: its drawing
        as parts (see draw/content.py)."""
        if name not in self._icon_parts:
            self._icon_widths[name], self._icon_parts[name] = self._make_icon(self.card_set.icons[name])
        return self._icon_widths[name], self._icon_parts[name]

    def paint_icon(self, canvas, name: str, x: float, baseline: float, size: float) -> None:
        """Draw an image icon (its "I" part)."""
        image = self.images.load(self.card_set.icons[name].image)
        height = size * ICON_HEIGHT
        draw_image(canvas, image, x, baseline, height * image.aspect, height, "stretch")

    def _make_icon(self, icon: Icon):
        if icon.image is not None:
            image = self.images.load(icon.image)
            return ICON_HEIGHT * image.aspect, lambda x, baseline, size, _color: [(ICON, icon.name, x, baseline, size)]
        try:
            face = self.fonts.face(icon.font)
        except KeyError:
            raise ValueError(f'icon "{icon.name}": font family "{icon.font}" is not in the project\'s fonts/ '
                             "or cardgen's") from None
        missing = face.missing(icon.glyph)
        if missing is not None:
            raise ValueError(f'icon "{icon.name}": the font {face.path.name} has no character '
                             f'U+{ord(missing):04X} ({missing})')
        fixed = parse_color(icon.color) if icon.color else None

        def glyph_parts(x, baseline, size, run_color):
            paint = fixed or run_color
            return ["q", (TEXT, (f"{paint.red:.4g} {paint.green:.4g} {paint.blue:.4g} rg",
                                 f"1 0 0 1 {x:.2f} {baseline:.2f} Tm", (face.pdf_name, f"{size:.4g}", icon.glyph))), "Q"]

        return face.width(icon.glyph), glyph_parts


def lay_out(elements: tuple[Element, ...], resources: Resources, card_type, card_name: str) -> LaidFace:
    problems: list[Problem] = []
    items = []
    for element in elements:
        try:
            items.append((element, _prepare(element, resources, card_type)))
        except ValueError as exc:
            problems.append(Problem(str(exc), element.source, card_name))
    if problems:
        raise CardgenError(problems)
    return LaidFace(tuple(items))


def _prepare(element: Element, resources: Resources, card_type) -> Any:
    if element.tag == "image":
        return resources.images.load(resources.find_image(element.attrs["src"]))
    if element.tag != "text":
        return None
    a = element.attrs
    box = f'text box "{a["name"]}"' if a["name"] else "text box"
    safe, size = card_type.safe, card_type.size
    if a["rotate"] in (0, 180, -180):
        inside = (a["x"] >= safe - SAFE_TOLERANCE and a["y"] >= safe - SAFE_TOLERANCE
                  and a["x"] + a["w"] <= size.w - safe + SAFE_TOLERANCE
                  and a["y"] + a["h"] <= size.h - safe + SAFE_TOLERANCE)
        if not inside:
            raise ValueError(f"{box} ({a['x']:g}, {a['y']:g}, {a['w']:g} x {a['h']:g} mm) reaches outside the safe "
                             f"zone ({safe:g} mm inside the {size.w:g} x {size.h:g} mm trim)")
    fonts = resources.fonts
    if a["font"] is not None and a["font"] not in fonts.families:
        raise ValueError(f'{box}: font family "{a["font"]}" is not in the project\'s fonts/ or cardgen\'s '
                         f'(known: {", ".join(sorted(fonts.families))}; `cardgen fonts` lists them)')
    try:
        paragraphs = parse(element.content or "", rich=a["markup"] == "rich", icons=resources.card_set.icons)
    except UnknownIcon as exc:
        known = ", ".join(sorted(resources.card_set.icons)) or "none"
        raise ValueError(f'{box}: unknown icon ":{exc.name}:" (the set has: {known})') from None
    style = TextStyle(a["font"], a["weight"] == "bold", a["style"] == "italic", a["leading"], a["align"], a["valign"])
    icon_parts = {}

    def icon_width(name: str) -> float:
        width, icon_parts[name] = resources.icon(name)
        return width

    try:
        measured = measure(paragraphs, fonts, style, icon_width)
        laid = fit(measured, fonts, style, a["w"] * PT_PER_MM, a["h"] * PT_PER_MM, a["size"], a["min-size"])
    except MissingGlyph as exc:
        raise ValueError(f"{box}: the font {exc.font} has no character U+{ord(exc.char):04X} ({exc.char})") from None
    except DoesNotFit as exc:
        raise ValueError(f"{box}: {exc.reason} ({a['w']:g} x {a['h']:g} mm)") from None
    except MissingFace as exc:
        raise ValueError(f"{box}: {exc}") from None
    return PreparedText(laid, icon_parts, resources.paint_icon)
