"""Per-card pages for print shops; sizes; bad options and faces that cannot be placed."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError, Source
from cardgen.model import CardSize
from cardgen.sheets import CARD_SIZES, SheetOptions, card_size, impose

from .helpers import card_type, pairs


def test_per_card_pages_are_trim_plus_bleed_in_upload_order():
    poker, token = card_type(bleed=3.0), card_type(20, 20, shape="circle", bleed=1.0, name="tok")
    cards = pairs(2, poker) + pairs(1, token, backs=False, prefix="t") + pairs(1, poker, prefix="z")
    imposition = impose(cards, SheetOptions(layout="per-card"))
    assert [(p.face.card.name, p.face.side) for p in imposition.placements] == [
        ("c1", "front"), ("c1", "back"), ("c2", "front"), ("c2", "back"), ("t1", "front"),
        ("z1", "front"), ("z1", "back")]
    assert [page.number for page in imposition.pages] == list(range(1, 8))
    for page, placement in zip(imposition.pages, imposition.placements):
        bleed, size = placement.face.card_type.bleed, placement.face.card_type.size
        assert (page.w, page.h) == pytest.approx((size.w + 2 * bleed, size.h + 2 * bleed), abs=1e-9)
        assert page.trim_box == pytest.approx((bleed, bleed, bleed + size.w, bleed + size.h), abs=1e-9)
        assert page.bleed_box == (0.0, 0.0, page.w, page.h)
        assert page.marks == ()
        slot = placement.slot
        assert (slot.page, slot.x, slot.y, slot.w, slot.h) == (page.number, bleed, bleed, size.w, size.h)
        assert slot.clip == page.bleed_box and slot.rotation == 0
    assert imposition.pages[0].trim_box == pytest.approx((3, 3, 66.5, 91.9))
    assert imposition.placements[4].slot.shape == "circle"


def test_card_size_presets_and_mappings():
    assert card_size("poker") == CardSize(63.5, 88.9, "poker")
    assert {name: (s.w, s.h) for name, s in CARD_SIZES.items()} == {
        "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "mini-usa": (41, 63), "mini-euro": (44, 68),
        "tarot": (70, 120), "square": (70, 70)}
    assert card_size({"w": "2.5in", "h": 88}) == CardSize(63.5, 88.0, "custom")


@pytest.mark.parametrize("value, message", [
    ("jumbo", 'set.yaml:4: unknown card size "jumbo" (presets: poker, bridge, mini-usa, mini-euro, tarot, '
              "square; or give {w: ..., h: ...})"),
    ({"w": 10}, "set.yaml:4: card size: missing h (a size takes w and h)"),
    ({"w": 10, "h": "wide"}, 'set.yaml:4: card size h: expected a length such as "12", "12mm", "0.5in" or '
                             '"10pt", got "wide"'),
    ({"w": 0, "h": 5}, "set.yaml:4: card size w must be greater than 0, got 0"),
    ({"w": 1, "h": 5, "d": 3}, 'set.yaml:4: card size: unknown key "d" (a size takes w and h)'),
    (12, "set.yaml:4: card size must be a preset name or {w: ..., h: ...}, got 12"),
])
def test_bad_card_sizes_name_the_source(value, message):
    with pytest.raises(CardgenError) as error:
        card_size(value, Source("set.yaml", 4))
    assert str(error.value) == message


@pytest.mark.parametrize("options, message", [
    (SheetOptions(paper="tabloid"), 'set.yaml:2: unknown paper "tabloid" (choose letter, a4, a3 or give (w, h) in mm)'),
    (SheetOptions(layout="booklet"), 'set.yaml:2: sheet layout must be one of sheets, per-card, gutter-fold, got "booklet"'),
    (SheetOptions(spacing="loose"), 'set.yaml:2: sheet spacing must be one of butt, bleed, got "loose"'),
    (SheetOptions(duplex="top"), 'set.yaml:2: sheet duplex must be one of long, short, got "top"'),
    (SheetOptions(orientation="up"), 'set.yaml:2: sheet orientation must be one of auto, portrait, landscape, got "up"'),
    (SheetOptions(margin=-1), "set.yaml:2: sheet margin must be a length of 0 mm or more, got -1"),
    (SheetOptions(template="OL99"), 'set.yaml:2: unknown sheet template "OL99" (built-in: Endisch 6500012x, '
                                    "Online Labels OL32, Online Labels OL5275, circle-cut; or the path of a "
                                    "gLabels .xml or a sheet-template .yaml file)"),
])
def test_bad_options_name_where_they_were_set(options, message):
    from dataclasses import replace
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type()), replace(options, source=Source("set.yaml", 2)))
    assert str(error.value) == message


def test_a_card_too_large_for_the_paper():
    # on sheets it is tiled like a poster (tests/sheets/test_tiles.py): a page map, then its tiles
    tiled = impose(pairs(1, card_type(200, 300, line=9), backs=False), SheetOptions(paper="letter"))
    assert [p.slot.page for p in tiled.placements] == [2, 3]  # 206 x 306 mm: two tiles of Letter
    assert len(tiled.pages) == 3
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type(140, 140)), SheetOptions(paper="a4", layout="gutter-fold"))
    assert str(error.value) == ('data/t/set.yaml:7: card "c1": a 140 x 140 mm card with 3 mm bleed does not fit '
                                "twice (front and back, gutter fold) on a4 paper (210 x 297 mm) with a 4 mm "
                                "margin and room for crop marks")
    # It fits on a3, and per-card pages take any size.
    assert impose(pairs(1, card_type(200, 300)), SheetOptions(paper="a3")).pages
    assert impose(pairs(1, card_type(200, 300)), SheetOptions(layout="per-card")).pages[0].w == 206


def test_a_round_card_must_be_as_wide_as_it_is_high():
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type(20, 30, shape="circle")), SheetOptions())
    assert str(error.value) == 'data/t/set.yaml:7: card "c1": a round card needs w equal to h, got 20 x 30 mm'


SIZE_RULE = "sizes must be greater than 0 and the bleed 0 or more"


@pytest.mark.parametrize("kind, message", [
    (card_type(shape="oval"), 'shape must be rect, circle, hex-pointy, hex-flat or a path, got "oval"'),
    (card_type(shape="PATH:M 0 0 L 1 0 Z"), 'shape must be rect, circle, hex-pointy, hex-flat or a path, '
                                            'got "PATH:M 0 0 L 1 0 Z"'),
    (card_type(0, 88.9), f"card size 0 x 88.9 mm with 3 mm bleed: {SIZE_RULE}"),
    (card_type(63.5, 0), f"card size 63.5 x 0 mm with 3 mm bleed: {SIZE_RULE}"),
    (card_type(-2, -3), f"card size -2 x -3 mm with 3 mm bleed: {SIZE_RULE}"),
    (card_type(63.5, 88.9, bleed=-0.5), f"card size 63.5 x 88.9 mm with -0.5 mm bleed: {SIZE_RULE}"),
])
def test_faces_the_imposition_cannot_place_are_refused_naming_the_card(kind, message):
    # through the Python API (a set's size and shape are checked when it is read)
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, kind), SheetOptions(paper="a4"))
    assert str(error.value) == f'data/t/set.yaml:7: card "c1": {message}'


@pytest.mark.parametrize("kind", [card_type(0.5, 0.5, bleed=0.0), card_type(1.0, 1.0), card_type(20, 20, "circle", bleed=0.0),
                                  card_type(20, 20, "path:M 0 0 L 20 0 L 20 20 Z")])
def test_any_positive_size_and_known_shape_is_placed(kind):
    imposition = impose(pairs(2, kind, backs=False), SheetOptions(paper="a4"))
    assert [(p.slot.w, p.slot.h, p.slot.shape) for p in imposition.placements] == [
        (kind.size.w, kind.size.h, kind.size.shape)] * 2


OFFSET = "set.yaml:2: sheet back offset must be two lengths (x, y) in mm, got "


@pytest.mark.parametrize("options, message", [
    (SheetOptions(margin=True), "set.yaml:2: sheet margin must be a length of 0 mm or more, got True"),
    (SheetOptions(margin="4"), "set.yaml:2: sheet margin must be a length of 0 mm or more, got '4'"),
    (SheetOptions(back_offset=[1.0, 2.0]), OFFSET + "[1.0, 2.0]"),
    (SheetOptions(back_offset=(1.0, 2.0, 3.0)), OFFSET + "(1.0, 2.0, 3.0)"),
    (SheetOptions(back_offset=(1.0, "x")), OFFSET + "(1.0, 'x')"),
    (SheetOptions(back_offset=(True, 0.0)), OFFSET + "(True, 0.0)"),
    (SheetOptions(back_offset=(float("inf"), 0.0)), OFFSET + "(inf, 0.0)"),
    (SheetOptions(back_offset=(0.0, float("nan"))), OFFSET + "(0.0, nan)"),
])
def test_bad_margins_and_back_offsets_name_where_they_were_set(options, message):
    from dataclasses import replace
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, card_type()), replace(options, source=Source("set.yaml", 2)))
    assert str(error.value) == message


@pytest.mark.parametrize("options", [SheetOptions(margin=0), SheetOptions(margin=0.5), SheetOptions(margin=4),
                                     SheetOptions(back_offset=(-1, 0.25))])
def test_a_margin_of_0_mm_or_more_and_two_finite_offsets_are_taken(options):
    page = impose(pairs(1, card_type()), options).pages[0]
    crops = [m for m in page.marks if m.kind == "crop"]
    assert min(min(m.x0, m.x1, m.y0, m.y1) for m in crops) == pytest.approx(options.margin, abs=1e-9)


def test_a_custom_card_size_takes_any_length_above_0():
    assert card_size({"w": 0.5, "h": 1}) == CardSize(0.5, 1.0, "custom")
    assert card_size({"w": "1mm", "h": "0.01in"}) == CardSize(1.0, 0.254, "custom")
