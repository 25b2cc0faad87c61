"""CMYK colours in markup, and CMYK builds: read back from the PDF's own content streams."""
from __future__ import annotations

import re

import pikepdf
import pytest
from PIL import Image

import cardgen
from cardgen.color.convert import Converter, capped, formula
from cardgen.color.settings import ColorSettings

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def contents(pdf_path) -> str:
    """Every content stream of the file (pages and forms), decoded."""
    texts = []
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") != pikepdf.Name.Image and (
                    obj.get("/Subtype") == pikepdf.Name.Form or "/Length1" not in obj):
                try:
                    texts.append(obj.read_bytes().decode("latin-1"))
                except pikepdf.PdfError:
                    pass
    return "\n".join(texts)


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_cmyk_colour_reaches_the_pdf_unchanged(project):
    edit(project / "templates/demo/frame.xml.j2", 'fill="#27408b"', 'fill="cmyk(100, 72, 0, 18.5)"')
    edit(project / "templates/demo/action.xml.j2", 'stroke="#27408b"', 'stroke="cmyk(0,0,0,100)"')
    result = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0]
    text = contents(result.pdf)
    assert "1 0.72 0 0.185 k" in text
    assert "0 0 0 1 K" in text


def test_cmyk_in_rich_text(project):
    (project / "data/demo/cards.yaml").write_text(
        "- {name: Ink, type: action, text: 'plain [color=cmyk(0,100,100,0)]red ink[/color]'}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0]
    assert "0 1 1 0 k" in contents(result.pdf)


@pytest.mark.parametrize("value", ["cmyk(0,0,0,101)", "cmyk(0,0,0)", "cmyk(1.2.3,0,0,0)"])
def test_bad_cmyk_is_an_error_naming_the_line(project, value):
    edit(project / "templates/demo/token.xml.j2", 'fill="#2e8b57"', f'fill="{value}"')
    problems = [str(p) for p in cardgen.check(["demo"], project) if p.is_error]
    assert problems and all(p.startswith("templates/demo/token.xml.j2:2:") for p in problems)
    assert "<circle> fill:" in problems[0] and value in problems[0]


def test_formula_and_ink_cap():
    assert formula(0, 0, 0) == (0, 0, 0, 1)
    assert formula(0.5, 0.5, 0.5) == (0, 0, 0, 0.5)  # a grey is black ink alone
    assert formula(1, 0, 0) == (0, 1, 1, 0)
    c, m, y, k = capped((1.0, 1.0, 0.5, 0.8), 300)
    assert round((c + m + y + k) * 100, 6) == 300 and k == 0.8
    convert = Converter(ColorSettings(mode="cmyk")).cmyk
    assert convert(0x11 / 255, 0x11 / 255, 0x11 / 255, True) == (0, 0, 0, 1)  # near-black text: 100% K
    assert convert(0x11 / 255, 0x11 / 255, 0x11 / 255, False) == (0, 0, 0, 1 - 0x11 / 255)
    assert sum(convert(0.02, 0.02, 0.2)) * 100 <= 300 + 1e-9


def test_image_conversion_matches_the_colour_conversion():
    converter = Converter(ColorSettings(mode="cmyk", ink_limit=260))
    image = converter.image(Image.new("RGB", (3, 3), (10, 20, 90)))
    expected = converter.cmyk(10 / 255, 20 / 255, 90 / 255)
    assert image.mode == "CMYK"
    assert all(abs(a - b * 255) <= 1.5 for a, b in zip(image.getpixel((1, 1)), expected))


def test_cmyk_build_leaves_no_rgb(project, cli):
    action = project / "templates/demo/action.xml.j2"
    edit(action, 'weight="bold" size="13"', 'weight="bold" size="13" color="#111111"')
    edit(action, "{% endblock %}", '<rect x="5" y="75" w="20" h="4" fill="linear-gradient(90, #c8102e, #27408b)"/>\n'
                                   "{% endblock %}")
    result = cli(project, "build", "demo", "--color", "cmyk", "--no-cache")
    assert result.exit_code == 0, result.output
    text = contents(project / "output/demo.pdf")
    assert not re.search(r"\b(rg|RG)\b", text)
    # the title's #111111 is near-black text: 100% K; the navy ground is converted by the formula
    assert "0 0 0 1 k" in text
    written = (float(f"{v / 255:.4g}") for v in (0x27, 0x40, 0x8b))  # as the RGB drawing writes it
    navy = Converter(ColorSettings(mode="cmyk")).cmyk(*written)
    assert " ".join(f"{v:.4g}" for v in navy) + " k" in text
    for match in re.finditer(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) [kK]\b", text):
        assert sum(float(v) for v in match.groups()) <= 3.0 + 1e-6
    with pikepdf.open(project / "output/demo.pdf") as pdf:  # the gradient's shading too
        spaces = [obj.ColorSpace for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj]
        assert spaces and set(spaces) == {pikepdf.Name.DeviceCMYK}


def test_set_yaml_color_mode_and_bad_values(project):
    set_yaml = project / "data/demo/set.yaml"
    edit(set_yaml, "size: poker\n", "size: poker\ncolor: {mode: cmyk, ink-limit: 280}\n")
    card_set = cardgen.load_set("demo", project)
    assert card_set.color.cmyk and card_set.color.ink_limit == 280
    edit(set_yaml, "ink-limit: 280", "ink-limit: 999")
    with pytest.raises(cardgen.CardgenError) as error:
        cardgen.load_set("demo", project)
    assert str(error.value) == ('data/demo/set.yaml:5: ink-limit is a total ink percentage from 100 to 400, '
                                'got "999"')


def test_a_profile_must_be_a_cmyk_icc_profile(project):
    from PIL import ImageCms

    (project / "data/demo/srgb.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    set_yaml = project / "data/demo/set.yaml"
    original = set_yaml.read_text()
    for profile, message in (
            ("srgb.icc", '"srgb.icc" is a RGB profile: a CMYK build needs a CMYK output profile'),
            ("icons/star.svg", '"star.svg" is not an ICC profile littleCMS can read (cannot open profile file)'),
            ("nope.icc", 'file "nope.icc" not found in the set folder')):
        set_yaml.write_text(original + f"color: {{mode: cmyk, profile: {profile}}}\n")
        with pytest.raises(cardgen.CardgenError) as error:
            cardgen.load_set("demo", project)
        assert str(error.value) == f"data/demo/set.yaml:26: {message}"


def test_a_cmyk_profile_littlecms_cannot_convert_to_is_refused_at_its_line(project):
    """A CMYK profile with a header and no conversion tables (a device link, an abstract profile,
    one cut short of its tags) passed the colour space check and stopped the build with
    "internal error: PyCMSError(... cannot build transform)"."""
    import struct

    header = bytearray(132)
    struct.pack_into(">I", header, 0, 132)
    header[8:12], header[12:16], header[16:20], header[20:24], header[36:40] = (
        bytes([2, 0x10, 0, 0]), b"link", b"CMYK", b"Lab ", b"acsp")
    (project / "data/demo/link.icc").write_bytes(bytes(header))
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "color: {mode: cmyk, profile: link.icc}\n")
    with pytest.raises(cardgen.CardgenError) as error:
        cardgen.load_set("demo", project)
    assert str(error.value) == ('data/demo/set.yaml:26: "link.icc" is a CMYK profile littleCMS makes no conversion '
                                'from sRGB to (its device class is "link"): a CMYK build needs a CMYK output profile '
                                "with its tables, such as your printer's")


def test_a_profile_converts_each_colour_without_copying_the_profile(tmp_path, monkeypatch):
    """Pillow's ImageCmsTransform.apply copies the whole output profile into every result: once
    for every distinct colour of a build (a 60 MB profile took 0.35 s a colour)."""
    from PIL import ImageCms

    from iccprofile import cmyk_printer_profile

    press = tmp_path / "press.icc"
    press.write_bytes(cmyk_printer_profile())
    converter = Converter(ColorSettings(mode="cmyk", profile=press))
    expected = converter._transform.apply(Image.new("RGB", (1, 1), (0, 0, 0))).getpixel((0, 0))

    def copied(self):
        raise AssertionError("the output profile was copied")

    monkeypatch.setattr(ImageCms.ImageCmsProfile, "tobytes", copied)
    assert expected[:3] == (0, 0, 0) and expected[3] > 240  # black: black ink alone
    assert converter.cmyk(0.0, 0.0, 0.0) == tuple(v / 255 for v in expected)
    picture = converter.image(Image.new("RGB", (2, 2), (0, 0, 0)))
    assert picture.mode == "CMYK" and picture.getpixel((1, 1)) == expected
