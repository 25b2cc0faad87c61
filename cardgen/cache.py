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

Entries are kept small: a key is kept as a 16-byte digest, and a long value (a face's drawing)
is deflated against the file's dictionary (another face's drawing), which a rebuild keeps, so
that the entries it reuses are copied as they are, never deflated again.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import time
import zlib
from array import array
from contextlib import suppress
import struct
from functools import cache
from pathlib import Path
from typing import Iterator

from .streams import Latest
from .write.temporary import temporary_path

FORMAT = b"cardgen-faces 2\n"  # change when the stored shape changes: older files are then ignored
_HEADER = struct.Struct("<HI")  # key length, payload length
_PACKAGE = Path(__file__).resolve().parent


@cache
def code_identity() -> str:
    """cardgen's version and a digest of every file of the package (its code and the data it
    ships, such as label products), read once per process: what made a kept entry."""
    from .dataclass_code import FOLDER

    return f"{_installed_version()} {package_digest(_PACKAGE, FOLDER)}"


# A kept digest is trusted only for files last changed this long before it was kept: a file
# written again within the same tick of the file system's clock would show the same times.
SETTLED_NS = 2_000_000_000


def package_digest(package: Path, kept_in: str) -> str:
    """A digest of every file of ``package`` (names, sizes, contents; ``__pycache__`` left
    out), kept in ``kept_in`` beside the package's bytecode with each file's size, times and
    inode: while none of those changed (an edit, a copy or a checkout changes the change time,
    which no program can set back) the kept digest is the one, and the files are not read
    again (a hundred and seventy files, several milliseconds of every build)."""
    files = []
    prefix = len(os.path.join(package, ""))
    for folder, folders, names in os.walk(package):
        folders[:] = [name for name in folders if name != "__pycache__"]
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                files.append((tuple(path[prefix:].split(os.sep)), path))
    files.sort()
    stats = []
    for parts, path in files:
        info = os.stat(path)
        stats.append(("/".join(parts), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
    signature = (FORMAT, str(package), stats)
    kept_path = os.path.join(kept_in, "code-digest.marshal")
    with suppress(Exception):  # missing, unreadable or damaged: read the files
        with open(kept_path, "rb") as handle:
            kept_signature, kept_digest = marshal.load(handle)
        if kept_signature == signature and type(kept_digest) is str:
            return kept_digest
    digest = hashlib.sha256()
    for parts, path in files:
        name = "/".join(parts).encode("utf-8")
        with open(path, "rb") as handle:
            data = handle.read()
        digest.update(b"%d %s %d\n" % (len(name), name, len(data)))
        digest.update(data)
    hexdigest = digest.hexdigest()
    settled = time.time_ns() - SETTLED_NS
    if not sys.dont_write_bytecode and all(max(mtime, ctime) < settled for _, _, mtime, ctime, _ in stats):
        with suppress(OSError):  # a read-only install reads its files each time
            temporary = f"{kept_path}.{os.getpid()}.tmp"
            try:
                os.makedirs(kept_in, exist_ok=True)
                with open(temporary, "wb") as handle:
                    marshal.dump((signature, hexdigest), handle)
                os.replace(temporary, kept_path)
            finally:
                with suppress(OSError):
                    os.unlink(temporary)
    return hexdigest


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

# How an entry is kept: its key as a 16-byte digest (keys are 64 and more hex digits; entries
# are found by digest anyway), and its payload as one byte saying how, then the bytes:
_RAW = 0  # marshal's bytes as they are (small values, and page contents, which are compressed)
_PACKED = 1  # marshal's bytes deflated against the file's dictionary
_DICTIONARY_KEY = bytes(16)  # the entry holding the dictionary: before every packed entry
_TUPLE_TYPES = (ord("("), ord(")"))  # marshal's codes of a tuple (a drawing), less its reference flag
PACK_FROM = 256  # bytes of marshal data from which an entry is deflated
PACK_LEVEL = 6
# A face's drawing is operators and words much like every other face's: deflated against
# another face (the file's dictionary: the first value of PACK_FROM bytes or more kept), it
# takes a fifth of its size, where deflating it alone gives two fifths.


def key_digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode("ascii"), digest_size=16).digest()


class _Index:
    """Where each entry starts in a file, by its key's digest. Up to SMALL entries, a dict;
    past it, an open-addressing table (linear probing, two thirds full at most) in two arrays
    of 8-byte integers: some 24 bytes an entry where a dict takes 100 and more, at the cost of
    a step of Python per search."""

    SMALL = 50_000

    def __init__(self, keys: array, offsets: array):
        self.table: dict[int, int] | None = None
        if len(keys) <= self.SMALL:
            self.table = dict(zip(keys, offsets))  # a key written twice: the later copy
            self.count = len(self.table)
            return
        self.size = size = len(keys) * 3 // 2 + 8
        self.keys = array("q", bytes(8 * size))  # 0: an empty place
        self.offsets = array("q", bytes(8 * size))
        self.count = 0
        for key, offset in zip(keys, offsets):
            place = self._place(key)
            if not self.keys[place]:
                self.count += 1
            self.keys[place], self.offsets[place] = key, offset

    @staticmethod
    def number(digest: bytes) -> int:
        """The digest as a key of the index: its hash (the index lives in one process)."""
        return hash(digest) or 1

    def _place(self, key: int) -> int:
        keys, size = self.keys, self.size
        place = key % size
        while keys[place] and keys[place] != key:
            place = place + 1 if place + 1 < size else 0
        return place

    def __len__(self) -> int:
        return self.count

    def holds(self, digest: bytes) -> bool:
        if self.table is not None:
            return self.number(digest) in self.table
        place = self._place(self.number(digest))
        return bool(self.keys[place]) and self.offsets[place] >= 0

    def pop(self, digest: bytes) -> int | None:
        """The offset of ``digest``'s entry, taken out (in the table, its place stays taken: -1)."""
        if self.table is not None:
            offset = self.table.pop(self.number(digest), None)
        else:
            place = self._place(self.number(digest))
            offset = self.offsets[place]
            if not self.keys[place] or offset < 0:
                return None
            self.offsets[place] = -1
        if offset is not None:
            self.count -= 1
        return offset

    def remaining(self) -> Iterator[int]:
        if self.table is not None:
            return iter(list(self.table.values()))
        return (offset for key, offset in zip(self.keys, self.offsets) if key and offset >= 0)


class _LastBuild:
    """The last build's file, left on disk: an index says where each entry starts (by the
    digest of its key), and an entry is read when it is asked for. A rebuild's memory then
    grows by about 24 bytes an entry, not by the entries themselves. A damaged file is an
    empty one."""

    def __init__(self, path: Path):
        self.index = _Index(array("q"), array("q"))
        self.dictionary: bytes | None = None  # what the file's packed entries were deflated against
        self._fd: int | None = None
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            self.index, self.dictionary = _index(fd)
        except (struct.error, OSError):
            self.index = _Index(array("q"), array("q"))
        if self.index.count:
            self._fd = fd
        else:
            self.dictionary = None
            os.close(fd)

    def pop(self, digest: bytes) -> bytes | None:
        """The stored payload kept under the key of ``digest``, taken out of the index (None:
        not kept)."""
        offset = self.index.pop(digest)
        if offset is None:
            return None
        entry = self._entry(offset)
        if entry is None or entry[0] != digest:  # another key of the same index number: made again
            return None
        return entry[1]

    def remaining(self) -> Iterator[tuple[bytes, bytes]]:
        """The entries not taken: (key digest, stored payload)."""
        for offset in self.index.remaining():
            entry = self._entry(offset)
            if entry is not None:
                yield entry

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


def _index(fd: int) -> tuple[_Index, bytes | None]:
    """Where each entry of the file starts, and the file's dictionary: the file is read through
    a chunk at a time, and payloads are only stepped over."""
    header = _file_header()
    empty = _Index(array("q"), array("q")), None
    if os.pread(fd, len(header), 0) != header:
        return empty  # another format, or written by other code
    size = os.fstat(fd).st_size
    keys, offsets = array("q"), array("q")
    dictionary = None
    offset = chunk_at = len(header)
    chunk = b""
    while offset < size:
        at = offset - chunk_at
        if at + _HEADER.size + 0xFFFF > len(chunk) and chunk_at + len(chunk) < size:
            chunk_at, chunk, at = offset, os.pread(fd, _CHUNK, offset), 0
        key_length, length = _HEADER.unpack_from(chunk, at)
        key = chunk[at + _HEADER.size:at + _HEADER.size + key_length]
        if len(key) != key_length:
            return empty
        if key == _DICTIONARY_KEY:
            dictionary = os.pread(fd, length, offset + _HEADER.size + key_length)
            if len(dictionary) != length:
                return empty
        else:
            keys.append(_Index.number(key))
            offsets.append(offset)
        offset += _HEADER.size + key_length + length
    return (_Index(keys, offsets), dictionary) if offset == size else empty


class FaceCache:
    RECENT = 64  # entries of this build kept at hand: identical pages (back pages) come again and again

    def __init__(self, path: Path):
        self.path = Path(path)
        self.last = _LastBuild(self.path)  # what the last build kept, less what this one has used
        self.laid_out = 0  # faces laid out in this build
        self.reused = 0  # faces drawn from the cache
        self._recent = Latest(self.RECENT)  # key -> stored payload, of the latest entries this build wrote
        # the dictionary of this build's file: the last one's, so that its entries are copied as they are
        self.dictionary = self.last.dictionary
        self._temporary = temporary_path(self.path)
        self._out = None
        self._unwritable = False  # the folder cannot be written: build on without keeping anything
        self.prefix = ""  # what every kept rendering depends on (see render/faces.py, RenderMemo)

    def holds(self, key: str) -> bool:
        """Whether the last build's file (still) holds an entry under ``key``, not reading it."""
        return self.last.index.holds(key_digest(key))

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
        stored = self._kept(key)
        if stored is None:
            return None
        try:
            return marshal.loads(self._unpacked(stored))
        except (EOFError, ValueError, TypeError, IndexError, zlib.error):
            return None  # damaged: it is made again

    def _kept(self, key: str) -> bytes | None:
        """The stored bytes of ``key``, written to the new file when first used and let go from
        the old one's; None when it is not kept."""
        stored = self._recent.get(key)
        if stored is None:
            stored = self.last.pop(key_digest(key))
            if stored is not None:
                self._write(key, stored)
        return stored

    def stored_drawing(self, key: str) -> bytes | None:
        """A face's drawing as it is stored, not unpacked (kept again for the next build, as
        ``recall`` keeps it); None when it is not kept, or is plainly not a drawing."""
        stored = self._kept(key)
        if stored is None:
            return None
        if stored[0] == _RAW and (len(stored) < 2 or stored[1] & 0x7F not in _TUPLE_TYPES):
            return None
        return stored

    def drawing_of(self, stored: bytes) -> tuple | None:
        """The parts of a drawing ``stored_drawing`` gave, or None if they cannot be read."""
        try:
            parts = marshal.loads(self._unpacked(stored))
        except (EOFError, ValueError, TypeError, IndexError, zlib.error):
            return None
        return parts if isinstance(parts, tuple) else None

    def remember(self, key: str, value) -> None:
        """Keep ``value`` (plain data: tuples, strings, numbers) under ``key``."""
        if key not in self._recent:
            self._write(key, self._packed(marshal.dumps(value), value.__class__ is not bytes))

    def _packed(self, data: bytes, compressible: bool) -> bytes:
        """``data`` as it is stored: deflated against the dictionary when it is long enough
        (the first such value is the dictionary)."""
        if not compressible or len(data) < PACK_FROM:
            return b"\0" + data
        if self.dictionary is None:
            self.dictionary = data
            self._put(_DICTIONARY_KEY, data)
        packer = zlib.compressobj(PACK_LEVEL, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, self.dictionary)
        return b"\1" + packer.compress(data) + packer.flush()

    def _unpacked(self, stored: bytes) -> bytes:
        if stored[0] == _RAW:
            return stored[1:]
        if stored[0] != _PACKED or self.dictionary is None:
            raise ValueError("not a stored payload")
        unpacker = zlib.decompressobj(-15, self.dictionary)
        data = unpacker.decompress(stored[1:])
        if not unpacker.eof:
            raise ValueError("truncated")
        return data

    def _write(self, key: str, stored: bytes) -> None:
        self._recent[key] = stored
        self._put(key_digest(key), stored)

    def _put(self, digest: bytes, stored: bytes) -> None:
        if self._unwritable:
            return
        try:
            if self._out is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._out = open(self._temporary, "wb", buffering=1 << 20)
                self._out.write(_file_header())
                if self.dictionary is not None and digest != _DICTIONARY_KEY:  # the last file's
                    self._out.write(_HEADER.pack(16, len(self.dictionary)) + _DICTIONARY_KEY + self.dictionary)
            self._out.write(_HEADER.pack(len(digest), len(stored)) + digest)
            self._out.write(stored)
        except OSError:  # the cache only saves time: the build goes on without it
            self._unwritable = True
            self._drop_output()  # the last build's file stays open: its entries are still read

    def save(self, keep_unused: bool = False) -> None:
        """Put this build's file in place of the last one. ``keep_unused``: a build of part of
        the set (a deck, a reprint) also keeps what the last file held, for the whole set."""
        if keep_unused:
            for digest, stored in self.last.remaining():
                self._put(digest, stored)
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
