"""write_pdf's faces as the pages stream past (pdf._FaceDrawer): every face that cannot be laid
out is reported once, after every other face has been tried; forms a page places stay defined
until that page is written, however few forms are kept."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError, Problem
from cardgen.write import pdf
from write.writing import Page, Placement, Slot, drawn, face, form_names, painted, write


def _page(number, *keys):
    return Page(number, 100, 150), [Placement(face(key, name=key), Slot(number, 5 + 22 * i, 20, 20, 30))
                                    for i, key in enumerate(keys)]


def test_every_face_that_cannot_be_laid_out_is_reported_once_and_every_other_is_tried(tmp_path):
    tried = []

    def drawing(face, parts):
        tried.append(face.card.name)
        if face.card.name.startswith("bad"):
            raise CardgenError(Problem("the text does not fit", card=face.card.name))
        return drawn(face, parts)

    pages = [_page(1, "a", "bad1", "a", "b"), _page(2, "bad1", "c", "bad2", "a", "c", "b")]
    told = []
    with pytest.raises(CardgenError) as failure:
        write(tmp_path / "x.pdf", pages, drawing, proof_boxes=True, on_page=lambda page, _: told.append(page.number))
    assert [str(problem) for problem in failure.value.problems] == [
        'card "bad1": the text does not fit', 'card "bad2": the text does not fit']
    # a face is laid out at most once after the first failure (a's second use is its last)
    assert tried == ["a", "bad1", "a", "b", "c", "bad2"]
    assert told == [1, 2]


def test_a_form_placed_again_on_a_page_stays_defined_while_that_page_defines_others(tmp_path, monkeypatch):
    """Only the latest FORMS forms are kept (here one): a form the page being drawn places is let
    go only once the page is written, never while the page still names it."""
    monkeypatch.setattr(pdf._FaceDrawer, "FORMS", 1)
    pages = [_page(1, "a", "a"), _page(2, "a", "b", "b", "c", "c"), _page(3, "a", "a", "b"), _page(4, "d", "d", "e", "e")]
    reader = write(tmp_path / "x.pdf", pages)
    assert [len(form_names(page)) for page in reader.pages] == [1, 3, 2, 2]
    for number, (_, placements) in enumerate(pages):
        boxes = [box for _, box in painted(reader, number)]
        assert boxes == [(slot.x, slot.y, slot.x + 20.0, slot.y + 30.0) for slot in (p.slot for p in placements)]


def test_a_face_met_again_after_many_others_becomes_a_form(tmp_path):
    """Its drawing is no longer among the latest kept (RECENT): it is laid out again."""
    others = [f"o{i}x" for i in range(pdf._FaceDrawer.RECENT + 6)]
    pages = [_page(1, "a")] + [_page(2 + i // 4, *others[i:i + 4]) for i in range(0, len(others), 4)]
    pages.append(_page(len(pages) + 1, "a", "o0x"))
    reader = write(tmp_path / "x.pdf", pages)
    last = reader.pages[-1]
    assert len(form_names(last)) == 2 and last.get_contents().get_data().count(b" Do") == 2
    assert [box for _, box in painted(reader, len(pages) - 1)] == [(5.0, 20.0, 25.0, 50.0), (27.0, 20.0, 47.0, 50.0)]
