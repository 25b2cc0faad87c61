"""A file saved while a build reads it must not give a PDF of both: a build reads a project's
files more than once and at different moments (a large set's card files on every pass and in
each worker, load/cursor.py; each template when it first draws a card of it, in each process),
so a card file or template rewritten half-way through gave fronts of the old text with backs of
the new, or the cards before the save of one file and those after it of the other, and kept
faces drawn from the new template under the old one's digest in the cache.

A build notes every file of the project's input folders, data/, templates/ and fonts/ (its
size, times and inode: a save changes its ctime even when the editor puts its mtime back, and a
save by rename changes its inode) before it reads anything, and again once it has written its files but before they are put in place and
its cache kept. A file that differs fails the build, which then changes nothing (the earlier
output and cache stay as they were); the next build reads the files as they are then.

Only those folders: a build reads nothing else of the project, and what else changes there as
it runs is no save of its input (Python writing the bytecode of a module the build imports late,
in a project that holds cardgen's own source; a log, a notes file). Nor an editor's own files
beside the one it edits (vim's ``.cards.csv.swp``, emacs's ``#cards.csv#`` and ``.#cards.csv``,
backups ``cards.csv~``), which change as the designer types, before anything is saved.
"""
from __future__ import annotations

import os
from pathlib import Path

from .errors import CardgenError, Problem, Source
from .paths import editors_own

MAX_FILES = 5_000  # files and folders: a project larger is not watched
INPUT_FOLDERS = ("data", "templates", "fonts")  # all a build reads of the project
CHANGED = "the file changed while the build read it (saved during the build?); nothing was written: build again"


def rewritten(path: Path) -> None:
    """Note a file of the project that the build itself wrote (an online card file's local copy,
    load/remote.py) as it is now: the build that notes the project last is the one running."""
    if _noting is not None:
        _noting.note_again(path)


class SteadyInputs:
    """``SteadyInputs(root, out, cache_folder)`` before a build reads anything; ``check()`` once it
    has written its files, before they are put in place: CardgenError naming the first file
    changed since."""

    def __init__(self, root: Path, out: Path, cache_folder: Path):
        global _noting
        self.root, self.out, self.cache_folder = Path(root), Path(out), Path(cache_folder)
        self.before = self._identities()
        _noting = self

    def note_again(self, path: Path) -> None:
        if self.before is None:
            return
        try:
            name = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
            stat = os.stat(path, follow_symlinks=False)
        except (OSError, ValueError, RuntimeError):
            return
        self.before[name] = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_mode)

    def check(self) -> None:
        if self.before is None:
            return
        after = self._identities()
        if after == self.before:
            return
        changed = sorted(name for name in self.before.keys() | (after or {}).keys()
                         if after is None or self.before.get(name) != after.get(name))
        raise CardgenError(Problem(CHANGED, Source(changed[0] if changed else ".")))

    def _identities(self) -> dict[str, tuple] | None:
        """Each file of the project's input folders (relative name -> size, times, inode, mode),
        but for an editor's own files, the cache and what builds write into the output folder;
        None when there are too many to note, or the project cannot be listed."""
        from .unchanged import _written

        try:
            out = self.out.resolve()
            skipped = {self.cache_folder.resolve(), out}
            root = self.root.resolve()
        except (OSError, RuntimeError):
            return None
        out_holds_root = root.is_relative_to(out)  # (--out . : the project's own files are in it)
        found: dict[str, tuple] = {}
        pending = [root / name for name in INPUT_FOLDERS if (root / name).is_dir()]
        while pending:
            current = pending.pop()
            if current in skipped and not (current == out and out_holds_root):
                continue
            try:
                entries = list(os.scandir(current))
            except OSError:
                return None
            for entry in entries:
                if len(found) > MAX_FILES:
                    return None
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not entry.name.startswith("."):  # .git, an editor's or a system's own
                            pending.append(Path(entry.path))
                        continue
                    if editors_own(entry.name):
                        continue
                    if out_holds_root and _written(entry.name):
                        continue
                    stat = entry.stat(follow_symlinks=False)
                except OSError:  # gone between the listing and its stat: told by its absence
                    continue
                name = Path(entry.path).relative_to(root).as_posix()
                found[name] = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_mode)
        return found


_noting: SteadyInputs | None = None
