"""Which template slots take a face, and the blank back's note (mutation testing, issue 21, found
these unchecked: a slot a little too small, the safe-zone allowance of die-cut labels, the
tolerance of the product databases' rounding, the centring of the blank back's note)."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets import SheetOptions, TextMark, impose, impose_groups
from cardgen.sheets.notes import NOTE_PT, text_size

from .helpers import box, by_page, card_type, pairs


def on_sheet(tmp_path, slots: list[tuple[float, float]], kind, marks: str = "crop", count: int = 1):
    """Impose ``count`` faces of ``kind`` on an A3 YAML template with one row of slots of the
    given (w, h), 100 mm apart, their tops 10 mm below the page's top edge."""
    rows = "".join(f"  - {{x: {5 + 100 * i}, y: 10, w: {w}, h: {h}}}\n" for i, (w, h) in enumerate(slots))
    (tmp_path / "s.yaml").write_text(f"name: Test sheet\npaper: a3\nmarks: {marks}\nduplex: false\nslots:\n{rows}",
                                     encoding="utf-8")
    return impose(pairs(count, kind, backs=False), SheetOptions(template="s.yaml", root=tmp_path))


def slot_lefts(imposition) -> list[float]:
    return [round(p.slot.x - (p.slot.x - 5) % 100, 6) for p in imposition.placements]


def refused(tmp_path, slots, kind, marks="crop") -> str:
    with pytest.raises(CardgenError) as caught:
        on_sheet(tmp_path, slots, kind, marks)
    return str(caught.value)


FACE = card_type(64.0, 90.0, bleed=2.0, back=None)  # safe zone 3 mm: 58 x 84 mm


def test_a_face_goes_only_in_slots_it_fits_both_ways(tmp_path):
    # too narrow but tall enough, wide enough but too short: only the third slot takes it
    imposition = on_sheet(tmp_path, [(30, 95), (70, 50), (70, 95)], FACE)
    assert slot_lefts(imposition) == [205.0]
    assert box(imposition.placements[0].slot) == pytest.approx((208.0, 420 - 10 - 92.5, 272.0, 420 - 10 - 2.5))


