"""The build's process's side of a build on workers (see workers.py): the workers it forked
(``_Worker``), the chunks it asks them for and reads in print order (``_Feed``), the faces it
draws from their parts (``ParallelRendered``), and their end (``_stop``)."""
from __future__ import annotations

import gc
import io
import marshal
import os
import signal
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .draw.prepared import Marshalled
from .model import Card, Face
from .rendered import Rendered
from .write.face import FaceDrawing, ReadyFaces
from .worker_process import _LENGTH, _where

KEPT_CARDS = 1024  # the parts of this many cards back stay at hand: the draw stage runs behind the render stage

# for tests and benchmarks: distinct faces of the last parallel build drawn from workers' parts
last_build = {"workers": 0, "faces_from_workers": 0}


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
