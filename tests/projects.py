"""Throw-away project folders for tests (importable: pytest puts tests/ on the path)."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_project(tmp_path: Path, fixture: str = "project") -> Path:
    """Copy ``tests/fixtures/<fixture>`` into ``tmp_path`` with the repository's fonts beside it."""
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / fixture, root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root
