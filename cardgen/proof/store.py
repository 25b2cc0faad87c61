"""A set's proof folder: the face PNGs, their small copies for the contact sheet, and
``proof.json``, which says which content (hash, overlay, dpi) each file holds, so that a rerun
rasterises only the faces whose content is new."""
from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Callable, Iterable

from ..write.temporary import remove_stale, temporary_path

INDEX = "proof.json"
THUMBS = ".thumbs"


@cache
def made_by() -> str:
    """What rasterises and encodes a folder's files: cardgen's code, pdfium and Pillow. A file
    another made is made again: an upgraded or edited cardgen kept the old rasters of every
    face whose content was the same, and a rerun differed from a fresh proof."""
    import PIL
    import pypdfium2.version

    from ..code_identity import code_identity

    return f"{code_identity()}; pdfium {pypdfium2.version.PDFIUM_INFO}; Pillow {PIL.__version__}"


def content_key(face_hash: str, overlay: bool, dpi: float) -> str:
    return f"{face_hash}:{'overlay' if overlay else 'plain'}:{dpi:g}"


class ProofFolder:
    """Also used by exports, with their own index name and keys."""

    def __init__(self, folder: Path, index: str = INDEX):
        self.folder = Path(folder)
        self.index = index
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as error:  # a file where a folder goes: said as build says it
            error.cardgen_writing = self.folder
            error.cardgen_folder = self.folder if os.path.lexists(self.folder) and not self.folder.is_dir() else None
            raise
        remove_stale(self.folder, below=True)  # what a run stopped half-way left (its workers write too)
        self._folders = {self.folder}  # folders known to be there
        self.contact = ""  # the signature of the contact sheet's faces
        self.others: set[str] = set()  # files an index of other code lists: made again or removed, never kept
        self.previous = self._read_index()  # file -> key, for files that are still there

    def _read_index(self) -> dict[str, str]:
        try:
            document = json.loads((self.folder / self.index).read_text(encoding="utf-8"))
            held = {str(f["file"]): str(f["key"]) for f in document["faces"]}
            if document.get("made by") != made_by():
                # made by other code: everything is rasterised again, and the files of faces that
                # are gone since are removed all the same (they stayed beside the new ones)
                self.others = {file for file in held if _within(file) and (self.folder / file).is_file()}
                return {}
            self.contact = str(document.get("contact", ""))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}  # no index or a broken one: everything is rasterised again
        return {file: key for file, key in held.items() if (self.folder / file).is_file()}

    def holds(self, file: str, key: str) -> bool:
        return self.previous.get(file) == key

    def files_with(self, keys: set[str]) -> dict[str, str]:
        """key -> a file that already holds it, for the keys asked for."""
        found: dict[str, str] = {}
        for file, key in sorted(self.previous.items()):
            if key in keys:
                found.setdefault(key, file)
        return found

    def read(self, file: str) -> bytes:
        return (self.folder / file).read_bytes()

    def write(self, file: str, data: bytes) -> None:
        path = self.folder / file
        if path.parent not in self._folders:  # one mkdir a folder, not a file
            path.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(path.parent)
        _write_atomic(path, data, made=True)

    def write_all(self, files: Iterable[str], data: bytes) -> None:
        for file in files:
            self.write(file, data)

    def fill(self, todo: list[dict], make: Callable[[dict[str, list[str]]], Iterable[str]]) -> list[str]:
        """Write the files of ``todo`` (entries with "file" and "key"): copied from a file that
        holds the same content, else made once per key: ``make(files)``, given the files to
        write for each key, writes them (``write``; in worker processes, so that a face's bytes
        need not travel back to this one) and yields each key when its files are written.
        Return the keys made."""
        files: dict[str, list[str]] = {}  # key -> the files to write with it
        for entry in todo:
            files.setdefault(entry["key"], []).append(entry["file"])
        # content another file already holds (cards moved or renamed): read it all before any
        # file is overwritten
        held = {key: self.read(file) for key, file in self.files_with(set(files)).items()}
        # files about to change leave the index first: a run stopped half-way (Ctrl-C) must
        # not leave the index naming content that a file no longer holds
        changing = {entry["file"] for entry in todo}
        self._save([{"file": f, "key": k} for f, k in self.previous.items() if f not in changing], self.contact)
        for key, data in held.items():
            for file in files.pop(key):
                self.write(file, data)
        made = list(make(files))
        if sorted(made) != sorted(files):
            raise RuntimeError(f"{len(files)} faces to make, {len(made)} made")  # a bug, not bad input
        return list(files)

    def thumb_path(self, key: str) -> Path:
        return self.folder / THUMBS / (key.replace(":", "-") + ".png")

    def finish(self, entries: list[dict], contact: str) -> list[str]:
        """Write the new index; remove the files of the old one that are no longer faces, and
        thumbnails no face uses. Return the removed face files."""
        wanted = {e["file"] for e in entries}
        removed = sorted(f for f in set(self.previous) | self.others if f not in wanted)
        for file in removed:
            (self.folder / file).unlink(missing_ok=True)
        thumbs = self.folder / THUMBS
        if thumbs.is_dir():
            used = {self.thumb_path(e["key"]).name for e in entries}
            for path in thumbs.iterdir():
                if path.name not in used:
                    path.unlink()
        self._save(entries, contact)
        return removed

    def _save(self, entries: list[dict], contact: str) -> None:
        document = {"made by": made_by(), "contact": contact, "faces": entries}
        _write_atomic(self.folder / self.index, (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode())


def _within(file: str) -> bool:
    """Whether an index's file name names a file of the folder (never one outside it)."""
    parts = Path(file).parts
    return bool(parts) and not Path(file).is_absolute() and ".." not in parts


def _write_atomic(path: Path, data: bytes, made: bool = False) -> None:
    """``path`` holds ``data`` whole or is as it was (``made``: its folder is there). A failure
    names the file, as a failed output does (write/atomic.py; a full disk said only "no space
    left on device"), and a stop leaves no temporary behind. Not ``staged``: a proof writes
    thousands of these files, and its checks (folders made, a temporary made apart, then looked
    for) cost a proof an eighth of its time in system calls."""
    if not made:
        path.parent.mkdir(parents=True, exist_ok=True)
    temporary = temporary_path(path)
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException as failure:  # an error, or a stop (a worker's too): no half-written file stays behind
        temporary.unlink(missing_ok=True)
        if isinstance(failure, OSError):
            failure.cardgen_writing = path
        raise
