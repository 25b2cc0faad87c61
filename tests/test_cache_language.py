"""The faces' cache knows the set's language: text boxes hyphenate in it (hyphenate="auto"), so a
face kept from a build in another language is drawn again (cache.py, assets.py)."""
from __future__ import annotations

import cardgen

from projects import make_project

LONG_WORDS = "Incomprehensibilities notwithstanding, internationalization characteristically overwhelms institutionalization."


def test_a_cached_build_after_a_language_change_equals_a_build_without_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    root = make_project(tmp_path)
    table = root / "data/demo/more.csv"
    table.write_text(table.read_text(encoding="utf-8").replace("This text goes on and on.", LONG_WORDS), encoding="utf-8")
    cardgen.build(["demo"], root=root, out=tmp_path / "before")
    set_file = root / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text(encoding="utf-8").replace("size: poker\n", "size: poker\nlanguage: en_US\n"),
                        encoding="utf-8")
    cached = cardgen.build(["demo"], root=root, out=tmp_path / "cached")
    cardgen.build(["demo"], root=root, out=tmp_path / "cold", options=cardgen.BuildOptions(cache=False))
    assert cached.sets[0].reused == 0
    pdf = "demo.pdf"
    assert (tmp_path / "cached" / pdf).read_bytes() == (tmp_path / "cold" / pdf).read_bytes()
    # the language changes what is printed: the words break elsewhere
    assert (tmp_path / "before" / pdf).read_bytes() != (tmp_path / "cold" / pdf).read_bytes()
