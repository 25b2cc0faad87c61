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

    def __setitem__(self, key, value, _set=OrderedDict.__setitem__) -> None:  # a hot path: no super()
        if len(self) >= self.size and key not in self:
            self.popitem(last=False)
        _set(self, key, value)

    def set_all(self, items: Iterable[tuple], _set=OrderedDict.__setitem__) -> None:
        """``self[key] = value`` for each (key, value) of ``items``, in order, in one call."""
        size = self.size
        for key, value in items:
            if len(self) >= size and key not in self:
                self.popitem(last=False)
            _set(self, key, value)


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last may be shorter), taken from the source as needed."""
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch
