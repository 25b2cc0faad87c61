"""``cardgen serve``: a live preview of the project's sets in the browser.

A worker thread keeps the preview (engine.py) up to date: it refreshes every set once, then
again after each burst of saves in data/, templates/ or fonts/, pushing the new state to open
pages at once and building the set's PDF after. The HTTP server (http.py) answers on
127.0.0.1 unless told otherwise. Stopping (Ctrl-C, SIGTERM) lets the worker finish the file it
is writing, so nothing is left half-written.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from .. import pipeline
from ..errors import UsageError
from ..project import GONE, sets_now
from ..watch import IGNORED_SUFFIXES, WATCHED
from .engine import Engine
from .folders import WatchedFolders
from .http import PreviewServer
from .pdfbuild import Builder

DEFAULT_PORT = 8642
DEBOUNCE = 0.04  # s without a new event before a refresh: an editor's save is a burst of events
CARD_ROWS = (".csv", ".yaml", ".yml", ".xlsx")
PDF_DELAY = 0.5  # s after the last refresh before the PDF is built (the page's images load first)


class Saves:
    """File-system events (the watchdog handler interface), waited for in bursts."""

    def __init__(self):
        self.event = threading.Event()
        self.last = 0.0
        self.lock = threading.Lock()
        self.paths: set[Path] = set()  # the files saved since the last ``taken``

    def dispatch(self, event) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [p for p in (getattr(event, "dest_path", ""), event.src_path) if p]
        paths = [str(p) for p in paths if not Path(p).name.startswith(".") and not str(p).endswith(IGNORED_SUFFIXES)]
        if not paths:
            return
        with self.lock:
            if not event.is_directory:  # a folder changes with its files: they say what changed
                self.paths.update(Path(p) for p in paths)
            self.last = time.monotonic()
        self.event.set()

    def taken(self) -> set[Path]:
        with self.lock:
            paths, self.paths = self.paths, set()
        return paths

    def wait(self, stop: threading.Event, debounce: float) -> bool:
        """Wait for a burst of saves to end; False when ``stop`` is set first."""
        while not stop.is_set():
            if self.event.wait(0.1):
                while time.monotonic() - self.last < debounce:
                    time.sleep(debounce / 4)
                self.event.clear()
                return not stop.is_set()
        return False


class PdfQueue:
    """Sets whose PDF is to be built, taken once the saves have been quiet for a while (a
    designer saving again and again wants the preview, not a PDF per save)."""

    def __init__(self):
        self.pending: dict[str, None] = {}
        self.last = 0.0
        self.changed = threading.Condition()

    def want(self, name: str) -> None:
        with self.changed:
            self.pending[name] = None
            self.last = time.monotonic()
            self.changed.notify_all()

    def take(self, stop: threading.Event, quiet: float) -> str | None:
        with self.changed:
            while not stop.is_set():
                wait = self.last + quiet - time.monotonic()
                if self.pending and wait <= 0:
                    name = next(iter(self.pending))
                    del self.pending[name]
                    return name
                self.changed.wait(wait if self.pending else 0.2)
            return None

    def drop(self, name: str) -> None:
        """``name`` is no set any more: its PDF is not built."""
        with self.changed:
            self.pending.pop(name, None)

    def wake(self) -> None:
        with self.changed:
            self.changed.notify_all()


def _errors(state) -> list[str]:
    """The set's errors as the page shows them, each a ``file:line: card "X": message`` line: a
    failed refresh's, else the cards' (text that does not fit) and the deck lists'."""
    if state.failed:
        return [p["text"] for p in state.failed]
    listed = [p["text"] for p in state.problems if p["severity"] == "error"]
    listed += [p["text"] for deck in state.decks for p in deck["problems"] if p["severity"] == "error"]
    return list(dict.fromkeys(listed))


def _preview(engine: Engine, saves: Saves, pdfs: PdfQueue, stop: threading.Event,
             echo: Callable[[str], None], complain: Callable[[str], None], every_set: bool = False) -> None:
    """Refresh every set, then again after each burst of saves. ``every_set`` (no SET was
    named): the sets are read again from data/ at each save, so that a set folder added while
    serving is shown and built, and one removed (or renamed) is dropped from the page."""
    def cycle(saved: set[Path], read_sets: bool) -> None:
        if read_sets:
            names, gone, problems = sets_now(engine.names, engine.root)
            for name in gone:
                pdfs.drop(name)
                echo(GONE.format(name))
            for line in problems:
                complain(line)
            engine.show(names)
        for name in list(engine.names):
            started = time.perf_counter()
            rows_only = bool(saved) and all(_card_rows(path, engine.root, name) for path in saved)
            changed = engine.refresh(name, rows_only, stop)
            state = engine.sets[name]
            if changed or (not state.failed and any(_read_by_pdf(path, engine.root, name) for path in saved)):
                pdfs.want(name)
            for line in _errors(state):
                complain(line)
            if state.failed:
                echo(f"{name}: showing the last good cards ({len(state.failed)} problem"
                     f"{'s' * (len(state.failed) != 1)})")
            else:
                changed = f", changed: {', '.join(state.changed[:10])}" if state.changed else ""
                echo(f"{name}: {len(state.cards)} card{'s' * (len(state.cards) != 1)} in {time.perf_counter() - started:.2f} s{changed}")
            if stop.is_set():
                return

    cycle(set(), False)  # the sets were read as the server started
    while saves.wait(stop, DEBOUNCE):
        cycle(saves.taken(), every_set)


