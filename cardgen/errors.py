"""Problems found in input, and the one exception that carries them.

Every stage reports bad input as a :class:`Problem` that names the file, the
line and the card, so that the command line can print ``file:line: message``
lines and never a traceback.
"""
from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)  # one per card row: kept small
class Source:
    """Where a value came from: a file (relative to the project) and a line or row."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


# Written as escapes in a message: line breaks (one problem, one line), and the controls of
# writing direction, which would turn the rest of the line round in the terminal (a card named
# "\u202eQuick Draw" would show its message backwards).
_UNSHOWN = {ord(c): repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
            "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"}

# A value quoted in a message ("...", opened after a space or a bracket and closed before one or
# before punctuation), however long the input made it: each message quotes through f-strings of
# its own, so the one place that sees them all shortens them.
_QUOTED = re.compile(r'(?<![^\s(\[=])"(.*?)"(?=$|[\s:,;.)\]])', re.S)
QUOTED_MOST = 160  # characters of a quoted value shown whole; a longer one keeps its start and end
_HEAD, _TAIL = 120, 30


def _shortened(match: re.Match) -> str:
    value = match.group(1)
    if len(value) <= QUOTED_MOST:
        return match.group(0)
    return f'"{value[:_HEAD]}…{value[-_TAIL:]}" ({len(value):,} characters)'


def _short_path(path: str) -> str:
    """A path in a message (never quoted), shortened as a quoted value is."""
    if len(path) <= QUOTED_MOST:
        return path
    return f"{path[:_HEAD]}…{path[-_TAIL:]} ({len(path):,} characters)"


def readable(message: str) -> str:
    """``message`` with each quoted value of more than ``QUOTED_MOST`` characters shortened to its
    start and end around an ellipsis, and its length: a 10,000-character field quoted whole hides
    the message it is part of."""
    return _QUOTED.sub(_shortened, message) if len(message) > QUOTED_MOST else message


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: the message, where it was written (file and line), the card
    it is about, and whether it is an error or a warning."""

    message: str
    source: Source | None = None
    card: str | None = None
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        label = "warning: " if self.severity == "warning" else ""
        who = f'card "{self.card}": ' if self.card else ""
        # one problem, one line: a card named by a CSV cell that spans lines prints its breaks as \n
        return readable(f"{where}{label}{who}{self.message}").translate(_UNSHOWN)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class CardgenError(Exception):
    """Bad input: one or more problems, all reported at once."""

    def __init__(self, problems: Problem | list[Problem] | tuple[Problem, ...]):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def fail(message: str, source: Source | None = None, card: str | None = None) -> CardgenError:
    """Build the exception for a single problem (``raise fail(...)``)."""
    return CardgenError(Problem(message, source, card))


def collapse(problems) -> list[Problem]:
    """One cause, one message: problems that differ only in the card that met them (a broken
    font, a failing template line, a missing image met by every card) become one, naming the
    first card and how many more; errors come before warnings, each in the order first met."""
    groups: dict[tuple, list] = {}
    for problem in problems:
        key = (problem.severity, problem.source, problem.message)
        entry = groups.get(key)
        if entry is None:
            groups[key] = [problem, {problem.card}]
        else:
            entry[1].add(problem.card)
    merged = []
    for first, cards in groups.values():
        more = len(cards) - 1
        if more:
            first = Problem(f"{first.message} (and {more} more card{'s' * (more != 1)})", first.source, first.card,
                            first.severity)
        merged.append(first)
    return [p for p in merged if p.is_error] + [p for p in merged if not p.is_error]


def tally(problems, more_warnings: int = 0) -> str:
    """``N errors, M warnings``."""
    errors = sum(1 for p in problems if p.is_error)
    warnings = len(problems) - errors + more_warnings
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


class UsageError(Exception):
    """The command was called wrongly (unknown set, bad option): exit code 2."""


