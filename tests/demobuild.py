"""The demo project built once a module, for the bad-input tests: the output's bytes before a
failing build, and the check that they are still there, byte for byte, with nothing beside them."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from projects import make_project


@pytest.fixture(scope="module")
def demo_build(tmp_path_factory) -> Path:
    """The demo project built (run from the project folder, the cache on), once for the module;
    each test breaks a copy of it (``built``), never this one."""
    project = make_project(tmp_path_factory.mktemp("demo"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(project)
        result = CliRunner().invoke(main, ["--root", str(project), "build", "demo"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return project


@pytest.fixture
def built(demo_build, tmp_path, monkeypatch):
    """A copy of the built demo project, its output and cache included, run from its folder;
    and its output's bytes."""
    project = tmp_path / "proj"
    shutil.copytree(demo_build, project, symlinks=True)
    monkeypatch.chdir(project)
    return project, demo_bytes(project)


def demo_bytes(project: Path) -> dict[str, bytes]:
    return {name: (project / "output" / name).read_bytes() for name in ("demo.json", "demo.pdf")}


def intact(project: Path, before: dict[str, bytes]) -> None:
    assert demo_bytes(project) == before
    assert sorted(p.name for p in (project / "output").iterdir()) == ["demo.json", "demo.pdf"]  # no debris


def refused(cli, built, *lines: str, args=("build", "demo", "--no-cache")) -> None:
    """``cardgen ARGS`` in the broken copy fails with exactly ``lines`` on stderr, and the output
    it found is as it was."""
    project, before = built
    result = cli(project, *args)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == list(lines)
    intact(project, before)


def problems(project: Path) -> list[str]:
    """The problems ``cardgen check`` finds in the demo set's cards, as their lines read."""
    from cardgen import CardgenError, load_set

    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project).cards.check()
    return [str(p) for p in excinfo.value.problems]


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in the file with ``new`` (``old`` must be there)."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
