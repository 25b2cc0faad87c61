"""Lay out one face: fit every text box, load every image, check the safe zone.

The result is everything the draw stage needs; it is computed once per distinct markup.
"""
from __future__ import annotations

from dataclasses import dataclass, fields as dataclass_fields
from pathlib import Path
from typing import Any, Callable

from .draw import CONTAINERS, GROUP_END, pdfops
from .draw.attributes import ink
from .draw.transform import IDENTITY, apply, check_stretch, multiply, rotate_about
from .draw.content import ICON, TEXT
from .draw.images import ImageStore, draw_image, raster_placement
from .draw.text import PreparedText
from .blame import TextProblem, blame
from .errors import CardgenError, Problem
from .model import CardSet, Icon
from .load.yamlfile import relative_name
from .paths import confined, not_a_file
from .render.markup import Element
from .text.scripts import script_problem
from .text.fit import ICON_HEIGHT, DoesNotFit, MissingGlyph, TextStyle, fit, measure
from .text.fonts import FontBook, MissingFace
from .text.hyphenate import SOFT_HYPHEN, Hyphenator
from .text.rich import COLOR_OPEN, UnknownIcon, parse
from .units import PT_PER_MM

SAFE_TOLERANCE = 1e-6  # mm
_TEXT_STYLES_KEPT = 1024


@dataclass(frozen=True)
class LaidFace:
    """A face laid out: each element with what its primitive needs to draw it."""

    items: tuple[tuple[Element, Any], ...]  # (element, what its primitive needs prepared)


class Resources:
    """What layout reads from disk, loaded once per build: fonts, images, icons."""

    def __init__(self, card_set: CardSet, fonts: FontBook, images: ImageStore, preview: bool = False):
        self.card_set = card_set
        # the live preview draws text that does not fit (clipped, marked) and keeps the problem
        self.preview = preview
        self.overflows: list[Problem] = []
        self.fonts = fonts
        self.images = images
        self._icon_parts: dict[str, Callable] = {}
        self._icon_widths: dict[str, float] = {}
        self._icon_images: dict[str, Any] = {}  # image icon name -> its loaded image
        self._found: dict[str, Path | ValueError] = {}  # image src -> its file, or why there is none
        # a text box's attributes (one read-only mapping, shared by every card of the layout
        # that repeats the box, see render/markup.py) -> (those attributes, its TextStyle)
        self._text_styles: dict[tuple[int, bool], tuple[Any, TextStyle]] = {}
        # no image of the set prints longer than its largest face: the pixels kept (draw/images.py)
        self.longest_mm = max((max(t.size.w, t.size.h) + 2 * t.bleed for t in card_set.types.values()), default=None)

    def image(self, path: Path):
        """An image file, loaded once per build at the resolution the set can print."""
        return self.images.load(path, self.longest_mm)

    def find_image(self, src: str) -> Path:
        """The file an ``<image src>`` names: in the set's folder, else in templates/; never
        outside the project (OutsideProject, a ValueError). Looked up once per build: every card
        of a layout names the same few images, and each look-up resolves links on the way."""
        found = self._found.get(src)
        if found is None:
            try:
                found = self._find_image(src)
            except ValueError as problem:
                found = problem
            self._found[src] = found
        if isinstance(found, ValueError):
            raise type(found)(*found.args)
        return found

    def _find_image(self, src: str) -> Path:
        root = self.card_set.root
        if not src.strip():  # else the set's folder itself, "a folder, not a file"
            raise ValueError("image src is empty: it names no file")
        candidates = [confined(root, folder, src, "image") for folder in (self.card_set.directory, root / "templates")]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        for candidate in candidates:  # there, but a folder or a pipe: said what it is
            if not_a_file(candidate) != "not found":
                raise ValueError(f'image "{relative_name(candidate, root)}" {not_a_file(candidate)}')
        raise ValueError(f'image "{src}" not found in {relative_name(self.card_set.directory, root)}/ or templates/')

    def icon(self, name: str) -> tuple[float, Callable]:
        """(width at 1 pt, parts(x, baseline, size, color)) for an icon of the set: its drawing
        as parts (see draw/content.py)."""
        if name not in self._icon_parts:
            self._icon_widths[name], self._icon_parts[name] = self._make_icon(self.card_set.icons[name])
        return self._icon_widths[name], self._icon_parts[name]

    def icon_image(self, icon: Icon):
        """An image icon's image; a problem with it is set.yaml's, at the icon's line."""
        try:
            return self.image(icon.image)
        except ValueError as exc:
            raise CardgenError(Problem(f'icon "{icon.name}": {exc}', icon.source)) from None

    def icon_loaded(self, name: str) -> None:
        """Load an image icon for ``paint_icon`` (CardgenError if it cannot be, or is no icon)."""
        if name not in self._icon_images:
            icon = self.card_set.icons.get(name)
            if icon is None or icon.image is None:
                raise CardgenError(Problem(f'icon "{name}" is not an image icon of the set', None))
            self._icon_images[name] = self.icon_image(icon)

    def paint_icon(self, canvas, name: str, x: float, baseline: float, size: float) -> None:
        """Draw an image icon (its "I" part)."""
        image = self._icon_images.get(name)
        if image is None:  # found once per build: an icon may be in every card's text
            image = self._icon_images[name] = self.icon_image(self.card_set.icons[name])
        height = size * ICON_HEIGHT
        draw_image(canvas, image, x, baseline, height * image.aspect, height, "stretch")

    def icon_placement(self, name: str, x: float, baseline: float, size: float) -> tuple[str, str, str] | None:
        """What ``paint_icon`` writes for a raster icon once the document holds its image
        (draw/prepared.py); None for an SVG icon."""
        image = self._icon_images.get(name)
        if image is None:
            image = self._icon_images[name] = self.icon_image(self.card_set.icons[name])
        if image.raster is None:
            return None
        height = size * ICON_HEIGHT
        return raster_placement(image.raster, x, baseline, height * image.aspect, height)

    def _make_icon(self, icon: Icon):
        if icon.image is not None:
            image = self.icon_image(icon)
            return ICON_HEIGHT * image.aspect, lambda x, baseline, size, _color: [(ICON, icon.name, x, baseline, size)]
        # a glyph icon's problem is set.yaml's, at the icon's line: one cause, however many cards
        try:
            face = self.fonts.face(icon.font)
        except KeyError:
            raise CardgenError(Problem(f'icon "{icon.name}": font family "{icon.font}" is not in the project\'s '
                                       "fonts/ or cardgen's", icon.source)) from None
        missing = face.missing(icon.glyph)
        if missing is not None:
            raise CardgenError(Problem(f'icon "{icon.name}": the font {font_label(self.fonts, face.path.name)} has no '
                                       f'character U+{ord(missing):04X} ({missing})', icon.source))
        try:
            fixed = ink(icon.color) if icon.color else None
        except ValueError as exc:
            raise CardgenError(Problem(f'icon "{icon.name}": color: {exc}', icon.source)) from None

        def glyph_parts(x, baseline, size, run_color):
            paint = fixed or run_color
            return ["q", (TEXT, (pdfops.color(paint),
                                 f"1 0 0 1 {x:.2f} {baseline:.2f} Tm", (face.pdf_name, pdfops.number(size), icon.glyph))), "Q"]

        return face.width(icon.glyph), glyph_parts


