"""A CMYK build: operators converted as each page and form is written (before compression, so
nothing is read back), then the written file's images, if it has any."""
from __future__ import annotations

from pathlib import Path

from .convert import Converter
from .operators import OperatorRewriter
from .settings import ColorSettings


class BuildConversion:
    def __init__(self, settings: ColorSettings):
        self.converter = Converter(settings)
        self._streams = OperatorRewriter(self.converter)

    def content_filter(self, content: bytes) -> bytes:
        """A page's or form's operators with their colours converted."""
        return self._streams._rewrite(content, None)

    def finish(self, path: Path) -> None:
        """Convert the images and gradients of the written file (reportlab writes them as RGB)."""
        with open(path, "rb") as handle:
            data = handle.read()
        if b"/Subtype /Image" not in data and b"/ShadingType" not in data:
            return
        from .pdf import PdfConverter  # pikepdf: only for a file with images

        PdfConverter(self.converter, streams=False).convert_file(Path(path))

    def convert_drawn(self, path: Path) -> None:
        """A whole file drawn without ``content_filter`` (a tuck box): its operators, gradients
        and images converted."""
        from .pdf import PdfConverter

        PdfConverter(self.converter).convert_file(Path(path))
