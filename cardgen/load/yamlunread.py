"""Where, in a YAML file's text, the value lies that ruamel read and could not make: a date no
calendar has (2024-13-45), a value its core tag cannot read (``!!int abc``, ``!!bool maybe``),
a number longer than Python reads. ruamel raises a bare ValueError or KeyError for these, with no
line: yamlfile.py says the problem at the line found here."""
from __future__ import annotations

import re


_DATE = re.compile(r"(?<![\w.-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w.-]|:\d)")


def impossible_date(text: str) -> tuple[int | None, str]:
    """The line and words of the first date-like value that no calendar has."""
    import datetime

    for number, line in enumerate(text.splitlines(), 1):
        for match in _DATE.finditer(line.split(" #", 1)[0]):
            try:
                datetime.date(*(int(part) for part in match.groups()))
            except ValueError:
                return number, match.group()
    return None, "a value"


_TAGGED = re.compile(r"!!(int|float|bool|timestamp)[ \t]+(\"[^\"\n]*\"|'[^'\n]*'|[^\s,\]}#]+)")
_TAG_READS = {"int": (re.compile(r"[-+]?(0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)"), "a whole number"),
              "float": (re.compile(r"[-+]?(\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|[-+]?([0-9_]+\.?[0-9_]*|\.[0-9_]+)"
                                   r"([eE][-+]?[0-9]+)?"), "a number"),
              "bool": (re.compile(r"(?i)true|false|yes|no|on|off|y|n"), "true or false"),
              "timestamp": (re.compile(r"\d{4}-\d\d?-\d\d?([Tt ].*)?"), "a date")}


def unreadable_tag(text: str) -> tuple[int | None, str | None]:
    """The line and words of the first value whose core tag (``!!int``, ``!!bool``...) cannot
    read it: ruamel raises a bare ValueError or KeyError for it, with no line."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in _TAGGED.finditer(line):
            value = match.group(2)
            pattern, kind = _TAG_READS[match.group(1)]
            if not pattern.fullmatch(value.strip("'\"")):
                return number, f'the value {value} tagged "!!{match.group(1)}" is not {kind}'
    return None, None


_DIGITS = re.compile(r"\d{100,}")


def longest_number(text: str) -> tuple[int | None, int]:
    """The line and length of the longest run of digits in ``text`` (0 below 100 digits)."""
    line, most = None, 0
    for found in _DIGITS.finditer(text):
        if len(found.group()) > most:
            line, most = text.count("\n", 0, found.start()) + 1, len(found.group())
    return line, most
