"""What a worker process of a build runs (see workers.py): it renders and lays out its share of
the chunks of cards and sends back, for each card, its faces' keys and, for each distinct face,
the recorded parts; what it could not do it leaves for the build's process."""
from __future__ import annotations

import gc
import io
import marshal
import os
import struct
import sys
from dataclasses import replace
from itertools import count
from typing import Callable, Iterator

from .cache import PACK_FROM, stored
from .cache_file import key_digest
from .draw.content import ELEMENT
from .draw.prepared import Preparer
from .load.cursor import Cursor
from .model import Card, Face
from .render.faces import FaceRenderer
from .rendered import Rendered
from .write.face import record_face

_LENGTH = struct.Struct("<Q")  # the length of each message a worker writes


def _where(card: Card) -> tuple | None:
    """A card's row, as plain data: with its name, how the build's process knows a worker's
    record of it is the one it expects."""
    source = card.source
    return (source.file, source.line) if source is not None else None



class _Remembered:
    """A worker's render memo: it keeps nothing itself, and lists the renderings it made for the
    build's process to keep."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.made: list[tuple[str, tuple]] = []

    def recall(self, key: str):
        return None

    def remember(self, key: str, value) -> None:
        self.made.append((key, value))


class _RecordingRenderer(FaceRenderer):
    """Renders as the build's renderer would, noting each face for the build's process; the
    problems are left for the build's process to meet (it renders those faces itself)."""

    MAX_PROBLEMS = sys.maxsize

    def __init__(self, renderer: FaceRenderer, memo):
        super().__init__(renderer.card_set, renderer.templates, renderer.fingerprints, memo)
        self.noted: list = []
        self.noting = []  # each face's entry (markup key, content hash, refs, render key or None)
        self._digests: dict[str, bytes] = {}  # render key -> its digest, for the faces of the chunk

    def _face(self, card, card_type, copy, side, drawn_by, plain):
        face = None
        noting = self.noting
        try:
            face = super()._face(card, card_type, copy, side, drawn_by, plain)
        finally:
            record = None
            if face is not None:
                # the refs and render key's digest go along: the build's process keeps runs of
                # cards with them as a one-process build does (kept_cards.py)
                _, _, refs, render_key = noting.pop() if noting else (None, None, None, None)
                digest = None
                if render_key is not None:
                    digest = self._digests.get(render_key)
                    if digest is None:
                        digest = self._digests[render_key] = key_digest(render_key)
                record = (face.markup_key, face.content_hash, refs, digest)
            self.noted.append(record)
        return face


def _serve(index: int, jobs: int, fd: int, cursor: Callable[[], Cursor], rendered: Rendered, chunk: int) -> None:
    gc.freeze()  # what the build's process made is not this process's garbage: scanning it would copy it
    memo = _Remembered(rendered.renderer.memo.prefix) if rendered.renderer.memo is not None else None
    renderer = _RecordingRenderer(rendered.renderer, memo)
    from reportlab.pdfgen.canvas import Canvas

    scratch = Canvas(io.BytesIO())
    # entries are stored for the cache here, as the build's process would store them (its file's
    # dictionary is chosen before the workers start, see workers.start): it only writes them
    preparer = Preparer(rendered.resources.fonts.face_named, rendered.resources.icon_placement)
    storing = rendered.cache is not None and not rendered.resources.preview
    dictionary = rendered.cache.dictionary if storing else None
    with os.fdopen(fd, "wb", buffering=0) as out:
        try:
            cards = cursor()
            for number in count(index, jobs):
                batch = cards.take(number * chunk, chunk)  # (the other workers' chunks before it passed over)
                if not batch:
                    return
                if memo is not None:
                    memo.made = []
                records, entries = _chunk(renderer, rendered, scratch, batch)
                entries = {content_hash: _entry(content_hash, parts, text, preparer, storing, dictionary)
                           for content_hash, (parts, text) in entries.items()}
                digests = renderer._digests  # of the render keys its faces noted: made once
                made = [_made(key, value, dictionary, digests.get(key)) if storing else (key, value, None)
                        for key, value in memo.made] if memo else ()
                # plain data (the cache keeps parts the same way): marshal reads it back fastest
                message = marshal.dumps((number, records, entries, made))
                out.write(_LENGTH.pack(len(message)))
                out.write(message)
        except BrokenPipeError:  # the build's process is gone
            raise
        except Exception:  # the cards cannot be read (a card file changed): the build's process meets it
            out.write(_LENGTH.pack(0))


