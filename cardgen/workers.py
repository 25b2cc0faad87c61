"""A build on every core: worker processes render and lay out the faces, the build's own
process draws them and writes the PDF.

Rendering templates and laying out text are most of a build's time, and each face's drawing
can be kept as plain parts (draw/content.py) that draw byte for byte as a fresh layout does
(the face cache's guarantee). So a large set's cards are cut into chunks in print order; worker
processes, forked once the set is loaded (nothing is imported or read again), take the chunks
in turn and send back, for each card, the markup key and content hash of its faces, and the
recorded parts of each distinct face. The build's process reads the chunks in order and goes on
exactly as a one-process build: it imposes the same faces, draws them from their parts in the
same order into one document (fonts are subset once, forms and images named as always), and
writes the same manifest. The output is the same bytes.

Whatever a worker could not do (a template that fails, text that does not fit, a missing image,
a card file changed under the build, a worker killed) the build's process does itself when it
comes to it, as a one-process build would: its messages, their order and its exceptions are
the one-process build's by construction. A worker sends a chunk only when the build's process
asks for it (a pipe holds a few kilobytes), so at most a chunk a worker is in flight and memory
stays flat. Workers never write a file; the build's process stops them when it is done or fails
(an interrupted build removes its half-written files as ever, see write/atomic.py).
"""
from __future__ import annotations

import gc
import io
import os
import marshal
import signal
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from .draw.prepared import Marshalled
from .load.cursor import Cursor
from .model import Card, Face
from .render.faces import FaceRenderer
from .rendered import Rendered
from .stops import STOPS
from .write.face import FaceDrawing, ReadyFaces, record_face
from .worker_faces import ReplayingRenderer
from .worker_process import _LENGTH, _serve, _where

MIN_CARDS = 200  # below this a set builds in one process: forking and joining cost about what they save
CHUNK = 256  # cards a chunk: a few hundred kilobytes of parts
KEPT_CARDS = 1024  # the parts of this many cards back stay at hand: the draw stage runs behind the render stage

# for tests and benchmarks: distinct faces of the last parallel build drawn from workers' parts
last_build = {"workers": 0, "faces_from_workers": 0}


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: int | None) -> int:
    """``jobs`` as asked (None: every usable core)."""
    return usable_cores() if jobs is None else max(1, int(jobs))


def pays(jobs: int, copies: int) -> bool:
    """Whether a build of ``copies`` card copies may go to ``jobs`` worker processes: more than
    one job, a set large enough, a platform that forks, and a process with no other thread
    (forking one is not safe: the live preview builds from a thread)."""
    return jobs > 1 and copies >= MIN_CARDS and hasattr(os, "fork") and threading.active_count() == 1


def _kept(cache, content_hash: str) -> bool:
    """Whether the last build's cache file holds a face's drawing (see cache.py)."""
    return cache.holds(content_hash)


def on_workers(rendered: Rendered, jobs: int | None, copies: int, cache,
               sequence: Callable[[], Iterable[Card]], cursor: Callable[[], Cursor] | None = None) -> Rendered:
    """``rendered``, or (when it pays, see ``pays``) a stand-in whose faces worker processes
    render and lay out: the same output either way. ``sequence()`` gives the cards in the order
    the build renders them; ``cursor()``, if given, the same cards a chunk at a time (see
    load/cursor.py: a worker passes over the other workers' chunks without reading them)."""
    last_build.update(workers=0, faces_from_workers=0)
    jobs = resolve_jobs(jobs)
    if not pays(jobs, copies):
        return rendered
    return _warmed_and_started(rendered, jobs, chunk_size(copies, jobs), cache, sequence, cursor)


def early(rendered: Rendered, jobs: int | None, cards: int, cache, sequence: Callable[[], Iterable[Card]],
          cursor: Callable[[], Cursor]) -> Rendered:
    """``on_workers`` for a set whose cards are not checked yet (pipeline.py forks its workers
    first): ``cards`` is what the set is expected to hold (the check has not counted them), and
    chooses the chunks' size; a set that holds fewer builds the same output."""
    last_build.update(workers=0, faces_from_workers=0)
    jobs = resolve_jobs(jobs)
    if not pays(jobs, MIN_CARDS):
        return rendered
    return _warmed_and_started(rendered, jobs, chunk_size(cards, jobs), cache, sequence, cursor)


