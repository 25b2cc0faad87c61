"""Draw one face, either from its fresh layout (recording the drawing as parts on the way) or
by replaying the parts an earlier build recorded (see draw/content.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..draw import direct, draw_element as _draw_element, text
from ..errors import CardgenError, Problem
from ..draw.content import ELEMENT, replay
from ..draw.context import FaceGeometry
from ..draw.prepared import write as write_prepared
from ..streams import Latest
from ..layout import LaidFace


@dataclass(frozen=True)
class FaceDrawing:
    """A face ready to draw: ``parts`` recorded by an earlier build, or ``laid``, a fresh layout
    whose recorded parts go to ``keep``. ``element_at(index)`` gives (element, what it needs
    prepared) for parts drawn again; ``face_named`` finds a font face by its PDF name;
    ``paint_icon(canvas, name, x, baseline, size)`` draws an image icon."""

    face_named: Callable[[str], Any]
    paint_icon: Callable
    parts: tuple | None = None
    element_at: Callable[[int], tuple] | None = None
    laid: LaidFace | None = None
    keep: Callable[[list], None] | None = None
    pure: bool = False  # only operators: nothing drawn through reportlab's graphics state
    prepared: tuple | None = None  # ``parts`` made ready to write by a worker process (draw/prepared.py)


@dataclass(frozen=True)
class ReadyFaces:
    """Faces whose parts are made ready to write (draw/prepared.py), by a build's worker
    processes: ``of(face)`` gives (parts, prepared) of such a face that draws with operators
    alone, or None (the face is then drawn through a FaceDrawing). ``face_named`` and
    ``paint_icon`` as FaceDrawing's, for a part written as draw/content.py writes it."""

    of: Callable[[Any], tuple | None]
    face_named: Callable[[str], Any]
    paint_icon: Callable


def draw_face(canvas, card_type, drawing: FaceDrawing) -> tuple:
    """Draw a face with its trim's bottom-left corner at the origin; return its parts, with
    which it can be drawn again."""
    def icon(*args):
        drawing.paint_icon(canvas, *args)

    if drawing.parts is not None:
        def element(index: int) -> None:  # (most recorded faces draw no element again: no geometry made)
            element, prepared = drawing.element_at(index)
            draw_element(canvas, element, FaceGeometry(card_type.size.w, card_type.size.h), prepared)

        if drawing.prepared is not None:
            write_prepared(canvas, drawing.parts, drawing.prepared, drawing.face_named, element, icon)
        else:
            replay(canvas, drawing.parts, drawing.face_named, element, icon)
        return drawing.parts
    geometry = _geometry(card_type.size.w, card_type.size.h)
    parts: list = []
    for index, (element, prepared) in enumerate(drawing.laid.items):
        if element.tag == "text":
            recorded = text.record(element, geometry, prepared)
            replay(canvas, recorded, drawing.face_named, None, icon)
            parts.extend(recorded)
        else:
            ops = _direct_ops(canvas, element, geometry, prepared)
            if ops is None:  # through reportlab (images, transparency): drawn anew each time
                draw_element(canvas, element, geometry, prepared)
                parts.append((ELEMENT, index))
            elif ops:  # one string, written the same whether fresh or replayed
                canvas._code.append(ops)
                parts.append(ops)
    parts = tuple(parts)
    if drawing.keep is not None:
        drawing.keep(parts)
    return parts


def draw_element(canvas, element, geometry, prepared) -> None:
    """Draw one element; a library's failure on its input (an SVG reportlab cannot draw) is a
    problem at the element's template line, not an internal error."""
    try:
        _draw_element(canvas, element, geometry, prepared)
    except CardgenError:
        raise
    except Exception as exc:
        raise CardgenError(Problem(f"cannot draw <{element.tag}>: {type(exc).__name__}: {exc}", element.source)) from None


_GEOMETRIES: dict[tuple[float, float], FaceGeometry] = {}  # a face size -> its geometry: made once, not per face
_GEOMETRIES_KEPT = 64


def _geometry(w: float, h: float) -> FaceGeometry:
    geometry = _GEOMETRIES.get((w, h))
    if geometry is None:
        if len(_GEOMETRIES) >= _GEOMETRIES_KEPT:
            _GEOMETRIES.clear()
        geometry = _GEOMETRIES[w, h] = FaceGeometry(w, h)
    return geometry


# (id of the attributes, tag, face size) -> (the attributes, their operators). Elements with
# the same attributes share one attributes object (render/markup.py), and a layout's frame is
# the same on every card: it is drawn once. The object is kept, so its id stays its own.
_DRAWN = Latest(256)


def _direct_ops(canvas, element, geometry: FaceGeometry, prepared) -> str | None:
    """The operators that draw a direct element (see draw.direct), as one string; None for an
    element that is not direct. (Whether an element is direct depends on its attributes alone:
    an element whose operators are known is direct.)"""
    key = (id(element.attrs), element.tag, geometry.w, geometry.h)
    known = _DRAWN.get(key)
    if known is not None and known[0] is element.attrs:
        return known[1]
    if not direct(element):
        return None
    code = canvas._code
    start = len(code)
    draw_element(canvas, element, geometry, prepared)
    ops = " ".join(code[start:])
    del code[start:]
    _DRAWN[key] = (element.attrs, ops)
    return ops


def record_face(canvas, card_type, laid: LaidFace) -> tuple:
    """The parts ``draw_face`` returns for a fresh layout, without drawing it: what a build's
    worker process sends the process that writes the PDF (see workers.py). ``canvas`` is a
    scratch one: direct elements are drawn into it for their operators, which are taken out."""
    geometry = _geometry(card_type.size.w, card_type.size.h)
    parts: list = []
    for index, (element, prepared) in enumerate(laid.items):
        if element.tag == "text":
            parts.extend(text.record(element, geometry, prepared))
        else:
            ops = _direct_ops(canvas, element, geometry, prepared)
            if ops is None:
                parts.append((ELEMENT, index))
            elif ops:
                parts.append(ops)
    return tuple(parts)
