"""How two names that look alike differ: case, Unicode composition, outer spaces, invisible
characters; and the look-alike on disk of a path not found."""
from __future__ import annotations

import unicodedata

from cardgen.lookalikes import alike_on_disk, difference


def test_each_way_two_names_look_alike_is_said():
    composed = "caf\u00e9.svg"
    decomposed = unicodedata.normalize("NFD", composed)
    assert difference(composed, decomposed) == (
        "in how its accents are stored: Unicode NFC against NFD, the same letters in other bytes")
    assert difference("Sea.svg", "sea.svg") == "in case"
    assert difference("sea.svg", "sea.svg ") == "in spaces at its start or end"
    assert difference("se\u200ba.svg", "sea.svg") == "in invisible characters"
    assert difference("Caf\u00e9", unicodedata.normalize("NFD", "caf\u00e9")) == (
        "in how its accents are stored: Unicode NFC against NFD, the same letters in other bytes and in case")
    assert difference("sea.svg", "sea.svg") is None
    assert difference("sea.svg", "see.svg") is None


def test_the_first_missing_part_of_a_path_is_matched_in_its_folder(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images/sea.svg ").write_text("")
    assert alike_on_disk(tmp_path / "images/sea.svg") == (
        ' (its folder holds the file "sea.svg ", which differs in spaces at its start or end)')
    assert alike_on_disk(tmp_path / "Images/sea.svg") == ' (its folder holds the folder "images", which differs in case)'
    assert alike_on_disk(tmp_path / "images/other.svg") == ""
