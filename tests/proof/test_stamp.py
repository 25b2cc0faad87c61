"""build --stamp: the set's version and the date, in every face's bleed, outside the trim."""
from __future__ import annotations

import json

import pdfplumber
import pypdfium2

import cardgen
from cardgen.pipeline import BuildOptions
from cardgen.units import PT_PER_MM
from cardgen.write.manifest import load_manifest

STAMP = "Demo Deck v0.3 · 2025-04-01"


def build(project, **options):
    (result,) = cardgen.build(["demo"], project, options=BuildOptions(stamp=True, stamp_date="2025-04-01",
                                                                     **options)).sets
    return result, load_manifest(result.manifest)


def stamp_lines(page):
    """(x0, top, x1, bottom) in pt from the page's top of each line of text that is the stamp."""
    return [(m["x0"], m["top"], m["x1"], m["bottom"]) for m in page.search(STAMP, regex=False)]


def test_stamp_is_on_every_face_and_outside_the_trim_box(project):
    result, manifest = build(project, layout="per-card")
    with pdfplumber.open(result.pdf) as pdf:
        for face, page in zip(manifest["faces"], pdf.pages):
            found = stamp_lines(page)
            assert len(found) == 1, (face["card"], face["side"], page.extract_text())
            x0, top, x1, bottom = found[0]
            trim_x0, trim_y0, trim_x1, trim_y1 = (float(v) for v in page.trimbox)  # pt from the bottom
            page_height = float(page.height)
            assert bottom <= page.height + 0.01 and x0 >= 0  # on the page: in the bleed
            assert page_height - top < trim_y0 + 0.01, face  # wholly below the trim's bottom edge
            assert trim_x0 <= x0 and x1 <= trim_x1 + 0.01


def test_stamp_is_visible_in_the_bleed(project):
    result, _ = build(project, layout="per-card")
    unstamped = cardgen.build(["demo"], project, project / "plain", BuildOptions(layout="per-card")).sets[0]

    def grey_pixels(pdf) -> int:
        """Grey pixels in the bottom bleed strip of the first page (Quick Draw, dark blue bleed)."""
        image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=300 / 72).to_pil().convert("RGB")
        bleed_px = round(3 / 25.4 * 300)
        strip = image.crop((0, image.height - bleed_px, image.width, image.height))
        data = strip.tobytes()
        return sum(1 for r, g, b in zip(data[0::3], data[1::3], data[2::3])
                   if abs(r - g) < 12 and abs(g - b) < 12 and r > 70)

    assert grey_pixels(unstamped.pdf) == 0
    assert grey_pixels(result.pdf) > 200  # the grey type on the blue


def test_stamp_sits_below_each_faces_trim_on_bleed_sheets(project):
    result, manifest = build(project, spacing="bleed")
    with pdfplumber.open(result.pdf) as pdf:
        for page_number, page in enumerate(pdf.pages, 1):
            faces = [f for f in manifest["faces"] if f["page"] == page_number]
            found = stamp_lines(page)
            assert len(found) == len(faces)
            height = float(page.height)
            for face in faces:
                x, y = face["x_mm"] * PT_PER_MM, face["y_mm"] * PT_PER_MM  # trim's bottom-left, pt
                w = face["w_mm"] * PT_PER_MM
                below = [line for line in found if x <= line[0] and line[2] <= x + w + 0.01
                         and y - 3 * PT_PER_MM - 0.5 <= height - line[3] and height - line[1] <= y + 0.01]
                assert len(below) == 1, face


def test_stamped_sheets_keep_every_bleed(project):
    """With --stamp and no --spacing, cards are spaced by their bleed so no stamp is cut away."""
    _, manifest = build(project)
    fronts = [f for f in manifest["faces"] if f["side"] == "front" and f["type"] == "action"]
    rows = {}
    for face in fronts:
        rows.setdefault((face["page"], face["y_mm"]), []).append(face["x_mm"])
    gaps = {round(b - a - 63.5, 6) for xs in rows.values() for a, b in zip(sorted(xs), sorted(xs)[1:])}
    assert gaps == {6.0}
