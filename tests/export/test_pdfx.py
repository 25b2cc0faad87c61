"""`cardgen export --shop drivethru`: PDF/X-1a:2003 files, each requirement read back from the file."""
from __future__ import annotations

import re

import pikepdf
import pytest
from pypdf import PdfReader

from cardgen import CardgenError
from cardgen.export import export
from pdftext import page_texts

EIGHTH = 72 / 8
DEVICE_SPACES = {"/DeviceCMYK", "/DeviceGray"}


@pytest.fixture
def exported(project):
    token = project / "templates/demo/token.xml.j2"  # a layout with opacity, to be flattened
    token.write_text(token.read_text().replace(
        "</card>", '<rect x="2" y="2" w="16" h="2" fill="#ffffff" opacity="0.3"/>\n</card>'))
    action = project / "templates/demo/action.xml.j2"  # and a gradient, an RGB shading
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<rect x="5" y="75" w="20" h="4" fill="linear-gradient(90, #c8102e, #27408b)"/>\n{% endblock %}'))
    lines = export("demo", project, shop="drivethru")
    return project, lines


def files(project):
    return sorted((project / "output/drivethru/demo").glob("*.pdf"))


def streams(pdf: pikepdf.Pdf):
    """Every content stream: pages and the forms they place."""
    seen = set()

    def walk(resources):
        for _, xobject in (resources.get("/XObject") or {}).items():
            if xobject.get("/Subtype") == pikepdf.Name.Form and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                yield xobject
                yield from walk(xobject.get("/Resources") or {})

    for page in pdf.pages:
        yield from (page.obj.Contents if isinstance(page.obj.Contents, pikepdf.Array) else [page.obj.Contents])
        yield from walk(page.obj.get("/Resources") or {})


def test_one_file_per_product_and_the_left_out_faces_in_a_warning(exported):
    project, lines = exported
    path = project / "output/drivethru/demo/poker-plain.pdf"
    assert files(project) == [path]
    assert lines == [
        'data/demo/set.yaml:11: warning: DriveThruCards makes no 20 x 20 mm circle cards: 3 faces of type '
        '"token" left out of the export',
        f"DriveThruCards: {path} (10 pages, PDF/X-1a:2003, each front followed by its back)"]


def test_pages_are_trim_plus_an_eighth_inch_each_front_followed_by_its_back(exported):
    project, _ = exported
    reader = PdfReader(files(project)[0])
    texts = page_texts(files(project)[0])
    assert len(texts) == 10
    assert [("Demo Deck" in text) for text in texts] == [False, True] * 5  # the back shows the set title
    assert "Quick Draw" in texts[0] and "Quick Draw" in texts[2] and "Escape Artist" in texts[4]
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        assert [float(v) for v in page.bleedbox] == pytest.approx(media, abs=1e-3)
        assert [float(v) for v in page.trimbox] == pytest.approx(
            [EIGHTH, EIGHTH, media[2] - EIGHTH, media[3] - EIGHTH], abs=1e-3)
        assert media[2] - 2 * EIGHTH == pytest.approx(180) and media[3] - 2 * EIGHTH == pytest.approx(252)


