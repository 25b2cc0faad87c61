"""The light markup of card text: **bold**, *italic*, [color=x]..[/color], :icon:, line breaks.

Markers that are never closed are printed as typed, so no character of the data is lost.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

_COLOR_OPEN = re.compile(r"\[color=([#A-Za-z0-9]+)\]")
_BREAKS = re.compile(r"[ \t\f\v]*\n(?:[ \t\f\v]*\n)+[ \t\f\v]*")  # a blank line: new paragraph


class Style(NamedTuple):  # tuples: a card has hundreds of these, and tuples are cheap to make
    bold: bool = False
    italic: bool = False
    color: str | None = None  # None: the box's colour


class Run(NamedTuple):
    """A piece of text in one style, or an icon (``icon`` set, ``text`` empty)."""

    text: str
    style: Style
    icon: str | None = None


# A paragraph is a list of lines (hard breaks); a line is a list of words; a word is a list of runs.
Word = tuple[Run, ...]
Line = tuple[Word, ...]
Paragraph = tuple[Line, ...]


class _Token(NamedTuple):
    kind: str  # text, bold, italic, open, close, icon, newline, space, paragraph
    value: str = ""


# One alternation; re.split hands back text and markers in turn, so the loop below only sorts
# the markers (by their first character) instead of asking a match object for its group.
_MARKERS = re.compile(
    r"(\\[*\[:\\]|\*\*?|\[color=[#A-Za-z0-9]+\]|\[/color\]|:[a-z][a-z0-9_-]*:|\n|\u2029"
    r"|[^\S\n\u2029\u00a0]+)")  # U+00A0 is a space that never breaks: part of the word
_SPACES = re.compile(r"[^\S\n\u2029\u00a0]+")
_MARKUP = re.compile(r"[*\[\]:\\]")  # a text without these parses as plain words


def _tokenize(source: str, icons) -> list[_Token]:
    tokens: list[_Token] = []
    append = tokens.append
    parts = _MARKERS.split(source)
    for index in range(0, len(parts), 2):
        if parts[index]:
            append(_Token("text", parts[index]))
        if index + 1 == len(parts):
            break
        marker = parts[index + 1]
        first = marker[0]
        if first == "\\":
            append(_Token("text", marker[1]))
        elif first == "*":
            append(_Token("bold" if len(marker) == 2 else "italic", marker))
        elif first == "[":
            append(_Token("close" if marker[1] == "/" else "open", marker))
        elif first == ":":
            name = marker[1:-1]
            if icons is not None and name not in icons:
                raise UnknownIcon(name)
            append(_Token("icon", name))
        elif first == "\n":
            append(_Token("newline", marker))
        elif first == "\u2029":
            append(_Token("paragraph", marker))
        else:
            append(_Token("space", marker))
    return tokens


class UnknownIcon(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _pair_markers(tokens: list[_Token]) -> list[_Token]:
    """Turn markers without a partner back into literal text."""
    tokens = list(tokens)
    for kind in ("bold", "italic"):
        positions = [i for i, t in enumerate(tokens) if t.kind == kind]
        if len(positions) % 2:
            last = positions[-1]
            tokens[last] = _Token("text", tokens[last].value)
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token.kind == "open":
            stack.append(i)
        elif token.kind == "close":
            if stack:
                stack.pop()
            else:
                tokens[i] = _Token("text", token.value)
    for i in stack:
        tokens[i] = _Token("text", tokens[i].value)
    return tokens


@lru_cache(maxsize=256)
def _style(bold: bool, italic: bool, color: str | None) -> Style:
    return Style(bold, italic, color)  # shared instances: styles compare by identity below


def parse(source: str, rich: bool = True, icons=None) -> tuple[Paragraph, ...]:
    """Parse card text into paragraphs of lines of words of runs.

    ``icons`` is the set of known icon names (``:name:`` with another name raises UnknownIcon).
    """
    source = _BREAKS.sub("\u2029", source.strip())
    if not rich or not _MARKUP.search(source):
        return _parse_words(source)
    tokens = _pair_markers(_tokenize(source, icons))
    paragraphs: list[Paragraph] = []
    lines: list[Line] = []
    words: list[Word] = []
    runs: list[Run] = []
    bold = italic = False
    colors: list[str] = []
    style = _style(False, False, None)
    for token in tokens:
        kind = token.kind
        if kind == "text":
            if runs and runs[-1].style is style and runs[-1].icon is None:
                runs[-1] = Run(runs[-1].text + token.value, style)
            else:
                runs.append(Run(token.value, style))
        elif kind == "space":
            if runs:
                words.append(tuple(runs))
                runs = []
        elif kind == "icon":
            runs.append(Run("", style, token.value))
        elif kind == "newline" or kind == "paragraph":
            if runs:
                words.append(tuple(runs))
                runs = []
            lines.append(tuple(words))
            words = []
            if kind == "paragraph":
                paragraphs.append(tuple(lines))
                lines = []
        else:
            if kind == "bold":
                bold = not bold
            elif kind == "italic":
                italic = not italic
            elif kind == "open":
                colors.append(_COLOR_OPEN.match(token.value).group(1))
            elif kind == "close":
                colors.pop()
            style = _style(bold, italic, colors[-1] if colors else None)
    if runs:
        words.append(tuple(runs))
    lines.append(tuple(words))
    paragraphs.append(tuple(lines))
    return tuple(paragraphs)


def _parse_words(source: str) -> tuple[Paragraph, ...]:
    """Text with no markup: paragraphs, lines and words only (the common case, made fast)."""
    style = _style(False, False, None)
    return tuple(
        tuple(tuple((Run(word, style),) for word in _SPACES.split(line) if word) for line in paragraph.split("\n"))
        for paragraph in source.split("\u2029"))
