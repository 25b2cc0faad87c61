"""What a build keeps for the next one: one file a set in ``<root>/.cardgen-cache/``.

- Each face's drawing (its parts, see draw/content.py), by the face's content hash, which covers
  its markup, the fonts and every image and icon it names: after an edit to one card, a rebuild
  lays out and draws that card alone and writes the others from their recorded parts.
- Each face's rendering (``render:`` keys), by what decides it: templates, set values, the
  card's values (see render/faces.py); so unchanged cards are not even rendered.
- Each page's compressed content (``page:`` keys), by the content itself.

Every entry was made by code: the file's header names the code that wrote it (cardgen's version
and a digest of the package's own files, see code_identity.py), and a file written by other
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

import marshal
import os
import zlib
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path

from .cache_file import DICTIONARY_KEY, ENTRY_HEADER, PACKED, RAW, TUPLE_TYPES, LastBuild, file_header, key_digest
from .streams import Latest
from .write.temporary import temporary_path

PACK_FROM = 256  # bytes of marshal data from which an entry is deflated
PACK_LEVEL = 1  # a build's workers deflate every face: level 6 costs them a third more, for a tenth less
# A face's drawing is operators and words much like every other face's: deflated against
# another face (the file's dictionary: the first value of PACK_FROM bytes or more kept), it
# takes a quarter of its size, where deflating it alone gives two fifths.


def stored(data: bytes, dictionary: bytes | None) -> bytes:
    """Marshal ``data`` of a drawing or rendering as the cache file stores it, deflated against
    ``dictionary`` when it is long enough (``dictionary`` must then be the file's)."""
    if len(data) < PACK_FROM or dictionary is None:
        return b"\0" + data
    packer = zlib.compressobj(PACK_LEVEL, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, dictionary)
    return b"\1" + packer.compress(data) + packer.flush()


def unpacked(stored: bytes, dictionary: bytes | None) -> bytes:
    """The marshal data of an entry as ``stored`` gives it (raises ValueError or zlib.error if
    it cannot be read)."""
    if stored[0] == RAW:
        return stored[1:]
    if stored[0] != PACKED or dictionary is None:
        raise ValueError("not a stored payload")
    unpacker = zlib.decompressobj(-15, dictionary)
    data = unpacker.decompress(stored[1:])
    if not unpacker.eof:
        raise ValueError("truncated")
    return data


_set = OrderedDict.__setitem__


class FaceCache:
    RECENT = 64  # entries of this build kept at hand: identical pages (back pages) come again and again

    def __init__(self, path: Path):
        self.path = Path(path)
        self.last = LastBuild(self.path)  # what the last build kept, less what this one has used
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

    def may_hold(self, key: str) -> bool:
        """Whether ``get(key)`` might find a value: False only when it surely finds none (and so
        need not be asked, which would keep nothing and count nothing)."""
        return key in self._recent or bool(self.last.index.count and self.last.index.holds(key_digest(key)))

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
        if stored is None and self.last.index.count:  # (a first build's last file holds nothing: no digest)
            digest = key_digest(key)
            stored = self.last.pop(digest)
            if stored is not None:
                self._recent[key] = stored
                self._put(digest, stored)
        return stored

    def carry(self, digests) -> None:
        """Keep the last build's entries of these key digests for the next build, as they are,
        without reading them (those still there)."""
        pop, put = self.last.pop, self._put
        for digest in digests:
            stored = pop(digest)
            if stored is not None:
                put(digest, stored)

    def stored_drawings(self, keys: list[str]) -> list[bytes] | None:
        """Faces' drawings as they are stored, not unpacked (kept again for the next build, as
        ``recall`` keeps them); None as soon as one is not kept, or is plainly not a drawing
        (those before it are kept again all the same)."""
        drawings = []
        for key in keys:
            stored = self._kept(key)
            if stored is None or (stored[0] == RAW and (len(stored) < 2 or stored[1] & 0x7F not in TUPLE_TYPES)):
                return None
            drawings.append(stored)
        return drawings

    def drawing_of(self, stored: bytes) -> tuple | None:
        """The parts of a drawing ``stored_drawings`` gave, or None if they cannot be read."""
        try:
            parts = marshal.loads(self._unpacked(stored))
        except (EOFError, ValueError, TypeError, IndexError, zlib.error):
            return None
        return parts if isinstance(parts, tuple) else None

    def remember(self, key: str, value, pack: bool = True) -> None:
        """Keep ``value`` (plain data: tuples, strings, numbers) under ``key``; deflated (see
        ``stored``) unless ``pack`` is False."""
        if key not in self._recent:
            self._write(key, self._packed(marshal.dumps(value), pack and value.__class__ is not bytes))

    def put_stored(self, key: str, digest: bytes, stored: bytes) -> None:
        """``put``, given the parts as ``stored`` gives them (made by a build's worker process
        against this file's ``dictionary``) and ``key_digest(key)``."""
        self.laid_out += 1
        self.remember_stored(key, digest, stored)

    def remember_stored(self, key: str, digest: bytes, stored: bytes) -> None:
        """``remember``, given the value as ``stored`` gives it and ``key_digest(key)``."""
        if key not in self._recent:
            self._recent[key] = stored
            self._put(digest, stored)

    def remember_all(self, made) -> None:
        """``remember_stored(key, *stored)``, or ``remember(key, value)`` when ``stored`` is None,
        for each (key, value, stored) of ``made`` in turn (a chunk's renderings from a build's
        worker: a few thousand calls less a chunk)."""
        recent, put = self._recent, self._put
        size = recent.size
        for key, value, stored in made:
            if stored is None:
                self.remember(key, value)
            elif key not in recent:
                if len(recent) >= size:  # Latest's own setting, without its call (key is new)
                    recent.popitem(last=False)
                _set(recent, key, stored[1])
                put(*stored)

    def choose_dictionary(self, data: bytes) -> bytes | None:
        """The file's dictionary, made ``data`` if it has none yet (and ``data`` is long enough),
        so that values can be stored elsewhere (in a build's worker processes) before the
        first long one is kept here."""
        if self.dictionary is None and len(data) >= PACK_FROM:
            self.dictionary = data
            self._put(DICTIONARY_KEY, data)
        return self.dictionary

    def _packed(self, data: bytes, compressible: bool) -> bytes:
        """``data`` as it is stored: deflated against the dictionary when it is long enough
        (the first such value is the dictionary)."""
        if not compressible or len(data) < PACK_FROM:
            return b"\0" + data
        if self.dictionary is None:
            self.dictionary = data
            self._put(DICTIONARY_KEY, data)
        return stored(data, self.dictionary)

    def _unpacked(self, stored: bytes) -> bytes:
        return unpacked(stored, self.dictionary)

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
                self._out.write(file_header())
                if self.dictionary is not None and digest != DICTIONARY_KEY:  # the last file's
                    self._out.write(ENTRY_HEADER.pack(16, len(self.dictionary), zlib.crc32(self.dictionary))
                                    + DICTIONARY_KEY + self.dictionary)
            self._out.write(ENTRY_HEADER.pack(len(digest), len(stored), zlib.crc32(stored)) + digest + stored)  # one call: entries are many
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
