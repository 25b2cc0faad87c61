"""Rasterising on every core: work split into chunks, done in forked worker processes, the
results handed back in the order of the chunks, so the files written from them (by the one
parent process) are the same, in the same order, whatever the number of processes.

pdfium renders one page at a time per process (it is not thread-safe), so processes it is. They
are forked: each starts with the parent's memory (the loaded set, the work function) and opens
the PDF itself (``open_rasteriser``), so nothing but a chunk's number goes in and its encoded
files come back.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

from .raster import Rasteriser

Item = TypeVar("Item")
Result = TypeVar("Result")
CHUNK_MAX = 16  # faces a chunk: few enough that both processes finish at about the same time

_task: Callable[[int], object] | None = None  # the chunk runner the forked workers inherit
_starting = threading.Lock()
_rasterisers: dict[tuple[int, str, float], Rasteriser] = {}


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Linux only: elsewhere (macOS) a forked child may not use the system's libraries safely."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def chunks(items: Sequence[Item], jobs: int) -> list[list[Item]]:
    """``items`` in consecutive chunks: about four a process, at most CHUNK_MAX items each."""
    if not items:
        return []
    size = max(1, min(CHUNK_MAX, math.ceil(len(items) / (4 * max(1, jobs)))))
    return [list(items[start:start + size]) for start in range(0, len(items), size)]


def _run(index: int):
    return _task(index)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers with SIGTERM: no unwinding


def ordered_map(work: Callable[[Item], Result], items: Sequence[Item], jobs: int) -> Iterator[Result]:
    """``work(item)`` for every item, in up to ``jobs`` worker processes (here when one is
    enough or processes cannot be forked); the results in the order of ``items``."""
    global _task
    jobs = min(jobs, len(items))
    if jobs <= 1 or not can_fork():
        for item in items:
            yield work(item)
        return
    with _starting:  # the pool forks its workers as it starts: they get this task
        _task = lambda index: work(items[index])  # noqa: E731
        try:
            pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_interrupts)
        finally:
            _task = None
    try:
        yield from pool.imap(_run, range(len(items)))
        pool.close()  # every result is in: the workers finish
    except BaseException:  # an error, Ctrl-C, or the caller stopped asking
        pool.terminate()
        raise
    finally:
        pool.join()


def open_rasteriser(pdf: Path | str, dpi: float) -> Rasteriser:
    """This process's rasteriser of ``pdf`` (kept open for its next chunks; a forked worker
    never uses a document its parent opened)."""
    key = (os.getpid(), str(pdf), dpi)
    raster = _rasterisers.get(key)
    if raster is None:
        raster = _rasterisers[key] = Rasteriser(Path(pdf), dpi)
    return raster


def close_rasterisers(pdf: Path | str) -> None:
    """Close this process's rasterisers of ``pdf`` (before its folder is removed)."""
    for key in [key for key in _rasterisers if key[0] == os.getpid() and key[1] == str(pdf)]:
        _rasterisers.pop(key).close()


def rate_note(rasterised: int, seconds: float, jobs: int) -> str:
    """How many distinct faces were rasterised and how fast (copies of a face, and faces
    unchanged since the last run, are not counted: they are written, not rasterised)."""
    note = f"{rasterised} distinct face{'s' * (rasterised != 1)} rasterised"
    if rasterised and seconds > 0:
        note += f" at {rasterised / seconds:.1f} faces/s"
    return note + f" ({jobs} process{'es' * (jobs != 1)})"
