"""How the Prisoners cards read, measured in the PDFs cardgen writes (both editions): the line
naming the set and its edition, and the size of the reminder every Prisoner Ruling prints."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from ruamel.yaml import YAML
from cardgen.write.manifest import load_manifest
from pdftext import face_texts
from projects import run_cli

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ["prisoners", "prisoners-warp"]
PT_PER_MM = 72 / 25.4
# templates/cosmic/ruling.xml.j2 gives the reminder room to print at 6 pt when the effect is shorter
SHORT_EFFECT = 400


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("prisoners-layout")
    result = run_cli(ROOT, "build", *EDITIONS, "--out", str(out), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    return {name: (out / f"{name}.pdf", load_manifest(out / f"{name}.json")) for name in EDITIONS}


def variables(edition: str) -> dict:
    return YAML(typ="safe").load((ROOT / "data" / edition / "set.yaml").read_text(encoding="utf-8"))


def fronts(manifest: dict, *types: str) -> list[dict]:
    return [f for f in manifest["faces"] if f["side"] == "front" and f["type"] in types]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_set_line_breaks_between_title_and_edition(built, edition):
    """The foot of a Destiny card, a Ruling and a Clarification: the set's title on one line and
    its edition on the next. Run on as "title · edition", it broke inside the edition ("...
    PRISONER RULES" / "version 1.1, Oct 1991") or left the dot alone at a line's end ("The WARP
    Prisoners ·")."""
    pdf, manifest = built[edition]
    data = variables(edition)
    faces = fronts(manifest, "capture", "ruling", "clarification")
    assert {f["type"] for f in faces} == {"capture", "ruling", "clarification"}
    for face, text in zip(faces, face_texts(pdf, faces)):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert lines[-2:] == [data["title"], data["variables"]["edition"]], (face["card"], lines[-3:])


def italic_sizes(pdf_path: Path, face: dict) -> list[float]:
    """The sizes (pt) of the italic characters inside the face: on a Ruling, its reminder."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        page = pdf[face["page"] - 1]
        text = page.get_textpage()
        left, bottom = face["x_mm"] * PT_PER_MM, face["y_mm"] * PT_PER_MM
        right, top = left + face["w_mm"] * PT_PER_MM, bottom + face["h_mm"] * PT_PER_MM
        box = raw.FS_RECTF()
        sizes = []
        for index in range(raw.FPDFText_CountChars(text.raw)):
            if raw.FPDFText_IsGenerated(text.raw, index):
                continue
            raw.FPDFText_GetLooseCharBox(text.raw, index, box)
            x, y = (box.left + box.right) / 2, (box.top + box.bottom) / 2
            if not (left <= x <= right and bottom <= y <= top):
                continue
            name = bytes(200)
            length = raw.FPDFText_GetFontInfo(text.raw, index, name, 200, None)
            if b"Oblique" in name[:length] or b"Italic" in name[:length]:
                sizes.append(raw.FPDFText_GetFontSize(text.raw, index))
        return sizes
    finally:
        pdf.close()


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_rulings_reminder_prints_at_6_pt(built, edition):
    """Every Ruling prints the seed's sentences that it is played like an Edict but is none; in
    its 11.3 mm they shrank to 5.5 pt. A Ruling whose effect is short gives them room for 6 pt."""
    pdf, manifest = built[edition]
    rows = {row["name"]: row for row in YAML(typ="safe").load((ROOT / "data" / edition / "rulings.yaml").read_text(encoding="utf-8"))}
    checked = 0
    for face in fronts(manifest, "ruling"):
        if len(rows[face["card"]]["effect"]) >= SHORT_EFFECT:
            continue
        sizes = italic_sizes(pdf, face)
        assert len(sizes) > 250, face["card"]  # the whole reminder
        assert min(sizes) >= 5.99, (face["card"], min(sizes))
        checked += 1
    assert checked >= 8  # of 12 and 10 Ruling cards (Prisoner Swap and Raid on Entebbe are longer)


def test_the_star_never_crosses_the_set_name_on_a_star_disc(built):
    """The eight-pointed star's lowest point reached through the set's name at the foot of a Star
    Disc: its outline, in the player's colour, cut through "Encounter: The". No pixel of the
    player's colour may lie among the words now (they stand on a plate the point runs behind)."""
    pdf_path, manifest = built["prisoners-warp"]
    faces = fronts(manifest, "star-disc")
    assert len(faces) == 6
    dpi = 300
    px = dpi / 25.4
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        for face in faces:
            page = pdf[face["page"] - 1]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            left, top = face["x_mm"] * px, image.height - (face["y_mm"] + face["h_mm"]) * px
            band = image.getpixel((round(left + 2 * px), round(top + face["h_mm"] / 2 * px)))  # the rim
            text = page.get_textpage()
            words = text.search("Cosmic Encounter", match_case=True)
            found = []
            while (hit := words.get_next()) is not None:
                found.append(hit)
            boxes = []
            for start, count in found:
                for index in range(start, start + count + 20):
                    boxes.append(text.get_charbox(index, loose=False))
            inside = [b for b in boxes if b[2] > b[0] and left / px * PT_PER_MM <= b[0] <= (left / px + face["w_mm"]) * PT_PER_MM]
            assert len(inside) >= 30, face["card"]
            x0, x1 = min(b[0] for b in inside), max(b[2] for b in inside)
            y0, y1 = min(b[1] for b in inside), max(b[3] for b in inside)
            scale = dpi / 72
            crossing = [(x, y) for x in range(round(x0 * scale), round(x1 * scale))
                        for y in range(round(image.height - y1 * scale), round(image.height - y0 * scale))
                        if sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), band)) < 60]
            assert crossing == [], (face["card"], len(crossing))
    finally:
        pdf.close()
