"""The project's watched folders (data/, templates/, fonts/), each watched again whenever it is
made anew: a folder removed and put back (a ``git checkout``, a backup restored, a sync) is a
new folder, which the watch of the old one never sees, and one made after the server started
had no watch at all. A watch of the project folder itself (not of its subfolders) sees them
come and go."""
from __future__ import annotations

import threading
from pathlib import Path

from ..watch import WATCHED


class WatchedFolders:
    """The watchdog handler of the project folder's own events: a watched folder made, moved or
    removed is watched again (or no more), and counts as a save of everything in it."""

    def __init__(self, observer, saves, root: Path):
        self.observer, self.saves, self.root = observer, saves, Path(root)
        self.watches: dict[str, object] = {}
        self.lock = threading.Lock()

    def start(self) -> None:
        for folder in WATCHED:
            self.watch(folder)
        self.observer.schedule(self, str(self.root), recursive=False)

    def dispatch(self, event) -> None:
        names = {Path(path).name for path in (getattr(event, "dest_path", ""), event.src_path)
                 if path and Path(path).parent == self.root}
        touched = [folder for folder in WATCHED if folder in names]
        for folder in touched:
            self.watch(folder)
        if touched:
            self.saves.dispatch(event)

    def watch(self, folder: str) -> None:
        """Watch ``folder`` as it is now (a folder, or nothing)."""
        path = self.root / folder
        with self.lock:
            old = self.watches.pop(folder, None)
            if old is not None:
                try:
                    self.observer.unschedule(old)
                except KeyError:  # its emitter ended with the folder
                    pass
            if path.is_dir():
                self.watches[folder] = self.observer.schedule(self.saves, str(path), recursive=True)
