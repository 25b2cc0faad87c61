"""The write stage: pages of placed faces into a PDF with reportlab, written as they come.

A face used more than once is drawn once as a form XObject and placed wherever it appears, so
copies and shared backs cost a few bytes each.
"""
from __future__ import annotations

import hashlib
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Iterable, Sequence

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from ..draw.prepared import Marshalled, write as write_prepared
from .face import FaceDrawing, ReadyFaces, draw_face
from .kept_pages import KeptPages
from .slots import draw_proof_boxes, into_slot, place
from .stream import PageStream
from ..errors import CardgenError, Problem
from ..streams import Latest
from ..model import Face, Page, Placement
from ..units import PT_PER_MM

PAGE_COMPRESSION = 5  # zlib level: 1% larger pages than level 6, and a fifth less time


def _box(values) -> tuple[float, float, float, float]:
    return tuple(v * PT_PER_MM for v in values)


def write_pdf(path: Path, pages: Iterable[tuple[Page, Sequence[Placement]]],
              drawing: Callable[[Face, tuple | None], FaceDrawing], title: str, draw_marks: Callable,
              font: str, proof_boxes: bool = False, stamp: str | None = None,
              extra_pages: Sequence[Callable[[Canvas, str], None]] = (),
              on_page: Callable[[Page, Sequence[Placement]], None] | None = None, kept=None,
              info=None, content_filter: Callable[[bytes], bytes] | None = None, sheets: bool = False,
              ready: ReadyFaces | None = None) -> int:
    """Write ``pages`` (each with the faces placed on it) as they come, and return how many
    pages the PDF has. ``font`` is a registered font of the project, used for the stamp and as
    the canvas's initial font (so that no standard, unembedded font is ever named); ``stamp`` is
    a text printed in every face's bleed; ``extra_pages`` are drawn after the sheets, one page
    each, by functions called as ``draw(canvas, font)`` that set their own page size.

    ``on_page(page, placements)`` is told of every sheet once it is written.
    ``drawing(face, parts)`` lays a face out (or finds its drawing in the cache, or in ``parts``
    recorded when it was last drawn). A face that cannot be laid out is reported with all the
    others (CardgenError) once every face has been tried, and nothing is saved. ``kept`` (the
    face cache) also keeps each page's compressed content, so that a rebuild compresses only
    the pages that changed. ``info`` (write/info.py) gives Title, Author, Subject and dates.
    ``content_filter`` rewrites every page's and form's operators before they are compressed
    (a CMYK build's colour conversion, color/pdf.py).

    Print dialogs are told to print at actual size (/PrintScaling /None); for ``sheets`` (pages
    to print at home) also how to turn the paper (/Duplex): DuplexFlipLongEdge or
    DuplexFlipShortEdge as the back pages say (``Page.flip``), or Simplex when there are none.

    ``ready``: faces whose parts a build's workers made ready to write; a face among them met
    for the first time is written from them as ``drawing`` would have it drawn.
    """
    rl_config.useA85 = 0  # binary streams: a quarter smaller than ASCII85
    canvas = Canvas(str(path), invariant=1, pageCompression=1, initialFontName=font)
    canvas.setTitle(title)
    if info is not None:
        from .info import apply

        apply(canvas, info)
    canvas.setCreator("cardgen")
    canvas.setProducer("cardgen")
    with open(path, "wb", buffering=1 << 20) as out:
        stream = PageStream(canvas, out, kept)
        faces = _FaceDrawer(canvas, stream, drawing, stamp and (stamp, font), content_filter,
                            kept.drawing_of if kept is not None else None, ready)
        # pages kept whole from the last build: only plain builds (no stamp, boxes or colour filter)
        whole = KeptPages(canvas, kept) if kept is not None and not (stamp or proof_boxes or content_filter) else None
        count = 0
        flips: set[str] = set()
        for page, placements in pages:
            if page.flip:
                flips.add(page.flip)
            size = (page.w * PT_PER_MM, page.h * PT_PER_MM)
            if size != canvas._pagesize:  # (the preamble it makes is the same for every page of a size)
                canvas.setPageSize(size)
            if page.trim_box:
                canvas.setTrimBox(_box(page.trim_box))
            if page.bleed_box:
                canvas.setBleedBox(_box(page.bleed_box))
            content = whole.reuse(page, placements, faces) if whole is not None else None
            if content is None:
                for placement in placements:
                    faces.draw(placement)
                    if proof_boxes and not faces.problems:
                        draw_proof_boxes(canvas, placement)
                draw_marks(canvas, page)
                forms = canvas._formsinuse
                if len(forms) > 1:  # each named once (an icon on every face): the XObject dictionary keeps one of each
                    forms[:] = dict.fromkeys(forms)
                if whole is not None:
                    whole.drawn(faces)
            canvas.showPage()
            if faces.problems:  # this PDF will not be saved: only looking for more problems
                canvas._doc.Pages.pages.pop()
            elif content is not None:
                _set_content(canvas._doc.Pages.pages[-1], content)
                stream.page_done()
            else:
                content_key = _compress_last_page(canvas, kept, content_filter)
                if whole is not None:
                    whole.shown(canvas._doc.Pages.pages[-1], content_key)
                stream.page_done()
            faces.page_done()
            count += 1
            if on_page is not None:
                on_page(page, placements)
        if faces.problems:
            raise CardgenError(faces.problems)
        for draw_page in extra_pages:
            draw_page(canvas, font)
            canvas.showPage()
            stream.page_done()
        canvas.setViewerPreference("PrintScaling", "None")
        if sheets or flips:
            canvas.setViewerPreference("Duplex", _DUPLEX[min(flips)] if flips else "Simplex")
        stream.finish()
    return count + len(extra_pages)


_DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def _compress_last_page(canvas: Canvas, kept=None, content_filter=None) -> str | None:
    """Compress a finished page's content now: reportlab would keep it as text until it saves
    the file, the largest part of a long build's memory. Returns the cache's key of the
    compressed content, if it keeps it."""
    page = canvas._doc.Pages.pages[-1]
    if not isinstance(getattr(page, "stream", None), str):
        return None
    key = None
    content = page.stream.encode("latin-1")
    if content_filter is not None:
        content = content_filter(content)
    compressed = None
    if kept is not None:
        # SHA-256 by the processor's own instructions: twice blake2b's speed on pages (kilobytes each)
        key = "page:" + hashlib.sha256(content).hexdigest()[:40]
        compressed = kept.recall(key)
        if compressed.__class__ is not bytes:
            compressed = zlib.compress(content, PAGE_COMPRESSION)
            kept.remember(key, compressed)
    else:
        compressed = zlib.compress(content, PAGE_COMPRESSION)
    _set_content(page, compressed)
    return key


def _set_content(page, compressed: bytes) -> None:
    stream = pdfdoc.PDFStream(content=compressed)
    stream.dictionary["Filter"] = _FLATE  # formatted, never changed: one for every page
    page.Contents, page.stream = stream, None


_FLATE = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])


