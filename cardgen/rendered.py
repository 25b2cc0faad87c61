"""The render stage's output, ready for the write stage: each face's markup, and for each face
what to draw, from its fresh layout or from the cache (see cache.py)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .assets import Fingerprints
from .cache import FaceCache
from .draw import direct
from .draw.content import TEXT
from .errors import CardgenError, Problem
from .layout import LaidFace, Resources, lay_out
from .model import CardSet
from .render.faces import RENDERER, RenderedSet, plain_data, render_faces
from .write.face import FaceDrawing

if TYPE_CHECKING:
    from .pipeline import Session


@dataclass(frozen=True)
class Rendered:
    """A set's faces rendered to markup: handed to the write stage one at a time (``drawing``,
    which lets each markup go once its face is drawn), or laid out for a check (``lay_out``)."""

    faces: RenderedSet
    resources: Resources
    cache: FaceCache | None = None

    def lay_out(self, key: str, markup=None) -> LaidFace:
        markup = markup or self.faces.markups[key]
        return lay_out(markup.elements(), self.resources, markup.card_type, markup.card_name)

    def drawing(self, key: str) -> FaceDrawing:
        """What the write stage draws for a face: its recorded parts from the cache, or a fresh
        layout whose parts go into the cache. The write stage draws each face once (copies and
        backs are forms), so the face's markup is let go here: memory falls as the PDF grows."""
        resources = self.resources
        markup = self.faces.markups.pop(key)
        common = {"face_named": resources.fonts.face_named, "paint_icon": resources.paint_icon}
        if self.cache is None:
            laid = self.lay_out(key, markup)
            return FaceDrawing(laid=laid, pure=_pure(laid, resources), **common)
        content_hash = self.faces.hashes[key]
        parts = self.cache.get(content_hash)
        if parts is not None:
            return FaceDrawing(parts=parts, element_at=_ElementsOf(markup, resources),
                               pure=all(part.__class__ is str or part[0] == TEXT for part in parts), **common)
        laid = self.lay_out(key, markup)
        return FaceDrawing(laid=laid, keep=lambda recorded: self.cache.put(content_hash, recorded),
                           pure=_pure(laid, resources), **common)


def _pure(laid: LaidFace, resources: Resources) -> bool:
    """Whether a face draws with operators alone (draw.direct), and shows no image icon."""
    icons = resources.card_set.icons
    for element, prepared in laid.items:
        if not direct(element):
            return False
        if element.tag == "text" and any(icons[name].image is not None for name in prepared.icon_parts):
            return False
    return True


class _ElementsOf:
    """The elements of a face drawn from the cache that are drawn again (images, transparency),
    with what they need prepared; the markup is parsed only if one is asked for."""

    def __init__(self, markup, resources: Resources):
        self.markup, self.resources = markup, resources
        self.elements = None

    def __call__(self, index: int):
        if self.elements is None:
            self.elements = self.markup.elements()
        element = self.elements[index]
        if element.tag == "image":
            return element, self.resources.images.load(self.resources.find_image(element.attrs["src"]))
        return element, None


def render_set(card_set: CardSet, session: Session, cards=None, cache: FaceCache | None = None) -> Rendered:
    """Render every face of ``cards`` (default: the whole set) to markup, to be laid out. Faces
    the cache has seen rendered from the same templates and values are not rendered again."""
    resources = Resources(card_set, session.fonts, session.images)
    memo = None
    if cache is not None:
        cache.prefix = _render_prefix(card_set, session)
        memo = cache if cache.prefix else None
    faces = render_faces(card_set, session.templates, cards, Fingerprints(resources), memo)
    return Rendered(faces, resources, cache)


def _render_prefix(card_set: CardSet, session: Session) -> str:
    """What every rendering of the set depends on besides its template and card: all templates,
    the set's values, and the renderer's own code. Empty when a set value is not plain data."""
    shared = {"name": card_set.name, "title": card_set.title, "version": card_set.version,
              "variables": dict(card_set.variables)}
    if not plain_data(shared):
        return ""
    return hashlib.sha256(f"{session.templates.digest}\0{RENDERER}\0{shared!r}".encode("utf-8")).hexdigest()


def lay_out_all(rendered: Rendered) -> None:
    """Lay out every distinct face and keep none: what ``check`` needs. Raises all problems."""
    problems: list[Problem] = []
    for key in rendered.faces.markups:
        try:
            rendered.lay_out(key)
        except CardgenError as error:
            problems.extend(error.problems)
    if problems:
        raise CardgenError(problems)
