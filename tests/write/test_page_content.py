"""What the writer does with a page's and a form's operators once they are drawn, read back from
the PDF: a content filter (a CMYK build's colour conversion) is given each page's and each form's
operators whole and what it returns is what prints."""
from __future__ import annotations

import pytest

from cardgen.write.face import FaceDrawing
from write.writing import Page, Placement, Slot, card_type, face, form_names, write

KIND = card_type(20, 30, bleed=2)
FACE = "0 0 10 10 re f\n5 5 10 10 re f"


def _two_rectangles(face, parts):
    """A face of two parts: two lines of operators, which the filter must see as they are."""
    return FaceDrawing(None, None, parts=tuple(FACE.split("\n")), pure=True)


def _twice():
    """One face twice on a page: drawn inline, then placed as a form."""
    return [(Page(1, 100, 150), [Placement(face("a", KIND), Slot(1, 10, 20, 20, 30)),
                                 Placement(face("a", KIND), Slot(1, 50, 20, 20, 30))])]


def test_the_content_filter_is_given_each_form_and_page_whole_and_what_it_returns_prints(tmp_path):
    given = []

    def marked(content: bytes) -> bytes:
        given.append(content)
        return content + b"\n% filtered"

    reader = write(tmp_path / "x.pdf", _twice(), _two_rectangles, content_filter=marked)
    page = reader.pages[0]
    (name,) = form_names(page)
    form = page["/Resources"]["/XObject"][name].get_object().get_data()
    content = page.get_contents().get_data()
    # the form first (defined when the face is met again), then the page that places it
    assert given[0] == FACE.encode()
    assert form.endswith(b"\n" + FACE.encode() + b"\n% filtered")
    assert len(given) == 2 and content == given[1] + b"\n% filtered"
    assert b"\n" + FACE.encode() + b"\nQ\n" in given[1] and b"%s Do" % name.encode() in given[1]


@pytest.mark.parametrize("cached", [False, True], ids=["no-cache", "first-build-with-a-cache"])
def test_every_sheet_is_deflated_at_the_writers_level_as_it_is_written(tmp_path, cached):
    """Each page's operators are compressed when the page ends (not kept as text until the file
    is saved), at PAGE_COMPRESSION: the level the writer's speed and size were measured at; a
    build that keeps them for the next (a cache) compresses them the same."""
    import zlib

    from cardgen.cache import FaceCache
    from cardgen.write.pdf import PAGE_COMPRESSION

    pages = _twice() + [(Page(2, 100, 150), [Placement(face("b", KIND), Slot(2, 10, 20, 20, 30))])]
    kept = FaceCache(tmp_path / "faces.cache") if cached else None
    reader = write(tmp_path / "x.pdf", pages, _two_rectangles, kept=kept)
    if kept is not None:
        kept.discard()
    for page in reader.pages:
        contents = page["/Contents"].get_object()
        assert list(contents["/Filter"]) == ["/FlateDecode"]
        assert contents._data == zlib.compress(page.get_contents().get_data(), PAGE_COMPRESSION)
