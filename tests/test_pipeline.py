"""End to end: build the demo project and read the PDF and manifest that come out."""
from __future__ import annotations

import json
import re

import pdfplumber
import pytest
from pypdf import PdfReader

import cardgen
from cardgen.units import PT_PER_MM
from cardgen.write.manifest import load_manifest
from pdftext import face_texts, page_texts

MM = 1 / PT_PER_MM


def built(project):
    result = cardgen.build(["demo"], project)
    (set_result,) = result.sets
    return set_result, load_manifest(set_result.manifest)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo built once for the tests that only read its output: the project, the set's
    result and its manifest."""
    from projects import make_project

    project = make_project(tmp_path_factory.mktemp("demo"))
    return (project, *built(project))


def test_build_writes_pdf_and_manifest_of_the_documented_shape(demo):
    project, result, manifest = demo
    assert (result.pdf, result.manifest) == (project / "output/demo.pdf", project / "output/demo.json")
    assert manifest["set"] == "demo" and manifest["version"] == "0.3"
    fronts = [f for f in manifest["faces"] if f["side"] == "front"]
    backs = [f for f in manifest["faces"] if f["side"] == "back"]
    assert [(f["card"], f["copy"]) for f in fronts] == [
        ("Quick Draw", 1), ("Quick Draw", 2), ("Escape Artist", 1), ("Attack <12> & more", 1), ("Long Winded", 1),
        ("Marker", 1), ("Marker", 2), ("Marker", 3)]  # each card size gets its own sheets
    assert sorted(f["card"] for f in backs) == sorted(f["card"] for f in fronts if f["type"] == "action")
    first = fronts[0]
    assert set(first) >= {"card", "type", "copy", "side", "page", "x_mm", "y_mm", "w_mm", "h_mm", "data"}
    assert (first["w_mm"], first["h_mm"]) == (63.5, 88.9)
    assert first["data"]["text"].startswith("Draw **two** cards")
    assert len(PdfReader(result.pdf).pages) == manifest["pages"] == result.pages


def test_faces_sit_where_the_manifest_says(demo):
    _, result, manifest = demo
    with pdfplumber.open(result.pdf) as pdf:
        for face in manifest["faces"]:
            if face["type"] != "action" or face["side"] != "front":
                continue
            page = pdf.pages[face["page"] - 1]
            height = float(page.height)
            # the template's background covers the trim plus 3 mm of bleed on every side
            backgrounds = [r for r in page.rects
                           if abs(r["width"] * MM - (face["w_mm"] + 6)) < 0.05 and abs(r["height"] * MM - (face["h_mm"] + 6)) < 0.05]
            corners = [(r["x0"] * MM, (height - r["bottom"]) * MM) for r in backgrounds]
            assert any(abs(x - (face["x_mm"] - 3)) < 0.05 and abs(y - (face["y_mm"] - 3)) < 0.05 for x, y in corners), face


def test_text_is_real_and_escaped(demo):
    _, result, _ = demo
    text = "\n".join(page.extract_text() for page in PdfReader(result.pdf).pages)
    assert "Attack <12> & more" in text
    assert "Escape Artist" in text and "Nobody saw him leave." in text


def test_fonts_are_embedded_subsets(demo):
    _, result, _ = demo
    reader = PdfReader(result.pdf)
    fonts = {}
    for page in reader.pages:
        resources = page["/Resources"]
        for name, ref in resources.get("/Font", {}).items():
            fonts[name] = ref.get_object()
    assert fonts
    for font in fonts.values():
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, font["/BaseFont"]
        assert "+" in str(font["/BaseFont"])  # a subset


def test_auto_fit_shrinks_long_text_and_keeps_it_in_its_box(project):
    long_text = " ".join(["Words upon words fill this card until it must shrink."] * 12)
    path = project / "data/demo/more.csv"
    path.write_text(f'name,count,text\nShort,1,Short text\nLong,1,"{long_text}"\n')
    result, manifest = built(project)
    with pdfplumber.open(result.pdf) as pdf:
        sizes = {}
        for name in ("Short", "Long"):
            face = next(f for f in manifest["faces"] if f["card"] == name and f["side"] == "front")
            page = pdf.pages[face["page"] - 1]
            height = float(page.height)
            # body box: x 5..w-5, y 18..70 mm from the trim's top-left
            left, right = face["x_mm"] + 5, face["x_mm"] + face["w_mm"] - 5
            top = face["y_mm"] + face["h_mm"] - 18
            bottom = face["y_mm"] + face["h_mm"] - 70
            chars = [c for c in page.chars
                     if left - 1 < c["x0"] * MM < right + 1 and bottom - 1 < (height - c["bottom"]) * MM < top + 1
                     and "Bold" not in c["fontname"] and "Oblique" not in c["fontname"]]
            assert chars
            for c in chars:
                assert c["x0"] * MM >= left - 0.01 and c["x1"] * MM <= right + 0.01
                assert (height - c["bottom"]) * MM >= bottom - 0.01 and (height - c["top"]) * MM <= top + 0.01
            sizes[name] = {round(c["size"], 2) for c in chars}
    assert sizes["Short"] == {11.0}
    (long_size,) = sizes["Long"]
    assert 5 <= long_size < 11
    # The largest size that fits: fixed 0.1 pt larger, the same text is refused; a hair smaller, it fits.
    template = project / "templates/demo/action.xml.j2"
    source = template.read_text()
    assert source.count('size="11" min-size="5"') == 1
    larger, smaller = round(long_size + 0.1, 2), round(long_size - 0.01, 2)
    template.write_text(source.replace('size="11" min-size="5"', f'size="{larger}" min-size="{larger}"'))
    with pytest.raises(cardgen.CardgenError, match=rf'card "Long": .*does not fit at the minimum size {larger:g} pt'):
        cardgen.build(["demo"], project, project / "larger")
    template.write_text(source.replace('size="11" min-size="5"', f'size="{smaller}" min-size="{smaller}"'))
    assert cardgen.build(["demo"], project, project / "smaller").sets[0].pdf.exists()


def test_same_input_gives_byte_identical_files(demo, tmp_path):
    project, first, _ = demo
    second = cardgen.build(["demo"], project, tmp_path / "b").sets[0]
    assert first.pdf.read_bytes() == second.pdf.read_bytes()
    assert first.manifest.read_bytes() == second.manifest.read_bytes()


def test_a_failed_build_leaves_the_earlier_output_untouched(project, cli):
    assert cli(project, "build", "demo").exit_code == 0
    pdf, manifest = project / "output/demo.pdf", project / "output/demo.json"
    before = pdf.read_bytes(), manifest.read_bytes()
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Long Winded,1,", "Long Winded,x,"))
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert (pdf.read_bytes(), manifest.read_bytes()) == before
    assert sorted(p.name for p in (project / "output").iterdir()) == ["demo.json", "demo.pdf"]


def test_a_failure_while_writing_leaves_no_half_file(project, monkeypatch, tmp_path):
    cardgen.build(["demo"], project)
    pdf, manifest = project / "output/demo.pdf", project / "output/demo.json"
    before = pdf.read_bytes(), manifest.read_bytes()
    path = project / "data/demo/more.csv"  # the failing build has other input: other bytes
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    changed = cardgen.build(["demo"], project, tmp_path / "changed").sets[0]
    assert changed.pdf.read_bytes() != before[0] and changed.manifest.read_bytes() != before[1]

    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("cardgen.write.manifest.ManifestWriter.close", explode)  # after the whole PDF
    with pytest.raises(OSError, match="disk full"):
        cardgen.build(["demo"], project)
    assert (pdf.read_bytes(), manifest.read_bytes()) == before
    assert sorted(p.name for p in (project / "output").iterdir()) == ["demo.json", "demo.pdf"]


@pytest.mark.parametrize("layout", ["sheets", "per-card"])
def test_a_large_set_streams_through_with_every_face_where_the_manifest_says(project, layout):
    """Cards are read, rendered and written a sheet at a time and let go: nothing of one card
    may be taken for another's (the manifest once keyed cards by an id that Python reuses)."""
    rows = "".join(f"Card {n:03},{1 + (n % 3 == 0)},Text of card {n}\n" for n in range(1, 151))
    (project / "data/demo/more.csv").write_text("name,count,text\n" + rows)
    options = cardgen.BuildOptions(layout=layout)
    (result,) = cardgen.build(["demo"], project, options=options).sets
    manifest = load_manifest(result.manifest)
    fronts = [(f["card"], f["copy"]) for f in manifest["faces"] if f["side"] == "front" and f["type"] == "action"]
    expected = [(f"Card {n:03}", copy) for n in range(1, 151) for copy in range(1, 2 + (n % 3 == 0))]
    assert fronts[3:] == expected  # after Quick Draw x2 and Escape Artist, from cards.yaml
    numbered = [f for f in manifest["faces"] if f["side"] == "front" and f["card"].startswith("Card ")]
    for face, text in zip(numbered, face_texts(result.pdf, numbered)):  # the text inside each face's trim
        number = int(face["card"][5:])
        assert re.search(rf"\bText of card {number}\b", " ".join(text.split())), face
        assert face["data"]["text"] == f"Text of card {number}"
    assert len(page_texts(result.pdf)) == manifest["pages"] == result.pages
    assert result.cards == 3 + len(expected) + 3  # and the three markers


