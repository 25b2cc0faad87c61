"""The layout cache: a rebuild lays out only what changed, and prints the same bytes."""
from __future__ import annotations

import cardgen
from cardgen import BuildOptions


def build(project, out="output", **options):
    return cardgen.build(["demo"], project, project / out, BuildOptions(**options)).sets[0]


def test_a_rebuild_lays_out_only_the_changed_card(project):
    first = build(project)
    distinct = first.laid_out
    assert (first.reused, distinct) == (0, 6)  # 4 distinct action cards, 1 token, 1 shared back
    again = build(project)
    assert (again.laid_out, again.reused) == (0, distinct)
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    changed = build(project)
    assert (changed.laid_out, changed.reused) == (1, distinct - 1)


def test_cached_and_fresh_layouts_print_the_same_bytes(project):
    build(project)  # fills the cache
    cached = build(project, "cached")
    fresh = build(project, "fresh", cache=False)
    assert cached.reused == 6 and fresh.reused == 0
    assert cached.pdf.read_bytes() == fresh.pdf.read_bytes()


def test_a_font_change_lays_everything_out_again(project):
    build(project)
    index = project / "fonts/fonts.yaml"
    index.write_text(index.read_text() + "\n# edited\n")
    assert build(project).laid_out == 6


def test_a_damaged_cache_is_only_a_slower_build(project):
    build(project)
    (cache,) = (project / ".cardgen-cache").iterdir()
    cache.write_bytes(b"not a pickle")
    result = build(project)
    assert (result.laid_out, result.reused) == (6, 0)
    assert build(project).reused == 6