def test_pdfx_1a_requirements_one_by_one(exported):
    project, _ = exported
    with pikepdf.open(files(project)[0]) as pdf:
        # PDF 1.3 or 1.4, no encryption
        assert pdf.pdf_version == "1.4" and not pdf.is_encrypted
        # Info: GTS_PDFXVersion (and Conformance), Title, dates, Trapped True or False
        info = pdf.docinfo
        assert str(info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(info.GTS_PDFXConformance) == "PDF/X-1a:2003"
        assert str(info.Title) == "Demo Deck v0.3" and str(info.Author) == "Demo Deck"
        assert re.fullmatch(r"D:[0-9]{14}[+]00'00'", str(info.CreationDate))
        assert str(info.ModDate) == str(info.CreationDate)
        assert info.Trapped == pikepdf.Name("/False")
        # a document ID in the trailer
        assert len(pdf.trailer.ID) == 2 and len(bytes(pdf.trailer.ID[0])) == 16
        # exactly one GTS_PDFX OutputIntent naming a registered condition
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1
        intent = intents[0]
        assert intent.S == pikepdf.Name.GTS_PDFX and intent.Type == pikepdf.Name.OutputIntent
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert "/DestOutputProfile" not in intent  # a registered condition needs none
        # TrimBox and BleedBox on every page, inside the MediaBox
        for page in pdf.pages:
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
            assert "/Group" not in page.obj and "/Annots" not in page.obj
        # DeviceCMYK and DeviceGray only: no RGB operators, no other colour space
        for stream in streams(pdf):
            text = stream.read_bytes().decode("latin-1")
            text = re.sub(r"\((?:\\.|[^\\)])*\)", "", text)  # strings are text, not operators
            assert not re.search(r"(?<![\w/])(rg|RG|cs|CS|sc|scn|SC|SCN)(?![\w])", text)
        shadings = 0
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and "/ColorSpace" in obj and obj.get("/Type") != pikepdf.Name.Page:
                space = obj.ColorSpace
                assert isinstance(space, pikepdf.Name) and str(space) in DEVICE_SPACES
                shadings += "/ShadingType" in obj
        assert shadings  # the gradient: a shading in DeviceCMYK
        # no transparency: no soft masks, no opacity, no blend modes, no transparency groups
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary):
                assert "/SMask" not in obj or obj.SMask == pikepdf.Name.None_
                assert float(obj.get("/ca", 1)) == 1 and float(obj.get("/CA", 1)) == 1
                assert obj.get("/BM", pikepdf.Name.Normal) in (pikepdf.Name.Normal, pikepdf.Name.Compatible)
                if obj.get("/S") == pikepdf.Name.Transparency:
                    raise AssertionError("transparency group")
        # every font embedded
        for page in pdf.pages:
            for _, font in (page.obj.Resources.get("/Font") or {}).items():
                descriptor = font.FontDescriptor
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font.BaseFont


def printer_profile(device_class: bytes = b"prtr", space: bytes = b"CMYK", size: int | None = None) -> bytes:
    """An ICC profile as its header and tag table make it (ICC.1:2010 7.2): a CMYK printer
    profile with one tag (a text), or one with the given class, colour space or size field."""
    import struct

    text = b"text" + bytes(4) + b"Test press\0"
    header = bytearray(128)
    total = 128 + 4 + 12 + len(text)
    struct.pack_into(">I", header, 0, total if size is None else size)
    header[8:12] = bytes([4, 0x30, 0, 0])  # version 4.3
    header[12:16], header[16:20], header[20:24], header[36:40] = device_class, space, b"Lab ", b"acsp"
    return bytes(header) + struct.pack(">I4sII", 1, b"cprt", 128 + 4 + 12, len(text)) + text


def test_an_unregistered_condition_embeds_its_profile(project):
    profile = project / "data/demo/press.icc"
    profile.write_bytes(printer_profile())
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "output-intent: {identifier: My Press, profile: press.icc}\n")
    export("demo", project, shop="drivethru")
    with pikepdf.open(files(project)[0]) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "My Press"
        assert "/RegistryName" not in intent
        assert intent.DestOutputProfile.read_bytes() == profile.read_bytes()


def test_the_output_intents_profile_must_be_a_cmyk_printer_profile(project):
    from PIL import ImageCms

    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "output-intent: {identifier: My Press, profile: press.icc}\n")
    line = len(set_yaml.read_text().splitlines())
    profile = project / "data/demo/press.icc"
    good = printer_profile()
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    for content, fault in (
            (b"not really a profile, only carried", "34 bytes, shorter than an ICC header"),
            (good[:36] + b"xxxx" + good[40:], "no ICC signature (acsp) in its header"),
            (good + b"\0" * 10, f"its header gives a size of {len(good)} bytes, the file has {len(good) + 10}"),
            (printer_profile(size=999), f"its header gives a size of 999 bytes, the file has {len(good)}"),
            (srgb, 'its device class is "mntr", not "prtr" (an output profile)'),
            (printer_profile(space=b"RGB "), 'its colour space is "RGB", not "CMYK"'),
            (printer_profile(device_class=b"\x01\x02ab"), 'its device class is "\\x01\\x02ab", not "prtr" (an output profile)'),
            (good[:128] + b"\0\0\0\x09" + good[132:], "its tag table (9 tags) runs past the end of the file"),
            (good[:-2], f"its header gives a size of {len(good)} bytes, the file has {len(good) - 2}")):
        profile.write_bytes(content)
        with pytest.raises(CardgenError) as error:
            export("demo", project, shop="drivethru")
        assert str(error.value) == f'data/demo/set.yaml:{line}: "press.icc" is not a CMYK output profile (ICC) to embed: {fault}'
    truncated_tag = bytearray(good)
    truncated_tag[128 + 4 + 8:128 + 4 + 12] = (999).to_bytes(4, "big")
    profile.write_bytes(bytes(truncated_tag))
    with pytest.raises(CardgenError) as error:
        export("demo", project, shop="drivethru")
    assert str(error.value).endswith('to embed: its tag "cprt" lies outside the file')
    assert not (project / "output/drivethru").exists()


