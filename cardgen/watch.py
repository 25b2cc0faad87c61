"""``cardgen watch``: rebuild on every save in data/, templates/ and fonts/, and say which cards
changed, by comparing each set's manifest hashes before and after the build.

Saves come in bursts (an editor writes a temporary file, renames it, touches the folder), so a
rebuild starts once no event has come for ``debounce`` seconds.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from . import pipeline
from .errors import CardgenError, os_message
from .paths import CACHE_FOLDER
from .project import GONE, sets_now
from .steady_inputs import SteadyInputs
from .reprint import compare, face_hashes
from .write.manifest import load_manifest

WATCHED = ("data", "templates", "fonts")
IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", "~", ".part")


@dataclass(frozen=True)
class Changes:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def describe(self, set_name: str) -> str:
        parts = [f"{label} {', '.join(names)}" for label, names in
                 (("changed", self.changed), ("added", self.added), ("removed", self.removed)) if names]
        return f"{set_name}: " + ("; ".join(parts) if parts else "no card changed")


def changed_cards(before: dict | None, after: dict) -> Changes:
    """Cards added, removed and changed between two manifests (``before`` None: all added)."""
    old = face_hashes(before["faces"]) if before else {}
    added, removed, changed = compare(old, face_hashes(after["faces"]))
    return Changes(tuple(added), tuple(removed), tuple(changed))


def _read(path: Path) -> dict | None:
    try:
        document = load_manifest(path)
        face_hashes(document["faces"])
        return document
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None  # no earlier build, or not one we can compare with


def rebuild(names: Sequence[str], root: Path, out: Path, options: pipeline.BuildOptions = pipeline.BuildOptions(),
            proofs: Path | None = None) -> list[str]:
    """Build the sets once; a line per set saying what changed, or its problems."""
    steady = SteadyInputs(Path(root), Path(out), Path(root) / CACHE_FOLDER)  # before the session reads anything
    try:  # a new one each time: templates and fonts may change (it reads fonts/fonts.yaml: bad input too)
        session = pipeline.Session(root, cache=options.cache)
    except Exception as error:
        return [line for name in names for line in _not_built(name, error)]
    lines: list[str] = []
    for name in names:
        manifest = Path(out) / f"{name}.json"
        before = _read(manifest)
        started = time.perf_counter()
        try:
            result = pipeline.build_set(name, session, Path(out), options, steady=steady)
            if proofs is not None:
                from .proof import proof_set  # only when asked for

                proof_set(name, session, proofs)
        except Exception as error:
            lines.extend(_not_built(name, error))
            continue
        after = _read(result.manifest)  # None: removed or replaced since (`cardgen clean`, another build)
        lines.extend(str(w) for w in result.warnings)
        seconds = time.perf_counter() - started
        if before is None or after is None:
            lines.append(f"{name}: built {result.cards} card{'s' * (result.cards != 1)} ({seconds:.2f} s)")
        else:
            lines.append(f"{changed_cards(before, after).describe(name)} ({seconds:.2f} s)")
    return lines


def _not_built(name: str, error: Exception) -> list[str]:
    """What watch says of a set a rebuild could not build, and goes on watching."""
    if isinstance(error, CardgenError):
        count = len(error.problems)
        return [*(str(problem) for problem in error.problems), f"{name}: not built ({count} problem{'s' * (count != 1)})"]
    if isinstance(error, OSError):  # the machine's refusal (an --out that is a file or a pipe), not a bug
        return [f"{name}: not built ({os_message(error)})"]
    return [f"{name}: not built (internal error: {error!r})"]  # a bug, not bad input: said, and watch goes on


class _Events:
    """Collects file-system events; ``wait`` returns once they have been quiet for a while."""

    def __init__(self):
        self.last = 0.0
        self.pending = False
        self.lock = threading.Lock()

    def dispatch(self, event) -> None:  # the watchdog handler interface
        if event.event_type in ("opened", "closed_no_write"):
            return
        path = str(getattr(event, "dest_path", "") or event.src_path)
        if Path(path).name.startswith(".") or path.endswith(IGNORED_SUFFIXES):
            return
        with self.lock:
            self.pending, self.last = True, time.monotonic()

    def quiet_for(self, seconds: float) -> bool:
        with self.lock:
            if self.pending and time.monotonic() - self.last >= seconds:
                self.pending = False
                return True
            return False


def watch(names: Sequence[str] | None, root: Path | str, out: Path | str | None = None,
          options: pipeline.BuildOptions = pipeline.BuildOptions(), proofs: Path | None = None,
          echo: Callable[[str], None] = print, stop: threading.Event | None = None, debounce: float = 0.3) -> None:
    """Build, then rebuild on every change until ``stop`` is set (or Ctrl-C, for the caller)."""
    from watchdog.observers import Observer  # imported here: only watch needs it

    root = Path(root).resolve()
    asked = names
    names = pipeline.resolve_names(asked, root)
    out = Path(out) if out is not None else root / "output"
    stop = stop or threading.Event()
    for line in rebuild(names, root, out, options, proofs):
        echo(line)
    events = _Events()
    observer = Observer()
    for folder in WATCHED:
        if (root / folder).is_dir():
            observer.schedule(events, str(root / folder), recursive=True)
    observer.start()
    try:  # from here on: a Ctrl-C as soon as "watching" shows still stops the observer
        echo(f"watching {', '.join(f + '/' for f in WATCHED)} in {root} (Ctrl-C stops)")
        while not stop.wait(0.05):
            if events.quiet_for(debounce):
                if not asked:  # every set: a set folder made, renamed or removed while watching counts
                    names, gone, problems = sets_now(names, root)
                    for line in [GONE.format(name) for name in gone] + problems:
                        echo(line)
                for line in rebuild(names, root, out, options, proofs):
                    echo(line)
    finally:
        observer.stop()
        observer.join()