def test_a_slot_a_hair_too_small_is_refused_with_the_labels_size(tmp_path):
    assert refused(tmp_path, [(63.9, 95)], FACE) == (
        'data/t/set.yaml:7: card "c1": a 64 x 90 mm card does not fit the 63.9 x 95 mm labels of sheet template Test sheet')
    circle = card_type(40.0, 40.0, shape="circle", back=None)
    (tmp_path / "c.yaml").write_text("name: Discs\npaper: a4\nslots:\n  - {x: 5, y: 5, d: 30, shape: circle}\n",
                                     encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        impose(pairs(1, circle, backs=False), SheetOptions(template="c.yaml", root=tmp_path))
    assert str(caught.value) == (
        'data/t/set.yaml:7: card "c1": a 40 x 40 mm round card does not fit the 30 x 30 mm labels of sheet template Discs')


def test_the_product_databases_rounding_is_tolerated_up_to_a_millionth_of_a_mm(tmp_path):
    for w, h in [(64.000001, 90.0), (64.0, 90.000001)]:
        (placed,) = on_sheet(tmp_path, [(64, 90)], card_type(w, h, back=None)).placements
        assert (placed.slot.w, placed.slot.h) == (w, h)  # drawn at its own size, not shrunk
    # the same tolerance for a die-cut label down to the safe zone (58 x 84 mm)
    for w, h in [(64.000001, 90.0), (64.0, 90.000001)]:
        imposition = on_sheet(tmp_path, [(58, 84)], card_type(w, h, bleed=2.0, back=None), "none")
        assert box(imposition.placements[0].slot) == pytest.approx((5.0, 420 - 10 - 84, 63.0, 420 - 10))


@pytest.mark.parametrize("marks", ["none", "outline"])
def test_a_die_cut_label_down_to_the_faces_safe_zone_takes_it(tmp_path, marks):
    # 58 x 84 is the safe zone exactly: the face is drawn on the label's die, centred
    imposition = on_sheet(tmp_path, [(58, 84)], FACE, marks)
    slot = imposition.placements[0].slot
    assert box(slot) == pytest.approx((5.0, 420 - 10 - 84, 63.0, 420 - 10))


@pytest.mark.parametrize("size", [(57.9, 84), (58, 83.9), (57, 95), (70, 83)])
def test_a_die_cut_label_smaller_than_the_safe_zone_is_refused(tmp_path, size):
    w, h = size
    assert refused(tmp_path, [size], FACE, "none") == (
        f'data/t/set.yaml:7: card "c1": a 64 x 90 mm card does not fit the {w:g} x {h:g} mm labels of sheet template '
        "Test sheet")


def test_a_sheet_with_crop_marks_has_no_safe_zone_allowance(tmp_path):
    # its slots are cut along crop marks: a face must fit its slot whole
    assert refused(tmp_path, [(60, 88)], FACE, "crop").endswith("does not fit the 60 x 88 mm labels of sheet template "
                                                                 "Test sheet")


def test_the_blank_back_says_why_centred_in_the_bottom_margin():
    imposition = impose(pairs(2, card_type(back=None), backs=False), SheetOptions(paper="a4", blank_backs=True))
    (note,) = imposition.pages[1].marks
    width, _, descent = text_size(note.text)
    assert isinstance(note, TextMark) and note.size == NOTE_PT and note.angle == 0.0
    assert note.x == pytest.approx((210.0 - width) / 2) and note.x > 4.0
    assert note.y == pytest.approx(4.0 + descent)
    assert not by_page(imposition).get(2)


@pytest.mark.parametrize("label, face, trim", [
    ((64, 84), (64.0, 90.0), (5.0, 64.0, 84.0)),  # only its height over: the label's die is the trim
    ((58, 90), (64.0, 90.0), (5.0, 58.0, 90.0)),  # only its width
    ((64, 90), (60.0, 90.0), (7.0, 60.0, 90.0)),  # narrower than the label: its own size, centred
    ((64, 90), (64.0, 86.0), (5.0, 64.0, 86.0)),
])
def test_a_face_is_drawn_at_its_size_or_on_a_smaller_labels_die(tmp_path, label, face, trim):
    (placed,) = on_sheet(tmp_path, [label], card_type(*face, bleed=2.0, back=None), "none").placements
    x, w, h = trim
    top = 420 - 10 - (label[1] - h) / 2
    assert (placed.slot.x, placed.slot.w, placed.slot.h) == pytest.approx((x, w, h))
    assert placed.slot.y == pytest.approx(top - h) and placed.slot.shape == "rect" and placed.slot.rotation == 0


def round_labels(tmp_path, d: float, dx: float, face_d: float, bleed: float):
    (tmp_path / "r.yaml").write_text(f"paper: a4\nmarks: none\ngrid: {{shape: circle, d: {d}, nx: 2, ny: 1, x0: 10, "
                                     f"y0: 10, dx: {dx}}}\n", encoding="utf-8")
    kind = card_type(face_d, face_d, shape="circle", bleed=bleed, back=None)
    return impose(pairs(2, kind, backs=False), SheetOptions(template="r.yaml", root=tmp_path)).placements


def test_a_round_faces_art_reaches_equally_all_round_as_far_as_its_nearest_neighbour_allows(tmp_path):
    # 34 mm labels 1 mm apart (0.5 mm of room each side of the gap, unlimited elsewhere) and
    # 30 mm faces with 3 mm bleed: 2 mm of label round the face, so the art reaches 2.5 mm
    for placed in round_labels(tmp_path, 34, 35, 30, 3.0):
        s = placed.slot
        assert s.shape == "circle" and (s.w, s.h) == (30.0, 30.0) and s.rotation == 0
        assert s.clip == pytest.approx((s.x - 2.5, s.y - 2.5, s.x + 32.5, s.y + 32.5))
    # a gLabels product's round labels with 4 mm of waste across and 3 mm up and down: a round
    # face's art keeps to its circle, so it reaches the least room on every side
    (tmp_path / "g.xml").write_text(
        '<?xml version="1.0"?>\n<Glabels-templates><Template brand="T" part="R" size="A4"><Meta category="label"/>'
        '<Label-round id="0" radius="15mm" x_waste="4mm" y_waste="3mm"><Layout nx="2" ny="2" x0="10mm" y0="10mm" dx="40mm" dy="40mm"/>'
        '</Label-round></Template></Glabels-templates>\n', encoding="utf-8")
    kind = card_type(30, 30, shape="circle", bleed=5.0, back=None)
    placements = impose(pairs(4, kind, backs=False), SheetOptions(template="g.xml", root=tmp_path)).placements
    assert len(placements) == 4
    for placed in placements:
        s = placed.slot
        assert s.clip == pytest.approx((s.x - 3, s.y - 3, s.x + 33, s.y + 33))


def test_a_round_face_on_a_smaller_round_label_stays_round(tmp_path):
    # a 40 mm disc (safe zone 34 mm) on 36 mm labels: drawn on the label's die
    (tmp_path / "c.yaml").write_text("paper: a4\nmarks: none\nslots:\n  - {x: 5, y: 5, d: 36, shape: circle}\n",
                                     encoding="utf-8")
    kind = card_type(40.0, 40.0, shape="circle", back=None)
    (placed,) = impose(pairs(1, kind, backs=False), SheetOptions(template="c.yaml", root=tmp_path)).placements
    assert (placed.slot.shape, placed.slot.w, placed.slot.h) == ("circle", 36.0, 36.0)


def mirrored(mark, axis: str, w: float, h: float):
    if axis == "x":
        return (round(w - mark.x1, 6), round(mark.y0, 6), round(w - mark.x0, 6), round(mark.y1, 6))
    return (round(mark.x0, 6), round(h - mark.y1, 6), round(mark.x1, 6), round(h - mark.y0, 6))


def as_box(mark):
    return (round(min(mark.x0, mark.x1), 6), round(min(mark.y0, mark.y1), 6),
            round(max(mark.x0, mark.x1), 6), round(max(mark.y0, mark.y1), 6))


@pytest.mark.parametrize("duplex, axis", [("long", "x"), ("short", "y")])
def test_an_off_centre_templates_back_page_mirrors_the_fronts_marks_and_note_follows_the_art(tmp_path, duplex, axis):
    # one card slot near the top-left of a duplex A4 template, 2 mm of waste round it: the back
    # page's crop marks are the front's mirrored, and each page's note sits in the middle of the
    # band between the margin and that page's own art
    (tmp_path / "t.yaml").write_text("paper: a4\nslots:\n  - {x: 20, y: 10, w: 63.5, h: 88.9, waste: 2}\n",
                                     encoding="utf-8")
    imposition = impose(pairs(1, card_type()), SheetOptions(template="t.yaml", root=tmp_path, duplex=duplex))
    front, back = imposition.pages
    crops = {page.number: sorted(as_box(m) for m in page.marks if getattr(m, "kind", "") == "crop")
             for page in (front, back)}
    assert len(crops[1]) == 8
    assert crops[2] == sorted(mirrored(m, axis, 210.0, 297.0) for m in
                              [m for m in front.marks if getattr(m, "kind", "") == "crop"])
    for page, placed in zip((front, back), imposition.placements):
        (note,) = [m for m in page.marks if isinstance(m, TextMark)]
        _, ascent, descent = text_size(note.text)
        art_bottom = placed.slot.y - 2.0
        assert note.angle == 0.0
        assert note.y == pytest.approx((4.0 + art_bottom) / 2 - (ascent - descent) / 2)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_pages_say_which_edge_the_sheet_turns_over(duplex):
    # the writer's duplex viewer preference comes from it
    imposition = impose(pairs(2, card_type()), SheetOptions(paper="a4", duplex=duplex))
    assert [page.flip for page in imposition.pages] == [None, duplex]


def test_a_round_card_too_large_for_a_gutter_fold_page_is_refused_as_round():
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type(140, 140, shape="circle")), SheetOptions(paper="a4", layout="gutter-fold"))
    assert str(error.value) == ('data/t/set.yaml:7: card "c1": a 140 x 140 mm round card with 3 mm bleed does not '
                                "fit twice (front and back, gutter fold) on a4 paper (210 x 297 mm) with a 4 mm margin")


