"""Image files (PNG, JPG, SVG) loaded once per build and drawn into a box."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.utils import ImageReader


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
    def __init__(self):
        self._cache: dict[Path, LoadedImage] = {}

    def load(self, path: Path) -> LoadedImage:
        """Load an image; raises ValueError with a readable reason."""
        path = Path(path)
        cached = self._cache.get(path)
        if cached is not None:
            return cached
        if not path.is_file():
            raise ValueError(f'image "{path.name}" not found')
        if path.suffix.lower() == ".svg":
            from svglib.svglib import svg2rlg  # imported here: SVG support is optional per build

            try:
                drawing = svg2rlg(str(path))
            except Exception as exc:  # svglib raises parser errors of several kinds
                raise ValueError(f'cannot read SVG "{path.name}": {exc}') from None
            if drawing is None or not drawing.width or not drawing.height:
                raise ValueError(f'cannot read SVG "{path.name}"')
            image = LoadedImage(path, drawing.width, drawing.height, vector=drawing)
        else:
            try:
                reader = ImageReader(str(path))
                width, height = reader.getSize()
            except Exception as exc:  # Pillow raises several kinds for a broken file
                raise ValueError(f'cannot read image "{path.name}": {exc}') from None
            image = LoadedImage(path, width, height, raster=reader)
        self._cache[path] = image
        return image


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
