"""Every primitive draws through ``draw_element`` on its own, outside the build's face drawer."""
from __future__ import annotations

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

import cardgen
from cardgen.draw import draw_element
from cardgen.draw.context import FaceGeometry
from cardgen.pipeline import Session, render_set

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def test_a_laid_out_text_box_draws_through_its_primitive(project, tmp_path):
    card_set = cardgen.load_set("demo", project)
    session = Session(project, cache=False)
    rendered = render_set(card_set, session)
    card = next(c for c in card_set.cards if c.name == "Long Winded")
    front, _ = next(rendered.pairs([card]))
    markup = front.markup
    laid = rendered.lay_out(front)
    path = tmp_path / "one.pdf"
    canvas = Canvas(str(path), initialFontName=session.fonts.face(None).pdf_name)
    geometry = FaceGeometry(markup.card_type.size.w, markup.card_type.size.h)
    for element, prepared in laid.items:
        draw_element(canvas, element, geometry, prepared)
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(path) as pdf:
        words = pdf.pages[0].extract_text().split()
    assert words[:6] == "Long Winded This text goes on".split()  # the title, then the body
    assert words[-1] == "small."
