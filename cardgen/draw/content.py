"""A face's drawing as plain parts that outlive the document they were drawn for.

Drawing a face produces PDF operators, which mean the same in any document, with two
exceptions: the codes of text strings belong to one document's font subsets, and images and
transparency are resources of one document. So a face is kept as parts:

- ``str``: operators, written as they are;
- ``("T", items)``: a text object; each item is an operator (``str``) or a
  ``(font PDF name, size, text)`` run whose text is encoded for the document it is written to;
- ``("E", index)``: the face's element ``index``, drawn again (images, transparency);
- ``("I", icon, x, baseline, size)``: an image icon, drawn again.

Parts are tuples of strings and numbers (``marshal`` stores them), so the layout cache can keep
a face's whole drawing and a rebuild writes unchanged faces without laying them out.
"""
from __future__ import annotations

from typing import Callable, Sequence

from .encoding import TextWriter

TEXT, ELEMENT, ICON = "T", "E", "I"


def write_text(canvas, items: Sequence, face_named: Callable) -> None:
    """Write one text object. ``face_named(pdf_name)`` gives a FontFace."""
    writer = TextWriter.of(canvas, face_named)
    fonts = writer.fonts
    code = ["BT"]
    append = code.append
    current = None
    for item in items:
        if item.__class__ is str:
            append(item)
            continue
        font_name, size, text = item
        font = fonts.get(font_name)
        # the usual run, every character already coded (TextWriter.show's first case, inline)
        if font is not None and font.name is not None and font.chars.issuperset(text):
            if current != (font.name, size):
                current = (font.name, size)
                append(f"{font.name} {size} Tf")
            append(f"({text.translate(font.table)}) Tj")
        else:
            current = writer.show(code, font_name, size, text, current)
    append("ET")
    canvas._code.append(" ".join(code))


def replay(canvas, parts: Sequence, face_named: Callable, draw_element: Callable[[int], None],
           draw_icon: Callable[[str, float, float, float], None]) -> None:
    """Write a face's parts into ``canvas``; elements and icons drawn again go through the callbacks."""
    for part in parts:
        if part.__class__ is str:
            canvas._code.append(part)
        elif part[0] == TEXT:
            write_text(canvas, part[1], face_named)
        elif part[0] == ELEMENT:
            draw_element(part[1])
        else:
            draw_icon(*part[1:])
