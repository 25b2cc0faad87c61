"""A face's parts made ready to write by a build's worker process, so that the build's own
process (the one that writes the PDF, and the part of a build no second core shares) only
joins strings.

Two kinds of part cost the writer most when it replays a face (draw/content.py): text, whose
runs are encoded for the document's font subsets, and image icons, whose placement is
formatted. Both are the same in every document in the usual case:

- a character whose code reportlab gives before any text is shown (printable ASCII, in a font
  that has it) has that code in every document: a text object made only of such characters is
  its final operators, less the names of its fonts' first subsets, which the document gives
  in the order it first uses them; they are left as holes;
- an icon's raster is placed by the same operators wherever it goes, once the document holds
  the image (the first use adds it).

A prepared face is a tuple of items, written in turn (``write``):

- ``str``: operators, written as they are;
- ``("T", index, font PDF names, pieces)``: a text object, ``pieces`` joined with the
  document's subset name of each font between them; when a font has not been used in the
  document yet, part ``index`` is written as draw/content.py writes it (which names it);
- ``("I", index, image name, XObject name, operators)``: an image icon, placed by the
  operators when the document holds the image, else part ``index`` is drawn;
- ``("P", index)``: part ``index``, drawn as draw/content.py draws it (elements drawn again).

Every item writes the bytes the part it stands for writes (tests/test_workers.py compares
builds on workers with builds in one process).
"""
from __future__ import annotations

import marshal
import re
from typing import Callable, Sequence

from .content import ICON, TEXT, replay, write_text
from .encoding import _ESCAPED, TextWriter

_HOLE = "\0"  # a font's name, in a prepared text object: never in operators or escaped text
# a run of printable ASCII with nothing to escape (no brackets, no backslash): in a font whose
# fixed codes hold all of them, such a run is written as it is, checked by one match
_PLAIN_RUN = re.compile(r"[ -'*-\[\]-~]*")
_PLAIN_CHARS = frozenset(chr(code) for code in range(32, 127)) - set("()\\")


def fixed_codes(ttf) -> dict[int, str]:
    """The characters of ``ttf`` that have the same code in every document (the codes a
    document's subsets start with), as escaped string text: a character from space to ``~``
    is itself, but for ``(``, ``)`` and the backslash; the others from 127 on are octal escapes."""
    from reportlab.pdfbase.ttfonts import TTFont

    state = TTFont.State(getattr(ttf, "_asciiReadable", None), ttf)
    return {char: _ESCAPED[code] for char, code in state.assignments.items() if char == code and 32 <= char < 256}