def _hyphenator(setting: str, card_set: CardSet) -> Hyphenator | None:
    language = card_set.language if setting == "auto" else None if setting == "none" else setting
    return Hyphenator(language) if language else None


def lay_out(elements: tuple[Element, ...], resources: Resources, card_type, card_name: str, card=None) -> LaidFace:
    """Lay out a face's elements; every problem raised at once (CardgenError). With ``card``, a
    text problem caused by one of its values names that value's file and line first, and the
    template line that draws it second."""
    problems: list[Problem] = []
    items = []
    transforms = [IDENTITY]  # of the groups the element is in: where its content lands on the card
    for element in elements:
        if element.tag in CONTAINERS or element.tag == GROUP_END:
            if element.tag == GROUP_END:
                transforms.pop()
            else:
                moved = element.tag == "group" and element.attrs["transform"] is not None
                transforms.append(multiply(transforms[-1], element.attrs["transform"]) if moved else transforms[-1])
                if moved and transforms[-2] is not IDENTITY:
                    try:
                        check_stretch(transforms[-1], "with the groups around it, the transform")
                    except ValueError as exc:
                        problems.append(Problem(f"<group> transform: {exc}", element.source, card_name))
            items.append((element, None))
            continue
        try:
            prepared = _prepare(element, resources, card_type, transforms[-1])
            items.append((element, prepared))
            if element.tag == "text" and prepared.laid.overflow:
                resources.overflows.append(_overflow(element, prepared.laid, card, card_name))
        except TextProblem as exc:
            problems.append(blame(exc, element, card, card_name))
        except ValueError as exc:
            problems.append(Problem(str(exc), element.source, card_name))
        except CardgenError as error:  # a file the element needs (a font): say which card met it
            problems.extend(p if p.card else Problem(p.message, p.source, card_name, p.severity)
                            for p in error.problems)
        except RecursionError:
            problems.append(Problem(f"<{element.tag}>: nested too deeply to lay out", element.source, card_name))
        except Exception as exc:  # a library's failure on this element's input: named at its line
            problems.append(Problem(f"<{element.tag}>: {type(exc).__name__}: {exc}", element.source, card_name))
    if problems:
        raise CardgenError(problems)
    return LaidFace(tuple(items))


