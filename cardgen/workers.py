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

This module decides whether to fork and starts the workers; worker_process.py is what a worker
runs, worker_feed.py what the build's process does with them.
"""
from __future__ import annotations

import gc
import io
import os
import marshal
import signal
import sys
import threading
from typing import Callable, Iterable

from .load.cursor import Cursor
from .model import Card
from .render.faces import FaceRenderer
from .rendered import Rendered
from .stops import STOPS
from .write.face import record_face
from .worker_faces import ReplayingRenderer
from .worker_feed import ParallelRendered, _Feed, _Worker, _stop, last_build
from .worker_process import _serve

MIN_CARDS = 200  # below this a set builds in one process: forking and joining cost about what they save
CHUNK = 256  # cards a chunk: a few hundred kilobytes of parts


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
