"""A large image used on many cards is decoded, downsampled and embedded once, at 600 dpi of
the largest size the set can print it at; a JPEG that needs no downsampling goes in as its bytes."""
from __future__ import annotations

import re

import pdfplumber
import pytest
from PIL import Image

import cardgen
from cardgen.draw.images import KEEP_DPI

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _photo_cards(project, src: str) -> None:
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace("{% endblock %}",
                                                 f'<image x="5" y="60" w="20" h="10" src="{src}"/>\n{{% endblock %}}'))


def test_a_large_png_on_every_card_is_one_downsampled_image_in_the_pdf(project, tmp_path):
    Image.radial_gradient("L").resize((3000, 2000)).convert("RGB").save(project / "data/demo/icons/art.png")
    _photo_cards(project, "icons/art.png")
    result = cardgen.build(["demo"], project, tmp_path / "a", cardgen.BuildOptions(cache=False)).sets[0]
    data = result.pdf.read_bytes()
    # the poker face with its bleed is 94.9 mm at the longest: 2242 pixels at 600 dpi
    longest = round((88.9 + 2 * 3) / 25.4 * KEEP_DPI)
    assert longest == 2242
    assert data.count(b"/Subtype /Image") == 1
    assert re.search(rb"/Width 2242\b", data) and re.search(rb"/Height 1495\b", data)
    with pdfplumber.open(result.pdf) as pdf:
        drawn = [image for page in pdf.pages for image in page.images]
    assert len(drawn) == 5  # every action card (fronts: 2 + 1 + 1 + 1) draws it
    again = cardgen.build(["demo"], project, tmp_path / "b", cardgen.BuildOptions(cache=False)).sets[0]
    assert again.pdf.read_bytes() == data  # same input, same bytes


def test_a_jpeg_small_enough_is_embedded_as_its_own_bytes(project, tmp_path):
    Image.radial_gradient("L").convert("RGB").save(project / "data/demo/icons/art.jpg", quality=80)
    _photo_cards(project, "icons/art.jpg")
    result = cardgen.build(["demo"], project, tmp_path, cardgen.BuildOptions(cache=False)).sets[0]
    data = result.pdf.read_bytes()
    assert data.count(b"/Subtype /Image") == 1
    assert (project / "data/demo/icons/art.jpg").read_bytes() in data