def _entry(content_hash: str, parts: tuple | None, text: str | None, preparer: Preparer, storing: bool,
           dictionary: bytes | None) -> tuple:
    """What the build's process is sent of a face: (its parts as marshal data, its markup text
    or None, the parts as the cache stores them or None, the parts made ready to write or None);
    (None, None, None, None) for a face it lays out itself. (The parts go as the data made for
    the cache: the message does not go through them again, the build's process reads them as
    it draws the face.)"""
    if parts is None:
        return None, text, None, None
    data = marshal.dumps(parts)
    return data, text, _stored(content_hash, data, dictionary) if storing else None, _prepared(preparer, parts)


def _made(key: str, value, dictionary: bytes | None, digest: bytes | None) -> tuple:
    """(key, value, value as the cache stores it): a rendering, for the build's process to keep;
    the value itself goes only when the build's process must store it."""
    kept = _stored(key, marshal.dumps(value), dictionary, digest)
    return key, value if kept is None else None, kept


def _stored(key: str, data: bytes, dictionary: bytes | None, digest: bytes | None = None) -> tuple[bytes, bytes] | None:
    """(key's digest (``digest`` if given), a value's marshal ``data`` as the cache file stores
    it), or None when the build's process must store it (a long value, and no dictionary chosen yet)."""
    if dictionary is None and len(data) >= PACK_FROM:
        return None
    return digest or key_digest(key), stored(data, dictionary)


def _prepared(preparer: Preparer, parts: tuple | None) -> tuple | None:
    """``parts`` made ready for the build's process to write (draw/prepared.py), or None."""
    if parts is None:
        return None
    try:
        return preparer.prepare(parts)
    except Exception:  # (an icon that cannot be found is drawn, and reported, by the build's process)
        return None


def _chunk(renderer: _RecordingRenderer, rendered: Rendered, scratch, cards: list[Card]):
    """Each card's faces, as (name, source, ((markup key, content hash, refs, digest of its render
    key or None) or None, ...)), and each distinct face's (parts or None, markup text if the
    build's process needs it)."""
    noted: list = []
    renderer._problems.clear()  # the build's process meets them: memory stays flat
    renderer._digests.clear()

    def noting() -> Iterator[Card]:
        for card in cards:
            renderer.noted = []
            noted.append((card.name, _where(card), renderer.noted))
            yield card

    entries: dict[str, tuple] = {}
    try:
        for pair in renderer.pairs(noting()):
            for face in pair:
                if face is not None and face.content_hash not in entries:
                    entries[face.content_hash] = _laid(rendered, scratch, face)
    except Exception:  # a limit reached: the build's process renders the rest of the chunk, and meets it
        pass
    return [(name, source, tuple(faces)) for name, source, faces in noted], entries


def _laid(rendered: Rendered, scratch, face: Face) -> tuple:
    """(parts, markup text or None) of a face, or (None, None) for a face the build's process
    lays out itself (it has a problem to report)."""
    try:
        if face.markup is None:  # rendered for an earlier card (a shared back): rendered again
            face = replace(face, markup=rendered.renderer.markup(face))
        parts = record_face(scratch, face.card_type, rendered.lay_out(face))
        # a face drawn again through reportlab (an image) needs its elements: the markup goes along
        needs_markup = any(part.__class__ is not str and part[0] == ELEMENT for part in parts)
        return parts, face.markup.text if needs_markup else None
    except Exception:
        del scratch._code[:]
        return None, None
