"""Paths, gradients, clipping, groups, cover images, dashes, letter-spacing: measured from the PDF."""
from __future__ import annotations

import json
import math
import re

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

import cardgen
from cardgen.draw.svgpath import parse_path
from cardgen.draw.transform import apply, parse_transform
from cardgen.errors import CardgenError
from cardgen.write.manifest import load_manifest

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

PT_PER_MM = 72 / 25.4
SCALE = 6  # render scale: 6 px a point


def build_one(project, markup: str, extra_cards: str = "", set_extra: str = ""):
    """Build a single 40 x 40 mm card drawn by ``markup`` (no bleed); return (pdf path, face)."""
    (project / "templates/demo/probe.xml.j2").write_text(markup, encoding="utf-8")
    set_yaml = project / "data/demo/set.yaml"
    if "probe:" not in set_yaml.read_text():
        set_yaml.write_text(set_yaml.read_text().replace(
            "types:\n", "types:\n  probe:\n    template: demo/probe.xml.j2\n    size: {w: 40, h: 40}\n"
                        "    bleed: 0\n    safe: 2\n") + set_extra, encoding="utf-8")
    (project / "data/demo/cards.yaml").write_text(
        "- {name: Probe, type: probe, text: x}\n" + extra_cards, encoding="utf-8")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0]
    faces = load_manifest(result.manifest)["faces"]
    return result.pdf, next(f for f in faces if f["card"] == "Probe")