def test_crop_marks_keep_their_room_round_a_grid_without_bleed():
    # 130 mm square paper: 4 mm margin + 2 mm for the shortest mark each side leave 118 mm, one
    # 60.5 mm card each way (without crop marks 122 mm: two)
    kind = card_type(60.5, 60.5, bleed=0.0, back=None)
    assert len(impose(pairs(4, kind, backs=False), SheetOptions(paper=(130, 130))).pages) == 4
    assert len(impose(pairs(4, kind, backs=False), SheetOptions(paper=(130, 130), crop_marks=False)).pages) == 1
    # gutter fold: 65 - 2.5 mm from the fold to 6 mm from the edge leave 56.5 mm for a front
    fits = impose(pairs(2, card_type(56.5, 56.5, bleed=0.0)), SheetOptions(paper=(130, 130), layout="gutter-fold"))
    assert len(fits.pages) == 1 and len(fits.placements) == 4
    with pytest.raises(CardgenError, match="does not fit twice"):
        impose(pairs(1, card_type(57.5, 57.5, bleed=0.0)), SheetOptions(paper=(130, 130), layout="gutter-fold"))


def test_gutter_fold_on_portrait_paper_folds_across_when_that_holds_more_and_turns_the_backs():
    # 100 x 50 mm cards beside a vertical fold of portrait Letter: none; across it, 2 x 2
    imposition = impose(pairs(4, card_type(100, 50)), SheetOptions(paper="letter", orientation="portrait",
                                                                 layout="gutter-fold"))
    (page,) = imposition.pages
    assert page.w < page.h
    fold = [m for m in page.marks if getattr(m, "kind", "") == "fold" and not isinstance(m, TextMark)]
    assert [(m.y0, m.y1) for m in fold] == [(279.4 / 2, 279.4 / 2)]
    assert [p.slot.rotation for p in imposition.placements] == [0] * 4 + [180] * 4


