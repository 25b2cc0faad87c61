"""A worker's text objects made ready to write (draw/prepared.py) write what draw/content.py writes."""
from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from cardgen.draw.content import TEXT, write_text
from cardgen.draw.prepared import Preparer, write
from cardgen.text.fonts import FontBook

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fonts():
    return FontBook(REPO)


def _written(fonts, items) -> tuple[str, str | None]:
    """What write_text writes for ``items``, and what the prepared object writes (None when the
    worker left the text to the build's process), the font already named in the document."""
    face = fonts.face("DejaVu Sans")
    prepared = Preparer(fonts.face_named, None).prepare([(TEXT, items)])
    canvas = Canvas(BytesIO())
    write_text(canvas, (("%s" % face.pdf_name, "8", "named"),), fonts.face_named)  # the document names the font
    start = len(canvas._code)
    write_text(canvas, items, fonts.face_named)
    expected = " ".join(canvas._code[start:])
    if prepared[0][0] != TEXT:
        return expected, None
    start = len(canvas._code)
    write(canvas, [(TEXT, items)], prepared, fonts.face_named, None, None)
    return expected, " ".join(canvas._code[start:])


@pytest.mark.parametrize("text", ["plain words, a dash - and ~tildes~ {braces} [squares]", "", "a (bracketed) word",
                                  "a back\\slash", "caf\u00e9 na\u00efve", "\x7f delete", "tab\there"])
def test_a_prepared_run_writes_what_write_text_writes(fonts, text):
    face = fonts.face("DejaVu Sans")
    items = ("0.250 Tw", (face.pdf_name, "9", "first run"), "0 -10.80 Td", (face.pdf_name, "9", text))
    expected, prepared = _written(fonts, items)
    if text.isascii() and text.isprintable():  # fixed codes in every document: the worker prepares it
        assert prepared == expected
    else:
        assert prepared in (None, expected)


def test_a_font_without_a_fixed_code_for_a_printable_character_leaves_runs_holding_it(fonts, monkeypatch):
    """A run is prepared only when every character's code is the same in any document: a font
    whose fixed codes lack one (here "e") has each run checked character by character."""
    import cardgen.draw.prepared as prepared_module

    fixed = prepared_module.fixed_codes
    monkeypatch.setattr(prepared_module, "fixed_codes", lambda ttf: {code: escaped for code, escaped
                                                                     in fixed(ttf).items() if code != ord("e")})
    face = fonts.face("DejaVu Sans")
    preparer = Preparer(fonts.face_named, None)
    assert preparer.prepare([(TEXT, ((face.pdf_name, "9", "these words"),))]) == (("P", 0),)
    (ready,) = preparer.prepare([(TEXT, ((face.pdf_name, "9", "awkward"),))])
    assert ready[0] == TEXT and ready[3] == ("BT ", " 9 Tf (awkward) Tj ET")


@pytest.mark.parametrize("texts", [("plain words", "more [plain] words"), ("plain words", "a (bracketed) word"),
                                   ("caf\u00e9", "plain"), ("tab\there",), ("a back\\slash",), ("",), ("\x7f",)])
def test_a_text_object_checked_at_once_is_the_one_checked_run_by_run(fonts, texts):
    """The usual text object's runs are checked together; any other, or a run the check refuses,
    is made run by run: both ways make the same object."""
    regular, bold = fonts.face("DejaVu Sans"), fonts.face("DejaVu Sans", bold=True)
    items = ("0.250 Tw",) + tuple((face.pdf_name, "9", text) for face, text in zip((regular, bold) * 2, texts))
    preparer = Preparer(fonts.face_named, None)
    assert preparer._text(4, items) == preparer._careful_text(4, items)
