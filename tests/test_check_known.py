"""`cardgen check` after a build: a face the last build drew with this same code is known to fit,
and is neither rendered nor laid out again (cardgen/known_faces.py). The problems are always
those of a check that lays out every face (`--no-cache`), and the check writes nothing."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cardgen
from cardgen.rendered import Rendered

from projects import make_project, run_cli

CACHE = ".cardgen-cache"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The demo project built once (the cache on); each test checks a copy of it."""
    project = make_project(tmp_path_factory.mktemp("known"))
    cardgen.build(["demo"], root=project, out=project / "output")
    assert (project / CACHE / "faces-demo.bin").is_file()
    return project


@pytest.fixture
def project(built, tmp_path) -> Path:
    copy = tmp_path / "proj"
    shutil.copytree(built, copy)
    return copy


@pytest.fixture
def laid_out(monkeypatch) -> list[tuple[str, str]]:
    """(card, side) of every face a check lays out, in order."""
    faces: list[tuple[str, str]] = []
    lay_out = Rendered.lay_out

    def noting(self, face):
        faces.append((face.card.name, face.side))
        return lay_out(self, face)

    monkeypatch.setattr(Rendered, "lay_out", noting)
    return faces


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def both(project: Path) -> list[str]:
    """The check's problems with the cache, asserted equal to those without it."""
    warm = [str(p) for p in cardgen.check(["demo"], root=project)]
    assert warm == [str(p) for p in cardgen.check(["demo"], root=project, cache=False)]
    return warm


def test_after_a_build_only_the_face_with_an_image_icon_is_laid_out(project, laid_out):
    before = files(project)
    assert cardgen.check(["demo"], root=project) == []
    # "Escape Artist" names the SVG icon :star:, loaded again as a fresh layout loads it (its
    # limits, a file gone); the faces of text and shapes alone the build drew are known
    assert laid_out == [("Escape Artist", "front")]
    assert files(project) == before  # nothing written, the cache's file included
    laid_out.clear()
    assert cardgen.check(["demo"], root=project, cache=False) == []
    assert len(laid_out) == 6  # every distinct face: the two copies of "Quick Draw" are one, and all share one back
    assert {("Quick Draw", "back"), ("Marker", "front"), ("Long Winded", "front")} < set(laid_out)


def test_no_cache_on_the_command_line_lays_out_every_face(project, laid_out):
    assert run_cli(project, "check", "demo", "--no-cache").returncode == 0
    assert len(laid_out) == 6
    laid_out.clear()
    assert run_cli(project, "check", "demo").returncode == 0
    assert laid_out == [("Escape Artist", "front")]


def test_an_edited_card_is_laid_out_and_its_problem_said_as_without_the_cache(project, laid_out):
    table = project / "data/demo/more.csv"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("until it is small.", "until it is small. " + "And on. " * 400), encoding="utf-8")
    assert both(project) == [
        'data/demo/more.csv:3: card "Long Winded": field "text": the text does not fit at the minimum size 5 pt in '
        'text box "body" (53.5 x 52 mm) (drawn by templates/demo/action.xml.j2:5)']
    assert laid_out[:2] == [("Escape Artist", "front"), ("Long Winded", "front")]  # the others are known


def test_a_lower_template_limit_renders_the_known_faces_again(project, monkeypatch):
    """A rendering kept within the default limits is not taken as within lower ones."""
    monkeypatch.setenv("CARDGEN_MAX_TEMPLATE_DEPTH", "1")
    assert both(project) == [
        'templates/demo/action.xml.j2:1: card "Quick Draw": templates include or extend one another too deeply '
        '(at "demo/frame.xml.j2": one that includes itself?); limit: depth of templates and macros inside one '
        'another (include, extends, macro calls), CARDGEN_MAX_TEMPLATE_DEPTH=1 (set that environment variable '
        'higher to raise it)']


def test_a_lower_svg_limit_meets_the_image_icon_again(project):
    svg = project / "data/demo/icons/star.svg"
    svg.write_text(svg.read_text(encoding="utf-8").replace("</svg>", '<circle cx="1" cy="1" r="1"/></svg>'),
                   encoding="utf-8")
    problems = both(project)
    assert len(problems) == 0  # the icon as edited draws
    shutil.copytree(project, project.parent / "rebuilt")
    cardgen.build(["demo"], root=project.parent / "rebuilt", out=project.parent / "rebuilt/output")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDGEN_MAX_SVG_ELEMENTS", "1")
        problems = both(project.parent / "rebuilt")
    assert len(problems) == 1 and 'card "Escape Artist": icon "star"' in problems[0]
    assert "CARDGEN_MAX_SVG_ELEMENTS" in problems[0]


def test_a_cache_written_by_other_code_is_not_read(project, laid_out, monkeypatch):
    monkeypatch.setattr("cardgen.cache_file.code_identity", lambda: "0.0 another")
    assert cardgen.check(["demo"], root=project) == []
    assert len(laid_out) == 6


def test_a_new_hyphenation_language_lays_the_faces_out_again(project, laid_out):
    """Where lines break, and so whether a text fits, depends on the set's language."""
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text(encoding="utf-8").replace("size: poker\n", "size: poker\nlanguage: en_US\n"),
                        encoding="utf-8")
    assert both(project) == []
    assert len(laid_out) == 12  # every face, with the cache and without
