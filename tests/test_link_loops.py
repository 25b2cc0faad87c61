"""A file the project names that is a loop of symbolic links (a link to itself, or two links to
each other) names no file at all: one line naming where the project names it, exit 1, and the
earlier output kept. Python 3.11's Path.resolve() raises RuntimeError for it, not OSError."""
from __future__ import annotations

import os

import pytest

from demobuild import built, demo_build, refused  # noqa: F401 (fixtures)
from cardgen.paths import link_loop

LOOP = "is a link that leads back to itself (a loop of symbolic links)"


def loop(path, through=None) -> None:
    """Replace ``path`` by a link to itself, or to ``through``, a link back to it."""
    path.unlink()
    if through is None:
        os.symlink(path.name, path)
    else:
        os.symlink(through.name, path)
        os.symlink(path.name, through)


@pytest.mark.parametrize("looped, through, message", [
    ("data/demo/more.csv", None, f'data/demo/set.yaml:25: card file "more.csv" {LOOP}'),
    ("data/demo/cards.yaml", "data/demo/other.yaml", f'data/demo/set.yaml:24: card file "cards.yaml" {LOOP}'),
    ("data/demo/icons/star.svg", None, f'data/demo/set.yaml:22: icon "star": image "icons/star.svg" {LOOP}'),
    ("fonts/DejaVuSerif-Bold.ttf", None,
     f'fonts/fonts.yaml:12: font file "DejaVuSerif-Bold.ttf" of family "DejaVu Serif" {LOOP}'),
])
def test_a_file_named_in_the_data_that_loops_is_named_at_its_line(cli, built, looped, through, message):
    project, _ = built
    loop(project / looped, project / through if through else None)
    refused(cli, built, message, "cardgen: 1 error, 0 warnings")


@pytest.mark.parametrize("cache, message", [
    ("--cache", f"cardgen: cannot open elsewhere: {LOOP[3:]}"),  # the cache's look at the output
    ("--no-cache", f"cardgen: cannot write elsewhere/demo.pdf: elsewhere {LOOP}"),
])
def test_an_output_folder_that_loops_is_named(cli, built, cache, message):
    project, _ = built
    os.symlink("elsewhere", project / "elsewhere")
    refused(cli, built, message, args=("build", "demo", cache, "--out", "elsewhere"))


def test_only_pythons_own_loop_error_is_taken_for_a_loop():
    found = link_loop(RuntimeError("Symlink loop from '/a/b c'"))
    assert (found.errno, found.filename) == (40, "/a/b c")
    assert link_loop(RuntimeError("something else")) is None
    assert link_loop(RuntimeError("Symlink loop from '/a' and more")) is None
    assert link_loop(ValueError("Symlink loop from '/a'")) is None
