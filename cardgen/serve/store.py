"""The live preview's face images, one folder a set: ``<content hash>-<dpi>.png``.

Named by content, an image never changes once written, so the browser may keep it for good
and a restart rasterises only faces it has never seen. Files are written whole (a temporary
file renamed into place), so a stopped server leaves no half-written image.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

IMAGE = re.compile(r"[0-9a-f]{16,128}-\d{2,4}\.png")


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
            self._listed = folder

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