def test_a_build_puts_back_the_collectors_thresholds_even_when_it_fails(project, monkeypatch):
    import gc

    seen = []
    real = cardgen.pipeline._write_set

    def spy(*args):
        seen.append(gc.get_threshold()[0])
        return real(*args)

    monkeypatch.setattr(cardgen.pipeline, "_write_set", spy)
    before = gc.get_threshold()
    cardgen.build(["demo"], project)
    assert seen == [cardgen.pipeline.GC_THRESHOLD] and gc.get_threshold() == before
    (project / "templates/demo/action.xml.j2").write_text("<card><nonsense/></card>")
    with pytest.raises(cardgen.CardgenError):
        cardgen.build(["demo"], project)
    assert gc.get_threshold() == before


def test_a_large_set_is_never_held_whole(project, monkeypatch):
    """Past ``KEPT_CARDS``, cards are read, drawn and let go a sheet at a time: when the PDF is
    finished, only a batch's worth of them is alive."""
    import gc

    from cardgen.model import Card, Face
    from cardgen.write.stream import PageStream

    monkeypatch.setattr("cardgen.load.cards.KEPT_CARDS", 50)
    rows = "".join(f"Card {n:03},1,Text of card {n}\n" for n in range(1, 601))
    (project / "data/demo/more.csv").write_text("name,count,text\n" + rows)
    alive = {}
    finish = PageStream.finish

    def counting(self):
        gc.collect()
        objects = gc.get_objects()
        alive["cards"] = sum(1 for o in objects if type(o) is Card)
        alive["faces"] = sum(1 for o in objects if type(o) is Face)
        finish(self)

    monkeypatch.setattr(PageStream, "finish", counting)
    (result,) = cardgen.build(["demo"], project).sets
    assert result.cards == 600 + 3 + 3
    assert alive["cards"] < cardgen.pipeline.BATCH and alive["faces"] < cardgen.pipeline.BATCH, alive