def _warmed_and_started(rendered: Rendered, jobs: int, chunk: int, cache, sequence: Callable[[], Iterable[Card]],
                        cursor: Callable[[], Cursor] | None) -> Rendered:
    drawn: list[tuple] = []
    first = _warm_up(rendered, sequence, (lambda content_hash: _kept(cache, content_hash)) if cache is not None else None,
                     drawn)
    if first is None:
        return rendered  # a rebuild: its first front is in the cache, most faces will be: no worker would help
    if cache is not None and drawn:  # the workers store entries against the cache file's dictionary: it is chosen now
        cache.choose_dictionary(marshal.dumps(drawn[0]))
    return start(rendered, sequence, jobs, chunk, cursor) or rendered


def chunk_size(copies: int, jobs: int) -> int:
    """Cards a chunk: ``CHUNK``, or fewer for a smaller set, so that each worker has several
    chunks and the build's process, which draws the last chunk while the workers have nothing
    left to do, is not long alone at the end."""
    return max(min(32, CHUNK), min(CHUNK, copies // (8 * jobs)))


def start(rendered: Rendered, sequence: Callable[[], Iterable[Card]], jobs: int,
          chunk: int | None = None, cursor: Callable[[], Cursor] | None = None) -> "ParallelRendered | None":
    """Fork ``jobs`` workers that render and lay out the cards of ``sequence()`` (the cards in
    the order the build renders them; ``cursor()``, the same a chunk at a time) a chunk at a
    time; None if the system refuses a process. The result stands in for ``rendered``; ``close``
    it when the build is done or has failed."""
    chunk = chunk or CHUNK
    cursor = cursor or (lambda: Cursor(sequence()))
    sys.stdout.flush()
    sys.stderr.flush()
    # what exists now is shared with the workers until one of them writes to it: the cycle
    # collector, which writes to every object it scans, leaves it alone until the build is done
    thawed = not gc.get_freeze_count()  # (the `cardgen` command freezes what it imported, for good)
    gc.freeze()
    workers: list[_Worker] = []
    try:
        for index in range(jobs):
            read_fd, write_fd = os.pipe()
            # a stop that came between the fork and the worker's own handlers would run the
            # build's handler in the worker (unwinding the build's code there, or only noted):
            # held back until the worker has its handlers, it ends the worker then
            held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            try:
                pid = os.fork()
            except OSError:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
                os.close(read_fd)
                os.close(write_fd)
                raise
            if pid == 0:  # the worker: it never returns into the build's code
                code = 1
                try:
                    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: gone at once, quietly
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the command's handler unwinds the build)
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)
                    os.close(read_fd)
                    for other in workers:  # another worker's pipe must close when the build's process ends
                        os.close(other.fd)
                    _serve(index, jobs, write_fd, cursor, rendered, chunk)
                    code = 0
                finally:
                    os._exit(code)
            os.close(write_fd)
            workers.append(_Worker(pid, read_fd))
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # (listed first: a stop now stops it too)
    except OSError:
        _stop(workers)
        if thawed:
            gc.unfreeze()
        return None
    feed = _Feed(workers, chunk, rendered.cache, thawed)
    last_build.update(workers=jobs, faces_from_workers=0)
    renderer = ReplayingRenderer(rendered.renderer, feed)
    return ParallelRendered(renderer, rendered.resources, rendered.cache, rendered.laid_out, feed=feed)


def _warm_up(rendered: Rendered, sequence: Callable[[], Iterable[Card]],
             kept: Callable[[str], bool] | None = None, drawn: list | None = None) -> list[str] | None:
    """Render and lay out the first card here, before the workers are forked, so that what the
    first face costs (compiling templates, reading fonts and images) is paid once, not once in
    every worker; return the content hashes of its faces (its front first). None, and nothing
    laid out, when ``kept(hash)`` says the cache holds its front's drawing (a rebuild, which
    builds in one process). A renderer of its own keeps the build's renderer as it was: any
    problem is met again, in its place, by the build itself. The faces' recorded parts are
    added to ``drawn``."""
    hashes: list[str] = []
    try:
        cards = iter(sequence())
        first = next(cards, None)
        del cards  # the card files are closed
        if first is None:
            return hashes
        memo = rendered.renderer.memo  # a rebuild finds the first card's renderings kept: no template compiled
        renderer = FaceRenderer(rendered.renderer.card_set, rendered.renderer.templates, rendered.renderer.fingerprints,
                                _Recalling(memo) if memo is not None else None)
        trial = Rendered(renderer, rendered.resources)
        faces = [face for pair in renderer.pairs([first]) for face in pair if face is not None]
        hashes = [face.content_hash for face in faces]
        if kept is not None and hashes and kept(hashes[0]):
            return None
        scratch = None
        if drawn is not None:
            from reportlab.pdfgen.canvas import Canvas

            scratch = Canvas(io.BytesIO())
        for face in faces:
            laid = trial.lay_out(face)
            if scratch is not None:
                drawn.append(record_face(scratch, face.card_type, laid))
    except Exception:
        pass
    return hashes


class _Recalling:
    """The build's render memo, read and never added to: what the warm-up renders afresh, the
    build renders and keeps in its own place. (What it reads is what the build reads first.)"""

    def __init__(self, memo):
        self.memo, self.prefix = memo, memo.prefix

    def recall(self, key: str):
        return self.memo.recall(key)

    def remember(self, key: str, value) -> None:
        pass


# -- the build's process -----------------------------------------------------------------------

@dataclass
class _Worker:
    """A worker process: its process id and the pipe its chunks come through."""

    pid: int
    fd: int
    stopped: bool = False
    reader: io.BufferedReader | None = None


@dataclass
class ParallelRendered(Rendered):
    """``Rendered`` whose faces come from the workers: ``pairs`` gives the same faces in the same
    order, and ``drawing`` draws a face from the parts a worker recorded."""

    feed: "_Feed | None" = field(default=None)

    def pairs(self, cards: Iterable[Card]):
        return self.renderer.pairs(self.feed.cards(cards))

    def drawing(self, face: Face, parts: tuple | None = None) -> FaceDrawing:
        prepared = None
        if parts is None:
            cache = self.cache
            if cache is not None:
                parts = cache.get(face.content_hash)
            if parts is None:
                entry = self.feed.entry(face.content_hash)
                if entry is not None and entry[0] is not None:  # laid out by this build, in a worker
                    data, _, kept, prepared = entry
                    parts = marshal.loads(data)
                    self.laid_out += 1
                    last_build["faces_from_workers"] += 1
                    if cache is not None and not self.resources.preview:
                        if kept is not None:  # as the worker stored it for the cache
                            cache.put_stored(face.content_hash, *kept)
                        else:
                            cache.put(face.content_hash, parts)
        return super().drawing(face, parts, prepared)

    def ready_faces(self) -> ReadyFaces:
        resources = self.resources
        return ReadyFaces(self.ready, resources.fonts.face_named, resources.paint_icon)

    def ready(self, face: Face) -> tuple | None:
        """(parts, parts made ready to write) of a face a worker laid out, when it draws with
        operators alone (the parts as draw/prepared.py's Marshalled, read if a part is needed): what ``drawing`` gives it (and keeps, and counts), less the FaceDrawing
        that only a face drawn otherwise needs. None, and nothing done, for any other face."""
        cache = self.cache
        content_hash = face.content_hash
        if cache is not None and cache.may_hold(content_hash):  # ``drawing`` takes the cache's parts first
            return None
        entry = self.feed.entries.get(content_hash)
        if entry is None or entry[0] is None or entry[3] is None:
            return None
        data, _, kept, prepared = entry
        for item in prepared:  # every part made ready (no element among them): operators alone
            if item.__class__ is not str and item[0] == "P":
                return None
        self.laid_out += 1
        last_build["faces_from_workers"] += 1
        if cache is not None and not self.resources.preview:
            if kept is not None:
                cache.put_stored(content_hash, *kept)
            else:
                cache.put(content_hash, marshal.loads(data))
        return Marshalled(data), prepared  # (its parts read only if a part is written as it was recorded)

    def close(self) -> None:
        self.feed.close()


class _Feed:
    """The workers' chunks, read in order as the build's cards come by."""

    def __init__(self, workers: list[_Worker], chunk: int, cache, thaw: bool):
        self.workers, self.chunk, self.cache, self.thaw = workers, chunk, cache, thaw
        self.position = -1  # of the current card in the build's order
        self.number = -1  # of the chunk read last
        self.records: tuple = ()
        self.faces: Iterator = iter(())
        self.records_now: tuple | None = None  # the current card's faces as a worker rendered them, or None
        # content hash -> (parts as marshal data, text, (key digest, parts as the cache stores them)
        # or None, parts made ready to write or None), as the worker sent them (see worker_process._entry)
        self.entries: dict[str, tuple[bytes | None, str | None, tuple | None, tuple | None]] = {}
        self.chunks: list[dict] = []  # the entries of the chunks kept, as each chunk brought them
        self.keep = max(2, -(-KEPT_CARDS // chunk))

    def cards(self, cards: Iterable[Card]) -> Iterator[Card]:
        for card in cards:
            self.position += 1
            number, at = divmod(self.position, self.chunk)
            if number != self.number:
                self._receive(number)
            records = self.records
            if at < len(records) and records[at][0] == card.name and records[at][1] == _where(card):
                self.records_now = records[at][2]
                self.faces = iter(self.records_now)
            else:  # the worker stopped before this card: it is rendered here
                self.records_now = None
                self.faces = iter(())
            yield card

    def face(self) -> tuple | None:
        """The next face of the current card: its record (see worker_faces.replayed), or None to render it here."""
        return next(self.faces, None)

    def entry(self, content_hash: str) -> tuple | None:
        """(parts as marshal data or None, markup text or None, stored parts or None, prepared
        parts or None) of a face a worker rendered, while its chunk is kept; else None."""
        return self.entries.get(content_hash)

    def _receive(self, number: int) -> None:
        self.number = number
        self.records = ()
        worker = self.workers[number % len(self.workers)]
        message = None if worker.stopped else _read(worker)
        if message is None or message[0] != number:
            worker.stopped = True
            return
        _, self.records, entries, remembered = message
        cache = self.cache
        if cache is not None:  # renderings, kept for the next build as a one-process build keeps them
            cache.remember_all(remembered)
        kept = self.entries
        kept.update(entries)  # a face met again in a later chunk: that chunk's entry, kept as long
        self.chunks.append(entries)
        while len(self.chunks) > self.keep:
            for content_hash, entry in self.chunks.pop(0).items():
                if kept.get(content_hash) is entry:
                    del kept[content_hash]

    def close(self) -> None:
        _stop(self.workers)
        self.entries.clear()
        if self.thaw:  # what was frozen for the workers is the collector's again
            gc.unfreeze()
            self.thaw = False


def _read(worker: _Worker):
    """The next message of a worker, or None if it has ended without one (it was killed; a
    worker stopped by Ctrl-C stops the build as Ctrl-C does)."""
    if worker.reader is None:
        worker.reader = os.fdopen(worker.fd, "rb", buffering=1 << 16, closefd=False)
    head = worker.reader.read(_LENGTH.size)
    if len(head) == _LENGTH.size:
        length = _LENGTH.unpack(head)[0]
        if length:
            body = worker.reader.read(length)
            if len(body) == length:
                return marshal.loads(body)
        return None  # the worker gave up (its cards could not be read): the rest is done here
    _, status = os.waitpid(worker.pid, 0)
    worker.pid = 0
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT:
        raise KeyboardInterrupt
    return None


def _stop(workers: list[_Worker]) -> None:
    for worker in workers:
        if worker.pid:
            try:
                os.kill(worker.pid, signal.SIGKILL)  # it may be half-way through a chunk nobody needs
            except ProcessLookupError:
                pass
        if worker.reader is not None:
            worker.reader.close()
        os.close(worker.fd)
        if worker.pid:
            os.waitpid(worker.pid, 0)
            worker.pid = 0
    workers.clear()
