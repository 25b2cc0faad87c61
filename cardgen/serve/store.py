"""The live preview's face images, one folder a set: ``<content hash>-<dpi>.png``.

Named by content, an image never changes once written, so the browser may keep it for good
and a restart rasterises only faces it has never seen. Files are written whole (a temporary
file renamed into place), so a stopped server leaves no half-written image.

The content hash says what a face holds, not what drew it: ``made-by.txt`` names the code that
drew the folder's images (cardgen's, pdfium's and Pillow's, as proof.json does for proofs), and
images another drew (an upgrade, an edited cardgen, a folder from before the record was kept)
are removed when the folder is first listed, and drawn again, as a fresh server draws them.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path
from typing import Iterable

IMAGE = re.compile(r"[0-9a-f]{16,128}-\d{2,4}\.png")
MADE_BY = "made-by.txt"


def _made_by() -> str:
    from ..proof import store  # (looked up when asked: the tests stand another code in for it)

    return store.made_by()


class FaceStore:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._held: set[str] | None = None
        self._listed: tuple | None = None  # the folder as it was when listed: its identity and time

    def _names(self) -> set[str]:
        if self._held is None:
            self.look_again()
        return self._held

    def look_again(self) -> None:
        """List the folder again if it changed since it was listed (a file or the whole output
        folder removed by hand): an image gone is drawn again, not served missing. Called once
        a refresh and a request, not at each ``has``: a stat costs more than the lookup."""
        folder = self._folder()
        if self._held is None or folder != self._listed:
            try:
                self._held = {p.name for p in self.folder.iterdir()} if folder else set()
            except OSError:
                self._held = set()
            if self._held and not self._drawn_here():
                self._forget_images()
            self._listed = self._folder()

    def _drawn_here(self) -> bool:
        """Whether the folder's images were drawn by this code."""
        expected = _made_by().encode("utf-8")
        try:  # a record that is no plain file (a link out of the project, a FIFO, the zero device) is not read
            handle = os.open(self.folder / MADE_BY, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
        except OSError:
            return False
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                return False
            with os.fdopen(handle, "rb", closefd=False) as record:
                return record.read(len(expected) + 1) == expected
        except OSError:
            return False
        finally:
            os.close(handle)

    def _forget_images(self) -> None:
        """Remove the images another code drew (the record first: an image left behind by a
        stop half-way is removed the next time), and record this code."""
        _remove(self.folder / MADE_BY)
        for name in list(self._held):
            if IMAGE.fullmatch(name):
                (self.folder / name).unlink(missing_ok=True)
                self._held.discard(name)
        try:
            self._record()
        except OSError:  # (the folder removed meanwhile) the next image written records it
            pass

    def _record(self) -> None:
        _remove(self.folder / MADE_BY)  # (os.replace cannot put a file where a folder is)
        target = self.folder / MADE_BY
        temporary = target.with_name(f".{MADE_BY}.tmp")
        try:
            temporary.write_text(_made_by(), encoding="utf-8")
            os.replace(temporary, target)
        finally:
            temporary.unlink(missing_ok=True)
        self._held.add(MADE_BY)

    def _folder(self) -> tuple | None:
        try:
            stat = self.folder.stat()
        except OSError:
            return None
        return stat.st_dev, stat.st_ino, stat.st_mtime_ns

    @staticmethod
    def name(face_hash: str, dpi: float) -> str:
        return f"{face_hash}-{int(dpi)}.png"

    def path(self, face_hash: str, dpi: float) -> Path:
        return self.folder / self.name(face_hash, dpi)

    def has(self, face_hash: str, dpi: float) -> bool:
        return self.name(face_hash, dpi) in self._names()

    def write(self, face_hash: str, dpi: float, data: bytes) -> None:
        names = self._names()
        self.folder.mkdir(parents=True, exist_ok=True)
        if MADE_BY not in names:  # the folder's first image: the code that draws it is recorded first
            self._record()
        target = self.path(face_hash, dpi)
        temporary = target.with_name(f".{target.name}.tmp")
        try:
            temporary.write_bytes(data)
            os.replace(temporary, target)
        finally:
            temporary.unlink(missing_ok=True)
        names.add(target.name)
        if self._held is names:  # its own image is no change to list the folder again for
            self._listed = self._folder()

    def keep(self, hashes: Iterable[str]) -> None:
        """Remove the images of faces no card shows any more."""
        wanted = set(hashes)
        names = self._names()
        for name in list(names):
            if IMAGE.fullmatch(name) and name.rsplit("-", 1)[0] not in wanted:
                (self.folder / name).unlink(missing_ok=True)
                names.discard(name)
        self._listed = self._folder()


def _remove(path: Path) -> None:
    """Remove the record, whatever stands in its place: a file, a link (not what it points at) or
    a folder made by hand in cardgen's own output/.preview/<set>/."""
    try:
        path.unlink(missing_ok=True)
    except (IsADirectoryError, PermissionError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
