"""Whether two values read from card files are the same value, kind included.

Python's ``==`` says ``1 == 1.0 == True`` and ``{"cost": 1} == {"cost": True}``, but a card
prints them as ``1``, ``1.0`` and ``True``: a cache that tells an unchanged card by ``==`` keeps
the old face when a cell's value changes kind and not number (a spreadsheet's 1 saved as TRUE,
a YAML ``cost: 1`` written ``1.0``). ``same`` asks for the same type at every level as well.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def same(a: Any, b: Any) -> bool:
    """``a == b``, and every value inside them of the same type as its counterpart (mappings
    compared key by key, in order: the order of a card's fields is the order of its columns)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, Mapping):
        if len(a) != len(b):
            return False
        for (key_a, value_a), (key_b, value_b) in zip(a.items(), b.items()):
            if not (same(key_a, key_b) and same(value_a, value_b)):
                return False
        return True
    return bool(a == b)
