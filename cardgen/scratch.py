"""A private temporary folder that a stop (Ctrl-C, SIGTERM) cannot leave behind.

``tempfile.TemporaryDirectory`` makes its folder before it registers the finaliser that removes
it, and removes it with ``rmtree``: a stop landing between the two, or half-way through the
removal, leaves a ``cardgen-*`` folder in the system's temporary folder for good. Both steps run
here with stops deferred (``stops.deferred``), so a stop takes effect just after them.
"""
from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import stops


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A new empty folder named ``<prefix>...`` in the system's temporary folder, removed with
    everything in it when the block ends, however it ends."""
    folder = None
    try:
        with stops.deferred():
            folder = tempfile.TemporaryDirectory(prefix=prefix)
        yield Path(folder.name)
    finally:
        if folder is not None:
            with stops.deferred():
                folder.cleanup()
