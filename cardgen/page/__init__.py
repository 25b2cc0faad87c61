"""The card browser page, shared by ``cardgen serve`` (live, from a server) and ``cardgen
proof`` (a static gallery opened from disk): plain HTML, CSS and JavaScript, small and
readable, no build step and nothing fetched from the internet.

The page reads its data from its ``cardgen-data`` script when a gallery wrote it there (works
from ``file://``), else from the server's ``/api/state`` and its event stream.
"""
from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).resolve().parent
SCRIPT, STYLE = "cardgen.js", "cardgen.css"


def asset(name: str) -> bytes:
    return (PAGE / name).read_bytes()
