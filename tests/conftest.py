"""Shared fixtures: a throw-away project folder built from tests/fixtures/project."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main

from projects import make_project
from livepage import chromium, page  # noqa: F401 (browser fixtures, shared: one Chromium a session)


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
