"""Reading what a build keeps in ``.cardgen-cache/`` for the next one.

A kept file is only ever a regular file cardgen wrote; anything else at its name (a FIFO, a
device, a folder) is read as no file, the same as a damaged one: the build makes it again.
Opening a FIFO for reading waits for a writer, so every kept file is opened without waiting
and looked at before it is read (a FIFO in the cache hung the build for good).
"""
from __future__ import annotations

import os
import stat
import struct
import zlib
from pathlib import Path


def open_kept(path: Path) -> int | None:
    """A descriptor of ``path`` open for reading when it is a regular file; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read_kept(path: Path) -> bytes | None:
    """The bytes of the kept file ``path``; None when it is missing, unreadable or not a regular file."""
    fd = open_kept(path)
    if fd is None:
        return None
    try:
        with open(fd, "rb", closefd=True) as handle:
            return handle.read()
    except OSError:
        return None


# A kept file starts with the CRC-32 of the rest: a byte changed on disk would otherwise be read
# as other kept data (a font file "DejaVuSerif-Italic.tpf" in a kept fonts.yaml, an error the
# project does not have), not as a damaged file.
_CHECK = struct.Struct("<I")


def sealed(data: bytes) -> bytes:
    """``data`` as a kept file holds it, its check in front."""
    return _CHECK.pack(zlib.crc32(data)) + data


def read_sealed(path: Path) -> bytes | None:
    """The data ``sealed`` put in the kept file ``path``; None when the file is missing, not a
    regular file, or not as it was written."""
    kept = read_kept(path)
    if kept is None or len(kept) < _CHECK.size or _CHECK.unpack_from(kept)[0] != zlib.crc32(kept[_CHECK.size:]):
        return None
    return kept[_CHECK.size:]
