"""Write files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .temporary import temporary_path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def staged(*targets: Path) -> Iterator[list[Path]]:
    """Yield temporary paths, one per target; on success rename them all into place.

    If the body raises, the temporaries are removed and the targets stay as they were; if the
    process is killed, they carry its id for the next build to remove (see temporary.py).
    """
    temporaries = []
    try:
        for target in targets:
            target = Path(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            name = temporary_path(target)
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask()))
            temporaries.append(name)
        yield temporaries
        for temporary, target in zip(temporaries, targets):
            os.replace(temporary, target)
    finally:
        for temporary in temporaries:
            if temporary.exists():
                temporary.unlink()
