"""Small YAML files in their plainest form read without ruamel.yaml, exactly as ruamel reads them.

A build reads set.yaml and fonts.yaml (the project's and cardgen's own): through ruamel's
round-trip loader that is its import (a tenth of a cold build's start before the workers start)
and about 4 ms a file. Most such files are written in a small part of YAML: block mappings and
lists, one-line flow ``{...}`` and ``[...]``, text (plain, or quoted on one line), whole numbers,
true/false and null, comments. Read here, they come back as yamlkept.py keeps ruamel's reading
(``KeptMap`` and ``KeptSeq`` with ruamel's line record, the same values, lines and columns),
so every value and every line a message names is ruamel's.

Anything else (an anchor, alias, tag, block scalar, float, date, escape, a tab, text over
several lines, a key given twice, anything ruamel would refuse) is ``Unsure``: read_yaml then
reads the file through ruamel, whose values and messages stay the reference.
tests/load/test_yamlplain.py compares this reading with ruamel's for many documents.
"""
from __future__ import annotations

from typing import Any

from .yamlkept import KeptMap, KeptSeq, _Lines


class Unsure(Exception):
    """This reader cannot promise ruamel's reading of the text."""


# Anywhere in the text: anchors, aliases, tags, block scalars, merge keys, escapes, tabs, and a
# line break YAML reads otherwise than Python's split (a carriage return)
_REFUSED_MARKS = ("&", "*", "!", "|", ">", "<<", "\\", "\t", "\r")
_TRUE, _FALSE, _NULL = ("true", "True", "TRUE"), ("false", "False", "FALSE"), ("~", "null", "Null", "NULL")
# first characters of a plain scalar that ruamel may resolve to something besides text (YAML 1.2):
# numbers, dates, .inf/.nan, "<<", "=", a lone "!", "&" or "*"; "t", "f", "n" (and capitals)
# only as the words above (tests/load/test_yamlplain.py holds this to ruamel's own table)
_NOT_TEXT_START = frozenset("0123456789+-.~<=!&*")
_WORD_START = frozenset("tTfFnN")
_PLAIN_REFUSED_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_STOP = frozenset(",[]{}")
MAX_KEY = 1000  # characters: YAML's implicit keys end at 1024
# Lists and mappings inside one another: deeper is ruamel's to read or refuse. This reader recurses
# a level at a time: a small set.yaml of "[[[[..." ended in Python's RecursionError ("internal error").
MAX_DEPTH = 64


def read_plain(text: str) -> Any:
    """The document as ruamel's round-trip loader reads it, in yamlkept's containers; ``Unsure``
    when the text is not of the plain kind this reader takes."""
    for mark in _REFUSED_MARKS:
        if mark in text:
            raise Unsure
    if not text.replace("\n", "").isprintable():  # control characters, a byte-order mark, ...
        raise Unsure
    return _Reader(text).document()


def _nested(read):
    """A container's reader, which counts the containers open around it (``Unsure`` past MAX_DEPTH)."""
    def reading(self, *args):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unsure
        value = read(self, *args)
        self.depth -= 1
        return value
    return reading


