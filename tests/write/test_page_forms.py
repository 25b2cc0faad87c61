"""A page names each form or image it places once (an icon on every face of a sheet): in its
XObject dictionary, and in the page the cache keeps whole for the next build, which then
writes the same bytes from it."""
from __future__ import annotations

from cardgen.cache import FaceCache
from cardgen.write.face import FaceDrawing
from write.writing import Page, Placement, Slot, card_type, face, form_names, write

KIND = card_type(20, 30, bleed=2)


def _icon(canvas, name, x, baseline, size):
    """An icon drawn as a form, defined where it is first used (as an SVG icon is)."""
    if not canvas._doc.hasForm(name):
        canvas.beginForm(name)
        canvas.rect(0, 0, 5, 5, stroke=0, fill=1)
        canvas.endForm()
    canvas.doForm(name)


def _drawing(cache: FaceCache):
    """Each face's drawing, kept in ``cache`` as a build keeps the drawings it makes."""
    def drawing(f, parts=None) -> FaceDrawing:
        number = ord(f.content_hash[0])
        parts = (f"0 0 {number} 5 re f", ("I", "star", 1.0, 2.0, 9.0))
        cache.put(f.content_hash, parts)
        return FaceDrawing(None, _icon, parts=parts, pure=True)

    return drawing


def _pages():
    return [(Page(number, 100, 150), [Placement(face(key, KIND), Slot(number, x, 20, 20, 30))
                                      for key, x in zip(keys, (5, 30, 55))])
            for number, keys in ((1, "abc"), (2, "def"))]


def test_a_page_names_the_icon_of_its_three_faces_once_and_keeps_it_once(tmp_path):
    cache = FaceCache(tmp_path / "faces.bin")
    kept: dict = {}
    remember = cache.remember
    cache.remember = lambda key, value, pack=True: kept.__setitem__(key, value) or remember(key, value, pack)
    first = write(tmp_path / "first.pdf", _pages(), _drawing(cache), kept=cache)
    cache.save()
    assert form_names(first.pages[0]) == form_names(first.pages[1]) == ["/FormXob.star"]
    pages = [value for key, value in kept.items() if key.startswith("pagewhole:")]
    assert [page[2] for page in pages] == [("star",), ("star",)]  # the forms each kept page places: each once
    again = FaceCache(tmp_path / "faces.bin")
    write(tmp_path / "again.pdf", _pages(), _drawing(again), kept=again)
    # the second page written whole from the cache (the first defines the form: it is drawn)
    assert again.reused == 3
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "first.pdf").read_bytes()
