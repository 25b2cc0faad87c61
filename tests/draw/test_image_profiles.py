"""A picture tagged with a colour profile other than sRGB is embedded in sRGB: the PDF's
DeviceRGB drops the file's profile, and an Adobe RGB picture printed its numbers as sRGB ones,
duller than the designer saw it (a green of (60, 160, 90) in Adobe RGB is (0, 161, 85) in sRGB)."""
from __future__ import annotations

import io

import pikepdf
from PIL import Image, ImageCms

import cardgen
from iccprofile import adobe_rgb_profile


def embedded_images(pdf_path):
    with pikepdf.open(pdf_path) as pdf:
        return {obj.objgen: (pikepdf.PdfImage(obj).as_pil_image().convert("RGB"), obj.read_raw_bytes(),
                             obj.get("/Filter"))
                for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image}


def test_a_wide_gamut_picture_is_embedded_in_srgb_and_an_srgb_one_as_it_is(project, tmp_path):
    wide = adobe_rgb_profile()
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    picture = Image.new("RGB", (60, 40), (60, 160, 90))
    picture.save(project / "data/demo/wide.png", icc_profile=wide)
    picture.save(project / "data/demo/wide.jpg", quality=95, icc_profile=wide)
    Image.new("RGB", (60, 40), (200, 60, 60)).save(project / "data/demo/plain.jpg", quality=95, icc_profile=srgb)
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="5" y="40" w="15" h="10" src="wide.png"/>\n'
                          '<image x="22" y="40" w="15" h="10" src="wide.jpg"/>\n'
                          '<image x="39" y="40" w="15" h="10" src="plain.jpg"/>\n{% endblock %}'))
    result = cardgen.build(["demo"], project, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    images = list(embedded_images(result.pdf).values())
    assert len(images) == 3
    greens = [image for image, _, _ in images if image.getpixel((30, 20))[1] > 140]
    assert len(greens) == 2  # the PNG and the JPEG, both converted: their red is gone
    for image in greens:
        r, g, b = image.getpixel((30, 20))
        assert r <= 12 and abs(g - 161) <= 4 and abs(b - 85) <= 4, (r, g, b)
    (kept,) = [raw for image, raw, _ in images if image.getpixel((30, 20))[0] > 150]
    assert kept == (project / "data/demo/plain.jpg").read_bytes()  # sRGB: embedded as it is


def test_a_wide_gamut_profile_whose_name_says_srgb_is_converted(project, tmp_path):
    # a profile's description is free text ("Wide gamut, not sRGB", "sRGB-linear"): its numbers decide
    Image.new("RGB", (60, 40), (60, 160, 90)).save(project / "data/demo/wide.png",
                                                   icc_profile=adobe_rgb_profile(b"Wide gamut RGB, not sRGB"))
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="5" y="40" w="15" h="10" src="wide.png"/>\n{% endblock %}'))
    result = cardgen.build(["demo"], project, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    (image,) = [image for image, _, _ in embedded_images(result.pdf).values()]
    r, g, b = image.getpixel((30, 20))
    assert r <= 12 and abs(g - 161) <= 4 and abs(b - 85) <= 4, (r, g, b)