def test_output_intent_values_are_text_written_as_they_read(project):
    """``identifier: ~`` wrote the condition "None" into every PDF/X file, and ``registry: ''``
    an OutputIntent outside every registry without the profile such a condition must embed."""
    set_yaml = project / "data/demo/set.yaml"
    original = set_yaml.read_text()
    line = len(original.splitlines()) + 1
    for intent, message in (
            ("{identifier: ~}", 'output-intent: needs at least `identifier` (a registered condition such as '
                                '"CGATS TR 001" or "FOGRA39")'),
            ("{identifier: FOGRA39, registry: ''}", "output-intent: registry is empty: give it as text, or leave it out"),
            ("{identifier: FOGRA39, info: [a, b]}", "output-intent: info must be text, got a list")):
        set_yaml.write_text(original + f"output-intent: {intent}\n")
        with pytest.raises(CardgenError) as error:
            export("demo", project, shop="drivethru")
        assert str(error.value) == f"data/demo/set.yaml:{line}: {message}"
    assert not (project / "output/drivethru").exists()


def test_a_type_without_a_back_gets_a_plain_back_page_with_the_fronts_boxes(project):
    """The plain paper-white back was made of the drawn file's own box arrays, and pikepdf refused
    them in the new file: "internal error: ForeignObjectError(... found at /BleedBox)"."""
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    assert "    back: plain\n" in text
    set_yaml.write_text(text.replace("    back: plain\n", ""))
    lines = export("demo", project, shop="drivethru")
    path = project / "output/drivethru/demo/poker-plain-back.pdf"
    assert lines[1:] == [
        'data/demo/set.yaml:8: warning: card type "action" has no back: DriveThruCards prints both sides, so a '
        "plain paper-white back is sent (name a back in set.yaml)",
        f"DriveThruCards: {path} (10 pages, PDF/X-1a:2003, each front followed by its back)"]
    with pikepdf.open(path) as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            assert [list(map(float, back.obj[box])) for box in ("/MediaBox", "/TrimBox", "/BleedBox")] == \
                [list(map(float, front.obj[box])) for box in ("/MediaBox", "/TrimBox", "/BleedBox")]
            assert back.obj.Contents.read_bytes() == b""
    # every Flate stream is one: an empty stream marked /FlateDecode (Length 0) made Ghostscript
    # say "error reading a stream" on each plain back, and a RIP may refuse the page
    import zlib

    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Filter") == pikepdf.Name.FlateDecode:
                zlib.decompress(obj.read_raw_bytes())


def test_backs_whose_names_make_one_file_name_get_a_file_each(project):
    """Backs "plain" and "Plain!" both made poker-plain.pdf: the second product's file was written
    over the first's, and four cards were not sent, without a word."""
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    for old, new in (("  token:\n", "  more:\n    template: demo/action.xml.j2\n    back: Plain!\n  token:\n"),
                     ("  plain: {template: demo/back.xml.j2}\n",
                      "  plain: {template: demo/back.xml.j2}\n  Plain!: {template: demo/back.xml.j2}\n"),
                     ("{file: more.csv, type: action}", "{file: more.csv, type: more}")):
        assert old in text
        text = text.replace(old, new)
    set_yaml.write_text(text)
    lines = export("demo", project, shop="drivethru")
    folder = project / "output/drivethru/demo"
    assert lines[1:] == [f"DriveThruCards: {folder / 'poker-plain.pdf'} (6 pages, PDF/X-1a:2003, each front followed "
                         "by its back)",
                         f"DriveThruCards: {folder / 'poker-plain-2.pdf'} (4 pages, PDF/X-1a:2003, each front followed "
                         "by its back)"]
    assert files(project) == [folder / "poker-plain-2.pdf", folder / "poker-plain.pdf"]


def test_a_rerun_removes_the_file_of_a_product_gone(project, tmp_path):
    """A back renamed makes another product file: the old one stayed in the folder that is
    uploaded, where a fresh export has only the new one."""
    export("demo", project, shop="drivethru")
    folder = project / "output/drivethru/demo"
    assert files(project) == [folder / "poker-plain.pdf"]
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("back: plain", "back: classic").replace(
        "  plain: {template", "  classic: {template"))
    export("demo", project, shop="drivethru")
    fresh = export("demo", project, out=tmp_path / "fresh", shop="drivethru")
    assert files(project) == [folder / "poker-classic.pdf"]
    assert sorted(p.name for p in (tmp_path / "fresh/demo").iterdir()) == ["poker-classic.pdf"], fresh



