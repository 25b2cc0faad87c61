"""A direct element's operators are made once for its attributes and face size, and reused."""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from cardgen.draw.context import FaceGeometry
from cardgen.render.markup import parse_markup
from cardgen.write.face import _direct_ops

MARKUP = '<card><rect x="1" y="2" w="10" h="5" r="1" fill="#102030"/><rect x="1" y="2" w="10" h="5" r="1" fill="#102030"/></card>'


def test_the_same_attributes_on_another_face_size_are_drawn_anew(tmp_path):
    first, second = parse_markup(MARKUP, "c", None)
    assert first.attrs is second.attrs  # one attributes object for equal elements
    canvas = Canvas(str(tmp_path / "x.pdf"))
    poker, mini = FaceGeometry(63.5, 88.9), FaceGeometry(41, 63)
    on_poker = _direct_ops(canvas, first, poker, None)
    assert _direct_ops(canvas, second, poker, None) is on_poker  # made once
    on_mini = _direct_ops(canvas, first, mini, None)
    assert on_mini != on_poker and canvas._code == []  # y is measured from the top: other numbers
    # the bottom edge: 88.9 - 2 - 5 mm up from the poker card's foot, 63 - 2 - 5 on the mini
    assert on_poker.startswith("q 0.06275 0.1255 0.1882 rg 5.669 232.157 m") and on_poker.endswith(" h f Q")
    assert on_mini.startswith("q 0.06275 0.1255 0.1882 rg 5.669 158.740 m")


def test_the_operators_are_the_elements_alone_and_what_was_drawn_before_stays(tmp_path):
    (element, _) = parse_markup(MARKUP.replace('fill="#102030"', 'fill="#405060"'), "c", None)
    canvas = Canvas(str(tmp_path / "x.pdf"))
    canvas._code[:] = ["q", "1 0 0 1 5 5 cm"]  # a face being placed: its slot's operators come first
    ops = _direct_ops(canvas, element, FaceGeometry(63.5, 88.9), None)
    assert canvas._code == ["q", "1 0 0 1 5 5 cm"]
    assert ops.startswith("q 0.251 0.3137 0.3765 rg 5.669 232.157 m") and ops.endswith(" h f Q")
