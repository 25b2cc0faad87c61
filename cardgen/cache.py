"""What a build keeps for the next one: one file a set in ``<root>/.cardgen-cache/``.

- Each face's drawing (its parts, see draw/content.py), by the face's content hash, which covers
  its markup, the fonts and every image and icon it names: after an edit to one card, a rebuild
  lays out and draws that card alone and writes the others from their recorded parts.
- Each face's rendering (``render:`` keys), by what decides it: templates, set values, the
  card's values (see render/faces.py); so unchanged cards are not even rendered.
- Each page's compressed content (``page:`` keys), by the content itself.

Every entry was made by code: the file's header names the code that wrote it (cardgen's version
and a digest of the package's own files, see ``code_identity``), and a file written by other
code is ignored, so an upgraded or edited cardgen never prints a face drawn by the old one.

Each build writes a new file as it goes, holding what it used, and renames it into place when
the build has succeeded: a first build's cache costs no memory per face, and a failed build
leaves the old one. The last build's file is read entry by entry, as entries are asked for. An
entry met twice in one build may be written twice: reading keeps one. (reportlab's reading of
each font is kept beside it: see text/parsed.py.)
"""
from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
from contextlib import suppress
import struct
from functools import cache
from pathlib import Path
from typing import Iterator

from .streams import Latest
from .write.temporary import temporary_path

FORMAT = b"cardgen-faces 1\n"  # change when the stored shape changes: older files are then ignored
_HEADER = struct.Struct("<HI")  # key length, payload length
_PACKAGE = Path(__file__).resolve().parent


@cache
def code_identity() -> str:
    """cardgen's version and a digest of every file of the package (its code and the data it
    ships, such as label products), read once per process: what made a kept entry."""
    version = _installed_version()
    digest = hashlib.sha256()
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        name = path.relative_to(_PACKAGE).as_posix().encode("utf-8")
        data = path.read_bytes()
        digest.update(b"%d %s %d\n" % (len(name), name, len(data)))
        digest.update(data)
    return f"{version} {digest.hexdigest()}"


def _installed_version() -> str:
    """cardgen's version as ``importlib.metadata.version`` gives it: read from the one
    ``cardgen-*.dist-info`` (or ``.egg-info``) in the first folder of ``sys.path`` that has
    one, without importing importlib.metadata (with the email parser it needs, a tenth of a
    cached rebuild). Anything less plain (several candidates, an unreadable file) asks
    importlib.metadata itself."""
    for entry in sys.path:
        try:
            names = [name for name in os.listdir(entry or ".") if _METADATA_DIR.fullmatch(name)]
        except OSError:
            continue
        if not names:
            continue
        if len(names) == 1:
            file = "PKG-INFO" if names[0].endswith(".egg-info") else "METADATA"
            try:
                with open(os.path.join(entry or ".", names[0], file), encoding="utf-8") as handle:
                    for line in handle:
                        if line.startswith("Version:"):
                            return line[len("Version:"):].strip()
                        if not line.strip():
                            break  # the headers end: no version there
            except OSError:
                pass
        break
    from importlib import metadata

    try:
        return metadata.version("cardgen")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


_METADATA_DIR = re.compile(r"cardgen(-[^-/]+)?\.(dist-info|egg-info)", re.IGNORECASE)


def _file_header() -> bytes:
    return FORMAT + f"code {code_identity()}\n".encode("utf-8")


_CHUNK = 1 << 20  # bytes read at a time while indexing the last build's file


