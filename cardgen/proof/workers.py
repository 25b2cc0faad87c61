"""Rasterising on every core: work split into chunks, done in forked worker processes, the
results handed back in the order of the chunks, so that what is made of them is the same
whatever the number of processes.

pdfium renders one page at a time per process (it is not thread-safe), so processes it is. They
are forked: each starts with the parent's memory (the loaded set, the work function, the folder
to write to) and opens the PDF itself (``open_rasteriser``), so nothing but a chunk's number
goes in; a proof's or a shop export's workers write each face's files themselves (each file
whole or not at all, write/temporary.py), and hand back only what the parent still needs (a
contact sheet's thumbnails), not a face's megabytes.
"""
from __future__ import annotations

import ctypes
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

from .raster import Rasteriser

Item = TypeVar("Item")
Result = TypeVar("Result")
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
KEEP_FREED = 1 << 28  # bytes freed at the top of the heap that glibc keeps
CHUNK_MAX = 16  # faces a chunk: few enough that both processes finish at about the same time

_task: Callable[[int], object] | None = None  # the chunk runner the forked workers inherit
_stopping = None  # an Event the forked workers inherit: once set, they skip the chunks left
ENDING_WAIT = 10.0  # seconds a stopped pool's workers have to end on their own before they are killed
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


class _Stopped(Exception):
    """A worker's KeyboardInterrupt or SystemExit, carried to the parent: the pool hands back
    only Exceptions, and would wait for ever for the chunk of a worker that left otherwise."""

    def __init__(self, stop: BaseException):
        super().__init__(type(stop).__name__)
        self.stop = type(stop)


def _run(index: int):
    if _stopping is not None and _stopping.is_set():  # the run was stopped: the chunks left are not wanted
        return None
    try:
        return _task(index)
    except Exception:
        raise
    except BaseException as stop:
        raise _Stopped(stop) from None


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers with SIGTERM: no unwinding
    keep_freed_memory()


def keep_freed_memory() -> None:
    """Have this process's allocator keep the memory it frees rather than give it back to the
    system: a worker frees a page's pictures and files (several MB) after each face, and glibc's
    allocator, by default, hands that memory back and faults it in again, page by page, for
    the next face (a fifth of a worker's time). A worker's memory stays at its largest face's.
    glibc only (Linux, where workers are forked); elsewhere nothing changes."""
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_TRIM_THRESHOLD, KEEP_FREED)
    mallopt(M_MMAP_THRESHOLD, KEEP_FREED // 2)  # no block of a face's size is mapped apart and unmapped


def ordered_map(work: Callable[[Item], Result], items: Sequence[Item], jobs: int) -> Iterator[Result]:
    """``work(item)`` for every item, in up to ``jobs`` worker processes (here when one is
    enough or processes cannot be forked); the results in the order of ``items``."""
    global _task, _stopping
    jobs = min(jobs, len(items))
    if jobs <= 1 or not can_fork():
        for item in items:
            yield work(item)
        return
    context = multiprocessing.get_context("fork")
    stopping = context.Event()
    with _starting:  # the pool forks its workers as it starts: they get this task
        _task, _stopping = (lambda index: work(items[index])), stopping
        try:
            pool = context.Pool(jobs, initializer=_start_worker)
        finally:
            _task = _stopping = None
    results = pool.imap(_run, range(len(items)))
    try:
        yield from results
    except _Stopped as stopped:
        _stop(pool, results, stopping)
        raise stopped.stop() from None
    except BaseException:  # an error, Ctrl-C, or the caller stopped asking
        _stop(pool, results, stopping)
        raise
    pool.close()  # every result is in: the workers finish
    pool.join()


def _stop(pool, results, stopping) -> None:
    """End a pool whose results are no longer wanted: its workers finish the chunk in hand and
    skip the rest, and once every result is in, the pool is closed as after a run that ended
    well. Not ``Pool.terminate`` while chunks are out: it kills a worker wherever it is, and one
    killed while sending a result holds the result queue's lock for ever, so that the pool's own
    task thread, which sends on that queue as it ends, waits for ever too (seen: a stopped proof
    that never returned). ``terminate`` is left for workers still busy after ENDING_WAIT seconds."""
    stopping.set()
    deadline = time.monotonic() + ENDING_WAIT
    while True:
        try:
            results.next(max(0.0, deadline - time.monotonic()))
        except StopIteration:
            pool.close()
            break
        except multiprocessing.TimeoutError:
            pool.terminate()
            break
        except Exception:  # a chunk in hand that failed: the run is over, its error unwanted
            continue
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
