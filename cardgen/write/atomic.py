"""Write files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import shown_path
from .. import stops
from .temporary import temporary_path

_UNSAVED = object()  # a target that was there but could not be set aside (see _set_aside)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def staged(*targets: Path) -> Iterator[list[Path]]:
    """Yield temporary paths, one per target; on success rename them all into place.

    If the body raises, the temporaries are removed and the targets stay as they were; if the
    process is killed, they carry its id for the next build to remove (see temporary.py). The
    targets are replaced all together or not at all (see _commit): a set's PDF never stands
    beside the manifest of another build.
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
            with stops.deferred():  # made and listed at once: a stop in between would leave it behind
                os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask()))
                temporaries.append(name)
        yield temporaries
        _commit(temporaries, [Path(target) for target in targets])
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
        with stops.deferred():  # removed all, even when a second stop comes
            for temporary in temporaries:
                if temporary.exists():
                    temporary.unlink()


def _commit(temporaries: list[Path], targets: list[Path]) -> None:
    """Rename each temporary onto its target, all or none: Ctrl-C and SIGTERM wait until the
    last rename is done, and a rename that fails puts back the targets already replaced."""
    with stops.deferred():
        stops.check()  # a stop asked for earlier, whose KeyboardInterrupt was lost: none replaced
        # the last target is replaced last: if that fails, it is still as it was
        saved = [_set_aside(target) for target in targets[:-1]]
        replaced = 0
        try:
            for temporary, target in zip(temporaries, targets):
                os.replace(temporary, target)
                replaced += 1
        except BaseException:
            for target, earlier in reversed(list(zip(targets, saved))[:replaced]):
                try:
                    _put_back(target, earlier)
                except OSError:
                    continue  # the others still go back; the failure that stopped the commit is told
            raise
        finally:
            for earlier in saved:
                if isinstance(earlier, Path) and earlier.exists():
                    earlier.unlink()


def _set_aside(target: Path):
    """A copy of ``target`` as it is, to put back if the commit fails: a hard link to it (the
    target itself stays in place all along), else a copy (a file system without links), or
    None if there is no target, or _UNSAVED if it could not be copied (the commit goes on: a
    build is not refused for want of room to keep an old output)."""
    if not os.path.lexists(target):
        return None
    copy = temporary_path(target)
    try:
        os.link(target, copy, follow_symlinks=False)
    except OSError:
        try:
            shutil.copy2(target, copy, follow_symlinks=False)
        except OSError:
            if copy.exists():
                copy.unlink()
            return _UNSAVED
    return copy


def _put_back(target: Path, earlier) -> None:
    if earlier is None:
        target.unlink(missing_ok=True)  # there was none: there is none again
    elif earlier is not _UNSAVED:
        os.replace(earlier, target)


def _file_on_the_way(folder: Path) -> Path:
    """The file that stands where a folder should be (``--out`` naming a file)."""
    for candidate in (folder, *folder.parents):
        if (candidate.exists() or candidate.is_symlink()) and not candidate.is_dir():
            return candidate
    return folder
