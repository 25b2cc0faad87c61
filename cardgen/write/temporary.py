"""Temporary files that say whose they are, so that a build killed half-way leaves nothing
for good: the next build (or ``cardgen clean``) removes what a dead build left.

A temporary beside ``target`` is named ``.<target name>.cardgen-<pid>-<random>.tmp``: the
process id of the build writing it. One whose process no longer runs is stale. Nothing else
is ever removed: not a file of another name, not a temporary of a build still running (a
process id that has been given to another process keeps its file, which is the safe side).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

_NAME = re.compile(r"\..+\.cardgen-(\d+)-[0-9a-f]{8}\.tmp")


NAME_MAX = 255  # bytes in one part of a path (paths.NAME_MAX; not imported: this module starts early)


def temporary_path(target: Path) -> Path:
    """A fresh temporary name beside ``target`` (the file is not made). Its name keeps as much of
    the target's as fits in a file name: a set named in 230 characters has outputs that fit, and
    their temporaries, 30 bytes longer, did not ("file name too long" for a name that fits)."""
    target = Path(target)  # (os.urandom is what secrets.token_hex reads, without importing secrets and hmac)
    tail = f".cardgen-{os.getpid()}-{os.urandom(4).hex()}.tmp"
    name = os.fsencode(target.name)[:NAME_MAX - 1 - len(tail)]
    return target.with_name(f".{os.fsdecode(name.decode('utf-8', 'ignore').encode())}{tail}")


def is_temporary(path: Path) -> bool:
    return _NAME.fullmatch(Path(path).name) is not None


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: alive
    return True


def stale_temporaries(folder: Path) -> list[Path]:
    """The temporaries in ``folder`` (not below it) whose build is no longer running, sorted."""
    try:
        entries = list(os.scandir(folder))
    except OSError:  # no folder yet, or not readable: nothing of ours in it
        return []
    stale = []
    for entry in entries:
        match = _NAME.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        if not _running(int(match.group(1))):
            stale.append(Path(entry.path))
    return sorted(stale)


def remove_stale(*folders: Path, below: bool = False) -> list[Path]:
    """Remove the stale temporaries of ``folders`` (``below``: and of the folders inside them,
    links not followed); return those removed."""
    removed = []
    every = []
    for folder in folders:
        every.append(folder)
        if below:
            every.extend(_folders_below(Path(folder)))
    for folder in every:
        for path in stale_temporaries(folder):
            try:
                path.unlink()
            except FileNotFoundError:  # another build removed it first
                continue
            except OSError:
                continue  # not ours to force
            removed.append(path)
    return removed


# cardgen writes at most this deep below an output folder (output/tgc/<set>/<size>/): `clean --out /`
# walked the whole file system, a hang to the user, reading far outside the project.
DEEPEST_OUTPUT = 3


def _folders_below(folder: Path) -> list[Path]:
    """The folders inside ``folder`` down to ``DEEPEST_OUTPUT`` levels, links not followed."""
    found = []
    for top, names, _files in os.walk(folder):
        depth = len(Path(top).relative_to(folder).parts) + 1
        found.extend(Path(top) / name for name in names)
        if depth >= DEEPEST_OUTPUT:
            names[:] = []  # os.walk goes no deeper
    return found