class _LastBuild:
    """The last build's file, left on disk: an index says where each entry starts (by the hash
    of its key), and an entry is read when it is asked for. A rebuild's memory then grows by
    about 100 bytes an entry, not by the entries themselves. A damaged file is an empty one."""

    def __init__(self, path: Path):
        self.index: dict[int, int] = {}
        self._fd: int | None = None
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            self.index = _index(fd)
        except (struct.error, OSError):
            self.index = {}
        if self.index:
            self._fd = fd
        else:
            os.close(fd)

    def pop(self, key: str) -> bytes | None:
        """The payload kept under ``key``, taken out of the index (None: not kept)."""
        encoded = key.encode("ascii")
        offset = self.index.pop(hash(encoded), None)
        if offset is None:
            return None
        entry = self._entry(offset)
        if entry is None or entry[0] != encoded:  # another key of the same hash: made again
            return None
        return entry[1]

    def remaining(self) -> Iterator[tuple[str, bytes]]:
        """The entries not taken: (key, payload)."""
        for offset in self.index.values():
            entry = self._entry(offset)
            if entry is not None:
                yield entry[0].decode("ascii"), entry[1]

    def _entry(self, offset: int) -> tuple[bytes, bytes] | None:
        try:
            key_length, length = _HEADER.unpack(os.pread(self._fd, _HEADER.size, offset))
            body = os.pread(self._fd, key_length + length, offset + _HEADER.size)
        except (struct.error, OSError):
            return None
        if len(body) != key_length + length:
            return None
        return body[:key_length], body[key_length:]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _index(fd: int) -> dict[int, int]:
    """Where each entry of the file starts, by the hash of its key: the file is read through a
    chunk at a time, and payloads are only stepped over."""
    header = _file_header()
    if os.pread(fd, len(header), 0) != header:
        return {}  # another format, or written by other code
    size = os.fstat(fd).st_size
    index: dict[int, int] = {}
    offset = chunk_at = len(header)
    chunk = b""
    while offset < size:
        at = offset - chunk_at
        if at + _HEADER.size + 0xFFFF > len(chunk) and chunk_at + len(chunk) < size:
            chunk_at, chunk, at = offset, os.pread(fd, _CHUNK, offset), 0
        key_length, length = _HEADER.unpack_from(chunk, at)
        key = chunk[at + _HEADER.size:at + _HEADER.size + key_length]
        if len(key) != key_length:
            return {}
        index[hash(key)] = offset  # a key written twice: the later copy, as a plain read would
        offset += _HEADER.size + key_length + length
    return index if offset == size else {}


class FaceCache:
    RECENT = 64  # entries of this build kept at hand: identical pages (back pages) come again and again

    def __init__(self, path: Path):
        self.path = Path(path)
        self.last = _LastBuild(self.path)  # what the last build kept, less what this one has used
        self.laid_out = 0  # faces laid out in this build
        self.reused = 0  # faces drawn from the cache
        self._recent = Latest(self.RECENT)  # key -> payload, of the latest entries this build wrote
        self._temporary = temporary_path(self.path)
        self._out = None
        self._unwritable = False  # the folder cannot be written: build on without keeping anything
        self.prefix = ""  # what every kept rendering depends on (see render/faces.py, RenderMemo)

    def get(self, key: str) -> tuple | None:
        """The recorded parts of a face, or None."""
        parts = self.recall(key)
        if not isinstance(parts, tuple):
            return None
        self.reused += 1
        return parts

    def put(self, key: str, parts) -> None:
        """Keep a freshly laid-out face's parts."""
        self.laid_out += 1
        self.remember(key, tuple(parts))

    def recall(self, key: str):
        """A value kept under ``key`` (kept again for the next build), or None. An entry is
        written to the new file when first used, and let go from the old one's."""
        payload = self._recent.get(key)
        if payload is None:
            payload = self.last.pop(key)
            if payload is None:
                return None
            self._write(key, payload)
        try:
            return marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return None  # damaged: it is made again

    def remember(self, key: str, value) -> None:
        """Keep ``value`` (plain data: tuples, strings, numbers) under ``key``."""
        if key not in self._recent:
            self._write(key, marshal.dumps(value))

    def _write(self, key: str, payload: bytes) -> None:
        self._recent[key] = payload
        if self._unwritable:
            return
        encoded = key.encode("ascii")
        try:
            if self._out is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._out = open(self._temporary, "wb", buffering=1 << 20)
                self._out.write(_file_header())
            self._out.write(_HEADER.pack(len(encoded), len(payload)) + encoded)
            self._out.write(payload)
        except OSError:  # the cache only saves time: the build goes on without it
            self._unwritable = True
            self._drop_output()  # the last build's file stays open: its entries are still read

    def save(self, keep_unused: bool = False) -> None:
        """Put this build's file in place of the last one. ``keep_unused``: a build of part of
        the set (a deck, a reprint) also keeps what the last file held, for the whole set."""
        if keep_unused:
            for key, payload in self.last.remaining():
                self._write(key, payload)
        self.last.close()
        if self._out is None:
            return
        try:
            self._out.close()
            self._out = None
            os.replace(self._temporary, self.path)
        except OSError:  # a full disk or a locked folder: the next build lays the faces out again
            self._drop_output()

    def _drop_output(self) -> None:
        out, self._out = self._out, None
        with suppress(OSError):
            if out is not None:
                out.close()
            self._temporary.unlink(missing_ok=True)

    def discard(self) -> None:
        """Drop this build's file (the build failed): the last one stays."""
        self.last.close()
        if self._out is not None:
            self._drop_output()
