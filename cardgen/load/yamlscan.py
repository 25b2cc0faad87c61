"""What only ruamel's reader (yamlfile.read_yaml) may read of a YAML file: libyaml's reader
(yamlstream.py) looks through a file for it first, and gives the file up (``Unsure``) if it is
there.
"""
from __future__ import annotations

import codecs
import os
import re
from pathlib import Path


class Unsure(Exception):
    """This reader cannot promise to read the file exactly as read_yaml does."""


# Characters read_yaml takes differently from libyaml, or that ruamel's reader refuses: a file
# holding one is read_yaml's. Line breaks YAML 1.1 has and 1.2 has not, a byte-order mark, what
# is not printable, a line ended by a carriage return alone, and a tab but in a comment line
# (ruamel and libyaml differ on where one may stand). The patterns are compiled when a file is
# first read here (unsure_text, which every reading starts with): a build whose files are all
# CSV or small YAML never pays for them. Each is searched for only where a character it needs is
# in the text (a "#", a tab, a carriage return, a space before a line break), and an ASCII text
# only for the control characters: `re` goes through a card file of megabytes at about 50 MB/s
# a pattern, a plain `in` many times faster.
_UNSURE_CHARACTER = _UNSURE_ASCII = _LONE_CR = _UNSURE_TAB = _UNSURE_SYNTAX = _SPACES_LINE = _SPACES_LINE_BYTES = None


def _compile_patterns() -> None:
    global _UNSURE_CHARACTER, _UNSURE_ASCII, _LONE_CR, _UNSURE_TAB, _UNSURE_SYNTAX, _SPACES_LINE, _SPACES_LINE_BYTES
    # Written as the characters refused, not the complement of those taken: the same set, but a
    # negated class with ranges up to U+10FFFF costs `re` about 3 ms to compile, this 0.3 ms.
    _UNSURE_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
    _UNSURE_ASCII = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # those of them an ASCII text may hold
    _LONE_CR = re.compile("\r(?!\n)")
    _UNSURE_TAB = re.compile("^(?! *#).*\t", re.M)
    # A block scalar's header with a comment and no space before it ("|#"): libyaml takes it, ruamel not.
    _UNSURE_SYNTAX = re.compile(r"[|>][-+0-9]*#")
    # A line of spaces only inside a block scalar: ruamel refuses some that libyaml takes.
    _SPACES_LINE = re.compile(r"[\r\n] +[\r\n]")
    _SPACES_LINE_BYTES = re.compile(_SPACES_LINE.pattern.encode())


SCAN_PIECE = 1 << 20  # characters


def unsure_text(text: str, ascii: bool | None = None) -> bool:
    """Whether ``text`` holds what only read_yaml may read (``ascii``: whether it is ASCII, if known)."""
    if _UNSURE_CHARACTER is None:
        _compile_patterns()
    if ascii is None:
        ascii = text.isascii()
    return bool((_UNSURE_ASCII if ascii else _UNSURE_CHARACTER).search(text)
                or ("\r" in text and _LONE_CR.search(text))
                or ("#" in text and _UNSURE_SYNTAX.search(text))
                or ("\t" in text and _UNSURE_TAB.search(text)))


def _spaces_line_in(text: str) -> bool:
    """Whether ``text`` holds a line of spaces only (a space comes before its line break)."""
    return (" \n" in text or " \r" in text) and _SPACES_LINE.search("\n" + text) is not None


def scanned(path: Path, told: dict) -> tuple[bool, bool]:
    """``_scan``'s verdict on the file, kept in ``told`` for the file as it is (its inode, size
    and times): a build reads a card file several times (its check, its pages, and from the
    start in a worker forked after the first reading), and the file is looked through once."""
    stat = os.stat(path)
    key = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    kept = told.get("scan")
    if kept is not None and kept[0] == key:
        verdict = kept[1]
    else:
        try:
            verdict = _scan(path)
        except Unsure:
            verdict = None
        told["scan"] = (key, verdict)
    if verdict is None:
        raise Unsure
    return verdict


def _scan(path: Path) -> tuple[bool, bool]:
    """Read the file a piece at a time for what only read_yaml may read (``Unsure``); tell
    whether it is ASCII and whether it has a line of spaces only."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    ascii, spaces_lines, carried = True, False, ""
    with open(path, "rb") as handle:
        while True:
            piece = handle.read(SCAN_PIECE)
            try:
                text = carried + decoder.decode(piece, final=not piece)
            except UnicodeDecodeError:
                raise Unsure from None
            if piece:  # whole lines only: the patterns look at line starts and ends
                cut = text.rfind("\n") + 1
                text, carried = text[:cut], text[cut:]
                if len(carried) > 4 * SCAN_PIECE:
                    raise Unsure  # one line of megabytes: read_yaml's
            ascii_piece = text.isascii()
            if unsure_text(text, ascii_piece):
                raise Unsure
            ascii = ascii and ascii_piece
            spaces_lines = spaces_lines or _spaces_line_in(text)
            if not piece:
                return ascii, spaces_lines


def spaces_line_between(data: str | bytes, start: int, end: int) -> bool:
    """Whether characters (of bytes, ASCII) ``start`` to ``end`` of ``data`` hold a line of spaces only."""
    pattern = _SPACES_LINE_BYTES if isinstance(data, bytes) else _SPACES_LINE
    return pattern.search(data, start, end) is not None
