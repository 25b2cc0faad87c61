"""The methods ``dataclasses`` writes for cardgen's classes, compiled once and kept.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and,
frozen, ``__setattr__`` and ``__delattr__``) as source text and compiles it with ``exec``:
about 240 compilations when cardgen and its build stack are imported, a fifth of that import
and so a tenth of a rebuild. While cardgen imports (``cardgen.collector_paused``), the ``exec``
that ``dataclasses`` calls looks the text up among code objects compiled by an earlier run and
kept beside cardgen's bytecode (``__pycache__``, where Python keeps its own ``.pyc`` files);
a text not found is compiled as ``exec`` would compile it. The key is the whole text, so a
changed class is never given old code, and the file names the exact Python that compiled it
(bytecode is Python's own): any other Python, or a file that cannot be read, compiles afresh.
The file is written as Python writes bytecode: not when ``sys.dont_write_bytecode`` is set,
and silently not where the package folder cannot be written.
"""
from __future__ import annotations

import marshal
import os
import sys

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
MAX_METHODS = 2048  # far more than cardgen's own: a program importing cardgen alongside others stays bounded

_CodeType = type(compile("", "<string>", "exec"))


def _signature() -> tuple:
    # exactly the Python that compiles (bytecode differs between versions), at the same -O level
    return (sys.version, sys.implementation.cache_tag, sys.flags.optimize)


def read_kept(path: str, signature: tuple) -> dict:
    """The codes kept in ``path`` by the Python ``signature`` names; {} for a file missing,
    unreadable, truncated, not ours or another Python's (its codes are then made afresh)."""
    try:
        with open(path, "rb") as handle:
            kept_signature, codes = marshal.load(handle)
    except Exception:
        return {}
    if kept_signature != signature or type(codes) is not dict:
        return {}
    return codes


def write_kept(path: str, signature: tuple, codes: dict) -> None:
    """Keep ``codes`` in ``path``, written whole under a temporary name and renamed into place;
    silently not where the folder cannot be written (a read-only install makes them each run)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as handle:
            marshal.dump((signature, codes), handle)
        os.replace(temporary, path)
    except (OSError, ValueError):  # ValueError: a value marshal cannot write
        try:
            os.unlink(temporary)
        except OSError:
            pass


class KeptMethods:
    """An ``exec`` for ``dataclasses`` that reuses kept code objects; ``save`` keeps new ones."""

    def __init__(self, folder: str = FOLDER):
        self.path = os.path.join(folder, f"dataclass-methods.{sys.implementation.cache_tag}.marshal")
        self._codes: dict[str, object] | None = None
        self.compiled = 0  # texts compiled in this process (not found among the kept ones)

    def codes(self) -> dict:
        if self._codes is None:
            self._codes = self._read()
        return self._codes

    def _read(self) -> dict:
        return read_kept(self.path, _signature())  # text -> marshalled code, loaded when its class is made

    def exec(self, source, globals=None, locals=None, /, **kwargs):
        if type(source) is not str or kwargs:  # not a dataclass method's text: as the builtin does
            return exec(source, globals, locals, **kwargs)
        codes = self.codes()
        code = codes.get(source)
        if type(code) is bytes:
            try:
                code = marshal.loads(code)
            except Exception:  # a damaged entry: compiled again below
                code = None
        if type(code) is not _CodeType:
            # as exec compiles a string for dataclasses.py, which has no __future__ imports
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
            if len(codes) < MAX_METHODS or source in codes:
                codes[source] = marshal.dumps(code)
                self._unsaved = True
        exec(code, globals, locals)

    _unsaved = False

    def save(self) -> None:
        """Keep the code objects compiled since the last save (with those another process kept
        meanwhile), written whole under a temporary name and renamed into place."""
        if not self._unsaved or sys.dont_write_bytecode:
            return
        self._unsaved = False
        codes = {**self._read(), **self.codes()}
        codes = {text: code for text, code in codes.items() if type(text) is str and type(code) is bytes}
        while len(codes) > MAX_METHODS:
            codes.pop(next(iter(codes)))
        write_kept(self.path, _signature(), codes)


KEPT = KeptMethods()
_depth = 0


def enter() -> None:
    """While cardgen imports: ``dataclasses`` calls the kept-code ``exec`` (a name of that
    module shadows the builtin)."""
    global _depth
    _depth += 1
    if _depth == 1:
        import dataclasses

        dataclasses.exec = KEPT.exec


def leave() -> None:
    global _depth
    _depth -= 1
    if _depth == 0:
        import dataclasses

        if getattr(dataclasses, "exec", None) == KEPT.exec:
            del dataclasses.exec
        KEPT.save()
