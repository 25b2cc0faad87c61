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


def path_key(path: Path | str) -> str:
    """A file's path as a kept file records it: a digest of the absolute path, never the path
    itself. The cache lies in the project folder, which gets zipped and shared: it must name
    neither the machine's folders nor the user's home (the project's own folder in it, a
    user-site install of cardgen below it), and a digest tells one file from another as well."""
    from hashlib import blake2b

    return blake2b(os.fsencode(os.path.abspath(path)), digest_size=16).hexdigest()


def relative_path(path: Path | str, base: Path | str) -> str:
    """``path`` as a kept file in ``base`` records it: relative to ``base`` (``../output/x.pdf``),
    so that no absolute path of the machine is written; unchanged when it is not absolute or
    would not come back whole through ``resolved_path``."""
    path, base = os.fspath(path), os.fspath(base)
    if os.path.isabs(path) and os.path.isabs(base):
        relative = os.path.relpath(path, base)
        if resolved_path(relative, base) == path:
            return relative
    return path


def resolved_path(recorded: str, base: Path | str) -> str:
    """The path ``relative_path`` recorded in ``base``."""
    return os.path.normpath(os.path.join(os.fspath(base), recorded))


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
