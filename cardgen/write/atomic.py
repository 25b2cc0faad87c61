"""Write files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import shown_path
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
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as error:
                blocking = _file_on_the_way(target.parent)
                if blocking.is_symlink() and not blocking.exists():
                    error.cardgen_reason = f"{shown_path(blocking)} is a link to a folder that does not exist"
                else:
                    error.cardgen_folder = blocking
                raise
            name = temporary_path(target)
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask()))
            temporaries.append(name)
        yield temporaries
        for temporary, target in zip(temporaries, targets):
            os.replace(temporary, target)
    except OSError as error:
        # say which output could not be written (the OSError itself names a temporary, or nothing):
        # a failure of the body counts if it names no file or one of ours (a full disk)
        named = {str(t): target for t, target in zip(temporaries, targets)}
        named.update((str(t), t) for t in targets)
        if error.filename is None or str(error.filename) in named or len(temporaries) < len(targets):
            failed_at = len(temporaries) if len(temporaries) < len(targets) else 0
            error.cardgen_writing = named.get(str(error.filename), Path(targets[failed_at]))
        raise
    finally:
        for temporary in temporaries:
            if temporary.exists():
                temporary.unlink()


def _file_on_the_way(folder: Path) -> Path:
    """The file that stands where a folder should be (``--out`` naming a file)."""
    for candidate in (folder, *folder.parents):
        if (candidate.exists() or candidate.is_symlink()) and not candidate.is_dir():
            return candidate
    return folder
