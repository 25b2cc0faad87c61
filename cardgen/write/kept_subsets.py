"""Font subsets kept from the last build: a rebuild whose document uses the same characters of a
font cuts the same subset, and writes the one kept, compressed, without cutting it again.

A subset (reportlab's ``makeSubset``) is a function of the TrueType data it is cut from and of
its characters' codes, in order; its stream in the PDF is that subset deflated by zlib (as
reportlab's filter deflates it). So each is kept in the face cache, deflated, under a digest of
the data's SHA-256 (text/fonts.py: ``embedded_digest``), the subfont, the codes, and reportlab's
and zlib's versions. A font that no FontBook loaded is cut as ever.
"""
from __future__ import annotations

import copy
import hashlib
import zlib

import reportlab
from reportlab.pdfbase import pdfdoc

_PREFIX = "subset:"


class _Deflated:
    """reportlab's FlateDecode filter for one stream whose deflated bytes are known."""

    pdfname = pdfdoc.PDFZCompress.pdfname

    def __init__(self, content: bytes, deflated: bytes):
        self.content, self.deflated = content, deflated

    def encode(self, text):
        if text is self.content:
            return self.deflated
        return pdfdoc.PDFZCompress.encode(text)


def add_objects(font, doc, kept) -> None:
    """``font.addObjects(doc)``, its subsets taken from ``kept`` (the face cache, or None) and
    the ones cut anew kept there; their streams in ``doc`` deflated as kept."""
    from ..text.fonts import embedded_digest

    digest = embedded_digest(font) if kept is not None else None
    if digest is None:
        font.addObjects(doc)
        return
    cut = font.face.makeSubset
    made: dict[int, tuple[bytes, bytes]] = {}  # id of a subset's content -> (content, deflated)

    def make_subset(subset):
        key = _PREFIX + hashlib.sha256(repr((reportlab.Version, zlib.ZLIB_RUNTIME_VERSION, digest,
                                             bytes(font.face.subfontNameX), list(subset))).encode("ascii")).hexdigest()
        deflated = kept.recall(key)
        content = None
        if deflated.__class__ is bytes:
            try:
                content = zlib.decompress(deflated)
            except zlib.error:
                content = None
        if content is None:
            content = cut(subset)
            deflated = pdfdoc.PDFZCompress.encode(content)
            kept.remember(key, deflated)
        made[id(content)] = (content, deflated)
        return content

    # a copy of the font whose face cuts its subsets so (the font itself, shared by every build of
    # the process, is left as it is); its subsets' state is the font's own
    keeping = copy.copy(font)
    keeping.face = copy.copy(font.face)
    keeping.face.makeSubset = make_subset
    keeping.addObjects(doc)
    for name, stream in list(doc.idToObject.items()):
        if (name.startswith("fontFile:") and stream.__class__ is pdfdoc.PDFStream
                and stream.filters == [pdfdoc.PDFZCompress] and id(stream.content) in made):
            content, deflated = made[id(stream.content)]
            if stream.content is content:
                stream.filters = [_Deflated(content, deflated)]
