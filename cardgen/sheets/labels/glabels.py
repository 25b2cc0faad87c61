"""Label products in the gLabels template format (the XML of the gLabels product database).

    <Glabels-templates>
      <Template brand="Online Labels" part="OL32" size="US-Letter" _description="...">
        <Label-round id="0" radius="0.25in" waste="0.05in">
          <Layout nx="11" ny="14" x0="0.25in" y0="0.375in" dx="0.75in" dy="0.75in"/>
        </Label-round>
      </Template>
    </Glabels-templates>

``size`` is a paper name or "Other" with ``width`` and ``height``. Labels: ``Label-round``
(radius), ``Label-cd`` (radius; the hole is ignored), ``Label-rectangle`` (width, height).
``waste`` (or ``x_waste``/``y_waste``) is how far art may print beyond a label. Each
``Layout`` gives nx x ny labels; x0/y0 are the distances from the sheet's left and TOP edges to
the first label's bounding box, dx/dy the pitch. Lengths take pt (the default), in, mm, cm or
pc. ``<Template brand=... part="B" equiv="A"/>`` is the same product as part A of the brand.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from ...errors import Source, fail
from ...limits import SHEET_SLOTS, limit, limit_message
from ...load.yamlfile import read_text
from ..template import SheetTemplate, TemplateSlot
from .xmltree import Element, parse_xml

_LENGTH = re.compile(r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(pt|in|mm|cm|pc)?\s*$")
_MM = {None: 25.4 / 72, "pt": 25.4 / 72, "in": 25.4, "mm": 1.0, "cm": 10.0, "pc": 25.4 / 6}
# The product database rounds: labels may overlap or pass the sheet's edge by this much (mm).
ROUNDING = 1.0
PAPER_IDS = {
    "A3": (297.0, 420.0), "A4": (210.0, 297.0), "A5": (148.0, 210.0), "A6": (105.0, 148.0),
    "US-Letter": (215.9, 279.4), "US-Legal": (215.9, 355.6), "US-Executive": (184.15, 266.7),
}


class GlabelsFile:
    """The products of one gLabels template file; each is read when asked for, so that one
    unsupported product (an elliptical label) does not spoil the others."""

    def __init__(self, path: Path, name: str):
        self.name = name
        text = read_text(path, name)
        root = parse_xml(text, name)
        if root.tag != "Glabels-templates":
            raise fail(f"not a gLabels template file (the root element is <{root.tag}>, "
                       "expected <Glabels-templates>)", Source(name, root.line))
        self.elements = [e for e in root.children if e.tag == "Template"]
        for element in self.elements:
            _attr(element, "brand", name)
            _attr(element, "part", name)
        self._by_part = {(e.attrib["brand"], e.attrib["part"]): e for e in self.elements}

    @property
    def parts(self) -> list[tuple[str, str]]:
        """(brand, part) of every product, in file order."""
        return [(e.attrib["brand"], e.attrib["part"]) for e in self.elements]

    def template(self, brand: str, part: str) -> SheetTemplate:
        named = self._by_part[(brand, part)]
        element = named
        if "equiv" in named.attrib:
            element = self._by_part.get((brand, named.attrib["equiv"]))
            if element is None or "equiv" in element.attrib:
                raise fail(f'<Template>: equiv="{named.attrib["equiv"]}" names no product of this file',
                           Source(self.name, named.line))
        return _template(element, named, self.name)


def read_glabels(path: Path, name: str) -> list[SheetTemplate]:
    """Every product in a gLabels template file; ``name`` is the file as messages show it."""
    products = GlabelsFile(path, name)
    return [products.template(brand, part) for brand, part in products.parts]


def _template(element: Element, named: Element, name: str) -> SheetTemplate:
    brand = _attr(named, "brand", name)
    part = _attr(named, "part", name)
    size = _attr(element, "size", name)
    if size == "Other":
        page_w, page_h = _length(element, "width", name), _length(element, "height", name)
    elif size in PAPER_IDS:
        page_w, page_h = PAPER_IDS[size]
    else:
        raise fail(f'<Template>: unknown paper size "{size}" (known: {", ".join(PAPER_IDS)}, '
                   'or "Other" with width and height)', Source(name, element.line))
    labels = [e for e in element.children if e.tag.startswith("Label-")]
    if not labels:
        raise fail(f'<Template part="{part}">: no <Label-round>, <Label-cd> or <Label-rectangle>',
                   Source(name, element.line))
    slots: list[TemplateSlot] = []
    for label in labels:
        slots += _label_slots(label, page_w, page_h, name)
    slots.sort(key=lambda s: (-round(s.y + s.h, 6), round(s.x, 6)))  # row-major from the top-left
    return SheetTemplate(f"{brand} {part}", page_w, page_h, tuple(slots), marks="none", duplex=False,
                         source=Source(name, named.line))


def _label_slots(label: Element, page_w: float, page_h: float, name: str) -> list[TemplateSlot]:
    where = Source(name, label.line)
    if label.tag in ("Label-round", "Label-cd"):
        shape = "circle"
        w = h = 2 * _length(label, "radius", name)
    elif label.tag == "Label-rectangle":
        shape = "rect"
        w, h = _length(label, "width", name), _length(label, "height", name)
    else:
        raise fail(f"<{label.tag}>: unsupported label shape (cardgen reads Label-round, Label-cd "
                   "and Label-rectangle)", where)
    if w <= 0 or h <= 0:
        raise fail(f"<{label.tag}>: the label size must be greater than 0", where)
    waste = _optional(label, "waste", name)
    x_waste = _optional(label, "x_waste", name, waste)
    y_waste = _optional(label, "y_waste", name, waste)
    layouts = [e for e in label.children if e.tag == "Layout"]
    if not layouts:
        raise fail(f"<{label.tag}>: no <Layout>", where)
    slots = []
    for layout in layouts:
        nx, ny = _count(layout, "nx", name), _count(layout, "ny", name)
        if len(slots) + nx * ny > limit(SHEET_SLOTS):
            raise fail(limit_message(SHEET_SLOTS, f"<Layout> gives {nx} x {ny} = {nx * ny:,} labels"),
                       Source(name, layout.line))
        x0, y0 = _length(layout, "x0", name), _length(layout, "y0", name)
        dx, dy = _optional(layout, "dx", name, 0.0), _optional(layout, "dy", name, 0.0)
        # Art may reach beyond a label by its waste, and never past half the gap to the next one.
        gap_x = dx - w if nx > 1 else math.inf
        gap_y = dy - h if ny > 1 else math.inf
        if shape == "circle":
            gap_x = gap_y = min(gap_x, gap_y)
        if min(gap_x, gap_y) < -ROUNDING / 2:
            raise fail(f"<Layout>: labels overlap (pitch {dx:.3f} x {dy:.3f} mm for "
                       f"{w:.3f} x {h:.3f} mm labels)", Source(name, layout.line))
        room_x = min(x_waste if x_waste is not None else math.inf, max(gap_x, 0) / 2)
        room_y = min(y_waste if y_waste is not None else math.inf, max(gap_y, 0) / 2)
        for iy in range(ny):
            for ix in range(nx):
                left = x0 + ix * dx
                top = y0 + iy * dy  # from the sheet's top edge
                if left < -ROUNDING or top < -ROUNDING or left + w > page_w + ROUNDING or top + h > page_h + ROUNDING:
                    raise fail(f"<Layout>: label {ix + 1},{iy + 1} lies off the {page_w:g} x {page_h:g} mm sheet",
                               Source(name, layout.line))
                slots.append(TemplateSlot(left, page_h - top - h, w, h, shape, (room_x, room_y, room_x, room_y)))
    return slots


def _attr(element: Element, attr: str, name: str) -> str:
    if attr not in element.attrib:
        raise fail(f'<{element.tag}>: missing attribute "{attr}"', Source(name, element.line))
    return element.attrib[attr]


def _length(element: Element, attr: str, name: str) -> float:
    value = _attr(element, attr, name)
    match = _LENGTH.match(value)
    if not match:
        raise fail(f'<{element.tag}> {attr}: expected a length such as "12mm", "0.5in" or "36pt", '
                   f'got "{value}"', Source(name, element.line))
    return float(match.group(1)) * _MM[match.group(2)]


def _optional(element: Element, attr: str, name: str, default=None):
    return _length(element, attr, name) if attr in element.attrib else default


def _count(element: Element, attr: str, name: str) -> int:
    value = _attr(element, attr, name)
    if not value.strip().isdigit() or int(value) < 1:
        raise fail(f'<{element.tag}> {attr}: expected a whole number of 1 or more, got "{value}"',
                   Source(name, element.line))
    return int(value)
