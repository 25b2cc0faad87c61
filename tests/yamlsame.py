"""What two YAML readings must share: the values ruamel builds and the lines it records."""
from __future__ import annotations

import math


def same_round_trip(fast, slow, where="document") -> None:
    """The same values, of the same types, with the same line records (a key's, an item's, a
    container's: all that line_of reads)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    assert type(fast) is type(slow), where
    if isinstance(slow, CommentedMap):
        assert list(fast) == list(slow), where
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), where
        for key in slow:
            assert fast.lc.key(key) == slow.lc.key(key), f"{where}.{key}"
            same_round_trip(fast[key], slow[key], f"{where}.{key}")
    elif isinstance(slow, CommentedSeq):
        assert len(fast) == len(slow) and (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), where
        for index, item in enumerate(slow):
            assert fast.lc.item(index) == slow.lc.item(index), f"{where}[{index}]"
            same_round_trip(fast[index], item, f"{where}[{index}]")
    elif isinstance(slow, float) and math.isnan(slow):
        assert math.isnan(fast), where
    else:
        assert fast == slow and getattr(fast, "__dict__", {}) == getattr(slow, "__dict__", {}), where