class _Reader:
    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.end = (len(self.lines) - 1, len(self.lines[-1]))  # where ruamel's stream ends
        self.row = 0  # the line being read
        self.depth = 0  # containers open (_nested)
        self._next_content()

    # -- lines

    def _next_content(self) -> None:
        """Move ``row`` to the next line holding more than spaces and a comment."""
        lines = self.lines
        while self.row < len(lines):
            line = lines[self.row]
            stripped = line.lstrip(" ")
            if stripped and stripped[0] != "#":
                if line.startswith(("---", "...", "%")):  # documents and directives
                    raise Unsure
                return
            self.row += 1

    def _indent(self) -> int:
        """The indentation of line ``row``; -1 at the end of the text."""
        if self.row >= len(self.lines):
            return -1
        line = self.lines[self.row]
        return len(line) - len(line.lstrip(" "))

    def _next_token(self) -> tuple[int, int]:
        """Where ruamel's next token starts: the next line's content, or the end of the text."""
        if self.row >= len(self.lines):
            return self.end
        return self.row, self._indent()

    # -- the document

    def document(self) -> Any:
        if self.row >= len(self.lines) or self._indent() != 0:
            raise Unsure  # empty, or a document indented as a whole
        node = self._block_node(0)
        if self.row < len(self.lines):
            raise Unsure  # more than one node at the top: an error, ruamel's to word
        return node

    def _block_node(self, indent: int) -> Any:
        """The block mapping or list whose first line is ``row``, at ``indent``."""
        line = self.lines[self.row]
        if line.startswith("- ", indent) or len(line) == indent + 1 and line[indent] == "-":
            return self._block_sequence(indent)
        return self._block_mapping(indent)

    @_nested
    def _block_mapping(self, indent: int) -> KeptMap:
        """Keys at ``indent`` from line ``row`` (the first may stand after a list's "- ")."""
        mapping = KeptMap()
        data: dict = {}
        start = (self.row, indent)
        while True:
            line = self.lines[self.row]
            key, at = self._scalar(line, indent, flow=False)
            if type(key) is not str or key in mapping or at - indent > MAX_KEY:
                raise Unsure  # a key that is no text, or given twice: ruamel's to read or refuse
            at = _skip_spaces(line, at)
            if not line.startswith(":", at) or not (at + 1 == len(line) or line[at + 1] == " "):
                raise Unsure
            key_row = self.row
            value, value_at = self._value(line, at + 1, indent)
            mapping[key] = value
            data[key] = [key_row, indent, value_at[0], value_at[1]]
            if self._indent() != indent or self.lines[self.row].startswith("-", indent):
                break
        mapping.lc = _Lines(start[0], start[1], data)
        if self._indent() > indent:
            raise Unsure  # a line indented past its mapping's keys: an error, or text over lines
        return mapping

    def _value(self, line: str, at: int, indent: int) -> tuple[Any, tuple[int, int]]:
        """The value after a key's ":" at ``at``, with where ruamel says it starts; moves ``row``
        past it."""
        rest = _skip_spaces(line, at)
        row = self.row
        if rest < len(line) and line[rest] != "#":
            value, end = self._inline(line, rest)
            self._line_done(line, end)
            return value, (row, rest)
        comment = rest < len(line)  # a comment on the key's own line
        self.row += 1
        self._next_content()
        below = self._indent()
        if below > indent:
            start = (self.row, below)
            return self._block_node(below), start
        if below == indent and self.lines[self.row].startswith("-", indent):
            if not self._is_entry(self.lines[self.row], indent):
                raise Unsure
            start = (self.row, indent)
            return self._block_sequence(indent), start
        if comment:  # ruamel marks the empty value after the ":" when a key follows, else elsewhere
            if below != indent:
                raise Unsure
            return None, (row, at)
        return None, self._next_token()

    @_nested
    def _block_sequence(self, indent: int) -> KeptSeq:
        sequence = KeptSeq()
        data: dict = {}
        start = (self.row, indent)
        while True:
            line = self.lines[self.row]
            if not self._is_entry(line, indent):
                raise Unsure
            item_at = _skip_spaces(line, indent + 1)
            row = self.row
            if item_at >= len(line) or line[item_at] == "#":  # nothing after "-" on its line
                self.row += 1
                self._next_content()
                below = self._indent()
                if below > indent:
                    item_start = (self.row, below)
                    item = self._block_node(below)
                else:
                    item, item_start = None, (row, indent + 1)
            elif line.startswith("- ", item_at) or line[item_at] == "-" and item_at + 1 == len(line):
                raise Unsure  # a list in a list's entry on one line
            elif self._is_key_line(line, item_at):
                item_start = (row, item_at)
                item = self._block_mapping(item_at)
            else:
                value, end = self._inline(line, item_at)
                self._line_done(line, end)
                item, item_start = value, (row, item_at)
            data[len(sequence)] = [item_start[0], item_start[1]]
            sequence.append(item)
            if self._indent() != indent or not self._is_entry(self.lines[self.row], indent):
                break  # (a list's last entry, or a list at its mapping's indent followed by the next key)
        sequence.lc = _Lines(start[0], start[1], data)
        if self._indent() > indent:
            raise Unsure
        return sequence

    @staticmethod
    def _is_entry(line: str, indent: int) -> bool:
        return line.startswith("- ", indent) or len(line) == indent + 1 and line[indent] == "-"

    def _is_key_line(self, line: str, at: int) -> bool:
        """Whether a list entry's text at ``at`` starts a mapping ("- name: value")."""
        if line[at] in "[{":
            return False
        _, end = self._scalar(line, at, flow=False)
        end = _skip_spaces(line, end)
        return line.startswith(":", end) and (end + 1 == len(line) or line[end + 1] == " ")

    def _line_done(self, line: str, end: int) -> None:
        """After a value ending at ``end``: only spaces and a comment may follow on its line."""
        end = _skip_spaces(line, end)
        if end < len(line) and (line[end] != "#" or line[end - 1] != " "):
            raise Unsure
        self.row += 1
        self._next_content()

    # -- values on one line

    def _inline(self, line: str, at: int) -> tuple[Any, int]:
        """A value written on the line from ``at``: a flow mapping or list, or a scalar."""
        first = line[at]
        if first == "{":
            return self._flow_mapping(line, at)
        if first == "[":
            return self._flow_sequence(line, at)
        return self._scalar(line, at, flow=False)

    @_nested
    def _flow_mapping(self, line: str, at: int) -> tuple[KeptMap, int]:
        mapping = KeptMap()
        data: dict = {}
        row = self.row
        position = _skip_spaces(line, at + 1)
        if line.startswith("}", position):
            mapping.lc = _Lines(row, at, None)
            return mapping, position + 1
        while True:
            if position >= len(line) or line[position] in "{[":
                raise Unsure
            key_at = position
            key, position = self._scalar(line, position, flow=True)
            if type(key) is not str or key in mapping:
                raise Unsure
            position = _skip_spaces(line, position)
            if not line.startswith(": ", position):
                raise Unsure
            value_at = _skip_spaces(line, position + 1)
            if value_at >= len(line) or line[value_at] in ",}#":
                raise Unsure  # an empty value: ruamel's marks for it are its own
            value, position = self._flow_item(line, value_at)
            mapping[key] = value
            data[key] = [row, key_at, row, value_at]
            position = _skip_spaces(line, position)
            if line.startswith("}", position):
                mapping.lc = _Lines(row, at, data)
                return mapping, position + 1
            if not line.startswith(",", position):
                raise Unsure
            position = _skip_spaces(line, position + 1)
            if line.startswith("}", position):
                raise Unsure  # a comma before the end

    @_nested
    def _flow_sequence(self, line: str, at: int) -> tuple[KeptSeq, int]:
        sequence = KeptSeq()
        data: dict = {}
        row = self.row
        position = _skip_spaces(line, at + 1)
        if line.startswith("]", position):
            sequence.lc = _Lines(row, at, None)
            return sequence, position + 1
        while True:
            if position >= len(line) or line[position] in ",]#":
                raise Unsure
            item_at = position
            item, position = self._flow_item(line, position)
            data[len(sequence)] = [row, item_at]
            sequence.append(item)
            position = _skip_spaces(line, position)
            if line.startswith(":", position):
                raise Unsure  # a one-entry mapping in a list
            if line.startswith("]", position):
                sequence.lc = _Lines(row, at, data)
                return sequence, position + 1
            if not line.startswith(",", position):
                raise Unsure
            position = _skip_spaces(line, position + 1)
            if line.startswith("]", position):
                raise Unsure

    def _flow_item(self, line: str, at: int) -> tuple[Any, int]:
        first = line[at]
        if first == "{":
            return self._flow_mapping(line, at)
        if first == "[":
            return self._flow_sequence(line, at)
        return self._scalar(line, at, flow=True)

    def _scalar(self, line: str, at: int, flow: bool) -> tuple[Any, int]:
        """The scalar starting at ``at`` and where it ends."""
        if at >= len(line):
            raise Unsure
        first = line[at]
        if first == '"':
            end = line.find('"', at + 1)
            if end < 0:
                raise Unsure  # over more lines
            return line[at + 1:end], end + 1
        if first == "'":
            parts = []
            position = at + 1
            while True:
                end = line.find("'", position)
                if end < 0:
                    raise Unsure
                parts.append(line[position:end])
                if line.startswith("'", end + 1):  # '' stands for one quote
                    parts.append("'")
                    position = end + 2
                    continue
                return "".join(parts), end + 1
        if first in _PLAIN_REFUSED_START and not (first == "-" and line[at + 1:at + 2].isdigit()):
            raise Unsure
        end = at
        length = len(line)
        while end < length:
            char = line[end]
            if char == ":":
                if end + 1 == length or line[end + 1] == " ":
                    break
                if flow:
                    raise Unsure
            elif char == "#":
                if line[end - 1] == " ":
                    break
                raise Unsure
            elif flow and char in _FLOW_STOP:
                break
            end += 1
        words = line[at:end].rstrip(" ")
        return resolved_plainly(words), at + len(words)


def _skip_spaces(line: str, at: int) -> int:
    length = len(line)
    while at < length and line[at] == " ":
        at += 1
    return at


def resolved_plainly(words: str) -> Any:
    """A plain scalar as ruamel's round-trip loader builds it (YAML 1.2), when it is text, a whole
    number, true/false or null, without ruamel; ``Unsure`` for anything else."""
    first = words[:1]
    if first in _WORD_START:
        if words in _TRUE:
            return True
        if words in _FALSE:
            return False
        if words in _NULL:
            return None
        return words
    if first in _NOT_TEXT_START:
        digits = words[1:] if first == "-" else words
        if digits.isdigit() and digits.isascii() and len(digits) < 1000 and digits[0] != "0":  # 0: ruamel's ScalarInt
            return int(words)
        if words == "~":
            return None
        raise Unsure  # a float, a date, a number written otherwise: ruamel's own types
    if not words:
        raise Unsure
    return words
