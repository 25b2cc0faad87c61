"""What ``check`` takes from a set's face cache (cache.py), writing nothing to it.

A face the last build drew, kept under the content hash of its markup, fonts and the icons and
images it names, by this same code (the file's header names the code, and a file of other
code reads as empty), was laid out then without a problem: laid out again, it would fit again.
Its rendering, kept by what decides it (templates, set values, the card's values and the
template limits), need not be made again either. So a check after a build renders and lays
out only what changed since.

Only faces drawn with text and shapes alone are taken as known: an image or an image icon is
loaded again by a fresh layout, which meets the pixel limits of this run and a file gone.
"""
from __future__ import annotations

import marshal
import zlib
from pathlib import Path
from typing import Any

from .cache import unpacked
from .cache_file import LastBuild, key_digest
from .draw.content import TEXT


class KnownFaces:
    """The last build's face cache of a set, read as ``check`` needs it: a render memo that
    keeps nothing (see render/faces.py, RenderMemo) and the faces known to fit."""

    def __init__(self, last: LastBuild):
        self.last = last
        self.prefix = ""  # set by render_set: what every kept rendering depends on

    @classmethod
    def read(cls, path: Path) -> KnownFaces | None:
        """The faces kept in the cache file ``path``; None when it holds none that this code
        wrote (no file, a damaged one, another cardgen's): the check then makes no render keys."""
        last = LastBuild(path)
        if not last.index.count:
            last.close()
            return None
        return cls(last)

    def recall(self, key: str) -> Any:
        return self._value(key)

    def remember(self, key: str, value: Any) -> None:
        pass  # check writes nothing

    def fits(self, content_hash: str) -> bool:
        """Whether the face of ``content_hash`` was drawn by the last build from text and
        shapes alone (so it lays out without a problem)."""
        parts = self._value(content_hash)
        return isinstance(parts, tuple) and all(part.__class__ is str or part[0] == TEXT for part in parts)

    def _value(self, key: str) -> Any:
        stored = self.last.pop(key_digest(key))
        if stored is None:
            return None
        try:
            return marshal.loads(unpacked(stored, self.last.dictionary))
        except (EOFError, ValueError, TypeError, IndexError, zlib.error):
            return None  # damaged: laid out afresh

    def close(self) -> None:
        self.last.close()
