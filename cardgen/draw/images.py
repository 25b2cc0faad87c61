"""Image files (PNG, JPG, SVG) loaded once per build and drawn into a box."""
from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.utils import ImageReader

from ..errors import CardgenError, Problem, Source
from ..paths import svg_references


@dataclass(frozen=True)
class LoadedImage:
    path: Path
    width: float  # natural size, any unit: only the ratio matters
    height: float
    raster: Any = None  # ImageReader
    vector: Any = None  # reportlab Drawing (from SVG)

    @property
    def aspect(self) -> float:
        return self.width / self.height


class ImageStore:
    def __init__(self, root: Path | None = None):
        self._cache: dict[Path, LoadedImage] = {}
        self._failed: dict[Path, Exception] = {}  # a broken file is read once, and reported as it was
        self.root = root  # the project folder: an SVG's references must stay inside it

    def load(self, path: Path) -> LoadedImage:
        """Load an image; raises ValueError with a readable reason (a file that is not there), or,
        given the project's root, CardgenError at the image file itself when its content cannot
        be read: the file is the one cause, however many faces use it."""
        path = Path(path)
        cached = self._cache.get(path)
        if cached is not None:
            return cached
        failed = self._failed.get(path)
        if failed is not None:
            raise failed
        if not path.is_file():
            raise ValueError(f'image "{path.name}" not found')
        try:
            image = self._read(path)
        except (ValueError, CardgenError) as exc:
            if isinstance(exc, ValueError) and self.root is not None:
                exc = CardgenError(Problem(str(exc).replace(f' "{path.name}"', "", 1), Source(_shown(path, self.root))))
            self._failed[path] = exc
            raise exc from None
        self._cache[path] = image
        return image

    def _read(self, path: Path) -> LoadedImage:
        if path.suffix.lower() == ".svg":
            from svglib.svglib import svg2rlg  # imported here: SVG support is optional per build

            if self.root is not None:
                svg_references(path, self.root, _shown(path, self.root))
            with _svglib_said() as said:
                try:
                    drawing = svg2rlg(str(path), **_reference_root(self.root))
                except Exception as exc:  # svglib raises parser errors of several kinds
                    raise ValueError(f'cannot read SVG "{path.name}": {_plain(str(exc), path)}') from None
            if drawing is None or not drawing.width or not drawing.height:
                reason = f": {_plain(said[0], path)}" if said else ": it has no width and height"
                raise ValueError(f'cannot read SVG "{path.name}"{reason}')
            return LoadedImage(path, drawing.width, drawing.height, vector=drawing)
        try:
            reader = ImageReader(str(path))
            width, height = reader.getSize()
        except Exception as exc:  # Pillow raises several kinds for a broken file
            raise ValueError(f'cannot read image "{path.name}": {_image_reason(exc)}') from None
        return LoadedImage(path, width, height, raster=reader)


@contextmanager
def _svglib_said():
    """What svglib logs while it reads a file (it logs, rather than raises, why it gave up),
    kept for the message instead of printed."""
    logger = logging.getLogger("svglib")
    said: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.ERROR:
                said.append(record.getMessage())

    handler, propagate = Keep(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield said
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _plain(text: str, path: Path) -> str:
    """A library's message without the file's absolute path."""
    text = text.replace(str(path.resolve()), path.name).replace(str(path), path.name)
    text = re.sub(r"^Failed to load input file! \((.*)\)$", r"\1", text.strip())
    text = re.sub(r"\s*\([^()]*, line \d+\)$", "", text)
    return re.sub(r",? line \d+, column \d+$", "", text).rstrip(".").lower() or "damaged"


def _image_reason(exc: Exception) -> str:
    """Why Pillow could not read a file, in words: reportlab's own message adds the absolute path
    and object addresses."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(exc, UnidentifiedImageError):
        return "not an image file (PNG, JPG, GIF, ... or SVG)"
    if isinstance(exc, Image.DecompressionBombError):
        return "the image has too many pixels"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = str(exc).strip().splitlines()
    reason = text[-1] if text else type(exc).__name__
    return re.sub(r"\s*(fileName|identity)=.*", "", re.sub(r"<[^<>]* at 0x[0-9a-f]+>", "the file", reason)) or "damaged"


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


def draw_image(canvas, image: LoadedImage, x: float, y: float, w: float, h: float, fit: str = "contain") -> None:
    """Draw into the box (pt, bottom-left x, y); ``contain`` keeps the aspect ratio, centred."""
    if fit == "contain":
        scale = min(w / image.width, h / image.height)
        draw_w, draw_h = image.width * scale, image.height * scale
        x, y, w, h = x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h
    if image.raster is not None:
        canvas.drawImage(image.raster, x, y, w, h, mask="auto")
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
