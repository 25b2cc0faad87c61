"""Measure every laid-out face of a set: type sizes, line widths, image resolution, the safe
margin, the bleed, ink and opacity; and each card type against the shop's products."""
from __future__ import annotations

from reportlab.lib.colors import CMYKColor

from ..draw.attributes import color as parse_color
from ..draw.gradient import Gradient
from ..errors import CardgenError
from ..export.products import product_of
from ..model import CardSet
from ..text.fit import ICON_HEIGHT
from ..units import MM_PER_INCH, PT_PER_MM
from .report import Findings
from .thresholds import Thresholds

EDGE = 0.05  # mm: a shape this close to the trim edge touches it
ASCENT, DESCENT = 0.8, 0.25  # of the size: how far ink reaches above and below a baseline


def _luminance(value) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    if isinstance(value, Gradient):
        # text may sit over any part of a gradient ground: judge it by the darkest colour
        return min(_luminance(stop) for stop in value.colors)
    return 0.2126 * channel(value.red) + 0.7152 * channel(value.green) + 0.0722 * channel(value.blue)


HEXAGONS = {  # a hexagon filling its w x h trim box, corners clockwise (y down)
    "hex-pointy": lambda w, h: [(w / 2, 0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0, 3 * h / 4), (0, h / 4)],
    "hex-flat": lambda w, h: [(w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h), (0, h / 2)],
}


def _inside_by(corners, x: float, y: float) -> float:
    """How far (mm) point (x, y) lies inside the convex outline through ``corners`` (clockwise,
    y down): its distance to the nearest edge, negative outside."""
    nearest = float("inf")
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        nearest = min(nearest, ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length)
    return nearest


