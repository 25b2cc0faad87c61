"""Laid-out text kept between builds, by each face's content hash.

A face's content hash covers its markup, the fonts and every image and icon it names, so a
cached layout is reused only when nothing that decides it has changed: after an edit to one
card, a rebuild lays out that card alone. The cache lives in ``<root>/.cardgen-cache/`` and is
rewritten whole (temporary file, then rename) with the entries the last build used.
"""
from __future__ import annotations

import marshal
import pickle
import zlib
from pathlib import Path
from typing import Any

from .draw.text import PreparedText
from .layout import LaidFace, Resources, lay_out
from .render.faces import Markup
from .text.fit import LaidLine, LaidText, Segment
from .write.atomic import staged

FORMAT = 3  # bump when the stored shape changes: older files are then ignored


class LayoutCache:
    def __init__(self, path: Path | None):
        self.path = Path(path) if path is not None else None
        self.entries: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        self.laid_out = 0  # faces laid out in this build
        self.reused = 0  # faces taken from the cache
        if self.path is not None and self.path.is_file():
            try:
                stored = pickle.loads(self.path.read_bytes())
                if isinstance(stored, dict) and stored.get("format") == FORMAT:
                    self.entries = stored["entries"]
            except Exception:  # a damaged cache is only a slower build  # noqa: BLE001
                self.entries = {}

    def lay_out(self, key: str, markup: Markup, resources: Resources) -> LaidFace:
        elements = markup.elements()
        stored = self.entries.get(key)
        if stored is not None:
            try:
                face = _thaw(elements, marshal.loads(zlib.decompress(stored)), resources)
            except (KeyError, IndexError, TypeError, ValueError, EOFError, zlib.error):
                face = None  # stale or foreign: lay it out again
            if face is not None:
                self.reused += 1
                self.used[key] = stored
                return face
        face = lay_out(elements, resources, markup.card_type, markup.card_name)
        self.laid_out += 1
        self.used[key] = zlib.compress(marshal.dumps(_freeze(face)), 1)  # ~1 KB a face in memory
        return face

    def save(self) -> None:
        if self.path is None or self.used == self.entries:
            return
        with staged(self.path) as (temporary,):
            temporary.write_bytes(pickle.dumps({"format": FORMAT, "entries": self.used}, protocol=5))
        self.entries = dict(self.used)


def _freeze(face: LaidFace) -> tuple:
    """Plain tuples of what text fitting decided, by element index (fonts by their PDF name)."""
    frozen = []
    for element, prepared in face.items:
        if element.tag != "text":
            frozen.append(None)
            continue
        laid = prepared.laid
        lines = tuple((line.baseline, line.word_space,
                       tuple((g.x, g.text, g.face.pdf_name if g.face else None, g.color, g.icon)
                             for g in line.segments))
                      for line in laid.lines)
        frozen.append((laid.size, laid.height, lines))
    return tuple(frozen)


def _thaw(elements, stored: tuple, resources: Resources) -> LaidFace:
    if len(stored) != len(elements):
        raise ValueError("the cached face has other elements")
    faces = resources.fonts.faces_by_pdf_name()
    items = []
    for element, frozen in zip(elements, stored):
        if element.tag == "image":
            items.append((element, resources.images.load(resources.find_image(element.attrs["src"]))))
        elif element.tag == "text":
            size, height, lines = frozen
            painters = {}
            laid_lines = []
            for baseline, word_space, segments in lines:
                thawed = []
                for x, text, face_name, color, icon in segments:
                    if icon is not None:
                        painters[icon] = resources.icon(icon)[1]
                    thawed.append(Segment(x, text, faces[face_name] if face_name is not None else None, color, icon))
                laid_lines.append(LaidLine(baseline, tuple(thawed), word_space))
            items.append((element, PreparedText(LaidText(size, tuple(laid_lines), height), painters)))
        else:
            if frozen is not None:
                raise ValueError("the cached face has other elements")
            items.append((element, None))
    return LaidFace(tuple(items))
