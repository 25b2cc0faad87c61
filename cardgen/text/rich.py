"""The light markup of card text: **bold**, *italic*, [color=x]..[/color], :icon:, line breaks.

Markers that are never closed are printed as typed, so no character of the data is lost.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

# any value up to the "]": layout.py checks each colour with it (a value with "%", "-" or nothing
# in it was no marker, and a closed [color=gray(50%)]2[/color] printed on the card as typed)
COLOR_OPEN = re.compile(r"\[color=([^\[\]\n\u2029]*)\]")
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


class Group(NamedTuple):
    """Whole words in one style, each a single run: most of any text, and kept together so
    that later stages can measure and join them without a step per word."""

    style: Style
    texts: tuple[str, ...]


# A paragraph is a tuple of lines (hard breaks); a line is a tuple of items, each a Group of
# plain words or one Word of several runs (style changes inside it, or an icon).
Word = tuple[Run, ...]
Line = tuple["Group | Word", ...]
Paragraph = tuple[Line, ...]


# One alternation of the markers; re.split hands back text and markers in turn. Spaces are not
# markers: a text between two markers is split into words in one C call, so the Python loop
# below runs once per marker, not once per word.
_MARKERS = re.compile(
    r"(\\[*\[:\\]|\*\*?|\[color=[^\[\]\n\u2029]*\]|\[/color\]|:[a-z][a-z0-9_-]*:|\n|\u2029)")
_SPACES = re.compile(r"[^\S\n\u2029\u00a0]+")  # U+00A0 is a space that never breaks: part of the word
_MARKUP = re.compile(r"[*\[\]:\\]")  # a text without these parses as plain words

def _split_spaces(text: str) -> list[str]:
    """``_SPACES.split(text)`` for a text without line breaks, by ``str.split`` (five times
    faster) unless the text holds a space that never breaks."""
    if "\u00a0" in text:
        return _SPACES.split(text)
    pieces = text.split()
    if text[:1].isspace():
        pieces.insert(0, "")
    if text[-1:].isspace():
        pieces.append("")
    return pieces


_LITERAL = "text"  # a marker printed as typed: an escape, or a marker without a partner


class UnknownIcon(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _marker_kinds(markers: list[str], icons) -> list[str]:
    """The meaning of each marker: bold, italic, open, close, icon, newline, paragraph, or text
    (printed as typed: escapes, and markers that are never closed)."""
    kinds = []
    for marker in markers:
        first = marker[0]
        if first == "\\":
            kinds.append(_LITERAL)
        elif first == "*":
            kinds.append("bold" if len(marker) == 2 else "italic")
        elif first == "[":
            kinds.append("close" if marker[1] == "/" else "open")
        elif first == ":":
            if icons is not None and marker[1:-1] not in icons:
                raise UnknownIcon(marker[1:-1])
            kinds.append("icon")
        else:
            kinds.append("newline" if first == "\n" else "paragraph")
    for kind in ("bold", "italic"):
        if kinds.count(kind) % 2:  # the last one has no partner
            positions = [i for i, k in enumerate(kinds) if k == kind]
            kinds[positions[-1]] = _LITERAL
    if "open" not in kinds and "close" not in kinds:
        return kinds
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        if kind == "open":
            stack.append(i)
        elif kind == "close":
            if stack:
                stack.pop()
            else:
                kinds[i] = _LITERAL
    for i in stack:
        kinds[i] = _LITERAL
    return kinds


_new_tuple = tuple.__new__  # a named tuple made without its __new__'s own call: made per word and group


@lru_cache(maxsize=256)
def _style(bold: bool, italic: bool, color: str | None) -> Style:
    return Style(bold, italic, color)  # shared instances: styles compare by identity below


def parse(source: str, rich: bool = True, icons=None) -> tuple[Paragraph, ...]:
    """Parse card text into paragraphs of lines of words of runs.

    ``icons`` is the set of known icon names (``:name:`` with another name raises UnknownIcon).
    """
    source = source.strip()
    if "\n" in source:
        source = _BREAKS.sub("\u2029", source)
    if not rich or not _MARKUP.search(source):
        return _parse_words(source)
    parts = _MARKERS.split(source)
    kinds = _marker_kinds(parts[1::2], icons)
    paragraphs: list[Paragraph] = []
    lines: list[Line] = []
    items: list = []  # the current line's groups and words, but for the group being gathered
    # the line's last item, while it is a group: its style (None: it is not) and its words
    group_style: Style | None = None
    group: list[str] = []
    runs: list[Run] = []  # the word being read
    bold = italic = False
    colors: list[str] = []
    style = _style(False, False, None)

    def add_text(text: str) -> None:
        if runs and runs[-1].style is style and runs[-1].icon is None:
            runs[-1] = _new_tuple(Run, (runs[-1].text + text, style, None))
        else:
            runs.append(_new_tuple(Run, (text, style, None)))

    def end_word() -> None:
        nonlocal group_style, group
        if len(runs) == 1 and runs[0].icon is None:  # a plain word: it joins a group
            word_style = runs[0].style
            if word_style is not group_style:
                if group_style is not None:
                    items.append(_new_tuple(Group, (group_style, tuple(group))))
                group_style, group = word_style, []
            group.append(runs[0].text)
        elif runs:
            if group_style is not None:
                items.append(_new_tuple(Group, (group_style, tuple(group))))
                group_style = None
            items.append(tuple(runs))
        runs.clear()

    def end_line() -> tuple:
        nonlocal group_style
        end_word()
        if group_style is not None:
            items.append(_new_tuple(Group, (group_style, tuple(group))))
            group_style = None
        return tuple(items)

    for index, part in enumerate(parts):
        if not index & 1:
            if not part:
                continue
            if "\u00a0" in part:
                pieces = _SPACES.split(part)
                if len(pieces) == 1:
                    add_text(part)
                    continue
                first, middle, last = pieces[0], pieces[1:-1], pieces[-1]
            else:  # _split_spaces(part), its words taken as they come
                words = part.split()
                if part[0].isspace():
                    first, start = "", 0
                else:
                    first, start = words[0], 1
                    if len(words) == 1 and not part[-1].isspace():  # no space at all: the word goes on
                        add_text(part)
                        continue
                if part[-1].isspace():
                    middle, last = words[start:], ""
                else:
                    middle, last = words[start:-1], words[-1]
            if first:
                add_text(first)
            if runs:
                end_word()
            if middle:  # between two spaces: whole words in this style
                if style is not group_style:
                    if group_style is not None:
                        items.append(_new_tuple(Group, (group_style, tuple(group))))
                    group_style, group = style, []
                group += middle
            if last:
                runs.append(_new_tuple(Run, (last, style, None)))
            continue
        kind = kinds[index >> 1]
        if kind == _LITERAL:
            add_text(part[1] if part[0] == "\\" else part)
        elif kind == "icon":
            runs.append(_new_tuple(Run, ("", style, part[1:-1])))
        elif kind == "newline" or kind == "paragraph":
            lines.append(end_line())
            items = []
            if kind == "paragraph":
                paragraphs.append(tuple(lines))
                lines = []
        else:
            if kind == "bold":
                bold = not bold
            elif kind == "italic":
                italic = not italic
            elif kind == "open":
                colors.append(COLOR_OPEN.match(part).group(1))
            else:
                colors.pop()
            style = _style(bold, italic, colors[-1] if colors else None)
    lines.append(end_line())
    paragraphs.append(tuple(lines))
    return tuple(paragraphs)


def _parse_words(source: str) -> tuple[Paragraph, ...]:
    """Text with no markup: paragraphs, lines and words only (the common case, made fast)."""
    style = _style(False, False, None)
    paragraphs = []
    for paragraph in source.split("\u2029"):
        lines = []
        for line in paragraph.split("\n"):
            texts = tuple(word for word in _split_spaces(line) if word)
            lines.append((_new_tuple(Group, (style, texts)),) if texts else ())
        paragraphs.append(tuple(lines))
    return tuple(paragraphs)
