"""What a filter or a string method called from a template builds, counted before it builds it:
each is charged to the rendering's steps (render/bounded.py), so that "x".ljust(10 ** 9) or
range(99999) | join("x" * 99999) stops at its line instead of running out of memory."""
from __future__ import annotations

import re

_DIGITS = re.compile(r"\d+")


def nested_size(value, most: int) -> int:
    """The size of ``value`` (see ``BoundedEnvironment.size_of``), counted up to ``most``."""
    total = 0
    pending = [value]
    while pending and total <= most:
        item = pending.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += len(item) or 1
            pending.extend(item)
        elif isinstance(item, dict):
            total += len(item) or 1
            pending.extend(item.values())
        else:
            total += 1
    return total


def string_method_size(environment, text: str, name: str, args: tuple, kwargs: dict) -> int:
    """What a string method called from a template builds, before it builds it."""
    first = args[0] if args else next(iter(kwargs.values()), None)
    if name in ("ljust", "rjust", "center", "zfill"):
        return first if isinstance(first, int) else 0
    if name == "expandtabs":
        return len(text) * (first if isinstance(first, int) else 8)
    if name == "replace" and len(args) >= 2:
        return replace_size(text, *args)
    if name == "join":
        return environment.size_of(first) + len(text) * (len(first) if hasattr(first, "__len__") else 0)
    if name in ("format", "format_map"):
        return format_size(text, *args, **kwargs) + environment.size_of(list(args) + list(kwargs.values()))
    return 0


def replace_size(*args, **kwargs) -> int:
    """The length ``replace`` builds: each match of ``old`` grows by what ``new`` is longer."""
    text, old, new = (list(args) + [kwargs.get("old", ""), kwargs.get("new", "")])[:3]
    text, old, new = str(text), str(old), str(new)
    matches = text.count(old) if old else len(text) + 1
    return len(text) + matches * max(len(new) - len(old), 0)


def wordwrap_size(s="", width=79, break_long_words=True, wrapstring=None, *_, **kwargs) -> int:
    """What ``wordwrap`` builds, and its work: its text, ``wrapstring`` once a line (a line holds
    a character at least), and Python's textwrap cutting a word longer than ``width`` a piece at
    a time, copying the rest of the word at each cut (a 400,000-letter word cut at every letter
    copied 80 billion characters)."""
    text = str(kwargs.get("s", s))
    width = kwargs.get("width", width)
    width = width if isinstance(width, int) and width > 0 else 1
    wrapstring = kwargs.get("wrapstring", wrapstring)
    lines = min(len(text) + 1, 2 * (len(text) // width) + text.count("\n") + 1)
    cutting = 0
    if kwargs.get("break_long_words", break_long_words):
        cutting = sum(len(word) * len(word) // (2 * width) for word in text.split() if len(word) > width)
    return len(text) + lines * len(str(wrapstring or "\n")) + cutting


def urlize_size(value="", *_, **kwargs) -> int:
    """A link for each word, of three times its length and some: and the work of making them,
    a few thousand times a loop turn's (90,000 words took 3.5 s, inside the steps)."""
    text = str(kwargs.get("value", value))
    return 4 * len(text) + 64 * len(text.split())


def depth(value, most: int) -> int:
    """How deep lists and mappings sit inside ``value`` (looked at no further than ``most`` items)."""
    deepest, pending, seen = 0, [(value, 0)], 0
    while pending and seen <= most:
        item, depth = pending.pop()
        seen += 1
        if isinstance(item, (list, tuple, dict)):
            deepest = max(deepest, depth + 1)
            pending.extend((held, depth + 1) for held in (item.values() if isinstance(item, dict) else item))
    return deepest


def batch_size(*args, **kwargs) -> int:
    count = kwargs.get("linecount", args[1] if len(args) > 1 else 0)
    return count if isinstance(count, int) else 0


def slice_size(*args, **kwargs) -> int:
    count = kwargs.get("slices", args[1] if len(args) > 1 else 0)
    return count if isinstance(count, int) else 0


def center_size(*args, **kwargs) -> int:
    width = kwargs.get("width", args[1] if len(args) > 1 else 80)
    return width if isinstance(width, int) else 0


def indent_size(*args, **kwargs) -> int:
    s = args[0] if args else kwargs.get("s", "")
    width = kwargs.get("width", args[1] if len(args) > 1 else 4)
    lines = str(s).count("\n") + 1
    return lines * width if isinstance(width, int) else lines * len(str(width))


def format_size(value, *args, **kwargs) -> int:
    """The largest number in a format string: what a width or precision there can build; and
    where the string takes a width from its values ("%*s", "{0:>{1}}"), the largest of those."""
    text = str(value)
    written = max((int(d) for d in _DIGITS.findall(text)), default=0)
    if "*" not in text and _NESTED_FIELD.search(text) is None:
        return written
    largest, pending = written, [*args, *kwargs.values()]
    while pending:  # "{0:>{1[0][0]}}" reaches into what the values hold
        held = pending.pop()
        if isinstance(held, int) and not isinstance(held, bool):
            largest = max(largest, abs(held))
        elif isinstance(held, (tuple, list)):
            pending.extend(held)
        elif isinstance(held, dict):
            pending.extend(held.values())
    return largest


_NESTED_FIELD = re.compile(r"\{[^{}]*\{")  # a replacement field inside another's format spec
