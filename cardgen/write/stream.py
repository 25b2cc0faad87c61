"""A reportlab document written to its file as it goes.

reportlab keeps every page, form and content stream as an object until ``save``, then formats
the whole file in memory: a large set's PDF would be held two or three times over. Here each
finished page and form is formatted and written at once, and only its object number and file
offset are kept; ``finish`` writes what is left (fonts, which are subset only once every glyph
is known, the page tree, the catalogue), the cross-reference table and the trailer.

A PDF's objects may come in any order in the file: the cross-reference table says where each is.
"""
from __future__ import annotations

from typing import BinaryIO

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

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

    def __init__(self, canvas: Canvas, out: BinaryIO):
        self.canvas, self.doc, self.out = canvas, canvas._doc, out
        self.offset = out.write(_HEAD % self.doc._pdfVersion)

    def page_done(self) -> None:
        doc = self.doc
        pages = doc.Pages.pages
        page = pages[-1]
        name = page.__InternalName__
        self._write(name, page)  # formatting the page names its content stream
        pages[-1] = doc.idToObject[name] = _Written(name)  # the page tree names it at the end
        contents = page.Contents
        self._write(contents.__InternalName__, contents)
        del doc.idToObject[contents.__InternalName__]  # named by its page alone

    def form_done(self, form_name: str) -> None:
        name = self.doc.getXObjectName(form_name)
        self._write(name, self.doc.idToObject[name])
        self.doc.idToObject[name] = _Written(name)  # pages name it (doForm asks whether it exists)

    def _write(self, name: str, obj) -> None:
        doc = self.doc
        data = pdfdoc.PDFIndirectObject(name, obj).format(doc)
        doc.idToOffset[name] = self.offset
        self.offset += self.out.write(data)

    def finish(self) -> None:
        """What reportlab's ``save`` does, for the objects not yet written."""
        doc, canvas = self.doc, self.canvas
        for font in doc.delayedFonts:
            font.addObjects(doc)
        doc.info.invariant = doc.invariant
        doc.info.digest(doc.signature)
        doc.Reference(doc.Catalog)
        doc.Reference(doc.info)
        doc.Outlines.prepare(doc, canvas)
        if doc.Outlines.ready < 0:
            doc.Catalog.Outlines = None
        doc.encrypt.prepare(doc)
        number = 0
        names = []
        while True:  # formatting may name new objects: go on until none is left
            number += 1
            name = doc.numberToId.get(number)
            if name is None:
                break
            names.append(name)
            if name not in doc.idToOffset:
                self._write(name, doc.idToObject[name])
                doc.idToObject[name] = _Written(name)
        xref = pdfdoc.PDFCrossReferenceTable()
        xref.addsection(0, names)
        start = self.offset
        self.offset += self.out.write(xref.format(doc))
        trailer = pdfdoc.PDFTrailer(startxref=start, Size=len(names) + 1, Root=doc.Reference(doc.Catalog),
                                    Info=doc.Reference(doc.info), ID=doc.ID())
        self.out.write(trailer.format(doc))
        self.out.seek(0)  # the version can rise while pages are drawn (transparency: 1.4)
        self.out.write(_HEAD % doc._pdfVersion)