def test_a_rerun_keeps_the_pdfs_the_designer_put_beside_the_print_files(project, tmp_path):
    """The folder is what is uploaded, and a designer adds their own files to it (the rules, a
    box made elsewhere): a rerun removes only the print files an earlier export wrote."""
    import pikepdf

    export("demo", project, shop="drivethru")
    folder = project / "output/drivethru/demo"
    rules = folder / "rules.pdf"
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        pdf.save(rules)
    (folder / "notes.pdf").write_bytes(b"not a PDF at all")
    written = rules.read_bytes()
    export("demo", project, shop="drivethru")
    assert sorted(p.name for p in folder.iterdir()) == ["notes.pdf", "poker-plain.pdf", "rules.pdf"]
    assert rules.read_bytes() == written

def test_rebuilds_are_byte_identical(exported):
    project, _ = exported
    first = files(project)[0].read_bytes()
    export("demo", project, shop="drivethru")
    assert files(project)[0].read_bytes() == first


def test_images_become_cmyk_without_soft_masks(project):
    from PIL import Image

    picture = Image.new("RGBA", (120, 80), (200, 30, 40, 255))
    picture.paste((0, 0, 0, 0), (0, 0, 60, 80))  # the left half transparent
    picture.save(project / "data/demo/art.png")
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="10" y="40" w="30" h="20" src="art.png"/>\n{% endblock %}'))
    export("demo", project, shop="drivethru")
    with pikepdf.open(files(project)[0]) as pdf:
        images = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image]
        assert images
        for image in images:
            assert image.ColorSpace == pikepdf.Name.DeviceCMYK and "/SMask" not in image
            pixels = pikepdf.PdfImage(image).as_pil_image()
            assert pixels.mode == "CMYK"
            assert pixels.getpixel((0, 40)) == (0, 0, 0, 0)  # the transparent half: paper white
            c, m, y, k = pixels.getpixel((100, 40))  # red: no cyan, magenta and yellow inks
            assert c == 0 and m > 200 and y > 180


def test_a_cmyk_sets_image_with_a_soft_mask_keeps_its_inks(project):
    """A CMYK set's image is CMYK with a soft mask when the export flattens it: read with its mask,
    pikepdf turned it RGBA with a warning on stderr, and the build's inks went through RGB and
    back (a half-transparent red's magenta 152 came out 140)."""
    import warnings

    from PIL import Image

    picture = Image.new("RGBA", (120, 80), (200, 30, 40, 128))
    picture.paste((0, 0, 0, 0), (0, 0, 60, 80))  # the left half transparent
    picture.save(project / "data/demo/art.png")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "color: cmyk\n")
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="10" y="40" w="30" h="20" src="art.png"/>\n{% endblock %}'))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        export("demo", project, shop="drivethru")
    with pikepdf.open(files(project)[0]) as pdf:
        (image,) = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream)
                    and obj.get("/Subtype") == pikepdf.Name.Image and obj.get("/Width") == 120]
        assert image.ColorSpace == pikepdf.Name.DeviceCMYK and "/SMask" not in image
        pixels = pikepdf.PdfImage(image).as_pil_image()
        assert pixels.getpixel((0, 40)) == (0, 0, 0, 0)
        # the build's inks for (200, 30, 40) (the formula: 0 85 80 21.6 %), at 128/255 against paper white
        from cardgen.color.convert import Converter
        from cardgen.color.settings import ColorSettings

        inks = Converter(ColorSettings(mode="cmyk")).image(Image.new("RGB", (1, 1), (200, 30, 40)))
        assert inks.getpixel((0, 0)) == (0, 216, 204, 55)
        mixed = Image.composite(inks, Image.new("CMYK", (1, 1)), Image.new("L", (1, 1), 128))
        assert pixels.getpixel((100, 40)) == mixed.getpixel((0, 0)) == (0, 108, 102, 28)



def test_a_back_named_in_german_gives_a_readable_file_name(project):
    """DriveThruCards' files were named by their back with every letter beyond ASCII made a dash
    ("Rückseite" wrote poker-r-ckseite.pdf), unlike the PNG shops' folders (poker-ruckseite)."""
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    for old, new in (("back: plain", "back: Rückseite"), ("  plain: {template", "  Rückseite: {template")):
        assert old in text
        text = text.replace(old, new)
    set_yaml.write_text(text)
    export("demo", project, shop="drivethru")
    assert [path.name for path in files(project)] == ["poker-ruckseite.pdf"]
