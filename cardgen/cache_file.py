"""The faces' cache file (see cache.py), as it lies on disk: a header naming the format and the
code that wrote it, then entries, each a key's 16-byte digest and a payload. The last build's
file is indexed (``LastBuild``) and its entries read as they are asked for.
"""
from __future__ import annotations

import hashlib
import os
import struct
import zlib
from array import array
from pathlib import Path
from typing import Iterator

from .code_identity import code_identity
from .kept_file import open_kept

FORMAT = b"cardgen-faces 3\n"  # change when the stored shape changes: older files are then ignored
ENTRY_HEADER = struct.Struct("<HII")  # key length, payload length, the payload's CRC-32
# (a byte changed on disk would otherwise be read as another drawing, and print other bytes)


def file_header() -> bytes:
    return FORMAT + f"code {code_identity()}\n".encode("utf-8")


_CHUNK = 1 << 20  # bytes read at a time while indexing the last build's file
HELD = 4 << 20  # a last build's file up to this size is read whole: a rebuild of a few thousand
# cards then takes its entries from memory, not with two reads of the file each

# How an entry is kept: its key as a 16-byte digest (keys are 64 and more hex digits; entries
# are found by digest anyway), and its payload as one byte saying how, then the bytes:
RAW = 0  # marshal's bytes as they are (small values, and page contents, which are compressed)
PACKED = 1  # marshal's bytes deflated against the file's dictionary
DICTIONARY_KEY = bytes(16)  # the entry holding the dictionary: before every packed entry
TUPLE_TYPES = (ord("("), ord(")"))  # marshal's codes of a tuple (a drawing), less its reference flag


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


class LastBuild:
    """The last build's file, left on disk: an index says where each entry starts (by the
    digest of its key), and an entry is read when it is asked for. A rebuild's memory then
    grows by about 24 bytes an entry, not by the entries themselves (a file of up to HELD bytes
    is read whole, at once, and let go when the build closes it). A damaged file is an empty one."""

    def __init__(self, path: Path):
        self.index = _Index(array("q"), array("q"))
        self.dictionary: bytes | None = None  # what the file's packed entries were deflated against
        self._fd: int | None = None
        self._held: bytes | None = None  # the whole file, when it is small (HELD)
        fd = open_kept(path)
        if fd is None:
            return
        try:
            size = os.fstat(fd).st_size
            if size <= HELD:
                self._held = os.pread(fd, size, 0)
            self.index, self.dictionary = _index(fd, self._held)
        except (struct.error, OSError):
            self.index = _Index(array("q"), array("q"))
        if self.index.count and self._held is None:
            self._fd = fd
            return
        os.close(fd)
        if not self.index.count:
            self.dictionary = self._held = None

    def pop(self, digest: bytes) -> bytes | None:
        """The stored payload kept under the key of ``digest``, taken out of the index (None:
        not kept)."""
        index = self.index
        if index.table is not None:  # _Index.pop's own, without its calls (a rebuild pops every entry)
            offset = index.table.pop(hash(digest) or 1, None)
            if offset is None:
                return None
            index.count -= 1
        else:
            offset = index.pop(digest)
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
        held = self._held
        if held is not None:
            try:
                key_length, length, check = ENTRY_HEADER.unpack_from(held, offset)
            except struct.error:
                return None
            start = offset + ENTRY_HEADER.size
            end = start + key_length + length
            if end > len(held):
                return None
            payload = held[start + key_length:end]
            return (held[start:start + key_length], payload) if zlib.crc32(payload) == check else None
        try:
            key_length, length, check = ENTRY_HEADER.unpack(os.pread(self._fd, ENTRY_HEADER.size, offset))
            body = os.pread(self._fd, key_length + length, offset + ENTRY_HEADER.size)
        except (struct.error, OSError):
            return None
        if len(body) != key_length + length or zlib.crc32(body[key_length:]) != check:
            return None
        return body[:key_length], body[key_length:]

    def close(self) -> None:
        self._held = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _index(fd: int, held: bytes | None = None) -> tuple[_Index, bytes | None]:
    """Where each entry of the file starts, and the file's dictionary: the file is read through
    a chunk at a time (or ``held``, all of it, already read), and payloads are only stepped over."""
    if held is not None:
        def read(length: int, offset: int) -> bytes:
            return held[offset:offset + length]
    else:
        def read(length: int, offset: int) -> bytes:
            return os.pread(fd, length, offset)
    header = file_header()
    empty = _Index(array("q"), array("q")), None
    if read(len(header), 0) != header:
        return empty  # another format, or written by other code
    size = len(held) if held is not None else os.fstat(fd).st_size
    keys, offsets = array("q"), array("q")
    dictionary = None
    offset = chunk_at = len(header)
    chunk = b""
    while offset < size:
        at = offset - chunk_at
        if at + ENTRY_HEADER.size + 0xFFFF > len(chunk) and chunk_at + len(chunk) < size:
            chunk_at, chunk, at = offset, read(_CHUNK, offset), 0
        key_length, length, check = ENTRY_HEADER.unpack_from(chunk, at)
        key = chunk[at + ENTRY_HEADER.size:at + ENTRY_HEADER.size + key_length]
        if len(key) != key_length:
            return empty
        if key == DICTIONARY_KEY:
            dictionary = read(length, offset + ENTRY_HEADER.size + key_length)
            if len(dictionary) != length or zlib.crc32(dictionary) != check:
                return empty
        else:
            keys.append(hash(key) or 1)  # _Index.number(key), without its call
            offsets.append(offset)
        offset += ENTRY_HEADER.size + key_length + length
    return (_Index(keys, offsets), dictionary) if offset == size else empty
