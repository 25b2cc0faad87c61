"""Helpers for stages that see a set as a stream: what they remember of the items just met
(copies and shared backs come close together) in memory that does not grow with the set, and
items taken a batch at a time."""
from __future__ import annotations

from collections import OrderedDict
from itertools import islice
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


class Latest(OrderedDict):
    """The latest ``size`` entries set; setting one more lets the oldest go."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    # a hot path: no super(), and no lookup of the key before it is set (a key set again keeps
    # its place and leaves the length as it was: only a new key makes one entry too many)
    def __setitem__(self, key, value, _set=OrderedDict.__setitem__) -> None:
        _set(self, key, value)
        if len(self) > self.size:
            self.popitem(last=False)

    def set_all(self, items: Iterable[tuple], _set=OrderedDict.__setitem__) -> None:
        """``self[key] = value`` for each (key, value) of ``items``, in order, in one call."""
        size, oldest = self.size, self.popitem
        for key, value in items:
            _set(self, key, value)
            if len(self) > size:
                oldest(last=False)


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last may be shorter), taken from the source as needed."""
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch
