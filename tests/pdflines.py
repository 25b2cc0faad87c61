"""The straight lines a PDF page paints, as pdfplumber's ``page.lines`` gives them, read through
pikepdf's content-stream parser (qpdf, in C++).

pdfplumber (pdfminer) tokenises every operator of a page in Python, text included: on sheets of
text-heavy cards that is seconds a page. Tests of crop marks and fold lines need only the lines:
the path painting, the graphics state that places and colours it, and the forms (each card's
face) the page draws. Each line is a dict with pdfplumber's keys: ``x0``, ``x1``, ``top`` and
``bottom`` in points (top and bottom from the top of the page), ``stroking_color`` (a tuple of
the colour's components) and ``dash`` (``(array, phase)``). A subpath is a line when it is one
``m`` and one ``l`` (as pdfminer splits and names paths); ``n`` paints nothing.
"""
from __future__ import annotations

from pathlib import Path

import pikepdf

PAINT = {"S", "f", "F", "f*", "B", "B*"}  # painting operators that do not close the path first
CLOSING_PAINT = {"s", "b", "b*"}  # they close it: "h" first, so no subpath of theirs is a line
OPERATORS = " ".join(["q", "Q", "cm", "K", "RG", "G", "SC", "SCN", "CS", "d", "m", "l", "c", "v", "y", "h", "re",
                      "n", "Do", *PAINT, *CLOSING_PAINT])


def _multiply(a, b):
    """The matrix ``a`` then ``b`` (PDF's row-vector convention: a point is p * a * b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(matrix, x, y):
    return x * matrix[0] + y * matrix[2] + matrix[4], x * matrix[1] + y * matrix[3] + matrix[5]


def page_lines(pdf_path: Path) -> list[list[dict]]:
    """Each page's lines, in painting order."""
    with pikepdf.open(pdf_path) as pdf:
        pages = []
        parsed: dict = {}  # a form's operators, read once however often pages draw it
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.mediabox)
            found: list[dict] = []
            state = {"ctm": (1, 0, 0, 1, -x0, -y0), "color": (0.0,), "dash": None}  # pdfminer's start
            _run(page.obj, page.obj.get("/Resources"), state, found, y1 - y0, depth=0, parsed=parsed)
            pages.append(found)
        return pages


def _operators(stream, parsed: dict) -> list[tuple[str, list]]:
    key = stream.objgen
    if key == (0, 0) or key not in parsed:
        found = [(str(operator), list(operands))
                 for operands, operator in pikepdf.parse_content_stream(stream, OPERATORS)]  # the rest skipped in C++
        if key == (0, 0):
            return found
        parsed[key] = found
    return parsed[key]


def _run(stream, resources, state, found, height, depth, parsed):
    if depth > 16:
        raise AssertionError("forms nested more than 16 deep")
    stack = []
    subpaths: list[tuple[str, list]] = []
    for op, operands in _operators(stream, parsed):
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state.update(stack.pop())
        elif op == "cm":
            state["ctm"] = _multiply(tuple(float(v) for v in operands), state["ctm"])
        elif op in ("K", "RG", "G", "SC"):
            state["color"] = tuple(float(v) for v in operands)
        elif op == "SCN":
            if all(isinstance(v, (int, float, pikepdf.Object)) and not isinstance(v, pikepdf.Name)
                   for v in operands):
                state["color"] = tuple(float(v) for v in operands)
            else:
                state["color"] = None  # a pattern
        elif op == "CS":
            state["color"] = (0.0,)  # the initial colour of a new space, as pdfminer keeps it: unknown
        elif op == "d":
            array, phase = operands
            state["dash"] = ([float(v) for v in array], float(phase))
        elif op == "m":
            subpaths.append(("m", [_apply(state["ctm"], float(operands[0]), float(operands[1]))]))
        elif op in ("l", "c", "v", "y", "h", "re"):
            if op == "re":
                subpaths.append(("re", []))
            elif subpaths:
                shape, points = subpaths[-1]
                points = points + ([_apply(state["ctm"], float(operands[-2]), float(operands[-1]))]
                                   if op != "h" else [])
                subpaths[-1] = (shape + op, points)
        elif op in PAINT or op in CLOSING_PAINT or op == "n":
            if op in PAINT:
                for shape, points in subpaths:
                    if shape == "ml":
                        (ax, ay), (bx, by) = points
                        found.append({"x0": min(ax, bx), "x1": max(ax, bx), "top": height - max(ay, by),
                                      "bottom": height - min(ay, by), "stroking_color": state["color"],
                                      "dash": state["dash"], "stroke": op not in ("f", "F", "f*")})
            subpaths = []
        elif op == "Do" and resources is not None:
            xobject = resources.get("/XObject", {}).get(operands[0])
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                saved = dict(state)
                matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                state["ctm"] = _multiply(matrix, state["ctm"])
                _run(xobject, xobject.get("/Resources", resources), state, found, height, depth + 1, parsed)
                state.clear()
                state.update(saved)