def _overflow(element: Element, laid, card, card_name: str) -> Problem:
    """The live preview's problem for text it drew clipped: the build's, and how much is over."""
    a = element.attrs
    box = f'text box "{a["name"]}"' if a["name"] else "text box"
    problem = blame(TextProblem(box, f"{laid.overflow} in {box} ({a['w']:g} x {a['h']:g} mm)", lambda text: True),
                     element, card, card_name)
    below = sum(1 for line in laid.lines if line.baseline > a["h"] * PT_PER_MM)
    return Problem(f"{problem.message}; {below} of {len(laid.lines)} lines fall below the box (the preview clips them)",
                   problem.source, problem.card, problem.severity)


THINNEST_MM = 0.01  # an image fitted thinner than this prints as nothing


def _check_shows(image, a, src: str) -> None:
    """An image whose sides are thousands of times apart (an SVG of width 1e308) letterboxed in
    its box: a line too thin to print, a silent blank where a picture was meant."""
    w, h = (a["w"], a["w"] / image.aspect) if image.aspect > a["w"] / a["h"] else (a["h"] * image.aspect, a["h"])
    if min(w, h) < THINNEST_MM:
        raise TextProblem("", f'image "{src}" is {image.aspect:.4g} times as wide as it is high: fitted in its '
                               f"{a['w']:g} x {a['h']:g} mm box it would print {w:.3g} x {h:.3g} mm, too thin to "
                               "show", lambda text: True, src)


def _check_icons_fit_a_line(used, resources: Resources, box: str, box_mm: float, min_size: float) -> None:
    """Text that cannot fit because an inline icon alone is wider than its box (an image of
    60000 x 1 pixels) is the icon's problem, said at its line in set.yaml, not the text's."""
    for name in used:
        width_mm = resources.icon(name)[0] * min_size / PT_PER_MM
        if width_mm > box_mm:
            icon = resources.card_set.icons[name]
            drawn = "image" if icon.image is not None else "glyph"
            raise CardgenError(Problem(f'icon "{name}": its {drawn} is {_wide(width_mm)} mm wide inline at the minimum '
                                       f"size {min_size:g} pt, wider than {box} ({box_mm:g} mm)", icon.source))


def _check_icons_show(used, resources: Resources, size: float) -> None:
    """An image icon as thin as a line (an SVG 1e-9 mm wide) is drawn at the text's height, its
    width shrunk alike: a silent blank in the text, where <image> says so (_check_shows)."""
    for name in used:
        width_at_1pt = resources.icon(name)[0]
        width_mm = width_at_1pt * size / PT_PER_MM
        if width_mm < THINNEST_MM:
            icon = resources.card_set.icons[name]
            raise CardgenError(Problem(f'icon "{name}": its image is {width_at_1pt / ICON_HEIGHT:.4g} '
                                       f"times as wide as it is high: inline at {size:g} pt it would print "
                                       f"{width_mm:.3g} mm wide, too thin to show", icon.source))


def _wide(mm: float) -> str:
    """A width in mm as a reader takes it: 95,250, not 9.525e+04 (a 60000 x 1 px icon's)."""
    return f"{mm:,.0f}" if mm >= 1000 else f"{mm:.4g}"


def font_label(fonts: FontBook, file_name: str) -> str:
    """A font file as the designer names it: its family, and its style unless regular."""
    for family, styles in fonts.families.items():
        for style, path in styles.items():
            if path.name == file_name:
                return family if style == "regular" or path == styles["regular"] else f"{family} {style}"
    return file_name


