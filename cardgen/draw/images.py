"""Image files (PNG, JPG, SVG) loaded once per build and drawn into a box.

A raster image is decoded, checked and turned into its PDF stream once per build, however many
cards use it, and written once into each document that draws it (reportlab's own ``drawImage``
decodes and hashes the whole image again for every drawing). An image with more pixels than
``KEEP_DPI`` needs at the largest size it can print at (the longest side of the set's largest
face, bleed included) is downsampled, once (raster.py); its streams are kept in the project's
cache for the next build (kept_images.py).
"""
from __future__ import annotations

import re
from math import isfinite, log
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Problem, Source, without_python_objects
from ..paths import not_a_file, svg_references
from .kept_images import kept_raster
from .raster import Raster, load_raster

KEEP_DPI = 600  # pixels per inch kept at an image's largest possible print size


@dataclass(frozen=True)
class LoadedImage:
    """An image file ready to draw: a raster's PDF streams or an SVG's drawing, and its natural size."""

    path: Path
    width: float  # natural size, any unit: only the ratio matters
    height: float
    raster: Raster | None = None
    vector: Any = None  # reportlab Drawing (from SVG)

    @property
    def aspect(self) -> float:
        return self.width / self.height


class ImageStore:
    def __init__(self, root: Path | None = None, kept: Path | None = None):
        self._cache: dict[tuple[Path, int | None], LoadedImage | ValueError] = {}
        self.root = root  # the project folder: an SVG's references must stay inside it
        self.kept = kept  # a folder (the project's cache) where each raster's streams are kept between builds

    def load(self, path: Path, longest_mm: float | None = None) -> LoadedImage:
        """Load an image that prints at most ``longest_mm`` long on its longest side (None: kept
        whole); raises ValueError with a readable reason."""
        path = Path(path)
        most = round(longest_mm / 25.4 * KEEP_DPI) if longest_mm else None
        key = (path, most)
        cached = self._cache.get(key)
        if cached is None:
            try:
                cached = _load(path, most, self.root, self.kept)
            except ValueError as problem:  # remembered too: a broken image is read once, not per card
                cached = problem
                if self.root is not None and str(problem).startswith(("cannot read ", f'image "{path.name}"')):
                    line = getattr(problem, "line", None)
                    if line is not None:  # damage at a line of the file (an SVG's): the place to edit
                        cached = CardgenError(Problem(str(problem).replace(f' "{path.name}"', "", 1),
                                                      Source(_shown(path, self.root), line)))
                    else:  # a file with no line to name: said where it is used, naming it in full
                        cached = ValueError(str(problem).replace(f' "{path.name}"', f' "{_shown(path, self.root)}"', 1))
            self._cache[key] = cached
        if isinstance(cached, ValueError):
            raise ValueError(*cached.args)
        if isinstance(cached, CardgenError):
            raise CardgenError(cached.problems)
        return cached


def _load(path: Path, most: int | None, root: Path | None = None, kept: Path | None = None) -> LoadedImage:
    if not path.is_file():
        raise ValueError(f'image "{path.name}" {not_a_file(path)}')
    if path.suffix.lower() == ".svg":
        return _load_svg(path, root)
    raster = kept_raster(path, most, kept) if kept is not None else load_raster(path, most)
    # placed by the picture's own proportions; the embedded pixels, however few, fill that box
    return LoadedImage(path, raster.picture_width, raster.picture_height, raster=raster)