def test_gutter_fold_on_square_paper_breaks_a_tie_with_a_vertical_fold():
    # 60 mm squares on 200 mm square paper: 1 x 3 beside a vertical fold, 3 x 1 beside a
    # horizontal one: the vertical fold, backs upright
    imposition = impose(pairs(3, card_type(60, 60)), SheetOptions(paper=(200, 200), layout="gutter-fold"))
    fold = [m for m in imposition.pages[0].marks if getattr(m, "kind", "") == "fold" and not isinstance(m, TextMark)]
    assert [(m.x0, m.x1) for m in fold] == [(100.0, 100.0)]
    assert [p.slot.rotation for p in imposition.placements] == [0] * 6


def test_a_round_card_too_large_for_a_sheet_names_the_custom_paper():
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type(160, 160, shape="circle")), SheetOptions(paper=(150, 200.5)))
    assert str(error.value) == ('data/t/set.yaml:7: card "c1": a 160 x 160 mm round card with 3 mm bleed does not '
                                "fit on 150 x 200.5 mm paper (150 x 200.5 mm) with a 4 mm margin")


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_a_back_faces_art_clip_is_its_fronts_mirrored_across_the_turning_edge(orientation):
    # short edge on portrait paper and long edge on landscape paper both reverse the rows
    duplex = "short" if orientation == "portrait" else "long"
    imposition = impose(pairs(2, card_type()), SheetOptions(paper="a4", orientation=orientation, duplex=duplex))
    page_h = imposition.pages[0].h
    fronts = {p.face.card.name: p.slot for p in imposition.placements if p.face.side == "front"}
    for back in (p for p in imposition.placements if p.face.side == "back"):
        c = fronts[back.face.card.name].clip
        assert back.slot.clip == pytest.approx((c[0], page_h - c[3], c[2], page_h - c[1]))


def test_square_paper_turns_over_like_portrait_paper():
    # long edge on square paper: the columns mirror, as on portrait paper
    imposition = impose(pairs(1, card_type()), SheetOptions(paper=(200, 200)))
    front, back = imposition.placements
    assert (back.slot.x, back.slot.y) == pytest.approx((200 - front.slot.x - front.slot.w, front.slot.y))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_without_bleed_the_duplex_notes_band_reaches_the_trim(duplex):
    # no bleed: no art beyond the trim, so the band below the grid runs from the margin to the
    # trim (A4: bottom band), or beside it (Letter with a 4.3 mm margin: left band), on both sides
    kind = card_type(bleed=0.0)
    imposition = impose(pairs(9, kind), SheetOptions(paper="a4", orientation="portrait", duplex=duplex))
    bottom = min(p.slot.y for p in imposition.placements)
    for page in imposition.pages:
        (note,) = [m for m in page.marks if isinstance(m, TextMark)]
        _, ascent, descent = text_size(note.text)
        assert note.angle == 0.0 and note.y == pytest.approx((4.0 + bottom) / 2 - (ascent - descent) / 2)
    imposition = impose(pairs(9, kind), SheetOptions(paper="letter", orientation="portrait", duplex=duplex, margin=4.3))
    left = min(p.slot.x for p in imposition.placements)
    for page in imposition.pages:
        (note,) = [m for m in page.marks if isinstance(m, TextMark)]
        _, ascent, descent = text_size(note.text)
        assert note.angle == 90.0 and note.x == pytest.approx((4.3 + left) / 2 + (ascent - descent) / 2)


