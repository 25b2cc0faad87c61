"""An image is placed by its own proportions, not by those of the fewer pixels a downsampled
copy keeps: rounded to whole pixels, a thin picture's copy (5000 x 4 px kept as 2242 x 2) printed
stretched to another shape, without a word."""
from __future__ import annotations

import pdfplumber
import pytest
from PIL import Image

import cardgen
from cardgen.errors import CardgenError

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _token_showing(project, width: int, height: int, box: str = 'w="18" h="18"', fit: str = "contain"):
    """A build of one token showing a
    ``width`` x ``height`` px picture in ``box``."""
    Image.new("RGB", (width, height), (200, 30, 30)).save(project / "data/demo/icons/art.png")
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace(
        "</card>", f'<rect x="1" y="1" {box} fill="none"/><image x="1" y="1" {box} fit="{fit}" '
                   f'src="icons/art.png"/>\n</card>'))
    (project / "data/demo/cards.yaml").write_text("- {name: Picture, type: token, label: P}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    return cardgen.build(["demo"], project).sets[0]


def _drawn(result) -> tuple[float, float, int, int]:
    """The one image's drawn width and height (pt) and its embedded pixels."""
    with pdfplumber.open(result.pdf) as pdf:
        (image,) = pdf.pages[0].images
        return float(image["width"]), float(image["height"]), *image["srcsize"]


@pytest.mark.parametrize("width, height", [(5000, 4), (3001, 2000)])
def test_a_downsampled_image_prints_in_its_own_proportions(project, width, height):
    drawn_w, drawn_h, kept_w, kept_h = _drawn(_token_showing(project, width, height))
    assert (kept_w, kept_h) == (2242, round(height * 2242 / width))  # downsampled to 600 dpi on the set's largest face
    assert drawn_w / drawn_h == pytest.approx(width / height, rel=1e-5)
    assert drawn_w == pytest.approx(18 / 25.4 * 72, rel=1e-5)  # contained: as wide as its box


def test_a_downsampled_image_covers_its_box_in_its_own_proportions(project):
    drawn_w, drawn_h, _, _ = _drawn(_token_showing(project, 3001, 2000, fit="cover"))
    assert drawn_w / drawn_h == pytest.approx(3001 / 2000, rel=1e-5)
    assert drawn_h == pytest.approx(18 / 25.4 * 72, rel=1e-5)  # covering: as high as its box


def test_an_image_too_thin_to_show_is_refused_by_its_own_proportions(project):
    """Kept as 2242 x 1 px, 100000 x 1 passed as 2242 times as wide as high: 0.013 mm high in its box."""
    with pytest.raises(CardgenError) as raised:
        _token_showing(project, 100000, 1, box='w="30" h="18"')
    (problem,) = raised.value.problems
    assert problem.message == ('image "icons/art.png" is 1e+05 times as wide as it is high: fitted in its 30 x 18 mm '
                               "box it would print 30 x 0.0003 mm, too thin to show")
