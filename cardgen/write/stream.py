"""A reportlab document written to its file as it goes.

reportlab keeps every page, form and content stream as an object until ``save``, then formats
the whole file in memory: a large set's PDF would be held two or three times over. Here each
finished page and form is formatted and written at once, and only its object number and file
offset are kept (a written page is then dropped from reportlab's tables, which cost some 600
bytes a page: its number and offset take 8 bytes each in arrays); ``finish`` writes what is left (fonts, which are subset only once every glyph
is known, the page tree, the catalogue), the cross-reference table and the trailer.

A PDF's objects may come in any order in the file: the cross-reference table says where each is.
"""
from __future__ import annotations

import copy

from array import array
from functools import lru_cache
from typing import BinaryIO, Iterator

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from .kept_subsets import add_objects

# reportlab's own file head; the version is filled in at the end, when it is known
_HEAD = b"%%PDF-%d.%d\n%%\223\214\213\236 ReportLab Generated PDF document (opensource)\n"


class _Written(pdfdoc.PDFObject):
    """Stands in the document for an object already in the file: the page tree names it."""

    __slots__ = ("__InternalName__",)

    def __init__(self, name: str):
        self.__InternalName__ = name

    def format(self, document):  # pragma: no cover - a written object is never formatted again
        raise AssertionError(f"object {self.__InternalName__} formatted twice")


class PageStream:
    """Writes ``canvas``'s document to ``out``: call ``page_done`` after each ``showPage``,
    ``form_done(name)`` after each ``endForm``, and ``finish`` instead of ``canvas.save``."""

    def __init__(self, canvas: Canvas, out: BinaryIO, kept=None):
        """``kept``: the face cache, which keeps the font subsets (see kept_subsets.py)."""
        self.canvas, self.doc, self.out, self.kept = canvas, canvas._doc, out, kept
        self.offset = out.write(_HEAD % self.doc._pdfVersion)
        self.offsets = array("Q", [0])  # by object number: where it starts in the file (0: not yet written)
        self.page_numbers = array("Q")  # the object number of every written page, in order
        self._xobjects: dict[tuple, bytes] = {}  # a page's XObjects, formatted (see _xobjects_text)

    def page_done(self) -> None:
        doc = self.doc
        pages = doc.Pages.pages
        page = pages[-1]
        name = page.__InternalName__
        if _plain(page):
            contents_name = doc.Reference(page.Contents).name
            self._put(name, _page_dictionary(page, doc, contents_name, self._xobjects))
            self._put(contents_name, _stream(page.Contents.content))
        else:  # a page drawn otherwise (the changelog): reportlab formats it
            self._write(name, page)  # formatting the page makes and names its content stream
            contents_name = page.Contents.__InternalName__
            self._write(contents_name, page.Contents)
        pages.pop()  # the page tree names it at the end, by number
        self.page_numbers.append(doc.idToObjectNumberAndVersion[name][0])
        self.forget(name)  # nothing names them again
        self.forget(contents_name)

    def forget(self, name: str) -> None:
        """Drop a written object from reportlab's tables (a page, or a form no page will use
        again): its offset stays, for the cross-reference table."""
        doc = self.doc
        number = doc.idToObjectNumberAndVersion.pop(name)[0]
        del doc.numberToId[number], doc.idToOffset[name]
        doc.idToObject.pop(name, None)

    def form_done(self, form_name: str) -> None:
        name = self.doc.getXObjectName(form_name)
        self._write(name, self.doc.idToObject[name])
        self.doc.idToObject[name] = _Written(name)  # pages name it (doForm asks whether it exists)

    def _write(self, name: str, obj) -> None:
        doc = self.doc
        data = pdfdoc.PDFIndirectObject(name, obj).format(doc)
        self._record(name)
        self.offset += self.out.write(data)

    def _put(self, name: str, body: bytes) -> None:
        """Write an object formatted here (``body``: what goes between ``obj`` and ``endobj``)."""
        number = self._record(name)
        self.offset += self.out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))

    def _write_page_tree(self, name: str) -> None:
        """The page tree, as reportlab formats it (ten pages a line), from the page numbers
        kept: a 100,000-card set's would otherwise be a list of objects and strings first."""
        kids = self.page_numbers
        write = self.out.write
        self.offset += write(b"%d 0 obj\n<<\n/Count %d /Kids [ " % (self._record(name), len(kids)))
        for first in range(0, len(kids), 10):
            line = b" ".join(b"%d 0 R" % number for number in kids[first:first + 10])
            self.offset += write(line if not first else b" \n  " + line)
        self.offset += write(b" ] /Type /Pages\n>>\nendobj\n")

    def _record(self, name: str) -> int:
        doc, offsets = self.doc, self.offsets
        doc.idToOffset[name] = self.offset
        number = doc.idToObjectNumberAndVersion[name][0]
        if number >= len(offsets):
            offsets.frombytes(bytes(8 * (number + 1 - len(offsets))))
        offsets[number] = self.offset
        return number

    def finish(self) -> None:
        """What reportlab's ``save`` does, for the objects not yet written."""
        doc, canvas = self.doc, self.canvas
        add_font_objects(doc, self.kept)
        doc.info.invariant = doc.invariant
        doc.info.digest(doc.signature)
        doc.Reference(doc.Catalog)
        doc.Reference(doc.info)
        doc.Outlines.prepare(doc, canvas)
        if doc.Outlines.ready < 0:
            doc.Catalog.Outlines = None
        doc.encrypt.prepare(doc)
        tree = doc.Reference(doc.Pages).name if self.page_numbers and not doc.Pages.pages else None
        number = 0
        while number < doc.objectcounter:  # formatting may name new objects: go on until none is left
            number += 1
            name = doc.numberToId.get(number)
            if name == tree:
                self._write_page_tree(name)
            elif name is not None and name not in doc.idToOffset:
                self._write(name, doc.idToObject[name])
        start = self.offset
        for chunk in _cross_references(self.offsets, doc.objectcounter):
            self.offset += self.out.write(chunk)
        trailer = pdfdoc.PDFTrailer(startxref=start, Size=doc.objectcounter + 1, Root=doc.Reference(doc.Catalog),
                                    Info=doc.Reference(doc.info), ID=doc.ID())
        self.out.write(trailer.format(doc))
        self.out.seek(0)  # the version can rise while pages are drawn (transparency: 1.4)
        self.out.write(_HEAD % doc._pdfVersion)