def test_a_rectangular_template_asked_for_round_tokens_is_an_error_naming_both(tmp_path):
    (tmp_path / "s.yaml").write_text("paper: a4\nslots:\n  - {x: 10, y: 10, w: 63.5, h: 88.9}\n", encoding="utf-8")
    tokens = card_type(30, 30, shape="circle", name="tok", back=None)
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, tokens, backs=False, prefix="t"),
               SheetOptions(template="s.yaml", root=tmp_path, template_everywhere=True))
    assert str(error.value) == ('data/t/set.yaml:7: card "t1": sheet "s.yaml" does not apply to this card: the sheet '
                                'has rectangular slots only, and "t1" (type tok) is a 30 x 30 mm round card')


def front_names(imposition) -> list[list[str]]:
    """The card names on each page that holds fronts, page by page."""
    pages = by_page(imposition)
    fronts = [[p.face.card.name for p in pages[n] if p.face.side == "front"] for n in sorted(pages)]
    return [names for names in fronts if names]


def test_each_deck_has_its_own_sheets_unless_backs_are_mixed():
    red, blue = card_type(back="red"), card_type(back="blue", name="u")
    cards = pairs(2, red, prefix="r") + pairs(2, blue, prefix="b")
    assert front_names(impose(cards, SheetOptions(paper="a4"))) == [["r1", "r2"], ["b1", "b2"]]
    assert front_names(impose(cards, SheetOptions(paper="a4", mix_backs=True))) == [["r1", "r2", "b1", "b2"]]


def test_mixed_backs_share_sheets_but_gutter_fold_keeps_faces_without_a_back_apart():
    backed, plain = card_type(back="red"), card_type(back=None, name="p")
    cards = pairs(2, backed, prefix="r") + pairs(2, plain, backs=False, prefix="p")
    mixed = impose(cards, SheetOptions(paper="a4", mix_backs=True))
    assert front_names(mixed) == [["r1", "r2", "p1", "p2"]]
    folded = impose(cards, SheetOptions(paper="a4", mix_backs=True, layout="gutter-fold"))
    assert front_names(folded) == [["r1", "r2"], ["p1", "p2"]]
    assert [page.marks[-1].text for page in folded.pages if page.marks and isinstance(page.marks[-1], TextMark)] == [
        "fold"]  # the backed faces on a gutter-fold page, the others on a plain sheet


def test_an_empty_group_is_skipped_and_the_next_imposed():
    kind = card_type(back=None)
    pages = list(impose_groups([[], pairs(2, kind, backs=False), []], SheetOptions(paper="a4")))
    assert [[p.face.card.name for p in placed] for _, placed in pages] == [["c1", "c2"]]


def test_per_card_pages_ignore_the_sheet_template():
    # print-shop pages (per-card) use no sheet: one asked for is neither read nor required to apply
    options = SheetOptions(layout="per-card", template="no-such-sheet", template_everywhere=True)
    imposition = impose(pairs(2, card_type(), backs=False), options)
    assert [p.face.card.name for p in imposition.placements] == ["c1", "c2"] and len(imposition.pages) == 2


def test_a_sheet_that_takes_none_of_the_faces_names_the_first_card_left_out(tmp_path):
    (tmp_path / "discs.yaml").write_text("name: Discs\npaper: a4\nslots:\n  - {x: 5, y: 5, d: 30, shape: circle}\n",
                                         encoding="utf-8")
    cards = pairs(1, card_type(), prefix="first") + pairs(1, card_type(50, 50, back=None, name="u"), prefix="second")
    with pytest.raises(CardgenError) as error:
        impose(cards, SheetOptions(template="discs.yaml", root=tmp_path, template_everywhere=True))
    assert str(error.value) == (
        'data/t/set.yaml:7: card "first1": sheet "discs.yaml" does not apply to this card: the sheet has round '
        'slots only, and "first1" (type t) is a 63.5 x 88.9 mm rectangular card')
