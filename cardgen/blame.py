"""Who caused a problem of the layout: the card value shown where it arose (its file and line
first, the template line that draws it second), else the template line itself."""
from __future__ import annotations

import re
from typing import Any, Callable

from .errors import Problem
from .render.markup import Element


class TextProblem(ValueError):
    """A text box's problem that a value of the card may cause: ``reason`` is said of the value,
    ``box`` of the box; ``caused_by(value)`` tells whether a value can be the cause."""

    def __init__(self, box: str, reason: str, caused_by: Callable[[str], bool], shown: str | None = None):
        super().__init__(f"{box}: {reason}")
        self.box, self.reason, self.caused_by = box, reason, caused_by
        self.shown = shown  # the text a value must be part of (default: the element's content)


def blame(exc: TextProblem, element: Element, card, card_name: str) -> Problem:
    """The problem at the card value that causes it (the longest value shown in the box that can
    cause it), else at the template line."""
    shown = exc.shown if exc.shown is not None else element.content or ""
    field = causing_field(card, shown, exc.caused_by) if card is not None else None
    if field is None:
        if not exc.box:
            return Problem(exc.reason, element.source, card_name)
        return Problem(f"{exc.box}: {exc.reason.replace(f' in {exc.box}', '')}", element.source, card_name)
    return Problem(f'field "{field}": {exc.reason} (drawn by {element.source})', card.source_of(field), card_name)


_GOT = re.compile(r'got "([^"]*)"')


def blame_value(problem: Problem, card) -> Problem:
    """A template line's problem with a value (``... got "X"``) that is exactly one of the card's
    own values: said at that value's file and line, the template line second."""
    got = _GOT.search(problem.message)
    if card is None or got is None or not got.group(1).strip() or problem.source is None:
        return problem
    wanted = got.group(1).strip()
    field = causing_field(card, wanted, lambda text: text == wanted)
    if field is None:
        return problem
    return Problem(f'field "{field}": {problem.message} (drawn by {problem.source})', card.source_of(field),
                   problem.card, problem.severity)


def causing_field(card, content: str, caused_by: Callable[[str], bool]) -> str | None:
    best, best_length = None, 0
    for key, value in card.fields.items():
        for text in _texts(value):
            text = text.strip()
            if len(text) > best_length and _shown_in(text, content) and caused_by(text):
                best, best_length = key, len(text)
    return best


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def _shown_in(text: str, content: str) -> bool:
    """Whether ``text`` is in ``content``; a number only as a number of its own: a count of 1
    is not what the 12 of a card's name shows."""
    if text not in content:
        return False
    if not _NUMBER.fullmatch(text):
        return True
    return re.search(rf"(?<![\d.]){re.escape(text)}(?![\d]|\.\d)", content) is not None


def _texts(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
