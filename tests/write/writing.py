"""A small harness for the writer's tests: faces with a known drawing, written by write_pdf
straight from hand-made pages and slots (no set, no layout), and the page read back as operators
with the transformation each is drawn under."""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

from cardgen.errors import Source
from cardgen.model import Card, CardSize, CardType, Face, Page, Placement, Slot
from cardgen.units import PT_PER_MM
from cardgen.write.face import FaceDrawing
from cardgen.write.pdf import write_pdf

__all__ = ["Page", "Placement", "Slot", "PT_PER_MM", "card_type", "face", "drawn", "write", "operations",
           "painted", "form_names"]


def card_type(w: float = 20.0, h: float = 30.0, bleed: float = 2.0, shape: str = "rect") -> CardType:
    return CardType("t", "t.xml.j2", None, CardSize(w, h, shape=shape), bleed, 1.0)


def face(key: str, kind: CardType | None = None, name: str = "c") -> Face:
    kind = kind or card_type()
    card = Card(name, kind.name, 1, {}, Source("data/t/cards.csv", 2))
    return Face(card, kind, 1, "front", key.ljust(40, "0"), key)


def drawn(face: Face, parts) -> FaceDrawing:
    """Every face is its trim box filled: one rectangle whose corners tell where it went."""
    size = face.card_type.size
    return FaceDrawing(None, None, parts=(f"0 0 {size.w * PT_PER_MM:.4f} {size.h * PT_PER_MM:.4f} re f",), pure=True)


def write(path: Path, pages, drawing=drawn, **options) -> PdfReader:
    options.setdefault("font", "Helvetica")
    font = options.pop("font")
    marks = options.pop("draw_marks", lambda canvas, page: None)
    count = write_pdf(path, pages, drawing, "Title", marks, font, **options)
    reader = PdfReader(path, strict=True)
    assert count == len(reader.pages)
    return reader


def _times(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def operations(content, reader, resources=None):
    """(operator, operands, ctm) of a content stream, forms placed by ``Do`` followed into."""
    found, stack, ctm = [], [], (1, 0, 0, 1, 0, 0)
    for operands, op in ContentStream(content, reader).operations:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _times(tuple(float(v) for v in operands), ctm)
        found.append((op, operands, ctm))
        if op == "Do" and resources is not None:
            form = resources["/XObject"][operands[0]].get_object()
            matrix = tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0)))
            for inner, inner_operands, inner_ctm in operations(form, reader, form.get("/Resources")):
                found.append((inner, inner_operands, _times(inner_ctm, _times(matrix, ctm))))
    return found


def painted(reader, page_number: int = 0):
    """Every path painted or clipped on a page: (operator(s) that end it, its points' box in mm
    rounded to 0.001 mm), in order. A clip ends with ``W n`` or ``W* n``."""
    page = reader.pages[page_number]
    result, points, pending = [], [], []
    for op, operands, ctm in operations(page.get_contents(), reader, page["/Resources"]):
        if op in ("m", "l", "c", "re"):
            values = [float(v) for v in operands]
            if op == "re":
                x, y, w, h = values
                values = [x, y, x + w, y + h]
            points += [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                       for x, y in zip(values[0::2], values[1::2])]
        elif op in ("W", "W*"):
            pending.append(op)
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n") and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            box = tuple(round(v / PT_PER_MM, 3) for v in (min(xs), min(ys), max(xs), max(ys)))
            result.append((" ".join([*pending, op]), box))
            points, pending = [], []
    return result


def form_names(page) -> list[str]:
    return sorted(page["/Resources"].get("/XObject", {}))
