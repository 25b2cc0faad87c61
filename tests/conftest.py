"""Shared fixtures: a throw-away project folder built from tests/fixtures/project."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_project(tmp_path: Path, fixture: str = "project") -> Path:
    """Copy a fixture project into ``tmp_path`` with the repository's fonts beside it."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / fixture, root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def cli():
    """Run the command line in-process: cli(root, "build", "demo") -> click Result."""
    runner = CliRunner()

    def run(root: Path, *args: str):
        return runner.invoke(main, ["--root", str(root), *args], catch_exceptions=False)

    return run
