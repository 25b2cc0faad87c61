"""What a worker process sends for a face (``record_face``, run in-process here) is what drawing
the fresh layout returns: the build's process replays those parts for the same bytes."""
from __future__ import annotations

import pytest
from reportlab.pdfgen.canvas import Canvas

import cardgen
from cardgen.draw.content import ELEMENT
from cardgen.pipeline import Session, render_set
from cardgen.write import face as face_module
from cardgen.write.face import FaceDrawing, draw_face, record_face

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _faces(project):
    """Every distinct face of the demo set, the shared back with an image on it (drawn anew)."""
    back = project / "templates/demo/back.xml.j2"
    back.write_text(back.read_text(encoding="utf-8").replace(
        "</card>", '  <image x="5" y="5" w="10" h="10" src="icons/star.svg"/>\n</card>'), encoding="utf-8")
    card_set = cardgen.load_set("demo", project)
    session = Session(project, cache=False)
    rendered = render_set(card_set, session)
    faces = {}
    for pair in rendered.pairs(card_set.cards):
        for face in pair:
            if face is not None:
                faces.setdefault(face.markup_key, face)
    return session, rendered, list(faces.values())


def test_a_worker_records_the_parts_a_fresh_drawing_returns(project, tmp_path):
    session, rendered, faces = _faces(project)
    font = session.fonts.face(None).pdf_name
    fresh = Canvas(str(tmp_path / "fresh.pdf"), initialFontName=font)
    replayed = Canvas(str(tmp_path / "replayed.pdf"), initialFontName=font)
    scratch = Canvas(str(tmp_path / "scratch.pdf"), initialFontName=font)
    kinds = set()
    for face in faces:
        laid = rendered.lay_out(face)
        face_module._DRAWN.clear()  # each way makes its direct elements' operators itself
        recorded = record_face(scratch, face.card_type, laid)
        assert scratch._code == []  # the scratch canvas keeps nothing
        face_module._DRAWN.clear()
        kept = []
        drawing = FaceDrawing(session.fonts.face_named, rendered.resources.paint_icon, laid=laid, keep=kept.append)
        assert draw_face(fresh, face.card_type, drawing) == recorded and kept == [recorded], face.card.name
        # the build's process replays what the worker sent: the operators of a fresh drawing
        assert draw_face(replayed, face.card_type, rendered.drawing(face, recorded)) == recorded
        assert replayed._code == fresh._code, face.card.name
        kinds |= {"ops" if part.__class__ is str else part[0] for part in recorded}
    assert {"ops", ELEMENT} <= kinds and len(kinds) >= 3  # direct elements, an image, text
    # an image is recorded by its index among the face's elements
    back = next(face for face in faces if face.side == "back")
    laid = rendered.lay_out(back)
    (index,) = [part[1] for part in record_face(scratch, back.card_type, laid) if part.__class__ is not str
                and part[0] == ELEMENT]
    assert laid.items[index][0].tag == "image"
