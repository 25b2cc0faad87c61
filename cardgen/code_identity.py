"""What made a kept entry: cardgen's version and a digest of the package's own files. Every
cache (the faces' file, kept rasters, fonts read by reportlab) is used only by the code that
wrote it, so an upgraded or edited cardgen never uses what the old one made."""
from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import time
from contextlib import suppress
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_DIGEST_FORMAT = b"cardgen-code-digest 1\n"  # change when the kept signature changes shape


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
    signature = (_DIGEST_FORMAT, str(package), stats)
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