def _inside_safe_zone(a, safe: float, size, transform) -> bool:
    """Whether a text box, turned by its own rotation and its groups' transforms, lies in the
    safe zone."""
    turn = rotate_about(a["rotate"], a["x"] + a["w"] / 2, a["y"] + a["h"] / 2)
    whole = multiply(transform, turn)
    for x, y in ((a["x"], a["y"]), (a["x"] + a["w"], a["y"]), (a["x"], a["y"] + a["h"]),
                 (a["x"] + a["w"], a["y"] + a["h"])):
        cx, cy = apply(whole, x, y)
        if not (safe - SAFE_TOLERANCE <= cx <= size.w - safe + SAFE_TOLERANCE
                and safe - SAFE_TOLERANCE <= cy <= size.h - safe + SAFE_TOLERANCE):
            return False
    return True


def _prepare(element: Element, resources: Resources, card_type, transform=IDENTITY) -> Any:
    if element.tag == "image":
        src = element.attrs["src"]
        try:
            image = resources.image(resources.find_image(src))
        except ValueError as exc:  # the src may be a card's value: then its row is named first
            raise TextProblem("", str(exc), lambda text: True, src) from None
        if not 1e-3 < image.aspect < 1e3 and element.attrs["fit"] == "contain":  # only such an image can vanish
            _check_shows(image, element.attrs, src)
        return image
    if element.tag != "text":
        return None
    a = element.attrs
    box = f'text box "{a["name"]}"' if a["name"] else "text box"
    safe, size = card_type.safe, card_type.size
    if transform is not IDENTITY:
        if not _inside_safe_zone(a, safe, size, transform):
            raise ValueError(f"{box} ({a['x']:g}, {a['y']:g}, {a['w']:g} x {a['h']:g} mm, moved by its group's "
                             f"transform) reaches outside the safe zone ({safe:g} mm inside the "
                             f"{size.w:g} x {size.h:g} mm trim)")
    elif a["rotate"] in (0, 180, -180):
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
        token = f":{exc.name}:"
        raise TextProblem(box, f'unknown icon "{token}" (the set has: {known})', lambda text: token in text) from None
    rich = a["markup"] == "rich"
    if rich and "[color=" in (element.content or ""):
        for value in set(COLOR_OPEN.findall(element.content)):  # as rich.py reads them: cmyk(...) too
            try:
                ink(value)
            except ValueError as exc:
                token = f"[color={value}]"
                raise TextProblem(box, f"{token}: {exc}", lambda text: token in text) from None
    soft_hyphens = rich and SOFT_HYPHEN in (element.content or "")
    known = resources._text_styles.get((id(a), soft_hyphens))
    if known is not None and known[0] is a:
        style = known[1]
    else:
        style = TextStyle(a["font"], a["weight"] == "bold", a["style"] == "italic", a["leading"], a["align"],
                          a["valign"], a["letter-spacing"], _hyphenator(a["hyphenate"], resources.card_set),
                          soft_hyphens)
        if len(resources._text_styles) >= _TEXT_STYLES_KEPT:  # attributes that differ card by card: memory stays flat
            resources._text_styles.clear()
        resources._text_styles[id(a), soft_hyphens] = (a, style)
    icon_parts = {}

    def icon_width(name: str) -> float:
        width, icon_parts[name] = resources.icon(name)
        return width

    try:
        measured = measure(paragraphs, fonts, style, icon_width)
        laid = fit(measured, fonts, style, a["w"] * PT_PER_MM, a["h"] * PT_PER_MM, a["size"], a["min-size"],
                   resources.preview)
    except MissingGlyph as exc:
        char = exc.char
        raise TextProblem(box, script_problem(char) or
                          f"the font {font_label(fonts, exc.font)} has no character U+{ord(char):04X} ({char})",
                          lambda text: char in text) from None
    except DoesNotFit as exc:
        _check_icons_fit_a_line(icon_parts, resources, box, a["w"], a["min-size"])
        raise TextProblem(box, f"{exc.reason} in {box} ({a['w']:g} x {a['h']:g} mm)", lambda text: True) from None
    except MissingFace as exc:
        raise ValueError(f"{box}: {exc}") from None
    if icon_parts:
        _check_icons_show(icon_parts, resources, laid.size)
    prepared = _new_object(PreparedText)  # its fields set without its __init__'s calls (a box makes one)
    fields = prepared.__dict__
    fields["laid"], fields["icon_parts"], fields["paint_icon"] = laid, icon_parts, resources.paint_icon
    return prepared


_new_object = object.__new__
if tuple(f.name for f in dataclass_fields(PreparedText)) != ("laid", "icon_parts", "paint_icon"):
    raise TypeError("PreparedText's fields are not the ones _prepare sets")
