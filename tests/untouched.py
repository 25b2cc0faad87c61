"""What the tests must leave as they found it: the build outputs and caches in the repository.

Tests build shipped sets into a temporary folder or with the cache off; a test that builds in
the repository with the cache on leaves a `.cardgen-cache/` behind, and a warm cache hides code
bugs from every later run (faces are then drawn from the cache, not by the code under test).
"""
from __future__ import annotations

import os
from pathlib import Path

WATCHED = (".cardgen-cache", "output", ".hypothesis")  # what a build (or hypothesis) writes
SKIPPED = (".git", "node_modules", "__pycache__", ".pytest_cache", "mutants")


def build_outputs(root: Path) -> dict[str, tuple[int, int]]:
    """Every folder named like a build output or cache under ``root``, and every file in one:
    relative path -> (size, modification time); (-1, -1) for a folder."""
    found: dict[str, tuple[int, int]] = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED and not d.startswith(".venv"))
        relative = Path(folder).relative_to(root)
        if not any(part in WATCHED for part in relative.parts):
            continue
        found[relative.as_posix() + "/"] = (-1, -1)
        for name in files:
            stat = (Path(folder) / name).stat()
            found[(relative / name).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return found


def changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """What happened between two snapshots, one line a path."""
    lines = [f"{path}: created" for path in sorted(after.keys() - before.keys())]
    lines += [f"{path}: removed" for path in sorted(before.keys() - after.keys())]
    lines += [f"{path}: rewritten" for path in sorted(before.keys() & after.keys()) if before[path] != after[path]]
    return lines
