"""A value read from a data file, shown in a message as its author wrote it in YAML.

A message that says `got {value!r}` shows Python's spelling of what the file holds: `None` for
`~`, `True` for `yes`, `datetime.date(2024, 1, 1)` for a date, `{'w': 1}` for a mapping. The
author wrote none of these; ``spelled`` gives them back in the file's own words.
"""
from __future__ import annotations

import datetime
import math

_MAX = 40  # characters: a long list or text is cut, the message keeps one line


def spelled(value: object) -> str:
    """``value`` as YAML writes it (null, true, 2024-01-01, [1, 2], {w: 1}, "text"), cut short."""
    text = _flow(value)
    return text if len(text) <= _MAX else text[:_MAX - 3] + "..."


def _flow(value: object, inner: bool = False, depth: int = 0) -> str:
    if depth > 3:  # an alias that holds itself, or deep nesting: the start is enough
        return "..."
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # nan, inf, -inf: as the messages have always said them
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else value.isoformat()
    if isinstance(value, str):
        return value if inner else f'"{value}"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k, True, depth + 1)}: {_flow(v, True, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v, True, depth + 1) for v in value) + "]"
    if isinstance(value, (bytes, bytearray)):
        return "binary data (!!binary)"
    return f"a {type(value).__name__}"


def quoted(value: object) -> str:
    """As the messages have long said a scalar, in quotes ("two", "1.5", "2024-01-01"); null,
    true/false, a list and a mapping as ``spelled`` says them, never str()'s Python spelling."""
    if value is None or isinstance(value, (bool, dict, list, tuple, set, frozenset, bytes)):
        return spelled(value)
    text = str(value)
    return f'"{text}"' if len(text) <= _MAX else f'"{text[:_MAX - 3]}..."'
