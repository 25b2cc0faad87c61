"""A shaped face's cut outline shows on dark art: a white line runs beside it on its outer side
(the bleed, cut away), as a crop mark over art has its white halo. Black on navy, 0.25 pt, the
outline of a dark token or shield could hardly be seen, let alone cut along."""
from __future__ import annotations

import json

import pypdfium2 as pdfium

import cardgen

NAVY = "#1b1f3a"
DPI = 600
PX_PER_MM = DPI / 25.4


def light(pixel) -> bool:
    return min(pixel[:3]) > 200


def dark(pixel) -> bool:
    return max(pixel[:3]) < 90


def add_shaped_type(project, name: str, size: str, path: str) -> None:
    """A card type ``name`` of ``size`` cut to ``path``, its art navy over the whole bleed, and
    one card of it."""
    (project / f"templates/demo/{name}.xml.j2").write_text(
        '<card><rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" '
        f'fill="{NAVY}"/></card>')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "backs:\n", f'  {name}:\n    template: demo/{name}.xml.j2\n    size: {size}\n'
                    f'    shape: {{path: "{path}"}}\nbacks:\n').replace(
        "  - {file: more.csv, type: action}\n", f"  - {{file: more.csv, type: action}}\n  - {{file: {name}s.csv, type: {name}}}\n"))
    (project / f"data/demo/{name}s.csv").write_text(f"name\n{name.title()}\n")


def test_circle_and_path_outlines_have_a_white_line_outside(project, tmp_path):
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace('fill="#2e8b57"', f'fill="{NAVY}"'))
    add_shaped_type(project, "shield", "{w: 40, h: 48}", "M 0 0 H 40 V 24 Q 40 40 20 48 Q 0 40 0 24 Z")
    result = cardgen.build(["demo"], project, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    manifest = json.loads(result.manifest.read_text())
    document = pdfium.PdfDocument(str(result.pdf))
    checked = set()
    for card, copy, side, page, slot, _ in manifest["faces"]:
        shape = manifest["slots"][slot]["shape"]
        if shape not in ("circle", "path") or shape in checked:
            continue
        checked.add(shape)
        box = manifest["slots"][slot]
        pdf_page = document[page - 1]
        width, height = (v / 72 * 25.4 for v in pdf_page.get_size())
        # the outline's leftmost point: the circle's at its centre's height, the shield's 12 mm
        # below its top (its left side runs straight down 24 mm); rendered 2 mm about it
        x = box["x_mm"]
        y = box["y_mm"] + box["h_mm"] / 2 if shape == "circle" else box["y_mm"] + box["h_mm"] - 12
        crop = tuple(v * 72 / 25.4 for v in (x - 2, y - 2, width - x - 2, height - y - 2))
        image = pdf_page.render(scale=DPI / 72, crop=crop).to_pil().convert("RGB")
        row = round(2 * PX_PER_MM)
        column = lambda mm: round((2 + mm) * PX_PER_MM)  # noqa: E731
        assert light(image.getpixel((column(-0.22), row))), (shape, image.getpixel((column(-0.22), row)))
        assert dark(image.getpixel((column(-0.8), row))), shape  # the bleed beyond the white line
        assert dark(image.getpixel((column(0.3), row))), shape  # the face itself: no white on it
    assert checked == {"circle", "path"}


def test_no_white_line_where_a_neighbour_touches(tmp_path):
    """The white line lies beside the outline, up to 0.4 mm out: on a sheet whose slots touch
    (a YAML sheet's grid without a gap or waste) it would print on the neighbour's face, so there
    the outline is drawn alone; with room, each outline has it."""
    from cardgen.sheets.labels import load_template
    from cardgen.sheets.marks import CircleMark, LineMark, outlines

    def slots(grid):
        (tmp_path / "s.yaml").write_text(f"paper: a4\nmarks: outline\ngrid: {grid}\n", encoding="utf-8")
        return load_template("s.yaml", tmp_path).slots

    for shape, size in (("rect", "w: 30, h: 30"), ("circle", "d: 30")):
        touching = outlines(list(slots(f"{{{size}, nx: 2, ny: 1, x0: 10, y0: 20, shape: {shape}}}")))
        apart = outlines(list(slots(f"{{{size}, nx: 2, ny: 1, x0: 10, y0: 20, dx: 34, waste: 1, shape: {shape}}}")))
        kind = CircleMark if shape == "circle" else LineMark
        assert touching and all(isinstance(m, kind) and not m.halo for m in touching)
        assert apart and all(isinstance(m, kind) and m.halo for m in apart)


def test_white_line_never_reaches_the_piece_at_an_inward_corner(project, tmp_path):
    """At an inward corner (a notch cut 67 degrees wide into the piece) the band along each edge,
    moved outward on its own, crossed the next edge and printed white up to 0.2 mm onto the
    piece; clipped to the shape's outside, the piece is dark right up to its black outline."""
    add_shaped_type(project, "notch", "{w: 40, h: 40}", "M 0 0 L 20 30 L 40 0 L 40 40 L 0 40 Z")
    result = cardgen.build(["demo"], project, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    manifest = json.loads(result.manifest.read_text())
    fronts = [face for face in manifest["faces"] if manifest["slots"][face[4]]["shape"] == "path" and face[2] == "front"]
    assert fronts
    box = manifest["slots"][fronts[0][4]]
    pdf_page = pdfium.PdfDocument(str(result.pdf))[fronts[0][3] - 1]
    width, height = (v / 72 * 25.4 for v in pdf_page.get_size())
    dpi = 1200
    per_mm = dpi / 25.4
    x, y = box["x_mm"] + 20, box["y_mm"] + box["h_mm"] - 30  # the notch's inward corner, on the page
    crop = tuple(v * 72 / 25.4 for v in (x - 1, y - 1, width - x - 1, height - y - 1))
    image = pdf_page.render(scale=dpi / 72, crop=crop).to_pil().convert("RGB")
    corner = (1.0, 1.0)  # mm from the image's top-left (y down, as the path's y)
    edges = [(-20 / 1300 ** 0.5, -30 / 1300 ** 0.5), (20 / 1300 ** 0.5, -30 / 1300 ** 0.5)]  # up the notch's sides

    def from_outline(u: float, v: float) -> float:  # mm from the outline's two edges near the corner
        return min(abs(u * dy - v * dx) if u * dx + v * dy > 0 else (u * u + v * v) ** 0.5 for dx, dy in edges)

    white_on_piece = []
    for row in range(image.height):
        for column in range(image.width):
            u, v = (column + 0.5) / per_mm - corner[0], (row + 0.5) / per_mm - corner[1]
            in_notch = v < 0 and abs(u) < -v * 20 / 30
            if not in_notch and from_outline(u, v) > 0.08 and not dark(image.getpixel((column, row))):
                white_on_piece.append((round(u, 2), round(v, 2)))
    assert not white_on_piece, white_on_piece[:10]
    corner = (round(per_mm), round(per_mm))
    # and the band is there, outside: straight up from the corner, in the notch
    assert light(image.getpixel((corner[0], corner[1] - round(0.3 * per_mm))))