def _card_rows(path: Path, root: Path, name: str) -> bool:
    """Whether a saved file can hold only card rows of the set (or its rules or deck lists):
    anything else (set.yaml, a template, a font, an image) may change every face."""
    try:
        relative = path.relative_to(root / "data" / name)
    except ValueError:
        return False
    return relative.suffix.lower() in CARD_ROWS and relative.name != "set.yaml"


def _read_by_pdf(path: Path, root: Path, name: str) -> bool:
    """Whether a saved file can change the set's PDF though no face or problem changed: any
    file of the set's folder (set.yaml's paper, margins, marks and document information; the
    PDF's date, its newest file's time) or of fonts/ (the font of the marks). A template
    changes the PDF only through the faces it draws."""
    return any(Path(path).is_relative_to(folder) for folder in (root / "data" / name, root / "fonts"))


def _pdfs(engine: Engine, pdfs: PdfQueue, builder: Builder, stop: threading.Event, delay: float,
          complain: Callable[[str], None]) -> None:
    while True:
        name = pdfs.take(stop, delay)
        if name is None:
            return
        result = engine.build_pdf(name, builder)
        state = engine.sets.get(name)  # None: removed from data/ since
        if result is not None and not result["ok"] and state is not None:
            said = set(_errors(state))  # the preview's refresh has said these
            for problem in result["problems"]:
                if problem["text"] not in said:
                    complain(problem["text"])
            complain(f"{name}: the PDF was not built")


def serve(names: Sequence[str] | None, root: Path | str, out: Path | str | None = None, port: int = DEFAULT_PORT,
          host: str = "127.0.0.1", open_browser: bool = False, echo: Callable[[str], None] = print,
          stop: threading.Event | None = None, pdf_delay: float = PDF_DELAY,
          complain: Callable[[str], None] = lambda line: print(line, file=sys.stderr)) -> None:
    """Serve the preview until ``stop`` is set, Ctrl-C or SIGTERM; a set's PDF is built once its
    saves have been quiet for ``pdf_delay`` seconds. ``echo`` says what the server does,
    ``complain`` each problem of the project (stderr)."""
    from watchdog.observers import Observer  # imported here: only watching needs it

    root = Path(root).resolve()
    every_set = not names  # the sets of data/, read again at each save
    names = pipeline.resolve_names(names, root)
    out = Path(out) if out is not None else root / "output"
    stop = stop or threading.Event()
    engine = Engine(root, names, out)
    try:
        server = PreviewServer((host, port), engine, stop)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port} ({error.strerror or error}); try another --port, "
                         "or --port 0 for a free one") from None
    bound_host, bound_port = server.server_address[:2]
    url = f"http://{'[' + bound_host + ']' if ':' in bound_host else bound_host}:{bound_port}/"
    saves = Saves()
    observer = Observer()
    WatchedFolders(observer, saves, root).start()
    observer.start()
    listener = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="cardgen-http")
    pdfs, builder = PdfQueue(), Builder()
    worker = threading.Thread(target=_preview, args=(engine, saves, pdfs, stop, echo, complain, every_set),
                              name="cardgen-preview")
    pdf_worker = threading.Thread(target=_pdfs, args=(engine, pdfs, builder, stop, pdf_delay, complain),
                                  name="cardgen-pdf")
    restore = _on_sigterm(stop)
    try:
        listener.start()
        echo(f"cardgen serve: {url} ({', '.join(names)}; watching {', '.join(f + '/' for f in WATCHED)}; Ctrl-C stops)")
        worker.start()
        pdf_worker.start()
        if open_browser:
            import webbrowser

            if not webbrowser.open(url):  # no browser here (a server without a display): said, not silent
                echo(f"--open: no web browser could be started here; open {url} in one")
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        builder.stop()  # a PDF being built is interrupted: its unfinished files are removed
        pdfs.wake()
        for thread in (worker, pdf_worker):
            if thread.is_alive():
                thread.join()  # the file being written is finished (or removed) first
        observer.stop()
        observer.join()
        server.shutdown() if listener.is_alive() else None
        server.server_close()
        restore()


def _on_sigterm(stop: threading.Event) -> Callable[[], None]:
    """SIGTERM stops the server as Ctrl-C does (only the main thread may set a handler)."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    return lambda: signal.signal(signal.SIGTERM, previous)
