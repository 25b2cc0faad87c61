"""Images (PNG, JPG, SVG) land in their boxes; inline icons sit on the baseline at the text's size."""
from __future__ import annotations

import json

import pdfplumber
import pytest
from PIL import Image

import cardgen
from cardgen.write.manifest import load_manifest

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

MM = 25.4 / 72


def test_png_jpg_and_svg_images_fill_their_boxes(project):
    Image.new("RGB", (40, 20), (200, 30, 30)).save(project / "data/demo/icons/red.png")
    Image.new("RGB", (20, 20), (30, 30, 200)).save(project / "data/demo/icons/blue.jpg")
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace("</card>", (
        '<image x="2" y="2" w="8" h="8" src="icons/red.png"/>\n'  # 2:1 image in a square: contained
        '<image x="10" y="2" w="8" h="8" src="icons/blue.jpg" fit="stretch"/>\n'
        '<image x="2" y="10" w="8" h="8" src="icons/star.svg"/>\n</card>')))
    (project / "data/demo/cards.yaml").write_text("- {name: Pictures, type: token, label: P}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], project).sets[0]
    (face,) = load_manifest(result.manifest)["faces"]
    with pdfplumber.open(result.pdf) as pdf:
        page = pdf.pages[0]
        height = float(page.height) * MM
        boxes = sorted((round(i["x0"] * MM - face["x_mm"], 2), round(height - i["bottom"] * MM - face["y_mm"], 2),
                        round(i["width"] * MM, 2), round(i["height"] * MM, 2)) for i in page.images)
        # markup y is from the top: the 8 mm boxes at y=2 have their bottoms 10 mm below the top
        assert boxes == [(2.0, 12.0, 8.0, 4.0), (10.0, 10.0, 8.0, 8.0)]
        star_fill = [c for c in page.curves + page.rects if c.get("non_stroking_color") and
                     tuple(round(v, 2) for v in c["non_stroking_color"]) == (0.88, 0.66, 0.0)]
        assert star_fill, "the SVG star is drawn as vector paths"


def test_inline_icons_sit_on_the_baseline_at_the_text_size(project):
    result = cardgen.build(["demo"], project).sets[0]
    with pdfplumber.open(result.pdf) as pdf:
        chars = pdf.pages[0].chars
    spade = next(c for c in chars if c["text"] == "\u2660")
    beats = [c for c in chars if c["text"] == "b" and abs(c["top"] - spade["top"]) < 3]
    assert beats, "the word after the icon is on the icon's line"
    word = beats[0]
    assert abs(spade["size"] - word["size"]) < 1e-6
    baseline = lambda c: c["matrix"][5]  # noqa: E731  (y of the glyph origin)
    assert abs(baseline(spade) - baseline(word)) < 0.01  # pt
