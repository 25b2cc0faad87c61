"""Faces whose parts a build's workers made ready to write (write_pdf's ``ready``): a face met
for the first time is written from them, the bytes its drawing would write; anything else (a
face placed again, a stamp, a face ``ready`` does not give) goes through its drawing."""
from __future__ import annotations

import marshal
from types import SimpleNamespace

from cardgen.cache import FaceCache
from cardgen.draw.prepared import Marshalled
from cardgen.workers import ParallelRendered
from cardgen.write.face import FaceDrawing, ReadyFaces
from write.writing import Page, Placement, Slot, card_type, face, write

KIND = card_type(20, 30, bleed=2)


def _parts(f) -> tuple:
    # operators only (pure), a rectangle of its own for each face: where it went shows which face
    number = ord(f.content_hash[0])
    return (f"0 0 {number} 5 re f", "q", f"1 0 0 1 {number} 0 cm", "Q")


def _prepared(parts: tuple) -> tuple:
    return ("\n".join(parts),)  # what draw/prepared.py makes of operators alone


def _drawing(f, parts=None) -> FaceDrawing:
    own = _parts(f)
    return FaceDrawing(None, None, parts=own, prepared=_prepared(own), pure=True)


def _pages():
    """Two pages: faces a, b, c, then a again (placed as a form) beside d."""
    slot = lambda page, x: Slot(page, x, 20, 20, 30)  # noqa: E731
    return [(Page(1, 100, 150), [Placement(face(key, KIND), slot(1, x)) for key, x in (("a", 5), ("b", 30), ("c", 55))]),
            (Page(2, 100, 150), [Placement(face(key, KIND), slot(2, x)) for key, x in (("a", 5), ("d", 30))])]


def _ready(asked: list, given=lambda f: True) -> ReadyFaces:
    def of(f):
        asked.append(f.content_hash)
        if not given(f):
            return None
        parts = _parts(f)
        return parts, _prepared(parts)

    return ReadyFaces(of, None, None)


def test_faces_made_ready_are_written_as_their_drawings_write_them(tmp_path):
    write(tmp_path / "drawn.pdf", _pages(), _drawing)
    drawings: list = []
    asked: list = []
    counting = lambda f, parts=None: drawings.append((f.content_hash, parts)) or _drawing(f, parts)  # noqa: E731
    write(tmp_path / "ready.pdf", _pages(), counting, ready=_ready(asked))
    assert (tmp_path / "ready.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()
    # each face asked once, when first met; a's second use defines its form from the parts kept
    assert asked == ["a", "b", "c", "d"] and drawings == [("a", _parts(face("a")))]


def test_parts_sent_as_marshal_data_are_read_only_when_a_face_is_placed_again(tmp_path):
    write(tmp_path / "drawn.pdf", _pages(), _drawing)
    drawings: list = []
    counting = lambda f, parts=None: drawings.append((f.content_hash, parts)) or _drawing(f, parts)  # noqa: E731

    def of(f):  # b, c and d written from their prepared items alone: their data is never read
        parts = _parts(f)
        return Marshalled(marshal.dumps(parts) if f.content_hash == "a" else b"not marshal data"), _prepared(parts)

    write(tmp_path / "ready.pdf", _pages(), counting, ready=ReadyFaces(of, None, None))
    assert (tmp_path / "ready.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()
    assert drawings == [("a", _parts(face("a")))]  # a's form, defined from its parts, read then


def test_a_face_not_made_ready_goes_through_its_drawing(tmp_path):
    write(tmp_path / "drawn.pdf", _pages(), _drawing)
    drawings: list = []
    asked: list = []
    counting = lambda f, parts=None: drawings.append((f.content_hash, parts)) or _drawing(f, parts)  # noqa: E731
    write(tmp_path / "ready.pdf", _pages(), counting, ready=_ready(asked, lambda f: f.content_hash != "b"))
    assert (tmp_path / "ready.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()
    assert asked == ["a", "b", "c", "d"] and drawings == [("b", None), ("a", _parts(face("a")))]


def test_a_stamped_face_goes_through_its_drawing(tmp_path):
    write(tmp_path / "drawn.pdf", _pages(), _drawing, stamp="v1")
    asked: list = []
    write(tmp_path / "ready.pdf", _pages(), _drawing, stamp="v1", ready=_ready(asked))
    assert (tmp_path / "ready.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()
    assert asked == []


def _rendered(tmp_path, entries: dict) -> ParallelRendered:
    cache = FaceCache(tmp_path / "faces.bin")
    return ParallelRendered(None, SimpleNamespace(preview=False), cache, feed=SimpleNamespace(entries=entries))


def test_ready_gives_a_workers_face_made_ready_whole_and_keeps_it_as_drawing_does(tmp_path):
    parts = ("0 0 1 1 re f", ("T", ("0 0 0 rg", ("F1", "9", "word"))), ("I", "star", 1.0, 2.0, 9.0))
    prepared = ("0 0 1 1 re f", ("T", 1, ("F1",), ("BT 0 0 0 rg ", " 9 Tf (word) Tj ET")),
                ("I", 2, "img", "FormXob.img", "q\n9 0 0 9 1 2 cm\n/FormXob.img Do\nQ"))
    rendered = _rendered(tmp_path, {"h1": (marshal.dumps(parts), None, None, prepared)})
    a = face("h1", KIND)
    made = rendered.ready(a)
    assert made[1] == prepared and made[0].parts() == parts
    assert (rendered.laid_out, rendered.cache.laid_out) == (1, 1)
    assert rendered.cache.get("h1") == parts  # kept for the next build
    # once the cache holds it, the face's drawing takes the cache's parts: ready leaves it alone
    assert rendered.cache.may_hold("h1") and rendered.ready(a) is None
    assert rendered.laid_out == 1


def test_ready_gives_nothing_for_a_face_drawn_otherwise_and_counts_nothing(tmp_path):
    element = ("0 0 1 1 re f", ("E", 0))
    text = ("0 0 1 1 re f", ("T", ("0 0 0 rg", ("F1", "9", "w\u00f6rd"))))
    rendered = _rendered(tmp_path, {
        "el": (marshal.dumps(element), "<card/>", None, ("0 0 1 1 re f", ("P", 1))),
        "text": (marshal.dumps(text), None, None, ("0 0 1 1 re f", ("P", 1))),  # a text not made ready
        "raw": (marshal.dumps(("0 0 1 1 re f",)), None, None, None),  # nothing made ready
        "bad": (None, "<card/>", None, None)})  # left to the build's process
    for key in ("el", "text", "raw", "bad", "unknown"):
        assert rendered.ready(face(key, KIND)) is None
    assert (rendered.laid_out, rendered.cache.laid_out) == (0, 0)
    assert not any(rendered.cache.may_hold(key) for key in ("el", "text", "raw", "bad"))


def test_may_hold_is_true_for_what_the_last_build_kept(tmp_path):
    first = FaceCache(tmp_path / "faces.bin")
    assert not first.may_hold("k")
    first.put("k", ("0 0 1 1 re f",))
    assert first.may_hold("k")
    first.save()
    again = FaceCache(tmp_path / "faces.bin")
    assert again.may_hold("k") and not again.may_hold("other")
    assert again.get("k") == ("0 0 1 1 re f",)
