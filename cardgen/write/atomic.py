"""Write files whole or not at all: a temporary file beside the target, then a rename."""
from __future__ import annotations

import errno
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import LOOP_REASON, file_on_the_way, shown_path
from .. import stops
from .temporary import temporary_path

_UNSAVED = object()  # a target that was there but could not be set aside (see _set_aside)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def staged(*targets: Path, batch: "Batch | None" = None, spare: bool = False) -> Iterator[list[Path]]:
    """Yield temporary paths, one per target; on success rename them all into place.

    If the body raises, the temporaries are removed and the targets stay as they were; if the
    process is killed, they carry its id for the next build to remove (see temporary.py). The
    targets are replaced all together or not at all (see _commit): a set's PDF never stands
    beside the manifest of another build. With ``batch``, a body that ends well hands its
    temporaries to the batch instead, which renames them with the rest of its files; ``spare``
    ones (a record that only saves work) after the others, and a failure to put them in place
    fails nothing.
    """
    temporaries = []
    made: list[Path] = []  # folders made for the targets: removed again if nothing is put in them
    handed = False
    try:
        for target in targets:
            target = Path(target)
            try:
                made += _missing_folders(target.parent)
                target.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as error:
                blocking = Path(file_on_the_way(target) or target.parent)
                if blocking.is_symlink() and not blocking.exists():
                    error.cardgen_reason = f"{shown_path(blocking)} is " + (
                        LOOP_REASON if _loops(blocking) else "a link to a folder that does not exist")
                else:
                    error.cardgen_folder = blocking
                raise
            name = temporary_path(target)
            with stops.deferred():  # made and listed at once: a stop in between would leave it behind
                os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask()))
                temporaries.append(name)
        yield temporaries
        if batch is None:
            _commit(temporaries, [Path(target) for target in targets])
        else:
            with stops.deferred():  # handed over whole: the batch removes them if it fails
                batch._take(temporaries, [Path(target) for target in targets], spare)
                batch._made += made
                handed = True
    except OSError as error:
        _name_the_output(error, temporaries, list(targets))
        raise
    finally:
        if not handed:
            _remove(temporaries)
            _remove_empty(made)


class Batch:
    """Outputs that belong together (a set's PDF, manifest, tuck boxes and the record of its
    build): each is staged on its own (``staged(..., batch=batch)``), and ``together`` renames
    them all into place at its end, all or none (see _commit)."""

    def __init__(self) -> None:
        self._temporaries: list[Path] = []
        self._targets: list[Path] = []
        self._spare: list[tuple[Path, Path]] = []
        self._made: list[Path] = []  # folders made for its files, deepest first

    def _take(self, temporaries: list[Path], targets: list[Path], spare: bool) -> None:
        if spare:
            self._spare += zip(temporaries, targets)
        else:
            self._temporaries += temporaries
            self._targets += targets

    def written(self, target: Path) -> Path:
        """Where ``target``'s new content is until the batch is committed (the target itself if
        it is not in the batch)."""
        for temporary, staged_target in [*zip(self._temporaries, self._targets), *self._spare]:
            if staged_target == Path(target):
                return temporary
        return Path(target)


@contextmanager
def together() -> Iterator[Batch]:
    """A batch of outputs, committed as the block ends well; if it raises (or is stopped), every
    file staged in it is removed and every target is as it was."""
    batch = Batch()
    try:
        yield batch
        with stops.deferred():  # no stop between the outputs and the spare files
            try:
                _commit(batch._temporaries, batch._targets)
            except OSError as error:
                _name_the_output(error, batch._temporaries, batch._targets)
                raise
            for temporary, target in batch._spare:
                try:
                    os.replace(temporary, target)
                except OSError:
                    continue  # left as it was: a spare file says whether it still holds (unchanged.py)
    finally:
        _remove(batch._temporaries + [temporary for temporary, _ in batch._spare])
        _remove_empty(batch._made)  # a failed build leaves no output/ behind that it made


def _name_the_output(error: OSError, temporaries: list[Path], targets: list[Path]) -> None:
    """Say which output could not be written (the OSError itself names a temporary, or nothing):
    a failure of the body counts if it names no file or one of ours (a full disk)."""
    if not targets:
        return
    named = {str(t): target for t, target in zip(temporaries, targets)}
    named.update((str(t), t) for t in targets)
    if error.filename is None or str(error.filename) in named or len(temporaries) < len(targets):
        failed_at = len(temporaries) if len(temporaries) < len(targets) else 0
        error.cardgen_writing = named.get(str(error.filename), Path(targets[failed_at]))


def _remove(temporaries: list[Path]) -> None:
    with stops.deferred():  # removed all, even when a second stop comes
        for temporary in temporaries:
            if temporary.exists():
                temporary.unlink()


@contextmanager
def made_folder(folder: Path) -> Iterator[Path]:
    """``folder`` made, with the folders above it that are missing, for the block; the ones it
    made are removed again if the block fails and leaves them empty."""
    made = _missing_folders(Path(folder))
    Path(folder).mkdir(parents=True, exist_ok=True)
    try:
        yield Path(folder)
    except BaseException:
        _remove_empty(made)
        raise


def _missing_folders(folder: Path) -> list[Path]:
    """``folder`` and the folders above it that do not exist yet, deepest first."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders that are empty, deepest first (a folder holding an output stays)."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            continue


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


def _loops(link: Path) -> bool:
    """Whether following ``link`` goes round a loop of symbolic links."""
    try:
        os.stat(link)
    except OSError as error:
        return error.errno == errno.ELOOP
    return False
