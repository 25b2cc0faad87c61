"""Shaped components: hexagons nest on the sheet, and every cut line follows its shape."""
from __future__ import annotations

import itertools
import math

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import cardgen
from cardgen.errors import CardgenError
from cardgen.sheets import SheetOptions, impose
from cardgen.sheets.marks import LineMark
from cardgen.write.manifest import load_manifest
from projects import make_project
from sheets.helpers import card_type, pairs

REGULAR = 30 * 2 / math.sqrt(3)  # the height of a pointy hexagon 30 mm across its flats


def hex_corners(shape, x, y, w, h):
    if shape == "hex-pointy":
        return {(x + w / 2, y + h), (x + w, y + 0.75 * h), (x + w, y + 0.25 * h), (x + w / 2, y),
                (x, y + 0.25 * h), (x, y + 0.75 * h)}
    return {(x, y + h / 2), (x + 0.25 * w, y + h), (x + 0.75 * w, y + h), (x + w, y + h / 2),
            (x + 0.75 * w, y), (x + 0.25 * w, y)}


@pytest.mark.parametrize("shape, w, h", [("hex-pointy", 30, REGULAR), ("hex-flat", REGULAR, 30)])
def test_hexagons_nest_closer_than_a_grid_and_never_overlap_with_their_bleed(shape, w, h):
    kind = card_type(w, h, shape=shape, bleed=3.0, back=None)
    imposition = impose(pairs(300, kind, backs=False), SheetOptions(paper="letter"))
    first = [p.slot for p in imposition.placements if p.slot.page == 1]
    # the same hexagons in a plain grid of their boxes, 2 x bleed apart, fit no more than this
    grid = max((math.floor((pw - 2 * 7 + 6) / (w + 6)) * math.floor((ph - 2 * 7 + 6) / (h + 6)))
               for pw, ph in ((215.9, 279.4), (279.4, 215.9)))
    assert len(first) > grid * 1.1
    # grown by its 3 mm bleed a regular hexagon is 36 mm across its flats: neighbours' centres
    # are at least that far apart, and the nearest are exactly that far (they touch, nothing more)
    centres = [(s.x + s.w / 2, s.y + s.h / 2) for s in first]
    distances = [math.dist(a, b) for a, b in itertools.combinations(centres, 2)]
    assert min(distances) == pytest.approx(36.0, abs=1e-6)
    # every art clip is the hexagon grown by the bleed, and stays on the paper's printable part
    for slot in first:
        x0, y0, x1, y1 = slot.clip
        assert (x1 - x0, y1 - y0) == pytest.approx((w * 36 / 30, h * 36 / 30), abs=1e-6)
        assert x0 >= 4 and y0 >= 4 and x1 <= imposition.pages[0].w - 4 and y1 <= imposition.pages[0].h - 4


@pytest.mark.parametrize("shape, w, h", [("hex-pointy", 30, REGULAR), ("hex-flat", REGULAR, 30)])
def test_the_cut_lines_are_each_hexagons_six_edges(shape, w, h):
    kind = card_type(w, h, shape=shape, back=None)
    imposition = impose(pairs(5, kind, backs=False), SheetOptions(paper="a4"))
    page = imposition.pages[0]
    cuts = [m for m in page.marks if isinstance(m, LineMark)]
    assert len(cuts) == 5 * 6 and all(m.kind == "cut" for m in cuts)
    corners = set()
    for p in imposition.placements:
        corners |= {(round(x, 6), round(y, 6)) for x, y in hex_corners(shape, p.slot.x, p.slot.y, w, h)}
    ends = {(round(x, 6), round(y, 6)) for m in cuts for x, y in ((m.x0, m.y0), (m.x1, m.y1))}
    assert ends == corners


def stroked_segments(pdf_path):
    """Straight segments stroked on the first page, in mm (walking q/Q/cm and the path operators)."""
    reader = PdfReader(str(pdf_path))
    ops = ContentStream(reader.pages[0].get_contents(), reader).operations
    ctm, stack, path, found = (1, 0, 0, 1, 0, 0), [], [], []
    k = 72 / 25.4
    for operands, op in ops:
        op = op.decode()
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op in ("m", "l"):
            x, y = (float(v) for v in operands)
            path.append((op, (ctm[0] * x + ctm[2] * y + ctm[4]) / k, (ctm[1] * x + ctm[3] * y + ctm[5]) / k))
        elif op == "S":
            found += [(a[1], a[2], b[1], b[2]) for a, b in zip(path, path[1:]) if b[0] == "l"]
            path = []
        elif op in ("n", "f", "B", "b", "f*"):
            path = []
    return found


def test_a_path_shape_is_cut_along_its_outline_and_printed_in_the_pdf(tmp_path):
    root = make_project(tmp_path, fonts=False)
    (root / "templates/demo/shield.xml.j2").write_text(
        '<card><rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2*bleed }}" h="{{ h + 2*bleed }}" fill="#cc9933"/>'
        '</card>')
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("types:\n", (
        "types:\n  shield:\n    template: demo/shield.xml.j2\n    size: {w: 40, h: 48}\n"
        '    shape: {path: "M 0 0 H 40 V 24 L 20 48 L 0 24 Z"}\n')))
    (root / "data/demo/cards.yaml").write_text("- {name: Shield, type: shield, count: 2}\n")
    (root / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    import json

    faces = load_manifest(result.manifest)["faces"]
    assert {f["shape"] for f in faces} == {"path"}
    segments = stroked_segments(result.pdf)
    for face in faces:
        x, top = face["x_mm"], face["y_mm"] + face["h_mm"]
        outline = [(x, top), (x + 40, top), (x + 40, top - 24), (x + 20, top - 48), (x, top - 24)]
        for a, b in zip(outline, outline[1:] + outline[:1]):
            assert any(math.dist(a, s[:2]) < 0.01 and math.dist(b, s[2:]) < 0.01 for s in segments), (a, b)
    # the art prints on the whole trim and bleed: the cut follows the shape
    page = pdfium.PdfDocument(str(result.pdf))[0].render(scale=4).to_pil().convert("RGB")
    face = faces[0]
    corner = (face["x_mm"] + 2, face["y_mm"] + 2)  # inside the box, outside the shield's point
    px = int(corner[0] * 72 / 25.4 * 4)
    py = page.size[1] - int(corner[1] * 72 / 25.4 * 4)
    assert page.getpixel((px, py)) == pytest.approx((204, 153, 51), abs=4)


@pytest.mark.parametrize("shape, message", [
    ("triangle", 'shape must be rect, circle, hex-pointy (or hexagon), hex-flat or {path: "M ... Z"}, got "triangle"'),
    ('{path: "M 0 0 L 5"}', 'shape: path data: "L" needs 2 numbers'),
])
def test_a_bad_shape_names_its_line(tmp_path, shape, message):
    root = make_project(tmp_path, fonts=False)
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("    shape: circle\n", f"    shape: {shape}\n"))
    line = set_yaml.read_text().splitlines().index(f"    shape: {shape}") + 1
    with pytest.raises(CardgenError) as caught:
        cardgen.load_set("demo", root)
    assert str(caught.value.problems[0]) == f"data/demo/set.yaml:{line}: {message}"
