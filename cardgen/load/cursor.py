"""A set's cards taken a chunk at a time, forward: a build's worker process (worker_process.py)
takes one chunk in so many, and passes over the others'.

A larger set's cards are not kept (cards.py): they are read from their files again. Between two
chunks, the cards of a CSV file are passed over unread: ``CardFiles.check`` notes where it read
every n-th card (cards.MARK_EVERY): its file, its row's line, the cards its row made before it,
and in a YAML file the byte offset its row may be read from. The cursor sends that line to a CSV
file's rows (tables._csv_rows), which pass over the lines before it without parsing them, or has
libyaml read a YAML file from that offset (yamlmarks.py), and it makes the cards from that card
on. Elsewhere (XLSX, ODS, YAML of another shape; a set kept) the cards between are made and
dropped. Either way each card is made from its row as a reading from the start makes it, with
the same source (file, line). A file changed since it was checked gives other cards, as a
reading from the start would, or fails to be read (the worker stops): the build's process
compares each card a worker sends with its own, and renders those that differ, or that no
worker sent, itself (workers.py).
"""
from __future__ import annotations

import mmap
import os
import select
import struct
from array import array
from collections import deque
from itertools import chain, islice
from typing import Iterable, Iterator

from ..errors import CardgenError, Problem
from ..model import Card
from .cards import MARK, CardFiles
from .tables import CSV_SUFFIXES, Row


def cursor(files: CardFiles) -> "Cursor":
    """A cursor on the cards of ``files`` (checked)."""
    if not files.marks or not files.files:
        return Cursor(files)
    return _MarkedCursor(files)


class Cursor:
    """Cards taken a chunk at a time, forward (a build's worker process takes one chunk in so
    many, see worker_process.py); this one passes over the cards between chunks by making them."""

    def __init__(self, cards: Iterable[Card]):
        self.cards = iter(cards)
        self.position = 0  # of the card ``cards`` gives next

    def take(self, start: int, count: int) -> list[Card]:
        """At most ``count`` cards from position ``start``, which is not before the end of the
        cards taken last."""
        if start < self.position:
            raise ValueError(f"card {start} is behind card {self.position}")
        if start > self.position:
            self._pass(start)
        cards = list(islice(self.cards, count))
        self.position = start + len(cards)
        return cards

    def _pass(self, start: int) -> None:
        deque(islice(self.cards, start - self.position), 0)
        self.position = start


class _MarkedCursor(Cursor):
    """The cards of a CardFiles that ``check`` marked: it goes to a marked card in a CSV file
    by sending its row's line to the file's rows (see tables._csv_rows), in a YAML file by
    reading it from the row's offset (see yamlmarks.py)."""

    def __init__(self, files: CardFiles):
        self.files = files
        self.reading: int | None = None  # the index of the file whose rows are being read, ``rows``
        self.rows: Iterator[Row] | None = None
        super().__init__(self._cards_from(0))

    def _pass(self, start: int) -> None:
        if start >= len(self.files):  # past the last card (as the files were checked)
            self.cards, self.position = iter(()), start
            return
        every, marks = self.files.marked_every, self.files.marks
        mark = start // every
        if mark * every > self.position and MARK * mark < len(marks):
            file, line, in_row, offset = marks[MARK * mark:MARK * mark + MARK]
            path = self.files.files[file][0]
            if path.suffix.lower() in CSV_SUFFIXES:
                if file == self.reading:
                    row = self.rows.send(line)
                else:  # (its header read, and its first row)
                    self.reading, self.rows = file, self.files.rows_of(path)
                    row = next(self.rows)
                    if row.source.line != line:
                        row = self.rows.send(line)
                self.cards = self._cards_from(file, chain((row,), self.rows), in_row)
                self.position = mark * every
            elif offset >= 0:  # a YAML file read as a list: libyaml reads it from there
                self.reading, self.rows = file, self.files.rows_from(path, offset, line)
                self.cards = self._cards_from(file, self.rows, in_row)
                self.position = mark * every
        super()._pass(start)

    def _cards_from(self, file: int, rows: Iterator[Row] | None = None, skip: int = 0) -> Iterator[Card]:
        """The cards of ``rows`` (what is left of file ``file``'s, else all of them) less the
        first ``skip``, then those of the files after it."""
        files = self.files
        while file < len(files.files):
            path, forced_type = files.files[file]
            if rows is None:  # read at once: a jump to a row of it sends to rows already begun
                self.reading, self.rows = file, files.rows_of(path)
                rows = self.rows
            problems: list[Problem] = []  # only if a file changed since it was checked
            cards = files.cards_of(rows, forced_type, problems)
            if skip:
                deque(islice(cards, skip), 0)
            yield from cards
            if problems:
                raise CardgenError(problems)
            file, rows, skip = file + 1, None, 0


class LateMarks:
    """The marks of a CardFiles checked after the workers were forked (pipeline.py): the build's
    process publishes them once its check is done, and each worker's cursor takes them up the
    next time it passes over cards (until then it makes the cards it passes over). They go
    through memory shared with the workers; a pipe made readable says they are there."""

    SIZE = 1 << 20  # bytes shared (only those written are used): the marks of a million cards

    def __init__(self):
        self.shared = mmap.mmap(-1, self.SIZE)
        self.ready, self.said = os.pipe()

    def publish(self, files: CardFiles) -> None:
        """Give the workers the marks of ``files``, checked (too many to share: none)."""
        marks = files.marks.tobytes()
        if _HEAD.size + len(marks) > self.SIZE:
            return
        self.shared[_HEAD.size:_HEAD.size + len(marks)] = marks
        self.shared[:_HEAD.size] = _HEAD.pack(len(files), files.marked_every, len(marks))
        os.write(self.said, b".")

    def take_up(self, files: CardFiles) -> bool:
        """In a worker: whether the marks are published, and if so, put them in ``files``."""
        if not select.select([self.ready], [], [], 0)[0]:
            return False
        count, every, length = _HEAD.unpack(self.shared[:_HEAD.size])
        files._count, files.marked_every = count, every
        files.marks = array("q", self.shared[_HEAD.size:_HEAD.size + length])
        return True

    def close(self) -> None:
        os.close(self.ready)
        os.close(self.said)
        self.shared.close()


_HEAD = struct.Struct("<qqq")  # cards, marked every, bytes of marks


class LateCursor(_MarkedCursor):
    """A cursor on cards not checked when the worker was forked: it passes over cards by making
    them until the build's process publishes their marks (``LateMarks``)."""

    def __init__(self, files: CardFiles, late: LateMarks):
        self.late = late
        super().__init__(files)

    def _pass(self, start: int) -> None:
        if self.late is not None and self.late.take_up(self.files):
            self.late = None
        if self.late is None:
            super()._pass(start)
        else:
            Cursor._pass(self, start)
