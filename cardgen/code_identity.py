"""What made a kept entry: cardgen's version and a digest of the package's own files. Every
cache (the faces' file, kept rasters, fonts read by reportlab) is used only by the code that
wrote it, so an upgraded or edited cardgen never uses what the old one made."""
from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path

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
