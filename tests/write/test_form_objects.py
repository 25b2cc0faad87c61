"""The form a face used twice becomes, read back from the PDF: its box is the face's bleed box,
it carries the stamp, and its resources name every graphics state (opacity), shading
(gradient) and image its drawing uses, which reportlab itself leaves out of a form's."""
from __future__ import annotations

from reportlab.lib.colors import Color

from cardgen.write.face import FaceDrawing
from write.writing import PT_PER_MM, Page, Placement, Slot, card_type, drawn, face, form_names, painted, write

K = PT_PER_MM


def _twice(kind):
    """Two copies of one face on a page: the first drawn inline, the second placed as a form."""
    return [(Page(1, 100, 150), [Placement(face("a", kind), Slot(1, 10, 20, kind.size.w, kind.size.h)),
                                 Placement(face("a", kind), Slot(1, 50, 20, kind.size.w, kind.size.h))])]


def _form(reader):
    xobjects = reader.pages[0]["/Resources"]["/XObject"]
    (form,) = [xobjects[name].get_object() for name in xobjects if xobjects[name].get_object()["/Subtype"] == "/Form"]
    return form


def test_the_second_use_of_a_face_places_a_form_the_size_of_its_bleed_box(tmp_path):
    kind = card_type(20, 30, bleed=2.5)
    reader = write(tmp_path / "x.pdf", _twice(kind))
    assert [round(float(v) / K, 4) for v in _form(reader)["/BBox"]] == [-2.5, -2.5, 22.5, 32.5]
    # the copy drawn inline and the copy placed as a form cover their own slots
    assert painted(reader) == [("f", (10.0, 20.0, 30.0, 50.0)), ("f", (50.0, 20.0, 70.0, 50.0))]
    assert reader.pages[0].get_contents().get_data().count(b" Do") == 1


def test_a_third_use_places_the_same_form_again(tmp_path):
    kind = card_type(20, 30, bleed=2)
    pages = [(Page(1, 100, 150), [Placement(face("a", kind), Slot(1, x, 20, 20, 30)) for x in (5, 30, 55)])]
    reader = write(tmp_path / "x.pdf", pages)
    assert len(form_names(reader.pages[0])) == 1
    assert reader.pages[0].get_contents().get_data().count(b" Do") == 2
    assert [box for _, box in painted(reader)] == [(5.0, 20.0, 25.0, 50.0), (30.0, 20.0, 50.0, 50.0),
                                                   (55.0, 20.0, 75.0, 50.0)]


def _stamps(reader):
    """(font size, x, y) of the stamp's text, in pt, on the page and in its forms."""
    import re

    page = reader.pages[0]
    streams = [page.get_contents().get_data()] + [
        page["/Resources"]["/XObject"][name].get_object().get_data() for name in form_names(page)]
    found = []
    for data in streams:
        found += [(float(size), float(x), float(y)) for size, x, y in re.findall(
            rb"BT /F\d+ ([\d.]+) Tf [\d.]+ TL ET\n\.35 g\nBT 1 0 0 1 ([\d.]+) (-[\d.]+) Tm \(v1\) Tj", data)]
    return found


def test_the_stamp_is_in_the_inline_face_and_in_the_form(tmp_path):
    kind = card_type(20, 30, bleed=2)
    reader = write(tmp_path / "x.pdf", _twice(kind), stamp="v1")
    size = round(2 * K * 0.6, 5)
    assert [(round(s, 5), x, y) for s, x, y in _stamps(reader)] == [(size, round(K, 6), round(-1.5 * K, 6))] * 2


def test_a_narrow_bleed_gets_a_smaller_stamp_and_no_bleed_none(tmp_path):
    narrow = card_type(20, 30, bleed=0.5)
    reader = write(tmp_path / "x.pdf", _twice(narrow), stamp="v1")
    assert [round(s, 4) for s, _, _ in _stamps(reader)] == [round(0.5 * K * 0.6, 4)] * 2
    none = card_type(20, 30, bleed=0)
    reader = write(tmp_path / "y.pdf", _twice(none), stamp="v1")
    page = reader.pages[0]
    assert _stamps(reader) == [] and b"(v1)" not in page.get_contents().get_data()
    assert not any(b"(v1)" in page["/Resources"]["/XObject"][name].get_object().get_data() for name in form_names(page))


def test_without_a_stamp_nothing_is_written_in_the_bleed(tmp_path):
    reader = write(tmp_path / "x.pdf", _twice(card_type(20, 30, bleed=2)))
    assert _stamps(reader) == [] and b" Tj" not in reader.pages[0].get_contents().get_data()


def _painting(paint):
    """Faces drawn through reportlab (an icon part, not plain operators)."""
    def drawing(face, parts):
        return FaceDrawing(None, paint, parts=(("I", "icon", 0.0, 0.0, 10.0),))
    return drawing


def _translucent(canvas, *args):
    canvas.setFillAlpha(0.5)
    canvas.rect(0, 0, 10, 10, stroke=0, fill=1)


def _gradient(canvas, *args):
    canvas.saveState()
    canvas.linearGradient(0, 0, 20, 20, (Color(1, 0, 0), Color(0, 0, 1)), extend=False)
    canvas.restoreState()


def test_a_form_drawn_with_opacity_names_its_graphics_state(tmp_path):
    reader = write(tmp_path / "x.pdf", _twice(card_type()), _painting(_translucent))
    resources = _form(reader)["/Resources"]
    states = resources["/ExtGState"]
    assert [float(state.get_object()["/ca"]) for state in states.values()] == [0.5]
    assert "/Font" in resources and "/Shading" not in resources
    assert list(resources["/ProcSet"]) == ["/PDF", "/Text", "/ImageB", "/ImageC", "/ImageI"]
    data = _form(reader).get_data().decode("latin-1")
    assert all(f"/{name[1:]} gs" in data for name in states)


def test_a_form_drawn_with_a_gradient_names_its_shading(tmp_path):
    reader = write(tmp_path / "x.pdf", _twice(card_type()), _painting(_gradient))
    resources = _form(reader)["/Resources"]
    (shading,) = resources["/Shading"].values()
    assert shading.get_object()["/ShadingType"] == 2
    assert "/ExtGState" not in resources and "/Font" in resources
    assert f"{next(iter(resources['/Shading']))} sh" in _form(reader).get_data().decode("latin-1")


def test_a_form_with_both_names_both(tmp_path):
    def both(canvas, *args):
        _translucent(canvas)
        _gradient(canvas)

    resources = _form(write(tmp_path / "x.pdf", _twice(card_type()), _painting(both)))["/Resources"]
    assert len(resources["/ExtGState"]) == 1 and len(resources["/Shading"]) == 1


def test_a_translucent_form_keeps_the_images_it_draws(tmp_path):
    from PIL import Image

    picture = tmp_path / "p.png"
    Image.new("RGB", (4, 4), (200, 10, 10)).save(picture)

    def image(canvas, *args):
        _translucent(canvas)
        canvas.drawImage(str(picture), 0, 0, 20, 20)

    resources = _form(write(tmp_path / "x.pdf", _twice(card_type()), _painting(image)))["/Resources"]
    (xobject,) = resources["/XObject"].values()
    assert xobject.get_object()["/Subtype"] == "/Image" and len(resources["/ExtGState"]) == 1