def pixel(pdf_path, face, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The colour at (x, y) mm from the face's top-left corner (markup coordinates), as the
    page renders at SCALE. Only the face is rendered (not the whole sheet: forty times the
    pixels), cropped at whole pixels of the page's rendering, so its pixels are the page's."""
    document = pdfium.PdfDocument(str(pdf_path))
    try:
        page = document[face["page"] - 1]
        width, height = (round(side * SCALE) for side in page.get_size())  # the page's pixels
        left = math.floor(face["x_mm"] * PT_PER_MM * SCALE)
        right = math.ceil((face["x_mm"] + face["w_mm"]) * PT_PER_MM * SCALE)
        top = math.floor(height - (face["y_mm"] + face["h_mm"]) * PT_PER_MM * SCALE)
        bottom = math.ceil(height - face["y_mm"] * PT_PER_MM * SCALE)
        crop = (left / SCALE, (height - bottom) / SCALE, (width - right) / SCALE, top / SCALE)
        image = page.render(scale=SCALE, crop=crop).to_pil().convert("RGB")
    finally:
        document.close()
    assert image.size == (right - left, bottom - top)
    px = (face["x_mm"] + x_mm) * PT_PER_MM * SCALE
    py = height - (face["y_mm"] + face["h_mm"] - y_mm) * PT_PER_MM * SCALE
    return image.getpixel((int(px) - left, int(py) - top))


def near(colour, expected, tolerance=6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def content(pdf_path) -> str:
    reader = PdfReader(str(pdf_path))
    texts = []
    for page in reader.pages:
        texts.append(page.get_contents().get_data().decode("latin-1"))
        for xobject in page["/Resources"].get("/XObject", {}).values():
            obj = xobject.get_object()
            if obj.get("/Subtype") == "/Form":
                texts.append(obj.get_data().decode("latin-1"))
    return "\n".join(texts)


# --- path data ---------------------------------------------------------------------------------

def test_path_data_relative_commands_and_shorthands_end_where_svg_says():
    segments = parse_path("M 10 10 h 5 v 5 H 30 V 40 l -5 -5 z m 1 1 L 2 2")
    ends = [s.points[-2:] for s in segments if s.op != "Z"]
    assert ends == [(10, 10), (15, 10), (15, 15), (30, 15), (30, 40), (25, 35), (11, 11), (2, 2)]


def test_quadratic_curves_become_the_equivalent_cubic():
    (_, (x, y)), (op, points) = [(s.op, s.points) for s in parse_path("M 0 0 Q 10 20 20 0")]
    assert op == "C"
    assert points == pytest.approx((20 / 3, 40 / 3, 20 - 20 / 3, 40 / 3, 20, 0))


def test_a_half_circle_arc_passes_through_the_circle():
    segments = parse_path("M 0 10 A 10 10 0 0 1 20 10")
    assert all(s.op == "C" for s in segments[1:]) and len(segments) == 3
    # the join between the two quarter arcs lies on the circle at the top (y down: 0)
    assert segments[1].points[-2:] == pytest.approx((10, 0))
    assert segments[2].points[-2:] == pytest.approx((20, 10))


def test_an_arc_of_radii_too_near_0_to_square_is_scaled_up_as_svg_says():
    """1e-300 squared is 0 and divided by it raised ZeroDivisionError, 1e-160 squared gave an inf
    and then nan: internal errors. Radii 0 draw a line; any too small, a half ellipse."""
    assert [s.op for s in parse_path("M 0 0 A 1e-300 1e-300 0 1 1 5 5")] == ["M", "L"]
    assert parse_path("M 0 0 A 1e-160 1e-160 0 1 1 20 0") == parse_path("M 0 0 A 10 10 0 1 1 20 0")


def test_a_path_whose_numbers_cannot_be_computed_with_is_the_attributes_problem():
    from cardgen.render.markup import _attributes

    with pytest.raises(ValueError) as caught:
        _attributes("path", (("d", "M 0 0 A 1e-150 1e5 0 1 1 5 5"),))
    assert str(caught.value) == ('<path> d: its numbers are too large or too near 0 to compute with, got '
                                 '"M 0 0 A 1e-150 1e5 0 1 1 5 5"')


@pytest.mark.parametrize("data, message", [
    ("L 1 1", "path data must start with a move (M or m)"),
    ("M 1 1 L 2", 'path data: "L" needs 2 numbers'),
    ("M 1 1 X 3 3", 'path data: cannot read "X" at character 7'),
    ("", "path data is empty"),
])
def test_bad_path_data_is_refused_with_the_reason(data, message):
    with pytest.raises(ValueError) as caught:
        parse_path(data)
    assert str(caught.value) == message


def test_a_path_is_filled_where_its_outline_says(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          '<path d="M 5 5 H 35 L 20 35 Z" fill="#ff0000" stroke="#0000ff" stroke-width="0.5"/></card>')
    assert near(pixel(pdf, face, 20, 15), (255, 0, 0))  # inside the triangle
    assert near(pixel(pdf, face, 8, 30), (255, 255, 255))  # outside it
    assert near(pixel(pdf, face, 20, 5), (0, 0, 255))  # on its top edge: the stroke


def test_a_path_with_an_error_names_the_template_line(project):
    with pytest.raises(CardgenError) as caught:
        build_one(project, '<card>\n<path d="M 5 5 L 7" fill="#000"/></card>')
    assert [str(p) for p in caught.value.problems] == [
        'templates/demo/probe.xml.j2:2: card "Probe": <path> d: path data: "L" needs 2 numbers']


# --- gradients ---------------------------------------------------------------------------------

def test_a_linear_gradient_is_a_vector_shading_running_at_its_angle(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" '
                          'fill="linear-gradient(90, #ff0000, #0000ff)"/></card>')
    reader = PdfReader(str(pdf))
    shadings = [s.get_object() for page in reader.pages
                for s in page["/Resources"].get("/Shading", {}).values()]
    assert [s["/ShadingType"] for s in shadings] == [2]
    assert not any("/Image" == x.get_object().get("/Subtype")
                   for page in reader.pages for x in page["/Resources"].get("/XObject", {}).values())
    left, middle, right = (pixel(pdf, face, x, 20) for x in (0.3, 20, 39.7))
    assert near(left, (255, 0, 0), 8) and near(right, (0, 0, 255), 8)
    assert near(middle, (128, 0, 128), 8)
    assert near(pixel(pdf, face, 20, 1), middle, 3)  # 90 degrees: nothing changes downwards


def test_gradient_stops_place_their_colours(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" '
                          'fill="linear-gradient(180, #000000, #ffffff 25%, #ffffff)"/></card>')
    assert near(pixel(pdf, face, 20, 10), (255, 255, 255), 8)  # from 25% down, white
    assert near(pixel(pdf, face, 20, 5), (128, 128, 128), 10)  # half way to the stop


def test_a_radial_gradient_fills_any_shape_from_its_centre(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#00ff00"/>'
                          '<circle cx="20" cy="20" r="10" fill="radial-gradient(#ffffff, #000000)"/></card>')
    shading = [s.get_object() for page in PdfReader(str(pdf)).pages
               for s in page["/Resources"]["/Shading"].values()]
    assert [s["/ShadingType"] for s in shading] == [3]
    assert near(pixel(pdf, face, 20, 20), (255, 255, 255), 10)
    assert near(pixel(pdf, face, 2, 2), (0, 255, 0))  # outside the circle: clipped away


@pytest.mark.parametrize("fill, message", [
    ("linear-gradient(90, #ff0000)", "a linear gradient needs at least two colours, got 1"),
    ("linear-gradient(90, #ff0000 50%, #00f 20x)", 'expected a colour such as "#c8102e", "#fff", "black", "cmyk(0,0,0,100)" or '
                                                   '"none", got "#00f 20x"'),
    ("radial-gradient(#fff 120%, #000)", "gradient stops must lie between 0% and 100%"),
])
def test_bad_gradients_say_what_is_wrong(project, fill, message):
    with pytest.raises(CardgenError) as caught:
        build_one(project, f'<card><rect x="0" y="0" w="40" h="40" fill="{fill}"/></card>')
    assert str(caught.value.problems[0]).endswith(f"<rect> fill: {message}")


# --- clipping and groups -----------------------------------------------------------------------

def test_clip_cuts_its_content_to_its_first_shape_which_is_not_drawn(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          '<clip><circle cx="20" cy="20" r="10" fill="#00ff00"/>'
                          '<rect x="0" y="0" w="40" h="40" fill="#ff0000"/></clip>'
                          '<rect x="0" y="36" w="4" h="4" fill="#0000ff"/></card>')
    assert near(pixel(pdf, face, 20, 20), (255, 0, 0))
    assert near(pixel(pdf, face, 20, 29), (255, 0, 0))
    assert near(pixel(pdf, face, 20, 31), (255, 255, 255))  # outside the circle
    assert near(pixel(pdf, face, 3, 3), (255, 255, 255))
    assert near(pixel(pdf, face, 2, 38), (0, 0, 255))  # after the clip, nothing is clipped


def test_a_rotated_rectangle_clips_without_turning_the_content(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          '<clip><rect x="10" y="10" w="20" h="20" rotate="45"/>'
                          '<rect x="0" y="0" w="40" h="40" fill="#ff0000"/></clip></card>')
    assert near(pixel(pdf, face, 20, 6), (255, 0, 0))  # the diamond's top corner reaches y = 5.86
    assert near(pixel(pdf, face, 11, 11), (255, 255, 255))  # the square's own corner is cut


def test_a_group_transform_moves_its_content(project):
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          '<group transform="translate(20 0) rotate(90 5 5)">'
                          '<rect x="0" y="0" w="10" h="4" fill="#ff0000"/></group></card>')
    # rotate(90 5 5), clockwise, takes the 10 x 4 bar to x 6..10, y 0..10; translate(20) to x 26..30
    assert near(pixel(pdf, face, 28, 0.5), (255, 0, 0))
    assert near(pixel(pdf, face, 28, 9.5), (255, 0, 0))
    assert near(pixel(pdf, face, 25, 5), (255, 255, 255))
    assert near(pixel(pdf, face, 31, 5), (255, 255, 255))
    assert near(pixel(pdf, face, 5, 2), (255, 255, 255))


def test_transforms_compose_from_the_right_as_in_svg():
    matrix = parse_transform("translate(10 0) scale(2) rotate(90)")
    assert apply(matrix, 1, 0) == pytest.approx((10, 2))


def test_text_in_a_group_is_checked_where_it_lands(project):
    markup = ('<card><group transform="{}"><text name="side" x="5" y="5" w="30" h="4" size="6">{{{{ name }}}}</text>'
              '</group></card>')
    with pytest.raises(CardgenError) as caught:
        build_one(project, markup.format("translate(0 -4)"))
    assert str(caught.value.problems[0]) == (
        'templates/demo/probe.xml.j2:1: card "Probe": text box "side" (5, 5, 30 x 4 mm, moved by its group\'s '
        'transform) reaches outside the safe zone (2 mm inside the 40 x 40 mm trim)')
    pdf, face = build_one(project, markup.format("rotate(-90 20 20)"))  # up the side: inside
    page = pdfium.PdfDocument(str(pdf))[face["page"] - 1]
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars()) if not text.get_text_range(i, 1).isspace()]
    first, last = boxes[0], boxes[-1]
    assert last[1] > first[3]  # the text runs upwards on the page
    assert abs(last[0] - first[0]) < 1.5 * PT_PER_MM


# --- images, dashes, letter-spacing ------------------------------------------------------------

def test_cover_fills_the_box_and_keeps_the_focus_in_view(project):
    art = Image.new("RGB", (200, 100), (255, 0, 0))
    art.paste((0, 0, 255), (150, 0, 200, 100))  # the right quarter is blue
    art.save(project / "data/demo/art.png")
    box = '<image x="10" y="10" w="20" h="20" src="art.png" fit="cover" focus="{}"/>'
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          + box.format("1 0.5") + "</card>")
    assert near(pixel(pdf, face, 29, 20), (0, 0, 255), 10)  # the right edge: blue, in view
    assert near(pixel(pdf, face, 11, 20), (255, 0, 0), 10)
    assert near(pixel(pdf, face, 9, 20), (255, 255, 255))  # cropped to the box
    assert near(pixel(pdf, face, 31, 20), (255, 255, 255))
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          + box.format("0.5 0.5") + "</card>")
    assert near(pixel(pdf, face, 29, 20), (255, 0, 0), 10)  # centred: the blue quarter is cut off


def test_rounded_image_corners_are_clipped(project):
    Image.new("RGB", (50, 50), (255, 0, 0)).save(project / "data/demo/art.png")
    pdf, face = build_one(project, '<card><rect x="0" y="0" w="40" h="40" fill="#ffffff"/>'
                          '<image x="10" y="10" w="20" h="20" src="art.png" r="5"/></card>')
    assert near(pixel(pdf, face, 10.5, 10.5), (255, 255, 255))
    assert near(pixel(pdf, face, 12, 20), (255, 0, 0), 10)


def test_a_dashed_outline_writes_its_pattern_in_points(project):
    pdf, _ = build_one(project, '<card><rect x="5" y="5" w="30" h="30" stroke="#000" dash="1.5 0.8"/>'
                       '<circle cx="20" cy="20" r="5" stroke="#000" dash="1"/></card>')
    ops = content(pdf)
    assert f"[{1.5 * PT_PER_MM:.3f} {0.8 * PT_PER_MM:.3f}] 0 d" in ops
    assert f"[{PT_PER_MM:.3f}] 0 d" in ops


def test_letter_spacing_widens_the_text_by_its_em_per_character(project):
    markup = '<card><text x="2" y="5" w="36" h="8" size="8" letter-spacing="{}" markup="plain">{{{{ name }}}}</text></card>'
    spans = []
    for spacing in ("0", "0.25em"):
        pdf, face = build_one(project, markup.format(spacing))
        text = pdfium.PdfDocument(str(pdf))[face["page"] - 1].get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
        spans.append(boxes[-1][0] - boxes[0][0])  # first to last glyph's left edge
    # "Probe": four gaps of 0.25 em at 8 pt
    assert spans[1] - spans[0] == pytest.approx(4 * 0.25 * 8, abs=0.05)
    assert "2.000 Tc" in content(pdf)
