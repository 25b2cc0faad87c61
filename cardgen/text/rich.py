"""The light markup of card text: **bold**, *italic*, [color=x]..[/color], :icon:, line breaks.

Markers that are never closed are printed as typed, so no character of the data is lost.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_ICON = re.compile(r":([a-z][a-z0-9_-]*):")
_COLOR_OPEN = re.compile(r"\[color=([#A-Za-z0-9]+)\]")
_COLOR_CLOSE = "[/color]"
_BREAKS = re.compile(r"[ \t\f\v]*\n(?:[ \t\f\v]*\n)+[ \t\f\v]*")  # a blank line: new paragraph


@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    color: str | None = None  # None: the box's colour


@dataclass(frozen=True)
class Run:
    """A piece of text in one style, or an icon (``icon`` set, ``text`` empty)."""

    text: str
    style: Style
    icon: str | None = None


# A paragraph is a list of lines (hard breaks); a line is a list of words; a word is a list of runs.
Word = tuple[Run, ...]
Line = tuple[Word, ...]
Paragraph = tuple[Line, ...]


@dataclass(frozen=True)
class _Token:
    kind: str  # text, bold, italic, open, close, icon, newline, space, paragraph
    value: str = ""


def _tokenize(source: str, rich: bool, icons) -> list[_Token]:
    tokens: list[_Token] = []
    text: list[str] = []

    def flush():
        if text:
            tokens.append(_Token("text", "".join(text)))
            text.clear()

    i, n = 0, len(source)
    while i < n:
        char = source[i]
        if char == "\n":
            flush()
            tokens.append(_Token("newline"))
            i += 1
        elif char == "\u2029":  # paragraph separator
            flush()
            tokens.append(_Token("paragraph"))
            i += 1
        elif char.isspace():
            flush()
            tokens.append(_Token("space"))
            i += 1
        elif not rich:
            text.append(char)
            i += 1
        elif char == "\\" and i + 1 < n and source[i + 1] in "*[:\\":
            text.append(source[i + 1])
            i += 2
        elif source.startswith("**", i):
            flush()
            tokens.append(_Token("bold", "**"))
            i += 2
        elif char == "*":
            flush()
            tokens.append(_Token("italic", "*"))
            i += 1
        elif char == "[" and (m := _COLOR_OPEN.match(source, i)):
            flush()
            tokens.append(_Token("open", m.group(0)))
            i = m.end()
        elif source.startswith(_COLOR_CLOSE, i):
            flush()
            tokens.append(_Token("close", _COLOR_CLOSE))
            i += len(_COLOR_CLOSE)
        elif char == ":" and (m := _ICON.match(source, i)) and (icons is None or m.group(1) in icons):
            flush()
            tokens.append(_Token("icon", m.group(1)))
            i = m.end()
        elif char == ":" and (m := _ICON.match(source, i)):
            raise UnknownIcon(m.group(1))
        else:
            text.append(char)
            i += 1
    flush()
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


def parse(source: str, rich: bool = True, icons=None) -> tuple[Paragraph, ...]:
    """Parse card text into paragraphs of lines of words of runs.

    ``icons`` is the set of known icon names (``:name:`` with another name raises UnknownIcon).
    """
    source = _BREAKS.sub("\u2029", source.strip())
    tokens = _pair_markers(_tokenize(source, rich, icons))
    paragraphs: list[Paragraph] = []
    lines: list[Line] = []
    words: list[Word] = []
    runs: list[Run] = []
    bold = italic = False
    colors: list[str] = []

    def end_word():
        if runs:
            words.append(tuple(runs))
            runs.clear()

    def end_line():
        end_word()
        lines.append(tuple(words))
        words.clear()

    for token in tokens:
        kind = token.kind
        if kind == "text" or kind == "icon":
            style = Style(bold, italic, colors[-1] if colors else None)
            if kind == "icon":
                runs.append(Run("", style, token.value))
            elif runs and runs[-1].style == style and runs[-1].icon is None:
                runs[-1] = Run(runs[-1].text + token.value, style)
            else:
                runs.append(Run(token.value, style))
        elif kind == "space":
            end_word()
        elif kind == "newline":
            end_line()
        elif kind == "paragraph":
            end_line()
            paragraphs.append(tuple(lines))
            lines.clear()
        elif kind == "bold":
            bold = not bold
        elif kind == "italic":
            italic = not italic
        elif kind == "open":
            colors.append(_COLOR_OPEN.match(token.value).group(1))
        elif kind == "close":
            colors.pop()
    end_line()
    paragraphs.append(tuple(lines))
    return tuple(paragraphs)


def plain_text(paragraphs: tuple[Paragraph, ...]) -> str:
    """The visible characters, words joined by spaces (icons as :name:) - for tests and search."""
    return "\n\n".join(
        "\n".join(" ".join("".join(r.text or f":{r.icon}:" for r in word) for word in line) for line in para)
        for para in paragraphs)
