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
import os
import sys
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

from .pool import Pool
from .raster import Rasteriser

Item = TypeVar("Item")
Result = TypeVar("Result")
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
KEEP_FREED = 1 << 28  # bytes freed at the top of the heap that glibc keeps
CHUNK_MAX = 16  # faces a chunk: few enough that both processes finish at about the same time

_rasterisers: dict[tuple[int, str, float], Rasteriser] = {}


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Linux only: elsewhere (macOS) a forked child may not use the system's libraries safely."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def chunks(items: Sequence[Item], jobs: int) -> list[list[Item]]:
    """``items`` in consecutive chunks: about four a process, at most CHUNK_MAX items each."""
    if not items:
        return []
    size = max(1, min(CHUNK_MAX, math.ceil(len(items) / (4 * max(1, jobs)))))
    return [list(items[start:start + size]) for start in range(0, len(items), size)]


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
    enough or processes cannot be forked); the results in the order of ``items``. Close the
    iterator (``contextlib.closing``) when it is left before its end: its workers end then."""
    jobs = min(jobs, len(items))
    if jobs <= 1 or not can_fork():
        for item in items:
            yield work(item)
        return
    pool = Pool(work, items, jobs, start=keep_freed_memory)
    finished = False
    try:
        yield from pool.results()
        finished = True
    finally:
        pool.close(finished)


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
