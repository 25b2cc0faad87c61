"""Pages kept whole from the last build: a rebuild writes an unchanged page's compressed content
as it is, without drawing its faces again.

A page's content is a function of what is placed on it (each face's content hash, its slot),
the page's size and marks, and the document's state before it: which characters already have
codes in the font subsets (codes are given in the order characters first appear, so a page's
text bytes depend on every page before it), and whether each face is met for the first time
(drawn inline) or again (placed as a form). So each page a build draws is kept under a digest
of all that, where the subsets' state is a digest of every change made to them so far in the
document (the same changes in the same order: the same codes). A rebuild that meets a page
under the same digest gives its characters their codes in the same order, as drawing it would,
and writes the content kept.

Drawing a page can also raise the document's PDF version (reportlab asks for 1.4 whenever a
colour's alpha is set, as svglib's drawing of every SVG icon does): the version a page asked for
is kept with it and asked for again when it is reused, else a rebuild whose SVG icons were all
on pages kept whole wrote a PDF 1.3 header where a fresh build wrote 1.4.

Only the plain cases are kept: every face on the page met for the first time and drawn with
operators alone (text, image icons), or every face on it one already defined as a form (the
backs of a deck, placed again and again); no font or subset named on the page, and the
document's images and forms that the page uses already in it. Anything else is drawn as before.
"""
from __future__ import annotations

import hashlib
from itertools import islice, repeat

from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION

from ..streams import Latest

_PREFIX = "pagewhole:"


