"""A mapping that keeps only its latest entries: what the streaming stages remember of the
faces and renderings just met (copies and shared backs come close together), in memory that
does not grow with the set."""
from __future__ import annotations

from collections import OrderedDict


class Latest(OrderedDict):
    """The latest ``size`` entries set; setting one more lets the oldest go."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __setitem__(self, key, value) -> None:
        if len(self) >= self.size and key not in self:
            self.popitem(last=False)
        super().__setitem__(key, value)