# A Python object as a library's message writes it ("<_io.BytesIO object at 0x7f51...>"): of no
# use to the reader, and another address every run (a message must not change between runs)
_PYTHON_OBJECT = re.compile(r"\s*<[\w.]+ object at 0x[0-9a-fA-F]+>")


def without_python_objects(text: str) -> str:
    return _PYTHON_OBJECT.sub("", text)


LOOP_REASON = "a link that leads back to itself (a loop of symbolic links)"


def os_reason(error: OSError) -> str:
    """An operating-system failure in plain words: "permission denied", "no space left on device"."""
    if getattr(error, "cardgen_reason", None):
        return error.cardgen_reason
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"  # EPERM: an immutable file or folder, to the user the same thing
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    if error.errno in (errno.ENOTDIR, errno.EEXIST) and getattr(error, "cardgen_folder", None):
        return f"{shown_path(error.cardgen_folder)} is {_file_kind(error.cardgen_folder)}, not a folder"
    if error.errno == errno.ENOTDIR and error.filename is not None:
        blocking = file_on_the_way(os.fspath(error.filename))
        if blocking is not None:  # a folder of the path is a file: the same words as above
            return f"{shown_path(blocking)} is {_file_kind(blocking)}, not a folder"
    if error.errno == errno.EISDIR:
        return "it is a folder, not a file"
    if error.errno == errno.ELOOP:
        return LOOP_REASON
    text = error.strerror or str(error) or type(error).__name__
    return text[0].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _file_kind(path) -> str:
    """"a file", or what else stands where a folder goes: an output folder that was a named
    pipe was said to be "a file"."""
    from .paths import kind_at  # paths imports this module

    return kind_at(path) or "a file"


def file_on_the_way(path) -> str | None:
    """The folder of ``path`` (its parent, or one above) that is not a folder: a file, or a
    link that leads nowhere; None if there is none."""
    parent = os.path.dirname(os.fspath(path))
    while parent and parent != os.path.dirname(parent):
        if os.path.lexists(parent) and not os.path.isdir(parent):
            return parent
        parent = os.path.dirname(parent)
    return None


def shown_path(path) -> str:
    """A path as the user typed it, near enough: relative to the working folder when inside it."""
    text = os.fspath(path)
    try:
        relative = os.path.relpath(text)
    except ValueError:
        return _short_path(text)
    return _short_path(relative if not relative.startswith("..") else text)


def _there(name: str) -> bool:
    """Whether something is at ``name``, or its folder hides whether it is: then it is read,
    not made. An unreadable folder of data/ was said "cannot write data"."""
    try:
        os.lstat(name)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def closed_folder(name: str) -> str | None:
    """The first folder on the way to ``name`` that this process may not enter, or None."""
    parts = os.path.abspath(name).split(os.sep)
    for depth in range(2, len(parts)):
        folder = os.sep.join(parts[:depth]) or os.sep
        if not os.access(folder, os.X_OK):
            return folder
    return None


def os_message(error: OSError) -> str:
    """``cannot write output/x.pdf: permission denied`` (or read, or use, for other files)."""
    writing = getattr(error, "cardgen_writing", None)
    if writing is not None:
        return f"cannot write {shown_path(writing)}: {os_reason(error)}"
    if error.filename is not None:
        name = os.fspath(error.filename)
        refused = error.errno in (errno.EACCES, errno.EPERM)
        creating = error.errno in (errno.ENOSPC, errno.EROFS, errno.EDQUOT) or (
            refused and not _there(name)) or (
            error.errno == errno.ENOTDIR and file_on_the_way(name) is not None)  # a folder to make
        closed = closed_folder(name) if refused and not creating else None
        return (f"cannot {'write' if creating else 'open'} {shown_path(name)}: {os_reason(error)}"
                + (f" (the folder {shown_path(closed)} cannot be opened)" if closed is not None else ""))
    return os_reason(error)
