"""A photo a camera stored sideways with an EXIF orientation prints upright, as every viewer
shows it: PDF ignores EXIF, and cardgen embedded the stored pixels, so it printed on its side."""
from __future__ import annotations

import io

import pdfplumber
import pytest
from PIL import Image

import cardgen

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _sideways(path, orientation: int = 6) -> None:
    """Stored 160 x 92, red left and blue right; shown (turned a quarter clockwise) 92 x 160, red above."""
    stored = Image.new("RGB", (160, 92), "blue")
    stored.paste(Image.new("RGB", (80, 92), "red"), (0, 0))
    exif = stored.getexif()
    exif[0x0112] = orientation
    stored.save(path, exif=exif.tobytes(), **({"quality": 95} if path.suffix == ".jpg" else {}))


@pytest.mark.parametrize("name, decode", [("art.jpg", "DCTDecode"), ("art.png", "FlateDecode")])
def test_a_photo_stored_sideways_prints_upright(project, tmp_path, name, decode):
    _sideways(project / "data/demo/icons" / name)
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", f'<image x="5" y="50" w="20" h="30" src="icons/{name}"/>\n{{% endblock %}}'))
    result = cardgen.build(["demo"], project, tmp_path, cardgen.BuildOptions(cache=False)).sets[0]
    with pdfplumber.open(result.pdf) as pdf:
        image = pdf.pages[0].images[0]
        stream = image["stream"]
        filters = stream["Filter"]
        assert [f.name for f in (filters if isinstance(filters, list) else [filters])] == [decode]
        size = (stream["Width"], stream["Height"])
        data = stream.get_data() if decode == "FlateDecode" else stream.get_rawdata()
    assert size == (92, 160)
    pixels = Image.frombytes("RGB", size, data) if decode == "FlateDecode" else Image.open(io.BytesIO(data))
    top, bottom = pixels.convert("RGB").getpixel((46, 20)), pixels.convert("RGB").getpixel((46, 140))
    assert (top[0] > 200 > top[2], bottom[2] > 200 > bottom[0]) == (True, True)  # red above, blue below


def test_a_photo_without_a_turn_is_embedded_as_its_own_bytes(project, tmp_path):
    _sideways(project / "data/demo/icons/art.jpg", orientation=1)
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="5" y="50" w="20" h="30" src="icons/art.jpg"/>\n{% endblock %}'))
    result = cardgen.build(["demo"], project, tmp_path, cardgen.BuildOptions(cache=False)).sets[0]
    assert (project / "data/demo/icons/art.jpg").read_bytes() in result.pdf.read_bytes()