class _FaceDrawer:
    """Draws placed faces: inline when first met, as a form from the second use on (copies and
    shared backs), so that a face used once costs no form dictionary, and no face's uses need
    counting ahead. Once a face has failed to lay out, the rest are only laid out, to report
    every problem."""

    ONCE = 1024  # faces drawn once that are remembered: a copy further away is drawn inline again
    RECENT = 64  # drawings kept to define a form without laying the face out again
    FORMS = 4096  # forms pages may place, the latest used: one used longer ago is let go (defined again if needed)

    def __init__(self, canvas: Canvas, stream: PageStream, drawing: Callable[[Face, tuple | None], FaceDrawing],
                 stamp, content_filter=None, unpack: Callable[[bytes], tuple | None] | None = None,
                 ready: ReadyFaces | None = None):
        self.canvas, self.stream, self.drawing, self.stamp = canvas, stream, drawing, stamp
        # faces made ready to write, for a face met first (a stamp is drawn through the face's drawing)
        self.ready = ready if not stamp else None
        if ready is not None:
            self.ready_icon = lambda *icon: ready.paint_icon(canvas, *icon)
        self.content_filter = content_filter
        self.unpack = unpack  # a drawing kept as the cache stores it (a page kept whole) -> its parts
        self.impure = False  # the page being drawn draws more than operators, or places forms
        self.defined: OrderedDict[str, None] = OrderedDict()  # form names, the latest used last
        self.on_page: set[str] = set()  # forms the page being drawn places: kept until it is written
        self.once = Latest(self.ONCE)  # markup keys of faces drawn inline once
        self.recent = Latest(self.RECENT)  # markup key -> its parts, for the latest drawings
        self.finished: set[str] = set()  # faces failed, or checked once a face has failed
        self.problems: list[Problem] = []

    def draw(self, placement: Placement) -> None:
        canvas, face = self.canvas, placement.face
        key = face.markup_key
        name = "F" + key[:20]
        if key in self.finished:
            return
        if name in self.defined:
            if not self.problems:
                self.defined.move_to_end(name)
                self.on_page.add(name)
                place(canvas, placement, lambda: canvas.doForm(name))
            return
        second = key in self.once
        ready = self.ready
        if ready is not None and not second and not self.problems:
            made = ready.of(face)
            if made is not None:  # drawn as _draw_face draws a drawing of these parts, without making one
                parts, prepared = made
                code = canvas._code
                code.append("q")
                into_slot(canvas, placement)
                write_prepared(canvas, parts, prepared, ready.face_named, _no_element, self.ready_icon)
                code.append("Q")
                self.once[key] = None
                self.recent[key] = parts
                return
        parts = self.recent.get(key) if second else None
        if parts.__class__ is bytes:  # met on a page kept whole: the cache's stored drawing
            parts = self.unpack(parts)
        elif parts.__class__ is Marshalled:  # written from a worker's prepared items: read now
            parts = parts.parts()
        try:
            drawing = self.drawing(face, parts)
        except CardgenError as error:
            self.problems.extend(error.problems)
            self.finished.add(key)
            return
        if self.problems:  # only looking for more problems now: this PDF will not be saved
            self.finished.add(key)
            return
        if second:
            self.impure = True
            del self.once[key]
            self.recent.pop(key, None)
            _define_form(canvas, name, face.card_type, drawing, self.stamp, self.content_filter)
            self.stream.form_done(name)
            self.defined[name] = None
            self.on_page.add(name)
            self._let_go()
            place(canvas, placement, lambda: canvas.doForm(name))
            return
        if not drawing.pure:
            self.impure = True
        parts = []
        place(canvas, placement, lambda: parts.append(_draw_face(canvas, face.card_type, drawing, self.stamp)),
               drawing.pure)
        self.once[key] = None
        self.recent[key] = parts[0]

    def _let_go(self) -> None:
        """Forms past the latest FORMS used leave reportlab's tables (some 500 bytes each: a
        set of 100,000 cards in two copies would keep 50 MB of them); only their offsets stay."""
        while len(self.defined) > self.FORMS:
            oldest = next(iter(self.defined))
            if oldest in self.on_page:  # the page being drawn names it
                return
            del self.defined[oldest]
            self.stream.forget(self.canvas._doc.getXObjectName(oldest))

    def page_done(self) -> None:
        self.on_page.clear()
        self.impure = False


def _define_form(canvas: Canvas, name: str, card_type, drawing: FaceDrawing, stamp: tuple[str, str] | None,
                 content_filter=None) -> None:
    size, bleed = card_type.size, card_type.bleed
    k = PT_PER_MM
    canvas.beginForm(name, -bleed * k, -bleed * k, (size.w + bleed) * k, (size.h + bleed) * k)
    _draw_face(canvas, card_type, drawing, stamp)
    shadings = dict(canvas._shadingUsed)  # the form's own (gradients): endForm drops them
    if content_filter is not None:
        code = "\n".join(canvas._code).encode("latin-1")
        canvas._code[:] = [content_filter(code).decode("latin-1")]
    canvas.endForm()
    _complete_form_resources(canvas, name, shadings)


def _complete_form_resources(canvas: Canvas, name: str, shadings: dict | None = None) -> None:
    """reportlab leaves graphics states (opacity) and shadings (gradients) out of a form's
    resources; put them in."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    if not getattr(form, "ExtGState", None) and not shadings:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    if shadings:
        resources.setShading(shadings)
    form.Resources = resources


def _draw_face(canvas: Canvas, card_type, drawing: FaceDrawing, stamp: tuple[str, str] | None) -> tuple:
    """Draw a face with its trim's bottom-left corner at the origin; return its parts."""
    parts = draw_face(canvas, card_type, drawing)
    if stamp and card_type.bleed > 0:
        _stamp(canvas, stamp, card_type.size, card_type.bleed)
    return parts


def _stamp(canvas: Canvas, stamp: tuple[str, str], size, bleed: float) -> None:
    """The version stamp, in the bleed below the trim: cut away on a good print."""
    text, font = stamp
    font_size = min(4.0, bleed * PT_PER_MM * 0.6)
    canvas.saveState()
    canvas.setFont(font, font_size)
    canvas.setFillGray(0.35)
    canvas.drawString(1.0 * PT_PER_MM, -bleed * PT_PER_MM * 0.75, text)
    canvas.restoreState()


def _no_element(index: int) -> None:  # pragma: no cover - a face drawn with operators alone draws no element
    raise AssertionError(f"part {index} of a face drawn with operators alone is an element")
