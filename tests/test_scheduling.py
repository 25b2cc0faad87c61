"""scheduling.py names test files by path: a file moved or renamed would silently lose its place."""
from __future__ import annotations

from projects import REPO
from scheduling import BROWSER, LONGEST_FIRST


def test_every_file_the_schedule_names_exists():
    named = [*BROWSER, *(scope for scope in LONGEST_FIRST if scope != "browser")]
    assert [name for name in named if not (REPO / name).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