def _cross_references(offsets: array, count: int) -> Iterator[bytes]:
    """The xref table of objects 1 to ``count``, as reportlab formats it, a few thousand
    entries at a time."""
    if len(offsets) <= count or 0 in offsets[1:count + 1]:
        raise AssertionError("an object of the PDF was never written")
    yield b"xref\n0 %d\n0000000000 65535 f \n" % (count + 1)
    for first in range(1, count + 1, 4096):
        yield b"".join(b"%010d 00000 n \n" % offset for offset in offsets[first:min(first + 4096, count + 1)])


# A page as the writer makes it: its compressed content, sizes, boxes, forms and opacities. Each
# page formatted through reportlab's generic objects cost a fifth of a millisecond; these cost
# a few microseconds.
_PROCS = {False: b"[ /PDF /Text ]", True: b"[ /PDF /Text /ImageB /ImageC /ImageI ]"}


def _plain(page) -> bool:
    contents = page.Contents
    return (isinstance(contents, pdfdoc.PDFStream) and isinstance(contents.content, bytes)
            and contents.dictionary.dict.get("Filter") is not None and not page.Override_default_compilation
            and not page.Resources and not page.Annots and not page._shadingUsed and not page._colorsUsed
            and page.CropBox is None and page.ArtBox is None and page.Dur is None and page.Rotate in (0, None)
            and not (page.Trans and page.Trans.dict))


def _page_dictionary(page, doc, contents_name: str, xobjects: dict | None = None) -> bytes:
    def number(name: str) -> int:
        return doc.idToObjectNumberAndVersion[name][0]

    resources = [b"/Font %d 0 R /ProcSet %s" % (number(pdfdoc.BasicFonts), _PROCS[bool(page.hasImages)])]
    if page.XObjects:
        resources.append(b"/XObject " + _xobjects_text(page.XObjects, doc, xobjects))
    if page.ExtGState:
        resources.append(b"/ExtGState " + pdfdoc.format(page.ExtGState, doc))
    boxes = b"".join(b" /%s %s" % (box.encode("ascii"), pdfdoc.format(getattr(page, box), doc))
                     for box in ("BleedBox", "TrimBox") if getattr(page, box) is not None)
    media = _media_box(page.pagewidth, page.pageheight)
    parent = number(doc.Reference(doc.Pages).name)
    return (b"<< /Contents %d 0 R /MediaBox [ %s ] /Parent %d 0 R /Resources << %s >> /Rotate 0%s /Type /Page >>"
            % (number(contents_name), media, parent, b" ".join(resources), boxes))


def _xobjects_text(xobjects, doc, known: dict | None) -> bytes:
    """A page's XObject dictionary as reportlab formats it; pages that name the same objects
    (a deck's back pages, the icon on every front) share their text, found in ``known`` by the
    names and the object numbers they have now (a form let go and defined again has another)."""
    if known is None or xobjects.__class__ is not pdfdoc.PDFDictionary:
        return pdfdoc.format(xobjects, doc)
    numbers = doc.idToObjectNumberAndVersion
    key = [xobjects.multiline, rl_config.pdfMultiLine]
    for name, value in xobjects.dict.items():
        if value.__class__ is not pdfdoc.PDFObjectReference or value.name not in numbers:
            return pdfdoc.format(xobjects, doc)
        key += (name, value.name, numbers[value.name])
    key = tuple(key)
    text = known.get(key)
    if text is None:
        if len(known) >= 64:
            known.clear()
        text = known[key] = pdfdoc.format(xobjects, doc)
    return text


@lru_cache(maxsize=16)  # every page of a set has one size or a few: reportlab's fp_str, in Python here, once
def _media_box(width: float, height: float) -> bytes:
    return pdfdoc.fp_str(0, 0, width, height).encode("ascii")


def _stream(content: bytes) -> bytes:
    return b"<< /Filter [ /FlateDecode ] /Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def add_font_objects(doc, kept=None) -> None:
    """Write the subsets of every font the document used (those ``kept`` holds, the face cache,
    as kept: see kept_subsets.py). reportlab names a subset after its
    font's PostScript name, and two fonts of one name (a font file edited between two builds of
    `cardgen watch`, two versions of a font in a project) would give two subsets one name (a
    failed build): a second font of a name is named with "-2" after it, a third "-3"."""
    seen: dict[bytes, int] = {}
    for font in doc.delayedFonts:
        name = bytes(font.face.name) + bytes(font.face.subfontNameX)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 1:
            add_objects(font, doc, kept)
            continue
        twin = copy.copy(font)  # the same subsets (its ``state``), under another name
        twin.face = copy.copy(font.face)
        twin.face.subfontNameX = bytes(font.face.subfontNameX) + b"-%d" % seen[name]
        twin.addObjects(doc)
