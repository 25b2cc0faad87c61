"""Opacity reaches the PDF: shared faces (form XObjects) carry their graphics states."""
from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

import cardgen
from cardgen.write.manifest import load_manifest

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

PT_PER_MM = 72 / 25.4


def test_opacity_prints_on_shared_and_single_faces(project):
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace(
        "</card>", '<rect x="2" y="2" w="16" h="2" fill="#ffffff" opacity="0.3"/>\n</card>'))
    (project / "data/demo/cards.yaml").write_text(
        "- {name: Shared, type: token, count: 3, label: S}\n- {name: Single, type: token, label: X}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], project).sets[0]
    reader = PdfReader(result.pdf)
    forms = [x.get_object() for page in reader.pages for x in page["/Resources"].get("/XObject", {}).values()]
    assert forms, "the shared token should be a form"
    for form in forms:
        states = form["/Resources"]["/ExtGState"]
        assert [s.get_object()["/ca"] for s in states.values()] == [0.3]
    faces = load_manifest(result.manifest)["faces"]
    pdf = pdfium.PdfDocument(result.pdf)
    for face in faces:
        image = pdf[face["page"] - 1].render(scale=4).to_pil().convert("RGB")
        x = (face["x_mm"] + 10) * PT_PER_MM * 4
        y = image.size[1] - (face["y_mm"] + face["h_mm"] - 3) * PT_PER_MM * 4
        # 30 % white over the token's green #2e8b57 (46, 139, 87)
        expected = tuple(round(0.3 * 255 + 0.7 * c) for c in (46, 139, 87))
        assert all(abs(a - b) <= 2 for a, b in zip(image.getpixel((int(x), int(y))), expected)), face["card"]
