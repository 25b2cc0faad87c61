"""Label products: exact label centres, fitting faces, single-sided sheets."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError
from cardgen.sheets import SheetOptions, impose

from .helpers import by_page, card_type, pairs

INCH = 25.4


def product_centres(page_w, page_h, d, nx, ny, x0, y0, pitch):
    """Label centres from a product's numbers (x0, y0 from the left and top edges to the first
    label's bounding box), in mm from the bottom-left, row by row from the top-left."""
    return [(x0 + ix * pitch + d / 2, page_h - (y0 + iy * pitch + d / 2)) for iy in range(ny) for ix in range(nx)]


PRODUCTS = {
    # name: (page, diameter, nx, ny, x0, y0, pitch), from the products' specifications
    "OL32": ((8.5 * INCH, 11 * INCH), 0.5 * INCH, 11, 14, 0.25 * INCH, 0.375 * INCH, 0.75 * INCH),
    "Endisch 6500012x": ((210.0, 297.0), 12.0, 13, 18, 9.0, 15.0, 15.0),
    "OL5275": ((8.5 * INCH, 11 * INCH), 0.75 * INCH, 9, 12, 0.625 * INCH, 0.656 * INCH, 0.813 * INCH),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_label_centres_match_the_product(name):
    (page_w, page_h), d, nx, ny, x0, y0, pitch = PRODUCTS[name]
    kind = card_type(d, d, shape="circle", bleed=3.0)
    count = nx * ny
    imposition = impose(pairs(count + 5, kind, backs=False), SheetOptions(template=name))
    assert len(imposition.pages) == 2
    page = imposition.pages[0]
    assert (page.w, page.h) == pytest.approx((page_w, page_h), abs=1e-9)
    assert page.marks == ()  # die-cut labels: no crop marks
    placed = by_page(imposition)
    assert len(placed[1]) == count and len(placed[2]) == 5
    expected = product_centres(page_w, page_h, d, nx, ny, x0, y0, pitch)
    for placement, (cx, cy) in zip(placed[1], expected):
        s = placement.slot
        assert s.shape == "circle" and s.w == pytest.approx(d)
        assert abs(s.x + s.w / 2 - cx) <= 0.05 and abs(s.y + s.h / 2 - cy) <= 0.05
        # The art may overprint the label only by the product's waste, not the whole 3 mm bleed.
        reach = (s.clip[2] - s.clip[0] - d) / 2
        assert 0 < reach < 3.0
        assert reach <= (pitch - d) / 2


def test_waste_limits_the_overprint():
    kind = card_type(12, 12, shape="circle", bleed=3.0)
    slot = impose(pairs(1, kind, backs=False), SheetOptions(template="Endisch 6500012x")).placements[0].slot
    assert slot.clip == pytest.approx((slot.x - 0.6, slot.y - 0.6, slot.x + 12.6, slot.y + 12.6), abs=1e-9)


def test_names_are_case_insensitive_and_take_brand_and_part():
    kind = card_type(12.7, 12.7, shape="circle")
    one = impose(pairs(1, kind, backs=False), SheetOptions(template="ol32"))
    two = impose(pairs(1, kind, backs=False), SheetOptions(template="Online Labels OL32"))
    assert one == two


def test_a_smaller_face_is_centred_in_its_label():
    kind = card_type(10, 10, shape="circle", bleed=1.0)
    slot = impose(pairs(1, kind, backs=False), SheetOptions(template="OL5275")).placements[0].slot
    d = 0.75 * INCH
    assert (slot.x + 5, slot.y + 5) == pytest.approx((0.625 * INCH + d / 2, 11 * INCH - 0.656 * INCH - d / 2))


def test_a_face_too_large_for_the_label_is_an_error_naming_the_card():
    kind = card_type(20, 20, shape="circle", line=12)
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, kind, backs=False), SheetOptions(template="OL32"))
    assert str(error.value) == ('data/t/set.yaml:12: card "c1": a 20 x 20 mm round card does not fit the '
                                "12.7 x 12.7 mm labels of sheet template Online Labels OL32")


def test_label_sheets_are_single_sided_backs_take_the_next_label():
    kind = card_type(12, 12, shape="circle")
    imposition = impose(pairs(2, kind) + pairs(1, kind, backs=False, prefix="n"),
                        SheetOptions(template="Endisch 6500012x"))
    assert len(imposition.pages) == 1
    assert [(p.face.card.name, p.face.side) for p in imposition.placements] == [
        ("c1", "front"), ("c1", "back"), ("c2", "front"), ("c2", "back"), ("n1", "front")]
    assert [p.slot.x for p in imposition.placements] == pytest.approx([9 + 15 * i for i in range(5)])


def test_faces_of_another_shape_ignore_a_sets_own_label_template():
    cards, tokens = card_type(name="card"), card_type(12.7, 12.7, shape="circle", name="token")
    imposition = impose(pairs(2, cards, prefix="k") + pairs(3, tokens, backs=False),
                        SheetOptions(paper="a4", template="OL32"))
    sizes = [(page.w, page.h) for page in imposition.pages]
    # The cards on a portrait a4 card grid (3 x 3; front and back page), the tokens on the US
    # Letter label sheet.
    assert sizes == [(210.0, 297.0), (210.0, 297.0), pytest.approx((215.9, 279.4))]


def test_a_template_asked_for_that_takes_no_face_is_an_error_naming_both():
    cards, tokens = card_type(name="card", line=12), card_type(12.7, 12.7, shape="circle", name="token")
    options = SheetOptions(paper="a4", template="OL32", template_everywhere=True)
    with pytest.raises(CardgenError) as error:
        impose(pairs(2, cards, prefix="k"), options)
    assert str(error.value) == ('data/t/set.yaml:12: card "k1": sheet "OL32" does not apply to this card: the '
                                'sheet has round slots only, and "k1" (type card) is a 63.5 x 88.9 mm '
                                "rectangular card")
    # With round tokens beside the cards, the tokens go on it and the cards on a grid.
    imposition = impose(pairs(2, cards, prefix="k") + pairs(3, tokens, backs=False), options)
    assert [(page.w, page.h) for page in imposition.pages] == [
        (210.0, 297.0), (210.0, 297.0), pytest.approx((215.9, 279.4))]
    circle_cut = SheetOptions(paper="a4", template="circle-cut", template_everywhere=True)
    assert len(impose(pairs(3, tokens, backs=False), circle_cut).pages) == 1
    with pytest.raises(CardgenError) as error:
        impose(pairs(1, cards), circle_cut)
    assert str(error.value) == ('data/t/set.yaml:12: card "c1": sheet "circle-cut" does not apply to this card: '
                                'the sheet has round slots only, and "c1" (type card) is a 63.5 x 88.9 mm '
                                "rectangular card")
    # A set's own template (not asked for) serving none of the faces is no error.
    assert impose(pairs(1, cards), SheetOptions(paper="a4", template="OL32")).pages