class Preparer:
    """Prepares faces' parts in a worker process. ``face_named(pdf_name)`` gives a FontFace;
    ``icon_placement(name, x, baseline, size)`` an icon's (image name, XObject name,
    operators), or None for an icon that is not placed by operators alone."""

    def __init__(self, face_named: Callable, icon_placement: Callable):
        self.face_named, self.icon_placement = face_named, icon_placement
        self._fonts: dict[str, tuple] = {}  # PDF name -> (its TTFont, its fixed codes)

    def prepare(self, parts: Sequence) -> tuple:
        items: list = []
        for index, part in enumerate(parts):
            if part.__class__ is str:
                if items and items[-1].__class__ is str:  # the page joins its operators by lines
                    items[-1] = f"{items[-1]}\n{part}"
                else:
                    items.append(part)
                continue
            kind = part[0]
            item = None
            if kind == TEXT:
                item = self._text(index, part[1])
            elif kind == ICON:
                placed = self.icon_placement(*part[1:])
                if placed is not None:
                    item = ("I", index, *placed)
            items.append(item if item is not None else ("P", index))
        return tuple(items)

    def _font(self, pdf_name: str) -> tuple:
        known = self._fonts.get(pdf_name)
        if known is None:
            ttf = self.face_named(pdf_name).ttf
            codes = fixed_codes(ttf)
            chars = frozenset(map(chr, codes))
            plain = _PLAIN_RUN.fullmatch if chars.issuperset(_PLAIN_CHARS) else _never
            known = self._fonts[pdf_name] = (ttf, chars, codes, plain)
        return known

    def _text(self, index: int, items: Sequence) -> tuple | None:
        """A text object as write_text writes it, font names left as holes; None if a
        character's code depends on the document. The usual text object, printable ASCII with
        nothing to escape in fonts that have fixed codes for all of it, is written run by run
        as it is and its characters checked once, together; any other is made again by
        ``_careful_text``."""
        code = ["BT"]
        append = code.append
        names: list[str] = []
        ttfs: dict[int, str] = {}  # id of a TTFont -> the PDF name it was met under
        font_name = size_in_force = None  # of the Tf in force
        texts: list[str] = []
        for item in items:
            if item.__class__ is str:
                append(item)
                continue
            name, size, text = item
            if name != font_name or size != size_in_force:
                if name != font_name:
                    font_name = name
                    ttf, _, _, plain = self._font(name)
                    if ttfs.setdefault(id(ttf), name) != name:  # one font under two names
                        return None
                    if plain is _never:
                        return self._careful_text(index, items)
                size_in_force = size
                append(f"{_HOLE} {size} Tf")
                names.append(name)
            texts.append(text)
            append(f"({text}) Tj")
        if not _plain("".join(texts)):
            return self._careful_text(index, items)
        append("ET")
        return (TEXT, index, tuple(names), tuple(" ".join(code).split(_HOLE)))

    def _careful_text(self, index: int, items: Sequence) -> tuple | None:
        """``_text``, each run checked on its own."""
        code = ["BT"]
        append = code.append
        names: list[str] = []
        ttfs: dict[int, str] = {}  # id of a TTFont -> the PDF name it was met under
        font_name = chars = table = plain = None
        current_name = current_size = None  # of the Tf in force
        for item in items:
            if item.__class__ is str:
                append(item)
                continue
            name, size, text = item
            if name != font_name:
                font_name = name
                ttf, chars, table, plain = self._font(font_name)
                if ttfs.setdefault(id(ttf), font_name) != font_name:  # one font under two names
                    return None
            simple = plain(text) is not None  # each character its own code, none escaped
            if not simple and not chars.issuperset(text):
                return None
            if size != current_size or font_name != current_name:
                current_name, current_size = font_name, size
                append(f"{_HOLE} {size} Tf")
                names.append(font_name)
            if simple or (text.isascii() and "(" not in text and ")" not in text and "\\" not in text
                          and "\x7f" not in text):
                append(f"({text}) Tj")
            else:
                append(f"({text.translate(table)}) Tj")
        append("ET")
        return (TEXT, index, tuple(names), tuple(" ".join(code).split(_HOLE)))


def _plain(text: str) -> bool:
    """Whether ``text`` is printable ASCII with nothing to escape (what _PLAIN_RUN matches,
    tested by the string's own methods: a whole text object's runs at once)."""
    return text.isascii() and text.isprintable() and "(" not in text and ")" not in text and "\\" not in text


def _never(text: str) -> None:
    """A font that lacks a fixed code for some printable ASCII: every run is checked character
    by character."""
    return None


class Marshalled:
    """A face's parts as marshal data (as a build's worker sends them), read when a part is first
    asked for: a face written from its prepared items seldom needs one, and reading them all
    costs the build's process more than writing the face."""

    __slots__ = ("data", "_parts")

    def __init__(self, data: bytes):
        self.data = data
        self._parts: tuple | None = None

    def parts(self) -> tuple:
        if self._parts is None:
            self._parts = marshal.loads(self.data)
        return self._parts

    def __getitem__(self, index: int):
        return self.parts()[index]


def write(canvas, parts: Sequence, prepared: Sequence, face_named: Callable,
          draw_element: Callable[[int], None], draw_icon: Callable) -> None:
    """Write a face prepared by ``Preparer.prepare(parts)``: what ``replay(parts)`` writes."""
    code = canvas._code
    fonts = TextWriter.of(canvas, face_named).fonts
    objects = canvas._doc.idToObject
    for item in prepared:
        if item.__class__ is str:
            code.append(item)
            continue
        kind = item[0]
        if kind == TEXT:
            pieces = item[3]
            joined = [pieces[0]]
            for font_name, piece in zip(item[2], pieces[1:]):
                font = fonts.get(font_name)
                if font is None or font.name is None:  # the document's first use of the font names it
                    write_text(canvas, parts[item[1]][1], face_named)
                    break
                joined.append(font.name)
                joined.append(piece)
            else:
                code.append("".join(joined))
        elif kind == "I" and objects.get(item[3]) is not None:  # the image is in the document
            canvas._currentPageHasImages = 1
            code.append(item[4])
            canvas._formsinuse.append(item[2])
        else:
            replay(canvas, (parts[item[1]],), face_named, draw_element, draw_icon)

