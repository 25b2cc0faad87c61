"""Where the writer puts a face in its slot, read back from the page's operators: the face's
centre on the slot's centre, clipped to the slot's clip (a rectangle, the circle or the hexagon
grown by the bleed), turned about its centre on a gutter-fold back; nothing stroked or filled
but the face itself."""
from __future__ import annotations

from write.writing import Page, Placement, Slot, card_type, face, painted, write

KIND = card_type(20, 30, bleed=2)


def _one(tmp_path, slot, kind=KIND):
    reader = write(tmp_path / "x.pdf", [(Page(1, 100, 150), [Placement(face("a", kind), slot)])])
    return painted(reader)


def test_a_face_without_clip_is_centred_in_a_larger_slot(tmp_path):
    # a die-cut label a little larger than the face: the face's centre on the label's
    assert _one(tmp_path, Slot(1, 10, 20, 24, 36)) == [("f", (12.0, 23.0, 32.0, 53.0))]


def test_a_face_without_clip_in_its_own_size_slot_fills_it(tmp_path):
    assert _one(tmp_path, Slot(1, 7.5, 11.25, 20, 30)) == [("f", (7.5, 11.25, 27.5, 41.25))]


def test_a_rectangular_clip_is_the_slots_clip_box(tmp_path):
    found = _one(tmp_path, Slot(1, 10, 20, 20, 30, clip=(8.5, 18, 31, 51.5)))
    assert found == [("W n", (8.5, 18.0, 31.0, 51.5)), ("f", (10.0, 20.0, 30.0, 50.0))]


def test_a_round_slot_is_clipped_to_the_circle_of_its_clip_box(tmp_path):
    kind = card_type(30, 30, bleed=2, shape="circle")
    found = _one(tmp_path, Slot(1, 10, 20, 30, 30, shape="circle", clip=(8, 18, 42, 52)), kind)
    assert found == [("W* n", (8.0, 18.0, 42.0, 52.0)), ("f", (10.0, 20.0, 40.0, 50.0))]


def test_a_round_slot_without_clip_is_placed_unclipped(tmp_path):
    kind = card_type(30, 30, bleed=2, shape="circle")
    assert _one(tmp_path, Slot(1, 10, 20, 30, 30, shape="circle"), kind) == [("f", (10.0, 20.0, 40.0, 50.0))]


def test_a_hexagonal_slot_is_clipped_to_the_hexagon_of_its_clip_box(tmp_path):
    from pypdf.generic import ContentStream

    kind = card_type(26, 30, bleed=2, shape="hex-pointy")
    reader = write(tmp_path / "x.pdf", [(Page(1, 100, 150), [
        Placement(face("a", kind), Slot(1, 10, 20, 26, 30, shape="hex-pointy", clip=(8, 18, 38, 52)))])])
    assert painted(reader) == [("W n", (8.0, 18.0, 38.0, 52.0)), ("f", (10.0, 20.0, 36.0, 50.0))]
    operations = ContentStream(reader.pages[0].get_contents(), reader).operations
    corners = [tuple(round(float(v) / 2.834645669, 2) for v in operands) for operands, op in operations
               if op in (b"m", b"l")][:6]
    # pointy top: the top corner first, then clockwise (sheets/shapes.hexagon)
    assert corners == [(23.0, 52.0), (38.0, 43.5), (38.0, 26.5), (23.0, 18.0), (8.0, 26.5), (8.0, 43.5)]


def test_a_hexagonal_slot_without_clip_is_placed_unclipped(tmp_path):
    kind = card_type(30, 26, bleed=2, shape="hex-flat")
    assert _one(tmp_path, Slot(1, 10, 20, 30, 26, shape="hex-flat"), kind) == [("f", (10.0, 20.0, 40.0, 46.0))]


def _turned_corner(tmp_path, slot, kind=KIND):
    """The page point where the face's own bottom-left corner (its origin) lands."""
    from write.writing import operations

    reader = write(tmp_path / "x.pdf", [(Page(1, 100, 150), [Placement(face("a", kind), slot)])])
    (ctm,) = [ctm for op, _, ctm in operations(reader.pages[0].get_contents(), reader) if op == "f"]
    return tuple(round(v, 3) for v in ctm[:4]), (round(ctm[4] / 2.834645669, 3), round(ctm[5] / 2.834645669, 3))


def test_a_turned_back_is_turned_about_the_slots_centre(tmp_path):
    # a gutter-fold back: upside down, the face's origin at the slot's top-right corner
    matrix, origin = _turned_corner(tmp_path, Slot(1, 10, 20, 20, 30, rotation=180))
    assert matrix == (-1, 0, 0, -1) and origin == (30.0, 50.0)
    found = _one(tmp_path, Slot(1, 10, 20, 20, 30, rotation=180, clip=(9, 18, 31, 51)))
    assert found == [("W n", (9.0, 18.0, 31.0, 51.0)), ("f", (10.0, 20.0, 30.0, 50.0))]


def test_a_turned_face_in_a_larger_slot_keeps_its_centre_on_the_slots(tmp_path):
    matrix, origin = _turned_corner(tmp_path, Slot(1, 10, 20, 24, 36, rotation=180))
    assert matrix == (-1, 0, 0, -1) and origin == (32.0, 53.0)


def test_a_quarter_turn_turns_the_face_about_the_slots_centre(tmp_path):
    kind = card_type(20, 20, bleed=2)
    matrix, origin = _turned_corner(tmp_path, Slot(1, 10, 20, 20, 20, rotation=90), kind)
    assert matrix == (0, 1, -1, 0) and origin == (30.0, 20.0)
