"""Small YAML files (set.yaml, fonts.yaml) as ruamel read them at the last build, kept in the
project's cache: a rebuild then neither parses them nor imports ruamel.yaml (its import and
three small parses are about a twelfth of a rebuild after one card changed).

A document is kept only when what ruamel built is plain: mappings and lists (CommentedMap,
CommentedSeq) and scalars that are exactly text, integers, booleans and nulls, with no anchor,
alias, tag, merge key or block scalar in the text. It comes back as ``KeptMap`` and ``KeptSeq``
(a dict and a list, each with ruamel's line record ``lc`` as ``line_of`` reads it), so that every
value and every line a message names is what ruamel's own reading gives. The entry names the
file's text (whole, by digest), ruamel's installed files and cardgen's code: anything else
changed, and the file is parsed again.
"""
from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any

from ..kept_file import read_sealed, sealed

FORMAT = "cardgen-yaml 1"
_PLAIN = (str, int, bool, type(None))  # exactly these types: ruamel's own subclasses are not kept
_NOT_KEPT_TEXT = ("&", "*", "!", "<<", "|", ">")  # anchors, aliases, tags, merges, block scalars (or none of them)

_folder: Path | None = None  # where parses are kept: the cache of the project being built


def keep_in(folder: Path | None) -> None:
    """Keep (and read) small YAML parses in ``folder``: a project's cache folder, or None."""
    global _folder
    _folder = Path(folder) if folder is not None else None


class _Lines:
    """ruamel's line record of a container (``LineCol``), as ``line_of`` reads it."""

    __slots__ = ("line", "col", "data")

    def __init__(self, line, col, data):
        self.line, self.col, self.data = line, col, data

    def key(self, key):
        if self.data is None:
            return None
        entry = self.data[key]
        return entry[0], entry[1]

    item = key


class KeptMap(dict):
    __slots__ = ("lc",)


class KeptSeq(list):
    __slots__ = ("lc",)


def recall(path: Path, text: str) -> Any | None:
    """The document kept for ``path`` when its text is ``text``; None when none is."""
    if _folder is None:
        return None
    try:
        kept = marshal.loads(read_sealed(_entry_path(path)) or b"")
        if kept.__class__ is not tuple or len(kept) != 3 or kept[0] != _identity() or kept[1] != _digest(text):
            return None
        return _revived(kept[2])
    except Exception:  # missing, damaged or of other code: parsed again
        return None


def keep(path: Path, text: str, data: Any) -> None:
    """Keep ruamel's reading ``data`` of ``text`` when it is plain (see the module's docstring)."""
    if _folder is None or any(mark in text for mark in _NOT_KEPT_TEXT):
        return
    if data.__class__ in (KeptMap, KeptSeq):  # read by yamlplain.py: ruamel's reading, in these containers
        CommentedMap, CommentedSeq = KeptMap, KeptSeq
    else:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

    seen: set[int] = set()

    def stored(value):
        kind = value.__class__
        if kind in _PLAIN:
            return value
        if id(value) in seen:
            raise ValueError("shared")
        seen.add(id(value))
        lc = value.lc
        data = None if lc.data is None else {k: list(v) for k, v in lc.data.items()}
        if kind is CommentedMap:
            if getattr(value, "merge", None):
                raise ValueError("merged")
            if any(key.__class__ not in _PLAIN for key in value):
                raise ValueError("key")
            return ("m", lc.line, lc.col, data, [(key, stored(item)) for key, item in value.items()])
        if kind is CommentedSeq:
            return ("s", lc.line, lc.col, data, [stored(item) for item in value])
        raise ValueError("not plain")

    from ..write.atomic import staged

    try:
        entry = sealed(marshal.dumps((_identity(), _digest(text), stored(data))))
        target = _entry_path(path)
        _folder.mkdir(parents=True, exist_ok=True)
        with staged(target) as (temporary,):
            temporary.write_bytes(entry)
    except (ValueError, OSError, AttributeError, TypeError):
        pass  # not plain, or no room: parsed again next time


def _revived(stored) -> Any:
    """The document as ``keep`` stored it; ValueError for anything it does not store."""
    if stored.__class__ in _PLAIN:
        return stored
    kind, line, col, data, items = stored
    if data is not None and data.__class__ is not dict:
        raise ValueError("not a line record")
    if kind == "m":
        value = KeptMap()
        for key, item in items:
            if key.__class__ not in _PLAIN:
                raise ValueError("not a key")
            value[key] = _revived(item)
    elif kind == "s":
        value = KeptSeq(_revived(item) for item in items)
    else:
        raise ValueError("not a container")
    value.lc = _Lines(line, col, data)
    return value


def _entry_path(path: Path) -> Path:
    from hashlib import blake2b  # (imported when a project's cache is read: `cardgen list` reads none)

    name = blake2b(os.fsencode(str(Path(path).resolve())), digest_size=16).hexdigest()
    return _folder / f"yaml-{name}.marshal"


def _digest(text: str) -> str:
    from hashlib import blake2b

    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=32).hexdigest()


_IDENTITY: list = []


def _identity() -> tuple:
    """The format, cardgen's code and ruamel's installed files (by size and time), once a process."""
    if not _IDENTITY:
        import importlib.util

        from ..code_identity import code_identity

        spec = importlib.util.find_spec("ruamel.yaml")
        files = []
        for name in ("__init__.py", "constructor.py", "composer.py", "scanner.py", "parser.py", "comments.py"):
            stat = os.stat(os.path.join(os.path.dirname(spec.origin), name))
            files.append((name, stat.st_size, stat.st_mtime_ns))
        from ..kept_file import path_key

        _IDENTITY.append((FORMAT, code_identity(), path_key(spec.origin), tuple(files)))  # no path kept
    return _IDENTITY[0]
