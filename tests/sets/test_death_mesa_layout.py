"""How the Dead Men's Deck cards look, read from the PDF cardgen writes: the optional variant's
box hugs its text (it used to take a share of the card by character count, so a two-line card
text sat at the top and a three-line variant at the top of a box twice its height)."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from cardgen.write.manifest import load_manifest
from pdftext import page_chars
from projects import run_cli

ROOT = Path(__file__).resolve().parents[2]
SET = "death-mesa"
MM_PER_PT = 25.4 / 72
DPI = 200
BOX_FILL = (0xE0, 0xD3, 0xB4)  # templates/death-mesa/dmd.xml.j2: the optional box
# The cards whose variant and card text both print at full size (Unfinished Business does not).
SHORT_VARIANTS = ["Bad Moon Rising", "Hidden Stash", "Last Testament"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("death-mesa-layout")
    result = run_cli(ROOT, "build", SET, "--out", str(out), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    faces = {f["card"]: f for f in load_manifest(out / f"{SET}.json")["faces"]
             if f["type"] == "dmd" and f["side"] == "front"}
    return out / f"{SET}.pdf", faces, page_chars(out / f"{SET}.pdf")


def face_chars(face: dict, page: dict) -> list[dict]:
    """The characters inside the face, their box in mm from the face's top-left corner."""
    left, top = face["x_mm"], page["height"] * MM_PER_PT - face["y_mm"] - face["h_mm"]
    found = []
    for char in page["chars"]:
        x, y = (char["x0"] + char["x1"]) / 2 * MM_PER_PT - left, (char["top"] + char["bottom"]) / 2 * MM_PER_PT - top
        if 0 <= x <= face["w_mm"] and 0 <= y <= face["h_mm"] and char["text"].strip():
            found.append({**char, "top_mm": char["top"] * MM_PER_PT - top, "bottom_mm": char["bottom"] * MM_PER_PT - top})
    return found


def box_rows(pdf_path: Path, face: dict) -> tuple[float, float]:
    """The top and bottom (mm from the face's top) of the optional box: the rows of the face
    whose middle column is the box's fill."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        image = pdf[face["page"] - 1].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    px = DPI / 25.4
    left = face["x_mm"] * px
    top = image.height - (face["y_mm"] + face["h_mm"]) * px
    column = round(left + face["w_mm"] / 2 * px)
    rows = [y for y in range(round(top), round(top + face["h_mm"] * px))
            if all(abs(a - b) <= 2 for a, b in zip(image.getpixel((column, y)), BOX_FILL))]
    assert rows, face["card"]
    return (rows[0] - top) / px, (rows[-1] - top) / px


@pytest.mark.parametrize("name", SHORT_VARIANTS)
def test_a_short_variants_box_hugs_its_text(built, name):
    pdf_path, faces, pages = built
    face = faces[name]
    box_top, box_bottom = box_rows(pdf_path, face)
    chars = face_chars(face, pages[face["page"] - 1])
    inside = [c for c in chars if box_top <= (c["top_mm"] + c["bottom_mm"]) / 2 <= box_bottom]
    above = [c for c in chars if 17 < c["bottom_mm"] < box_top]
    assert "".join(c["text"] for c in inside).startswith("Optional:")
    # the box's empty space: under 3 mm above and below its text (it was 12 mm below)
    assert min(c["top_mm"] for c in inside) - box_top < 3, name
    assert box_bottom - max(c["bottom_mm"] for c in inside) < 3, name
    # the card text stands in the middle of the space between the divider and the box, as on
    # the cards without a variant (it was at the top, 20 mm clear of the box)
    lines: list[list[dict]] = []
    for char in sorted(above, key=lambda c: c["bottom_mm"]):
        if lines and char["bottom_mm"] - lines[-1][0]["bottom_mm"] < 1.5:
            lines[-1].append(char)
        else:
            lines.append([char])
    # centred, as on the other cards (it was ranged left); a line that starts with an icon (a
    # picture, not a character) is read 1.8 mm off centre
    for line in lines:
        left = min(c["x0"] for c in line) * MM_PER_PT - face["x_mm"]
        right = max(c["x1"] for c in line) * MM_PER_PT - face["x_mm"]
        assert abs((left + right) / 2 - face["w_mm"] / 2) < 2.2, (name, "".join(c["text"] for c in line))
    gap_over = min(c["top_mm"] for c in above) - 17.6
    gap_under = box_top - max(c["bottom_mm"] for c in above)
    assert abs(gap_over - gap_under) < 3, (name, gap_over, gap_under)