class KeptPages:
    """One document's pages, told to the cache as they are drawn and asked of it before."""

    CONTENTS = 16

    def __init__(self, canvas, kept):
        self.canvas, self.doc, self.kept = canvas, canvas._doc, kept
        self.state = b""  # digest of every change the document's font subsets have seen
        self.key: str | None = None  # the page being drawn: its key, when it may be kept
        self.before: tuple = ()
        self.forms: tuple = ()
        self.has_images = 0
        self._marks: dict[int, tuple] = {}  # id of a page's marks -> (the marks, their text)
        self._places: dict[tuple, tuple] = {}  # (type's id, a slot but its page) -> (the type, their text)
        # the latest page contents used: the same page (a deck's backs) comes again and again,
        # and the cache's own memory of its latest entries is short
        self._contents = Latest(self.CONTENTS)
        # the latest pages this build kept, by key: a deck's back pages are one page again and
        # again, met again long after the cache's own memory of its latest entries has let it go
        self._kept_here = Latest(self.CONTENTS)
        self._states: list[tuple] = []  # (font, its state in the document) of each font the document names
        self._sizes: dict[tuple, str] = {}  # a page's size, boxes and turn -> their text
        self._asked: set[str] = set()  # the PDF features (reportlab's keys) the page being drawn asked for
        ensure = self.doc.ensureMinPdfVersion

        def ensure_noted(*keys):  # the document's own method, the keys noted for the page drawn
            self._asked.update(keys)
            return ensure(*keys)

        self.doc.ensureMinPdfVersion = ensure_noted

    # --- before a page is drawn ------------------------------------------------------

    def reuse(self, page, placements, drawer) -> bytes | None:
        """The page's compressed content, when the last build kept this very page; its fonts'
        codes are then given as drawing it would give them. Else None, and the page is drawn
        (``drawn`` and ``shown`` then keep it, if it may be kept)."""
        content = self._reuse(page, placements, drawer)
        if content is None:
            self.before = self._fonts()  # the page is drawn: what it changes is told to ``shown``
            self._asked.clear()
        return content

    def _reuse(self, page, placements, drawer) -> bytes | None:
        self.key = None
        keys = [placement.face.markup_key for placement in placements]
        if not keys or drawer.problems:
            return None
        defined, finished, once = drawer.defined, drawer.finished, drawer.once
        names = ["F" + key[:20] for key in keys]
        forms = None  # the forms the page places, when every face on it is one already defined
        if names[0] in defined:
            forms = names
            for key, name in zip(keys, names):
                if name not in defined or key in finished:
                    return None  # some faces placed as forms, others drawn
        elif len(set(keys)) != len(keys):
            return None  # a face drawn inline, then defined as a form
        else:
            for key, name in zip(keys, names):
                if key in finished or key in once or name in defined:
                    return None  # a face met before: drawn inline again, or placed as a form
        self.key = key = _PREFIX + ("forms:" if forms else "") + self._digest(page, placements)
        entry = self._kept_here.get(key)
        if entry is None:
            entry = self.kept.recall(key)
        else:
            self._kept_here.move_to_end(key)
        if not _entry_shape(entry):
            return None
        content_key, changes, used, has_images, asked = entry
        doc = self.doc
        objects = doc.idToObject
        if any(objects.get(doc.getXObjectName(name)) is None for name in dict.fromkeys(used)):  # each once
            return None  # an image or form that this document has not met yet: drawing it adds it
        fonts = {ttf.fontName: ttf for ttf in doc.delayedFonts}
        if any(name not in fonts for name, _ in changes):
            return None
        stored = None
        if not forms:
            stored = self.kept.stored_drawings([placement.face.content_hash for placement in placements])
            if stored is None:
                return None  # a face's drawing is not in the cache: draw the page, laying it out
        compressed = self._contents.get(content_key)
        if compressed is None:
            compressed = self.kept.recall(content_key)
            if compressed.__class__ is not bytes:
                return None
            self._contents[content_key] = compressed
        else:
            self._contents.move_to_end(content_key)
        for name, text in changes:  # the codes, given in the order drawing the page gave them
            fonts[name].splitString(text, doc)
        if asked:  # the PDF version drawing the page asked for
            doc.ensureMinPdfVersion(*asked)
        self.canvas._formsinuse.extend(used)
        if has_images:
            self.canvas._currentPageHasImages = 1
        if forms:
            for name in forms:  # each form's use, in the order drawing the page would tell it
                defined.move_to_end(name)
                drawer.on_page.add(name)
        else:
            drawer.once.set_all(zip(keys, repeat(None)))
            drawer.recent.set_all(zip(keys, stored))  # the stored drawings: unpacked if a face is met again
            self.kept.reused += len(placements)
        self._advance(changes)
        self.key = None
        return compressed

    def _digest(self, page, placements) -> str:
        # sheets alike share one tuple of marks (sheets/impose.py): its text is made once, found
        # by its id (hashing the marks costs more than the page's digest)
        known = self._marks.get(id(page.marks))
        if known is None or known[0] is not page.marks:  # kept with the tuple: its id is not reused
            if len(self._marks) > 64:
                self._marks.clear()
            known = self._marks[id(page.marks)] = (page.marks, repr(page.marks))
        marks = known[1]
        size = (page.w, page.h, page.trim_box, page.bleed_box, page.flip)
        sized = self._sizes.get(size)
        if sized is None:
            if len(self._sizes) > 64:
                self._sizes.clear()
            sized = self._sizes[size] = repr(size)
        parts = [self.state.hex(), sized, marks]
        places = self._places
        for placement in placements:
            face, slot = placement.face, placement.slot
            card_type = face.card_type
            key = (id(card_type), slot.x, slot.y, slot.w, slot.h, slot.shape, slot.rotation, slot.clip)
            known = places.get(key)  # a sheet's slots come again on every sheet: their text is made once
            if known is None or known[0] is not card_type:
                if len(places) > 256:
                    places.clear()
                size = card_type.size
                known = places[key] = (card_type, f"{size.w!r} {size.h!r} {size.shape} {card_type.bleed!r} "
                                                  f"{slot.x!r} {slot.y!r} {slot.w!r} {slot.h!r} {slot.shape} "
                                                  f"{slot.rotation!r} {slot.clip!r}")
            parts += (face.content_hash, face.markup_key, known[1])
        return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:40]  # (SHA-256: as pdf.py's pages)

    def _fonts(self) -> tuple:
        """The state of the document's fonts: how many are named, and each one's codes."""
        return (len(self.doc.fontMapping),
                tuple((ttf, len(state.assignments), len(state.subsets)) for ttf, state in self._font_states()))

    def _font_states(self) -> list[tuple]:
        """(font, its state in the document) of each font the document names, in order: the
        document names fonts one after the other, never one less, and a font's state is the
        same object until the fonts are written, at the end (reportlab keeps the states in a
        weak dictionary, slow to ask each font twice a page)."""
        fonts, states = self.doc.delayedFonts, self._states
        if len(states) != len(fonts):
            doc = self.doc
            states += [(ttf, ttf.state[doc]) for ttf in fonts[len(states):]]
        return states

    # --- after a page is drawn ---------------------------------------------------------

    def drawn(self, drawer) -> None:
        """Before ``showPage``: what the page placed besides its operators (images)."""
        self.forms = tuple(self.canvas._formsinuse)
        self.has_images = self.canvas._currentPageHasImages
        if drawer.impure or drawer.problems:
            self.key = None

    def shown(self, page_object, content_key: str | None) -> None:
        """After the page is compressed: the fonts' changes enter the state, and the page is
        kept if it may be."""
        doc = self.doc
        mapped, fonts = self.before
        changes = []
        plain = len(doc.fontMapping) == mapped and len(doc.delayedFonts) == len(fonts)
        for (ttf, assigned, subsets), (_, state) in zip(fonts, self._font_states()):  # (the first fonts named)
            if len(state.subsets) != subsets:
                plain = False
            if len(state.assignments) != assigned:
                changes.append((ttf.fontName, "".join(map(chr, islice(state.assignments, assigned, None)))))
        if not plain:  # a font or subset named: the state moves on by all of it, and the page is not kept
            changes.append(("", repr([(ttf.fontName, ttf.state[doc].internalName, len(ttf.state[doc].subsets),
                                       list(ttf.state[doc].assignments.items())) for ttf in doc.delayedFonts])))
        changes = tuple(changes)
        key, self.key = self.key, None
        if plain and key is not None and content_key is not None and _plain_page(page_object):
            entry = (content_key, changes, self.forms, int(bool(self.has_images)), tuple(sorted(self._asked)))
            self.kept.remember(key, entry)
            self._kept_here[key] = entry
            self._contents[content_key] = page_object.Contents.content  # (compressed)
        self._advance(changes)

    def _advance(self, changes) -> None:
        if changes:  # (a page that changed no subset leaves them as they were: the next page may be this one again)
            self.state = hashlib.blake2b(self.state + repr(changes).encode("utf-8"), digest_size=20).digest()


def _entry_shape(entry) -> bool:
    return (entry.__class__ is tuple and len(entry) == 5 and entry[0].__class__ is str
            and entry[1].__class__ is tuple and entry[2].__class__ is tuple
            and all(name.__class__ is str for name in entry[2]) and entry[4].__class__ is tuple
            and all(key in PDF_SUPPORT_VERSION for key in entry[4]))


def _plain_page(page) -> bool:
    """A page whose resources are its fonts and XObjects alone (as the writer formats them)."""
    return (not page.Resources and not page.Annots and not page._shadingUsed and not page._colorsUsed
            and not page.ExtGState and page.CropBox is None and page.ArtBox is None and page.Dur is None
            and page.Rotate in (0, None) and not (page.Trans and page.Trans.dict))
