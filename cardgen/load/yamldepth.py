"""How deep a YAML file nests, and the stack ruamel's parser gets to read it: ruamel recurses a
level at a time, so a file nested deep enough fails with RecursionError, and its scanner takes
seconds on one nested deeper still (read_yaml refuses such a file in words first)."""
from __future__ import annotations

import re
import sys
from typing import Any

_FLOW_MARKS = re.compile(r"[\[\]{}]")
# ruamel's parser recurses per level: past about 220 levels (RUAMEL_STACK frames) it ends in
# RecursionError, after seconds from 500 levels on
MAX_FLOW_DEPTH = 300


def deeper_than(text: str, most: int) -> bool:
    """Whether ``[`` and ``{`` open more than ``most`` inside one another (quotes not told apart:
    so many in a quoted text is no card file either)."""
    depth = 0
    for mark in _FLOW_MARKS.finditer(text):
        if mark.group() in "[{":
            depth += 1
            if depth > most:
                return True
        elif depth:
            depth -= 1
    return False


def nested_deeper_than(text: str, most: int) -> bool:
    """Whether lists and mappings nest more than ``most`` deep in ``text``: as libyaml's events
    say (iterative, and brackets in quotes, comments or block text are no nesting: the streaming
    reader took a card whose text held a thousand "[" that the brackets alone refused), up to where
    libyaml stops on an error; without libyaml, or for what it could not read, by the brackets."""
    try:
        from yaml import CollectionEndEvent, CollectionStartEvent, YAMLError
        from yaml._yaml import CParser
    except ImportError:
        return deeper_than(text, most)
    parser, depth = CParser(text), 0
    try:
        while True:
            event = parser.get_event()
            if event is None:
                return False
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > most:
                    return True
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except (YAMLError, ValueError):  # (libyaml's reading ends here: what it read was not too deep)
        return deeper_than(text, most)
    finally:
        parser.dispose()


# Frames ruamel's parser may use, whoever calls it (it recurses a few frames a level): Python's
# limit counts the caller's frames too, and a file nested about 240 deep was read by `cardgen check`
# and refused in a build's worker, whose stack is deeper
RUAMEL_STACK = 880


def with_stack_budget(load, text: str) -> Any:
    """``load(text)`` with RUAMEL_STACK frames above the caller's, the same from any caller."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + RUAMEL_STACK)
    try:
        return load(text)
    finally:
        sys.setrecursionlimit(before)
