"""Write files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def staged(*targets: Path) -> Iterator[list[Path]]:
    """Yield temporary paths, one per target; on success rename them all into place.

    If the body raises, the temporaries are removed and the targets stay as they were.
    """
    temporaries = []
    try:
        for target in targets:
            target = Path(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            os.close(handle)
            os.chmod(name, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
            temporaries.append(Path(name))
        yield temporaries
        for temporary, target in zip(temporaries, targets):
            os.replace(temporary, target)
    finally:
        for temporary in temporaries:
            if temporary.exists():
                temporary.unlink()