def _load_svg(path: Path, root: Path | None = None) -> LoadedImage:
    from svglib.svglib import svg2rlg  # imported here: SVG support is optional per build

    from .svgsize import check_svg_size

    if root is not None:  # first: a reference out of the project is refused before anything reads the file
        svg_references(path, root, _shown(path, root))
    check_svg_size(path)
    with _svglib_said() as said:
        try:
            drawing = svg2rlg(str(path), **_reference_root(root))
        except RecursionError:
            raise ValueError(f'cannot read SVG "{path.name}": its elements are nested too deeply') from None
        except Exception as exc:  # svglib raises parser errors of several kinds
            raise ValueError(f'cannot read SVG "{path.name}": {_plain(str(exc), path)}') from None
    if drawing is None or not all(isfinite(v) and v > 0 for v in (drawing.width, drawing.height)):
        # nan (a viewBox of "0 0 nan nan") passes every test of size and fails deep in the drawing
        reason = (_plain(said[0], path) if said else "it has no width and height" if drawing is None or not (
            drawing.width and drawing.height) else f"its size, {drawing.width:g} x {drawing.height:g}, is not "
                  "a finite size above 0 (width, height or viewBox)")
        raise ValueError(f'cannot read SVG "{path.name}": {reason}')
    unread_colour = next((m.removeprefix(_UNREAD_COLOUR) for m in said.warnings if m.startswith(_UNREAD_COLOUR)),
                         None)
    if unread_colour is not None:  # svglib paints it black, or not at all, and says so only in its log
        raise ValueError(f'cannot read SVG "{path.name}": the colour "{_shown_colour(unread_colour)}" is not one '
                         f'SVG can print: write one such as "#c8102e", "rgb(200, 16, 46)" or "red"')
    endless = _endless_number(drawing)
    if endless is not None:  # reportlab writes it as an integer's conversion error, far from the SVG
        raise ValueError(f'cannot read SVG "{path.name}": it holds nan or inf where a number belongs '
                         f"(svglib read it as {endless})")
    _drop_flattened(drawing)
    if not _holds_a_shape(drawing):  # printed, it would be a silent blank where a picture was meant
        raise ValueError(f'SVG "{path.name}" draws nothing: it holds no shape (path, rect, circle, polygon, ...)')
    if _holds_raster(drawing):
        raise ValueError(f'SVG "{path.name}" holds a raster <image>, which cardgen does not draw inside an SVG: '
                         f"give the picture its own <image> element, or make the SVG all vector")
    return LoadedImage(path, drawing.width, drawing.height, vector=drawing)


def _endless_number(drawing) -> str | None:
    """Where the drawing holds nan or inf ("a rect's strokeWidth"), or None: svglib reads
    "nan" and "inf" wherever SVG has a number."""
    pending = [drawing]
    while pending:
        node = pending.pop()
        for key, value in vars(node).items():
            if key == "contents":
                pending.extend(value)
            elif not all(isfinite(v) for v in (value if isinstance(value, (tuple, list)) else (value,))
                         if isinstance(v, float)):
                return f"a {type(node).__name__.lower()}'s {key}"
    return None


def _drop_flattened(drawing) -> None:
    """Leave out the groups whose transform flattens them to nothing (scale(0), a matrix whose
    determinant is 0): a browser draws nothing of them, and reportlab divided by zero drawing
    them, an internal error naming neither the card nor the SVG."""
    pending = [drawing]
    while pending:
        node = pending.pop()
        contents = getattr(node, "contents", None)
        if contents is None:
            continue
        kept = [child for child in contents if not _flattened(getattr(child, "transform", None))]
        if len(kept) != len(contents):
            node.contents = kept
        pending.extend(kept)


def _flattened(transform) -> bool:
    return transform is not None and len(transform) == 6 and transform[0] * transform[3] - transform[1] * transform[2] == 0


def _holds_a_shape(drawing) -> bool:
    pending = [drawing]
    while pending:
        node = pending.pop()
        contents = getattr(node, "contents", None)
        if contents is None:
            return True
        pending.extend(contents)
    return False


def _holds_raster(drawing) -> bool:
    from reportlab.graphics.shapes import Group, Image as ImageShape

    pending = [drawing]
    while pending:
        node = pending.pop()
        if isinstance(node, ImageShape):
            return True
        if isinstance(node, Group) or hasattr(node, "contents"):
            pending.extend(getattr(node, "contents", ()))
    return False


_UNREAD_COLOUR = "Can't handle color: "
_REFUSED_COLOUR = re.compile(r"setattr\(\w+,'(?:fill|stroke)Color',convertColor\(\*\['(.*)'\]\)\) caused ValueError")


