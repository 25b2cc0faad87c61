"""Regular expressions compiled once and kept, as dataclass_code.py keeps dataclasses' methods.

Python's ``re`` parses and compiles a pattern in Python: about 0.2 ms a pattern, and a build's
process compiles a hundred before its workers start (cardgen's, jinja2's lexer, reportlab's,
Pillow's, click's), `cardgen list` forty (PyYAML's reader alone takes 5 ms): a tenth of their
start-up. While cardgen imports (``cardgen.collector_paused``) and while a ``cardgen`` command
runs, ``re`` makes a pattern it has not met in this process from the instruction codes its own
compiler wrote for the same pattern and flags in an earlier run, kept beside cardgen's bytecode
(``__pycache__``); the object is the one ``re`` makes (``_sre.compile`` with the same
arguments). Codes are kept only for a pattern met in two runs, when rebuilding them (re's own
steps, done again at the save, and only where the file can be written) gave a pattern equal to
``re``'s own (same code, flags, groups and group names) and parsing warned of nothing; the file
names the exact Python (and ``_sre``) that wrote them, and any other Python, or a damaged file,
compiles afresh.
"""
from __future__ import annotations

import marshal
import os
import sys
import warnings
from array import array

from .dataclass_code import FOLDER, read_kept, write_kept

MAX_PATTERNS = 1024  # cardgen's run meets about 150: a program compiling patterns of its own stays bounded
MAX_PATTERN_LENGTH = 20_000  # characters (jinja2's identifier class is about 2,000)


_WORD = "I"  # an unsigned 32-bit number: one word of _sre's code (_sre.CODESIZE bytes, in the signature)


def _signature() -> tuple:
    import _sre

    return (sys.version, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE, array(_WORD).itemsize,
            sys.byteorder, sys.maxunicode)


class KeptPatterns:
    """A ``re._compiler.compile`` that makes patterns from kept codes; ``save`` keeps new ones."""

    def __init__(self, folder: str = FOLDER):
        self.path = os.path.join(folder, f"regex-code.{sys.implementation.cache_tag}.marshal")
        self.met_path = os.path.join(folder, f"regex-met.{sys.implementation.cache_tag}")
        self._codes: dict | None = None
        self.compiled = 0  # patterns compiled by ``re`` in this process (not found among the kept ones)
        self._fresh: dict = {}  # (pattern, flags) compiled in this process -> re's pattern, until the next save

    def codes(self) -> dict:
        if self._codes is None:
            self._codes = self._read()
        return self._codes

    def _read(self) -> dict:
        return read_kept(self.path, _signature())  # (pattern, flags) -> _sre.compile's arguments but the pattern

    def compile(self, p, flags=0):
        from re import _compiler

        kind = type(p)
        if (kind is not str and kind is not bytes) or flags & _compiler.SRE_FLAG_DEBUG:
            return _ORIGINAL(p, flags)  # a parsed pattern (re.Scanner), or a compile that prints
        codes = self.codes()
        key = (p, int(flags))  # (re passes an int; a RegexFlag is no key marshal keeps)
        kept = codes.get(key)
        if kept is not None:
            try:
                final_flags, code, groups, groupindex, indexgroup = kept
                return _compiler._sre.compile(p, final_flags, array(_WORD, code).tolist(), groups, groupindex, indexgroup)
            except Exception:  # a damaged entry: compiled by re below
                codes.pop(key, None)
        pattern = _ORIGINAL(p, flags)  # errors and warnings as re gives them
        self.compiled += 1
        if len(p) <= MAX_PATTERN_LENGTH and len(codes) + len(self._fresh) < MAX_PATTERNS:
            self._fresh[key] = pattern  # its codes made at the save, if it is to be kept
        return pattern

    def save(self) -> None:
        """Keep the codes of the patterns compiled since the last save that an earlier run met
        too (with the codes another process kept meanwhile), written whole under a temporary
        name and renamed into place; note the others as met. A pattern made anew in each run
        (reportlab joins a set of names, in the set's order of that process) is never kept."""
        fresh, self._fresh = self._fresh, {}
        if not fresh or sys.dont_write_bytecode:
            return
        met = self._met()
        again = [key for key in fresh if _digest(key) in met]
        first = b"".join(_digest(key) for key in fresh if key not in again)
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            if first:
                with open(self.met_path, "wb" if len(met) > MAX_MET else "ab") as handle:
                    handle.write(first)
        except OSError:  # a read-only install: compile each time, as without this file
            return
        kept = {}
        for key in again:  # re's compiling done again, once, for the patterns kept
            arguments = _arguments(*key, fresh[key])
            if arguments is not None:
                kept[key] = arguments
        if not kept:
            return
        self.codes().update(kept)
        codes = {**self._read(), **self.codes()}
        while len(codes) > MAX_PATTERNS:
            codes.pop(next(iter(codes)))
        write_kept(self.path, _signature(), codes)

    def _met(self) -> set:
        try:
            with open(self.met_path, "rb") as handle:
                data = handle.read()
        except OSError:
            return set()
        return {data[at:at + _DIGEST_SIZE] for at in range(0, len(data) - _DIGEST_SIZE + 1, _DIGEST_SIZE)}


MAX_MET = 4096  # patterns noted as met, at most: then the note starts again
_DIGEST_SIZE = 16


def _digest(key: tuple) -> bytes:
    import hashlib

    return hashlib.blake2b(marshal.dumps(key), digest_size=_DIGEST_SIZE).digest()


def _arguments(p, flags: int, pattern) -> tuple | None:
    """What ``re._compiler.compile`` passes ``_sre.compile`` for ``p`` (its own steps), when they
    make exactly ``pattern``; None when they do not, or when parsing warns."""
    from re import _compiler, _parser

    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return None  # catch_warnings is the process's: another thread's warning would be swallowed
    try:
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            parsed = _parser.parse(p, flags)
            code = _compiler._code(parsed, flags)
        if warned:
            return None
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        final_flags, groups, indexgroup = int(flags | parsed.state.flags), parsed.state.groups - 1, tuple(indexgroup)
        words = array(_WORD, code)  # kept as bytes: read back at once (a list of ints is read number by number)
        made = _compiler._sre.compile(p, final_flags, words.tolist(), groups, groupindex, indexgroup)
        if made != pattern or made.groups != pattern.groups or made.groupindex != pattern.groupindex:
            return None
        arguments = (final_flags, words.tobytes(), groups, groupindex, indexgroup)
        marshal.dumps(arguments)  # only what marshal keeps
        return arguments
    except Exception:
        return None


KEPT = KeptPatterns()
_ORIGINAL = None
_depth = 0


def enter() -> None:
    """``re`` compiles through ``KEPT`` until the matching ``leave``."""
    global _depth, _ORIGINAL
    _depth += 1
    if _depth == 1:
        from re import _compiler

        if _ORIGINAL is None:
            _ORIGINAL = _compiler.compile
        _compiler.compile = KEPT.compile


def leave() -> None:
    global _depth
    _depth -= 1
    if _depth == 0:
        from re import _compiler

        if _compiler.compile == KEPT.compile:
            _compiler.compile = _ORIGINAL
        KEPT.save()
