"""--proof-boxes, read from the page's operators: three hairlines (0.25 pt) round every face,
stroked and never filled, the safe zone dashed 2 pt on 2 pt off; round faces get circles
(four Bezier quarters touching the box) and rectangular faces rectangles."""
from __future__ import annotations

import json

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import cardgen
from cardgen.write.manifest import load_manifest
from cardgen.pipeline import BuildOptions
from cardgen.units import PT_PER_MM

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

COLOURS = {(0.816, 0.0, 0.0): "bleed", (0.0, 0.439, 0.753): "trim", (0.0, 0.627, 0.314): "safe"}


def proof_paths(pdf_path, page_number):
    """(box in mm, kind, line width, dash, painting operator) of every path stroked in a proof colour."""
    reader = PdfReader(str(pdf_path))
    ops = ContentStream(reader.pages[page_number].get_contents(), reader).operations
    found, points, kinds = [], [], set()
    colour, width, dash, stack, ctm = None, None, None, [], (1, 0, 0, 1, 0, 0)
    for operands, op in ops:
        op = op.decode()
        if op == "q":
            stack.append((colour, width, dash, ctm))
        elif op == "Q":
            colour, width, dash, ctm = stack.pop()
        elif op == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == "RG":
            colour = tuple(round(float(v), 3) for v in operands)
        elif op == "w":
            width = float(operands[0])
        elif op == "d":
            dash = [float(v) for v in operands[0]]
        elif op in ("m", "l", "c", "re"):
            values = [float(v) for v in operands]
            if op == "re":
                x, y, w, h = values
                values = [x, y, x + w, y + h]
            kinds.add(op)
            points += [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                       for x, y in zip(values[0::2], values[1::2])]
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
            if colour in COLOURS and points:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                box = tuple(round(v / PT_PER_MM, 3) for v in (min(xs), min(ys), max(xs), max(ys)))
                found.append((COLOURS[colour], box, "circle" if "c" in kinds else "rect", width, dash, op))
            points, kinds = [], set()
    return found


def test_proof_boxes_are_stroked_hairlines_of_the_faces_shape(project):
    (result,) = cardgen.build(["demo"], project, options=BuildOptions(proof_boxes=True, cache=False)).sets
    faces = load_manifest(result.manifest)["faces"]
    pages = {face["page"] for face in faces}
    found = [path for number in sorted(pages) for path in proof_paths(result.pdf, number - 1)]
    expected = []
    margins = {"action": (3.0, 3.0), "token": (1.0, 1.0)}  # (bleed, safe) of the demo set's types; backs: their type's
    for face in sorted(faces, key=lambda f: f["page"]):
        x0, y0 = face["x_mm"], face["y_mm"]
        x1, y1 = x0 + face["w_mm"], y0 + face["h_mm"]
        bleed, safe = margins[face["type"]]
        shape = "circle" if face["shape"] == "circle" else "rect"
        for name, inset, dash in (("bleed", -bleed, []), ("trim", 0.0, []), ("safe", safe, [2.0, 2.0])):
            box = tuple(round(v, 3) for v in (x0 + inset, y0 + inset, x1 - inset, y1 - inset))
            expected.append((name, box, shape, 0.25, dash, "S"))
    assert {f["shape"] for f in faces} == {"circle", "rect"}
    assert sorted(found) == sorted(expected)
