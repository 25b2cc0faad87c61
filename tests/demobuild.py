"""The demo project built once, for the bad-input tests: the output's bytes before a failing
build, and the check that they are still there, byte for byte, with nothing beside them."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def built(project, cli, monkeypatch):
    """The demo project built once (run from the project folder), and its output's bytes."""
    monkeypatch.chdir(project)
    assert cli(project, "build", "demo").exit_code == 0
    return project, demo_bytes(project)


def demo_bytes(project: Path) -> dict[str, bytes]:
    return {name: (project / "output" / name).read_bytes() for name in ("demo.pdf", "demo.json")}


def intact(project: Path, before: dict[str, bytes]) -> None:
    assert demo_bytes(project) == before
    assert sorted(p.name for p in (project / "output").iterdir()) == ["demo.json", "demo.pdf"]  # no debris