def _extent(element) -> tuple[float, float, float, float] | None:
    """x0, y0, x1, y1 (mm, markup coordinates) of a shape, or None when rotated."""
    a, tag = element.attrs, element.tag
    if tag in ("rect", "image", "text"):
        if a.get("rotate"):
            return None
        return a["x"], a["y"], a["x"] + a["w"], a["y"] + a["h"]
    if tag == "circle":
        return a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]
    if tag == "ellipse":
        return a["cx"] - a["rx"], a["cy"] - a["ry"], a["cx"] + a["rx"], a["cy"] + a["ry"]
    if tag == "polygon":
        xs, ys = [p[0] for p in a["points"]], [p[1] for p in a["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def _contains(element, x: float, y: float) -> bool:
    a, tag = element.attrs, element.tag
    if tag == "circle":
        return (x - a["cx"]) ** 2 + (y - a["cy"]) ** 2 <= a["r"] ** 2
    if tag == "ellipse":
        return ((x - a["cx"]) / a["rx"]) ** 2 + ((y - a["cy"]) / a["ry"]) ** 2 <= 1
    box = _extent(element)
    return box is not None and box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _ground(items, index: int, x: float, y: float):
    """The fill colour under point (x, y) before element ``index``: the last filled shape there."""
    for element, _ in reversed(items[:index]):
        fill = element.attrs.get("fill") if element.tag != "text" else None
        if fill is not None and element.attrs.get("opacity", 1) >= 1 and _contains(element, x, y):
            return fill
    return parse_color("#ffffff")  # paper


def _ink_box(element, prepared) -> tuple[float, float, float, float] | None:
    """Where a text box's letters actually reach (mm), from its laid-out lines."""
    a = element.attrs
    laid = prepared.laid
    if a["rotate"] not in (0, 180, -180) or not laid.lines:
        return None
    size = laid.size
    left, right = None, None
    for line in laid.lines:
        for segment in line.segments:
            if segment.icon is not None:
                width = size * ICON_HEIGHT  # about square; exact widths are the layout's
            elif segment.face is not None and segment.text:
                width = segment.face.width(segment.text) * size + line.word_space * segment.text.count(" ")
            else:
                continue
            left = segment.x if left is None else min(left, segment.x)
            right = segment.x + width if right is None else max(right, segment.x + width)
    if left is None:
        return None
    top = laid.lines[0].baseline - size * ASCENT
    bottom = laid.lines[-1].baseline + size * DESCENT
    k = 1 / PT_PER_MM
    return a["x"] + left * k, a["y"] + top * k, a["x"] + right * k, a["y"] + bottom * k


class FaceMeasures:
    """Measures faces of one set for one shop into ``findings``."""

    def __init__(self, card_set: CardSet, limits: Thresholds, findings: Findings, cmyk: bool):
        self.card_set, self.limits, self.findings, self.cmyk = card_set, limits, findings, cmyk
        self.lowered = {entry["element"]: entry for entry in card_set.preflight}
        self.used_lowered: set[str] = set()

    def face(self, card_type, card_name: str, laid) -> None:
        items = laid.items
        size = card_type.size
        safe = self.limits.safe_mm if self.limits.safe_mm is not None else card_type.safe
        for index, (element, prepared) in enumerate(items):
            self._colours(element, card_name)
            if element.tag == "text":
                self._text(items, index, element, prepared, card_name, size, safe)
            elif element.tag == "image":
                self._image(element, prepared, card_name, size, safe)
            self._line(element, card_name)
            if self.limits.pdfx and element.attrs.get("opacity", 1) < 1:
                self.findings.add("transparency", "warning", ("opacity",), card_name, element.source,
                                  f"<{element.tag}> opacity {element.attrs['opacity']:g}: transparency is not allowed "
                                  "in PDF/X-1a; the export pre-mixes it against paper white (give a solid colour, "
                                  "e.g. mix(), to control it)")
        self._bleed(items, card_type, card_name)

    # checks --------------------------------------------------------------------------------
    def _colours(self, element, card_name: str) -> None:
        if not self.cmyk:
            return
        for key in ("fill", "stroke", "color"):
            value = element.attrs.get(key)
            if value.__class__ is CMYKColor:
                total = (value.cyan + value.magenta + value.yellow + value.black) * 100
                if total > self.limits.max_ink + 1e-6:
                    self.findings.add("ink", "error", (key, round(total, 1)), card_name, element.source,
                                      f"<{element.tag}> {key} totals {total:g}% ink, over the "
                                      f"{self.limits.max_ink:g}% the printing condition allows")

    def _text(self, items, index, element, prepared, card_name, size, safe) -> None:
        a = element.attrs
        laid = prepared.laid
        if not any(segment.icon is not None or segment.text.strip() for line in laid.lines for segment in line.segments):
            return  # nothing prints
        box = _ink_box(element, prepared)
        cx, cy = (a["x"] + a["w"] / 2, a["y"] + a["h"] / 2) if box is None else ((box[0] + box[2]) / 2,
                                                                               (box[1] + box[3]) / 2)
        ground = _ground(items, index, cx, cy)
        light = _luminance(a["color"]) > _luminance(ground) and _luminance(ground) < 0.25
        minimum = self.limits.min_text_light_pt if light else self.limits.min_text_pt
        name = a["name"]
        label = f'text box "{name}"' if name else "text box"
        lowered = self.lowered.get(name) if name else None
        if lowered is not None:
            minimum = min(minimum, lowered["min-size"])
            self.used_lowered.add(name)
        if laid.size < minimum - 1e-6:
            kind = "light text on a dark ground" if light else "text"
            self.findings.add("text-size", "error", (name, light), card_name, element.source,
                              lambda worst: f"{label} prints at {worst:.3g} pt, under the {minimum:g} pt minimum "
                                            f"for {kind}", laid.size)
        if box is not None:
            self._inside_safe(box, element, card_name, size, safe, label)

    def _inside_safe(self, box, element, card_name, size, safe, label) -> None:
        x0, y0, x1, y1 = box
        if size.shape == "circle":
            r = size.w / 2
            reach = max(((x - r) ** 2 + (y - r) ** 2) ** 0.5 for x in (x0, x1) for y in (y0, y1))
            outside = reach - (r - safe)
        elif size.shape in HEXAGONS:
            # the hexagon's slanted edges cut its trim box's corners: measured from each edge
            corners = HEXAGONS[size.shape](size.w, size.h)
            outside = max(safe - _inside_by(corners, x, y) for x in (x0, x1) for y in (y0, y1))
        else:
            outside = max(safe - x0, safe - y0, x1 - (size.w - safe), y1 - (size.h - safe))
        if outside > 0.05:
            self.findings.add("safe-margin", "error", (label,), card_name, element.source,
                              lambda worst: f"{label} reaches {worst:.2f} mm into the {safe:.3g} mm safe margin "
                                            f"(cut drift may trim it)", outside, lower_is_worse=False)

    def _image(self, element, image, card_name, size, safe) -> None:
        a = element.attrs
        if image is None or image.raster is None:
            return  # vector art prints sharp at any size
        w_in, h_in = a["w"] / MM_PER_INCH, a["h"] / MM_PER_INCH
        px_w, px_h = image.raster.width, image.raster.height  # the pixels that print (as embedded)
        if a["fit"] == "contain":
            dpi = 1 / min(w_in / px_w, h_in / px_h)  # a pixel's size, in inches, inverted
        else:
            dpi = min(px_w / w_in, px_h / h_in)
        src = a["src"]
        for limit, severity in ((self.limits.error_dpi, "error"), (self.limits.warn_dpi, "warning")):
            if dpi < limit:
                self.findings.add("image-dpi", severity, (src,), card_name, element.source,
                                  lambda worst: f'image "{src}" ({px_w:g} x {px_h:g} px over '
                                                f'{a["w"]:g} x {a["h"]:g} mm) prints at {worst:.0f} dpi, under '
                                                f"{limit:g} dpi", dpi)
                break
        box = _extent(element)
        if box is not None and (box[2] - box[0]) * (box[3] - box[1]) < size.w * size.h / 4:  # an icon, not art
            self._inside_safe(box, element, card_name, size, safe, f'image "{src}"')

    def _line(self, element, card_name) -> None:
        a = element.attrs
        if a.get("stroke") is None or "stroke-width" not in a:
            return
        width_pt = a["stroke-width"] * PT_PER_MM
        if width_pt < self.limits.min_line_pt - 1e-6:
            self.findings.add("line-width", "error", (element.tag,), card_name, element.source,
                              lambda worst: f"<{element.tag}> stroke {worst:.3g} pt, under the "
                                            f"{self.limits.min_line_pt:g} pt a press holds", width_pt)

    def _bleed(self, items, card_type, card_name) -> None:
        """A ground that reaches the trim must reach the bleed's edge too, or the cut shows paper."""
        size = card_type.size
        bleed = self.limits.bleed_mm if self.limits.bleed_mm is not None else card_type.bleed
        if bleed <= 0:
            return
        if size.shape == "circle":
            r = size.w / 2
            for element, _ in items:
                if element.tag in ("circle", "ellipse") and element.attrs.get("fill") is not None:
                    radius = element.attrs.get("r", element.attrs.get("rx"))
                    centred = abs(element.attrs["cx"] - r) < EDGE and abs(element.attrs["cy"] - r) < EDGE
                    if centred and r - EDGE <= radius < r + bleed - EDGE:
                        self._bleed_finding(element, card_name, radius - r, bleed, "round edge")
            return
        edges = {"left": (0, 0.0), "top": (1, 0.0), "right": (2, size.w), "bottom": (3, size.h)}  # (extent index, trim)
        short: dict[int, list] = {}  # id of the element -> [element, edges, how far it reaches]
        grounds = []  # filled shapes and images, with their extents: what can cover an edge
        for element, _ in items:
            tag = element.tag
            if tag == "text" or tag == "line" or (tag != "image" and element.attrs.get("fill") is None):
                continue
            box = _extent(element)
            if box is not None:
                grounds.append((element, box))
        for edge, (i, trim) in edges.items():
            touching, reaching = None, False
            for element, box in grounds:
                beyond = trim - box[i] if i < 2 else box[i] - trim  # outward from the trim
                if beyond >= bleed - EDGE:
                    reaching = True
                    break
                if beyond >= -EDGE and touching is None:
                    touching = (element, beyond)
            if touching is not None and not reaching:
                entry = short.setdefault(id(touching[0]), [touching[0], [], touching[1]])
                entry[1].append(edge)
                entry[2] = min(entry[2], touching[1])
        for element, sides, beyond in short.values():
            named = sides[0] if len(sides) == 1 else ", ".join(sides[:-1]) + " and " + sides[-1]
            self._bleed_finding(element, card_name, beyond, bleed, f"{named} edge{'s' * (len(sides) > 1)}")

    def _bleed_finding(self, element, card_name, beyond, bleed, edge) -> None:
        self.findings.add("bleed", "error", (edge,), card_name, element.source,
                          lambda worst: f"<{element.tag}> reaches the trim on the {edge} but stops {worst:.2f} mm "
                                        f"beyond it: the {bleed:.3g} mm bleed shows paper white (draw it to -bleed)",
                          beyond)

    # the set's card types ------------------------------------------------------------------
    def types(self, copies: dict[str, int]) -> None:
        shop = self.limits.shop
        if shop == "home":
            return
        for name, count in copies.items():
            card_type = self.card_set.types[name]
            if not count:
                continue
            if product_of(card_type, shop) is None:
                size = card_type.size
                self.findings.add("size", "warning", (name,), None, card_type.source,
                                  f'card type "{name}": {size.w:g} x {size.h:g} mm {size.shape} is no size the shop '
                                  f"makes; its {count} face{'s' * (count != 1)} are left out of the export")
            elif card_type.back is None:
                self.findings.add("back", "warning", (name,), None, card_type.source,
                                  f'card type "{name}" has no back, and the shop prints both sides: a plain '
                                  f"paper-white back is sent ({count} card{'s' * (count != 1)}; name a back in set.yaml)")


def lay_out_faces(rendered, cards, measure) -> list:
    """Lay out each distinct face once and measure it; return the layout problems."""
    problems = []
    seen: set[str] = set()
    for pair in rendered.pairs(cards):
        for face in pair:
            if face is None:
                continue
            if face.markup_key in seen:
                measure.repeat(face)
                continue
            seen.add(face.markup_key)
            try:
                laid = rendered.lay_out(face)
            except CardgenError as error:
                problems.extend(error.problems)
                continue
            measure.first(face, laid)
    return problems + list(rendered.renderer.problems())
