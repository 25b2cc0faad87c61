"""Font subsets kept from the last build (write/kept_subsets.py): a rebuild that uses the same
characters cuts no subset, and every rebuild prints what a build without the cache prints."""
from __future__ import annotations

import pytest
from reportlab.pdfbase import ttfonts

from cardgen.cache import FaceCache
from pdftext import page_texts
from projects import build_demo, copy_of_project, make_project


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("subsets"))
    build_demo(root, "first")
    return root


@pytest.fixture
def built(_built_once, tmp_path):
    return copy_of_project(_built_once, tmp_path)


@pytest.fixture
def cuts(monkeypatch) -> list[int]:
    """How many codes each subset cut in the builds that follow has."""
    made: list[int] = []
    original = ttfonts.TTFontFile.makeSubset
    monkeypatch.setattr(ttfonts.TTFontFile, "makeSubset", lambda self, subset: made.append(len(subset))
                        or original(self, subset))
    return made


def _edit_card(root, old: str, new: str) -> None:
    cards = root / "data/demo/cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert old in text
    cards.write_text(text.replace(old, new, 1), encoding="utf-8")


def _same_as_fresh(root, monkeypatch):
    again = build_demo(root, "again")
    monkeypatch.undo()
    fresh = build_demo(root, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    return fresh


def test_a_rebuild_with_the_same_characters_cuts_no_subset(built, cuts, monkeypatch):
    _edit_card(built, "Nobody saw him leave.", "Nobody saw her leave.")  # letters met elsewhere
    _same_as_fresh(built, monkeypatch)
    assert cuts == []


def test_a_rebuild_with_a_new_character_cuts_that_font_subset_again(built, cuts, monkeypatch):
    _edit_card(built, "Nobody saw him leave.", "Nobody saw him leave. Ω")
    fresh = _same_as_fresh(built, monkeypatch)
    assert len(cuts) == 1  # the regular face's subset, with one more code
    assert any("Ω" in text for text in page_texts(fresh.pdf))


def test_a_damaged_kept_subset_is_cut_again(built, cuts, monkeypatch):
    original = FaceCache.recall
    monkeypatch.setattr(FaceCache, "recall", lambda self, key: b"\x78\x9c not deflated" if key.startswith("subset:")
                        else original(self, key))
    _edit_card(built, "Nobody saw him leave.", "Nobody saw her leave.")
    _same_as_fresh(built, monkeypatch)
    assert cuts and all(count > 0 for count in cuts)
