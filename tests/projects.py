"""Throw-away project folders for tests (importable: pytest puts tests/ on the path)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_project(tmp_path: Path, fixture: str = "project", fonts: bool = True) -> Path:
    """Copy ``tests/fixtures/<fixture>`` into ``tmp_path``, with a copy of the repository's fonts
    in its ``fonts/`` unless ``fonts`` is False: the project then uses the fonts cardgen ships (the
    same files), as a project made by ``cardgen new`` does. A test that reads, edits or damages
    the project's own fonts needs the copy; the others are spared copying 6.5 MB and hashing it
    at each build (a fifth of the CPU of a small build test)."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / fixture, root)
    if fonts:
        shutil.copytree(REPO / "fonts", root / "fonts")
    return root


def copy_of_project(project: Path, tmp_path: Path) -> Path:
    """A copy of ``project`` (its cache and outputs too) in ``tmp_path``: a test that edits a
    project built once per module edits its own copy."""
    root = tmp_path / "proj"
    shutil.copytree(project, root, symlinks=True)
    return root


def build_demo(root: Path, out: str, **options):
    """The ``demo`` set of ``root`` built in one process into ``root / out``: its SetResult."""
    import cardgen
    from cardgen import BuildOptions

    return cardgen.build(["demo"], root, root / out, BuildOptions(jobs=1, **options)).sets[0]


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    """``cardgen --root ROOT ARGS`` run in this process by click's runner, as ``subprocess.run``
    reports a process: exit code, stdout, stderr. For tests of what a command says and returns;
    tests of the process itself (signals, exit on a real interpreter) start one."""
    result = CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)
    return subprocess.CompletedProcess(["cardgen", "--root", str(root), *args], result.exit_code,
                                       result.stdout, result.stderr)