def _shown_colour(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:30]}...({len(text)} characters)"


class _Said(list):
    """svglib's errors, in order; its warnings apart, as ``warnings``."""

    def __init__(self):
        super().__init__()
        self.warnings: list[str] = []


@contextmanager
def _svglib_said():
    """What svglib logs while it reads a file (it logs, rather than raises, why it gave up),
    kept for the message instead of printed."""
    import logging  # only sets with SVG images pay for it

    logger = logging.getLogger("svglib")
    said = _Said()

    class Keep(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.ERROR:
                said.append(record.getMessage())
            elif record.levelno >= logging.WARNING:
                said.warnings.append(record.getMessage())
            else:  # a colour it cannot read is said only at debug level: the shape is then painted black
                refused = _REFUSED_COLOUR.search(record.getMessage())
                if refused:
                    said.warnings.append(_UNREAD_COLOUR + refused.group(1))

    handler, propagate, level = Keep(), logger.propagate, logger.level
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        yield said
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
        logger.setLevel(level)


def _plain(text: str, path: Path) -> str:
    """A library's message without the file's absolute path."""
    text = without_python_objects(text.replace(str(path.resolve()), path.name).replace(str(path), path.name))
    text = re.sub(r"^Failed to load input file! \((.*)\)$", r"\1", text.strip())
    text = re.sub(r"\s*\([^()]*, line \d+\)$", "", text)
    return re.sub(r",? line \d+, column \d+$", "", text).rstrip(".").lower() or "damaged"


def _xobject(raster: Raster, name: str, stream: bytes, color_space: str):
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    xobject = PDFImageXObject(name)
    xobject.width, xobject.height = raster.width, raster.height
    xobject.bitsPerComponent = 8
    xobject.colorSpace = color_space
    xobject.streamContent = stream
    xobject._filters = raster.filters if stream is raster.stream else ("FlateDecode",)
    xobject.mask = None
    return xobject


def place_raster(canvas, raster: Raster, x: float, y: float, w: float, h: float) -> None:
    """Draw ``raster`` into the box; its streams enter the document the first time only. The
    placement is written as operators (the bytes reportlab's saveState, translate, scale and
    restoreState would write), without a trip through reportlab's graphics state for every
    use: an icon in every card's text is placed thousands of times."""
    doc = canvas._doc
    registered = doc.getXObjectName(raster.name)
    if doc.idToObject.get(registered) is None:
        xobject = _xobject(raster, raster.name, raster.stream, raster.color_space)
        if raster.cmyk_inverted:
            xobject._dotrans = 1
        if raster.alpha is not None:
            mask_name = raster.name + "a"
            mask = _xobject(raster, mask_name, raster.alpha, "DeviceGray")
            mask_registered = doc.getXObjectName(mask_name)
            canvas._setXObjects(mask)
            xobject.smask = doc.Reference(mask, mask_registered)
        canvas._setXObjects(xobject)
        doc.Reference(xobject, registered)
        doc.addForm(raster.name, xobject)
    canvas._currentPageHasImages = 1
    code = canvas._code
    code.append("q")
    code.append(_placement(x, y, w, h))
    code.append(f"/{registered} Do")
    code.append("Q")
    canvas._formsinuse.append(raster.name)


def raster_placement(raster: Raster, x: float, y: float, w: float, h: float) -> tuple[str, str, str]:
    """(image name, XObject name, operators) of what ``place_raster`` writes for the box once
    the document holds the image (the operators as the page joins them, by lines)."""
    registered = _REGISTERED.get(raster.name)
    if registered is None:  # (looked up once per image: an icon may be placed on every card)
        from reportlab.pdfbase.pdfdoc import xObjectName

        registered = _REGISTERED[raster.name] = xObjectName(raster.name)
    return raster.name, registered, f"q\n{_placement(x, y, w, h)}\n/{registered} Do\nQ"


_REGISTERED: dict[str, str] = {}  # an image's name -> its XObject's name (a name per image file and size)


def _placement(x: float, y: float, w: float, h: float) -> str:
    """``translate(x, y)`` then ``scale(w, h)`` as reportlab writes them: one ``cm`` operator,
    the second transform multiplied into the first as reportlab reads it back from its text
    (``fp_str(1, 0, 0, 1, x, y)`` read back gives 1.0, 0.0, 0.0, 1.0, so the product is
    w, 0, 0, h and the translation as read back; a zero prints as 0 whatever its sign). A
    number _number wrote reads back as a value it writes the same way (its digits are the
    ones that value rounds to), but for "-0", a small negative value, which reads back as 0."""
    x_text, y_text = _number(x), _number(y)
    return f"{_number(w)} 0 0 {_number(h)} {'0' if x_text == '-0' else x_text} {'0' if y_text == '-0' else y_text} cm"


_LOG_E_10 = log(10.0)


def _number(value: float) -> str:
    """One number as reportlab's ``fp_str`` writes it (its pure-Python version, step for step:
    the digits kept follow log(x) / log(10), not log10, which differ at powers of ten)."""
    size = abs(value)
    if size <= 1e-7:
        return "0"
    if 1 < size < 9.9:  # well inside a power of ten (the usual size and place), log's digits known
        places = 6
    elif 10.1 < size < 99:
        places = 5
    elif 101 < size < 990:
        places = 4
    else:
        places = 6 if size <= 1 else min(max(0, 6 - int(log(size) / _LOG_E_10)), 6)
    text = _FORMATS[places] % value
    if places:
        text = text.rstrip("0")
        if text[-1] == ".":
            text = text[:-1]
    return text if text[0] != "0" or len(text) == 1 else text[1:]


_FORMATS = ("%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f")


def draw_image(canvas, image: LoadedImage, x: float, y: float, w: float, h: float, fit: str = "contain",
               focus: tuple[float, float] = (0.5, 0.5)) -> None:
    """Draw into the box (pt, bottom-left x, y); ``contain`` keeps the aspect ratio, centred;
    ``cover`` fills the box, overflowing it (the caller clips) so that the image's ``focus``
    point (fractions from its top-left) stays as near the box's centre as the image allows."""
    if fit == "contain":
        scale = min(w / image.width, h / image.height)
        draw_w, draw_h = image.width * scale, image.height * scale
        x, y, w, h = x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h
    elif fit == "cover":
        scale = max(w / image.width, h / image.height)
        draw_w, draw_h = image.width * scale, image.height * scale
        fx, fy = focus
        # the focus's offset from the box centre, limited so the image still covers the box
        left = min(0.0, max(w - draw_w, w / 2 - fx * draw_w))
        top = min(0.0, max(h - draw_h, h / 2 - fy * draw_h))
        x, y, w, h = x + left, y + h - top - draw_h, draw_w, draw_h
    if image.raster is not None:
        place_raster(canvas, image.raster, x, y, w, h)
    else:
        from reportlab.graphics import renderPDF  # 50 ms of imports: paid only by sets with SVG
        from reportlab.graphics.shapes import STATE_DEFAULTS

        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(w / image.width, h / image.height)
        # reportlab's renderer starts every drawing in Helvetica, an unembedded font that print
        # shops reject; start it in the canvas's own (embedded) font instead.
        previous = STATE_DEFAULTS["fontName"]
        STATE_DEFAULTS["fontName"] = canvas._fontname
        try:
            renderPDF.draw(image.vector, canvas, 0, 0)
        finally:
            STATE_DEFAULTS["fontName"] = previous
        canvas.restoreState()


def _shown(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return Path(path).name


def _reference_root(root: Path | None) -> dict:
    """svglib's own guard, where it has one (2.3 on): external references outside ``root`` refused."""
    if root is None:
        return {}
    import inspect

    from svglib.svglib import SvgRenderer

    if "external_reference_root" in inspect.signature(SvgRenderer.__init__).parameters:
        return {"external_reference_root": str(Path(root).resolve())}
    return {}
