"""Backs exactly behind fronts: long and short edge duplex, gutter fold."""
from __future__ import annotations

import pytest

from cardgen.sheets import LineMark, SheetOptions, TextMark, impose

from .helpers import box, by_page, card_type, grow, overlap, pairs


def grid_index(slots):
    """(row, column) of each slot, rows counted from the top."""
    xs = sorted({round(s.x, 6) for s in slots})
    ys = sorted({round(s.y, 6) for s in slots}, reverse=True)
    return [(ys.index(round(s.y, 6)), xs.index(round(s.x, 6))) for s in slots], len(ys), len(xs)


def fronts_and_backs(imposition):
    fronts = {p.face.card.name: p for p in imposition.placements if p.face.side == "front"}
    backs = {p.face.card.name: p for p in imposition.placements if p.face.side == "back"}
    return fronts, backs


@pytest.mark.parametrize("paper", ["letter", "a4", "a3"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_portrait_long_edge_mirrors_columns_short_edge_reverses_rows(paper, duplex):
    options = SheetOptions(paper=paper, orientation="portrait", duplex=duplex)
    full = len(by_page(impose(pairs(40, card_type(), backs=False), options))[1])
    imposition = impose(pairs(full, card_type()), options)
    front_page, back_page = imposition.pages[0], imposition.pages[1]
    assert front_page.w < front_page.h
    pages = by_page(imposition)
    fronts = pages[1]
    assert all(p.face.side == "front" for p in fronts) and all(p.face.side == "back" for p in pages[2])
    index, nrows, ncols = grid_index([p.slot for p in fronts])
    where = {p.face.card.name: i for p, i in zip(fronts, index)}
    slot_at = {i: p.slot for p, i in zip(fronts, index)}
    W, H = back_page.w, back_page.h
    for back in pages[2]:
        row, col = where[back.face.card.name]
        expected = slot_at[(row, ncols - 1 - col)] if duplex == "long" else slot_at[(nrows - 1 - row, col)]
        # The grid slot the issue names, and exactly behind the front: mirrored page coordinates.
        assert box(back.slot) == pytest.approx(box(expected), abs=1e-9)
        front = next(p.slot for p in fronts if p.face.card.name == back.face.card.name)
        if duplex == "long":
            assert back.slot.x == pytest.approx(W - front.x - front.w, abs=1e-9)
            assert back.slot.y == pytest.approx(front.y, abs=1e-9)
        else:
            assert back.slot.x == pytest.approx(front.x, abs=1e-9)
            assert back.slot.y == pytest.approx(H - front.y - front.h, abs=1e-9)
        assert back.slot.rotation == 0


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_landscape_page_turns_over_its_own_long_edge(duplex):
    # Poker on landscape letter: 4 x 2. Its long edge is horizontal: long-edge duplex
    # reverses the rows, short-edge mirrors the columns.
    imposition = impose(pairs(8, card_type()), SheetOptions(paper="letter", duplex=duplex, orientation="landscape"))
    page = imposition.pages[0]
    assert page.w > page.h
    fronts, backs = fronts_and_backs(imposition)
    for name, front in fronts.items():
        back = backs[name].slot
        if duplex == "long":
            assert (back.x, back.y) == pytest.approx((front.slot.x, page.h - front.slot.y - front.slot.h), abs=1e-9)
        else:
            assert (back.x, back.y) == pytest.approx((page.w - front.slot.x - front.slot.w, front.slot.y), abs=1e-9)


def test_back_pages_follow_each_front_page_only_when_it_has_backs():
    kind = card_type()
    mixed = pairs(9, kind, backs=False, prefix="n") + pairs(3, kind, prefix="b")
    imposition = impose(mixed, SheetOptions(paper="letter"))
    pages = by_page(imposition)
    assert len(imposition.pages) == 3
    assert {p.face.side for p in pages[1]} == {"front"}
    assert [p.face.card.name for p in pages[2]] == ["b1", "b2", "b3"]
    assert [(p.face.card.name, p.face.side) for p in pages[3]] == [("b1", "back"), ("b2", "back"), ("b3", "back")]
    # A partial page: the backs still land behind their own fronts.
    fronts, backs = fronts_and_backs(imposition)
    for name, back in backs.items():
        front = fronts[name].slot
        assert (back.slot.x, back.slot.y) == pytest.approx((215.9 - front.x - front.w, front.y), abs=1e-9)
    # Crop marks on a back page are the front page's, mirrored (here the same: the grid is centred
    # and its top row full).
    def rounded(page):
        return [v for m in sorted((m.x0, m.y0, m.x1, m.y1) for m in page.marks if isinstance(m, LineMark))
                for v in m]
    assert rounded(imposition.pages[2]) == pytest.approx(rounded(imposition.pages[1]), abs=1e-9)


def test_butt_clips_of_backs_are_the_mirrored_front_clips():
    imposition = impose(pairs(6, card_type()), SheetOptions(paper="letter", orientation="portrait"))
    fronts, backs = fronts_and_backs(imposition)
    W = imposition.pages[0].w
    for name, front in fronts.items():
        x0, y0, x1, y1 = front.slot.clip
        assert backs[name].slot.clip == pytest.approx((W - x1, y0, W - x0, y1), abs=1e-9)


# Poker on a4 portrait: a vertical fold holds 1 x 3, a horizontal one 2 x 1. On letter, landscape
# with a horizontal fold holds the most (see below).
@pytest.mark.parametrize("paper, orientation, fold", [("a4", "portrait", "vertical"),
                                                      ("letter", "landscape", "horizontal"),
                                                      ("letter", "auto", "horizontal")])
def test_gutter_fold_backs_are_the_mirror_image_of_their_fronts(paper, orientation, fold):
    kind = card_type()
    imposition = impose(pairs(5, kind) + pairs(1, kind, backs=False, prefix="x"),
                        SheetOptions(paper=paper, layout="gutter-fold", orientation=orientation))
    page = imposition.pages[0]
    W, H = page.w, page.h
    fronts, backs = fronts_and_backs(imposition)
    assert "x1" not in backs
    for name, back in backs.items():
        front = fronts[name].slot
        assert back.slot.page == front.page
        if fold == "vertical":
            assert (back.slot.x, back.slot.y) == pytest.approx((W - front.x - front.w, front.y), abs=1e-9)
            assert back.slot.rotation == 0
            assert front.x + front.w < W / 2 < back.slot.x
        else:
            assert (back.slot.x, back.slot.y) == pytest.approx((front.x, H - front.y - front.h), abs=1e-9)
            assert back.slot.rotation == 180
            assert back.slot.y + back.slot.h < H / 2 < front.y
    # The fold is marked: a dashed line along the page's centre line and a "fold" label, clear of faces.
    folds = [m for m in page.marks if isinstance(m, LineMark) and m.kind == "fold"]
    labels = [m for m in page.marks if isinstance(m, TextMark)]
    assert len(folds) == 1 and folds[0].dash and [m.text for m in labels] == ["fold"]
    line = folds[0]
    if fold == "vertical":
        assert line.x0 == line.x1 == pytest.approx(W / 2)
    else:
        assert line.y0 == line.y1 == pytest.approx(H / 2)
    for placement in imposition.placements:
        assert not overlap(grow(box(placement.slot), kind.bleed), (min(line.x0, line.x1), min(line.y0, line.y1),
                                                                   max(line.x0, line.x1), max(line.y0, line.y1)),
                           eps=-1e-9)


def test_gutter_fold_picks_the_page_and_fold_that_hold_the_most_pairs():
    # Poker on letter: portrait, fold vertical: 1 x 2; portrait, fold horizontal: 3 x 1;
    # landscape, fold horizontal: 4 x 1 (the most); landscape, fold vertical: 1 x 2.
    imposition = impose(pairs(9, card_type()), SheetOptions(paper="letter", layout="gutter-fold"))
    page = imposition.pages[0]
    assert page.w > page.h
    assert [len(v) for v in by_page(imposition).values()] == [8, 8, 2]
    # 40 x 60 cards on a4 portrait (room 6 mm a side, 5.5 mm from the fold to the trim):
    # vertical fold 2 x 4 = 8 (93.5 x 285 mm a half), horizontal fold 4 x 2 = 8 (198 x 137 mm):
    # a tie, which goes to the fold parallel to the long edge.
    imposition = impose(pairs(1, card_type(40, 60)), SheetOptions(paper="a4", layout="gutter-fold",
                                                                  orientation="portrait"))
    line = next(m for m in imposition.pages[0].marks if isinstance(m, LineMark) and m.kind == "fold")
    assert line.x0 == line.x1


def test_round_faces_fold_too_with_cut_outlines_on_both_halves():
    from cardgen.sheets import CircleMark
    kind = card_type(30, 30, shape="circle", bleed=1.0)
    imposition = impose(pairs(3, kind), SheetOptions(paper="a4", layout="gutter-fold"))
    page = imposition.pages[0]
    fronts, backs = fronts_and_backs(imposition)
    circles = {(round(m.cx, 6), round(m.cy, 6)) for m in page.marks if isinstance(m, CircleMark)}
    assert len(circles) == 6
    for name, front in fronts.items():
        back = backs[name].slot
        assert back.shape == "circle"
        assert (round(front.slot.x + 15, 6), round(front.slot.y + 15, 6)) in circles
        assert (round(back.x + 15, 6), round(back.y + 15, 6)) in circles
        mirrored_x = (page.w - front.slot.x - 30, front.slot.y)
        mirrored_y = (front.slot.x, page.h - front.slot.y - 30)
        assert (back.x, back.y) in (pytest.approx(mirrored_x, abs=1e-9), pytest.approx(mirrored_y, abs=1e-9))


def test_a_document_printed_double_sided_gives_sheets_without_backs_a_blank_back():
    kind, plain = card_type(name="b"), card_type(70, 120, name="n", back=None)
    mixed = pairs(2, plain, backs=False, prefix="n") + pairs(3, kind, prefix="b")
    imposition = impose(mixed, SheetOptions(paper="letter", blank_backs=True))
    pages = by_page(imposition)
    # n1 n2 (no backs) | blank | b1 b2 b3 | their backs: every sheet a front page and a back page.
    assert len(imposition.pages) == 4
    assert [p.face.card.name for p in pages[1]] == ["n1", "n2"] and 2 not in pages
    blank = imposition.pages[1]
    assert blank.flip == "long" and [m.text for m in blank.marks] == ["Back side: blank (the front has no backs)"]
    assert blank.marks[0].y >= 4.0
    assert [m.text for m in imposition.pages[0].marks if isinstance(m, TextMark)] == [
        "Print double-sided, flip on long edge"]
    assert [(p.face.card.name, p.face.side) for p in pages[4]] == [("b1", "back"), ("b2", "back"), ("b3", "back")]
    # Single-sided label sheets too.
    tokens = card_type(12, 12, shape="circle", name="tok", back=None)
    imposition = impose(pairs(3, tokens, backs=False), SheetOptions(template="Endisch 6500012x", blank_backs=True))
    assert len(imposition.pages) == 2 and not by_page(imposition).get(2)
    # Without it (a document with no backs at all), no blank pages.
    assert len(impose(mixed[:2], SheetOptions(paper="letter")).pages) == 1


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_back_pages_note_lies_in_the_same_band_as_the_fronts(duplex):
    # a centred grid mirrored is itself, bleed and all: the band between the margin and the
    # art below it is the same on both sides (mutation testing found the mirrored slots' room,
    # which sets the art's edge, unchecked)
    imposition = impose(pairs(9, card_type()), SheetOptions(paper="a4", orientation="portrait", duplex=duplex))
    (front,) = [m for m in imposition.pages[0].marks if isinstance(m, TextMark)]
    (back,) = [m for m in imposition.pages[1].marks if isinstance(m, TextMark)]
    assert (front.angle, back.angle) == (0.0, 0.0)
    art_bottom = min(p.slot.clip[1] for p in imposition.placements)
    assert 4.0 < front.y < art_bottom and back.y == pytest.approx(front.y, abs=1e-9)


def test_a_back_slot_keeps_every_field_of_its_front_but_page_place_clip_and_rotation():
    """back_slot builds the Slot field by field (cheaper than dataclasses.replace): a field
    added to Slot must be carried over here too."""
    import dataclasses

    from cardgen.model import Slot
    from cardgen.sheets.duplex import back_slot

    front = Slot(1, 10.0, 20.0, 63.5, 88.9, "circle", 0, (11.0, 21.0, 70.0, 100.0))
    back = back_slot(front, "x", 215.9, 279.4, 2, 180)
    changed = {"page", "x", "y", "clip", "rotation"}
    assert [f.name for f in dataclasses.fields(Slot)] == ["page", "x", "y", "w", "h", "shape", "rotation", "clip"]
    assert {name: getattr(back, name) for name in ("w", "h", "shape")} == {"w": 63.5, "h": 88.9, "shape": "circle"}
    assert (back.page, back.rotation) == (2, 180)
    assert back.x == pytest.approx(215.9 - 10.0 - 63.5) and back.y == 20.0
    assert back.clip == pytest.approx((215.9 - 70.0, 21.0, 215.9 - 11.0, 100.0))
    assert dataclasses.replace(front, **{name: getattr(back, name) for name in changed}) == back
