"""Between the render and write stages: faces rendered as cards stream past, and for each face
what to draw, from its fresh layout or from recorded parts (see cache.py)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from .assets import Fingerprints
from .cache import FaceCache
from .draw import direct
from .draw.content import ELEMENT, ICON, TEXT
from .errors import CardgenError, Problem
from .known_faces import KnownFaces
from .blame import blame_value
from .layout import LaidFace, Resources, lay_out
from .model import Card, CardSet, Face
from .render.faces import RENDERER, FaceRenderer, Markup, Pair, plain_data
from .write.face import FaceDrawing, ReadyFaces

if TYPE_CHECKING:
    from .pipeline import Session


@dataclass
class Rendered:
    """A set's faces on their way from the render stage to the write stage: ``pairs`` renders
    them as the cards stream past; ``drawing`` says how to draw each, from a fresh layout or
    from recorded parts (the cache's, or the write stage's own when a face is drawn again)."""

    renderer: FaceRenderer
    resources: Resources
    cache: FaceCache | None = None
    laid_out: int = 0  # faces laid out afresh

    def pairs(self, cards: Iterable[Card]) -> Iterator[Pair]:
        return self.renderer.pairs(cards)

    def lay_out(self, face: Face) -> LaidFace:
        markup = self.renderer.markup(face)
        try:
            elements = markup.elements()
        except CardgenError as error:  # a bad attribute value may be a card's own: name its row first
            raise CardgenError([blame_value(p, face.card) for p in error.problems]) from None
        return lay_out(elements, self.resources, markup.card_type, markup.card_name, face.card)

    def drawing(self, face: Face, parts: tuple | None = None, prepared: tuple | None = None) -> FaceDrawing:
        """What the write stage draws for a face: ``parts`` recorded when it was last drawn, or
        the cache's, or a fresh layout whose parts go into the cache. ``prepared``: ``parts``
        made ready to write (draw/prepared.py)."""
        resources = self.resources
        common = {"face_named": resources.fonts.face_named, "paint_icon": resources.paint_icon}
        if parts is None and self.cache is not None:
            parts = self.cache.get(face.content_hash)
        if parts is not None:
            element_at = _ElementsOf(lambda: self.renderer.markup(face), resources)
            try:
                pure = ready_parts(parts, resources)
                if not pure:
                    element_at.prepare_all(parts)
            except CardgenError:
                # an image or image icon the parts draw cannot be used now (a limit lowered
                # since: CARDGEN_MAX_IMAGE_PIXELS, CARDGEN_MAX_SVG_ELEMENTS): laid out afresh, the
                # face meets it again and says it as a build without the cache does (its card,
                # the card's value, beside the other faces' problems), where it was said at the
                # icon's line alone, the build stopping there, or with the value unnamed
                pass
            else:
                return FaceDrawing(parts=parts, element_at=element_at, pure=pure, prepared=prepared, **common)
        laid = self.lay_out(face)
        self.laid_out += 1
        keep = None
        if self.cache is not None and not resources.preview:  # a preview's drawing may hold clipped text
            keep = lambda recorded: self.cache.put(face.content_hash, recorded)  # noqa: E731
        return FaceDrawing(laid=laid, keep=keep, pure=_pure(laid, resources), **common)

    def ready_faces(self) -> ReadyFaces | None:
        """Faces the write stage may write from parts made ready elsewhere (a build's workers,
        see workers.py): none here."""
        return None


# parts drawn without leaving reportlab's graphics state changed: text, and image icons (a
# raster placed as operators, an SVG drawn between its own saveState and restoreState)
_PURE = (TEXT, ICON)


def ready_parts(parts: tuple, resources: Resources) -> bool:
    """Whether recorded parts draw with operators alone (see _PURE), each image icon they paint
    loaded first (once a build: see Resources.paint_icon); raises CardgenError if one cannot be."""
    pure = True
    for part in parts:
        if part.__class__ is not str:
            kind = part[0]
            if kind == ICON:
                resources.icon_loaded(part[1])
            elif kind != TEXT:
                pure = False
    return pure


def _pure(laid: LaidFace, resources: Resources) -> bool:
    """Whether a face draws with operators alone (draw.direct): its text, image icons included."""
    return all(direct(element) for element, _ in laid.items)


class _ElementsOf:
    """The elements of a face drawn from the cache that are drawn again (images, transparency),
    with what they need prepared; the markup is parsed only if one is asked for."""

    def __init__(self, markup: Callable[[], Markup], resources: Resources):
        self.markup, self.resources = markup, resources
        self.elements = None

    def __call__(self, index: int):
        if self.elements is None:
            self.elements = self.markup().elements()
        element = self.elements[index]
        if element.tag == "image":
            try:
                return element, self.resources.image(self.resources.find_image(element.attrs["src"]))
            except ValueError as exc:  # said as a fresh layout says it (layout.lay_out)
                raise CardgenError(Problem(str(exc), element.source, self.markup().card_name)) from None
        return element, None

    def prepare_all(self, parts: tuple) -> None:
        """Prepare every element the parts draw again, before the face is drawn: an image that
        can no longer be used (a lowered pixel limit, a file gone) is then a problem of this
        face, gathered with the others' (as a fresh layout's), not an error half-way through
        drawing it."""
        problems = []
        for part in parts:
            if part.__class__ is not str and part[0] == ELEMENT:
                try:
                    self(part[1])
                except CardgenError as error:
                    problems += error.problems
        if problems:
            raise CardgenError(problems)


def render_set(card_set: CardSet, session: Session, cache: FaceCache | None = None, preview: bool = False,
               known: KnownFaces | None = None) -> Rendered:
    """The render stage of a set, ready to render cards as they come. Faces the cache has seen
    rendered from the same templates and values are not rendered again. ``preview`` (the live
    preview): text that does not fit is drawn clipped and marked, its problem kept in
    ``resources.overflows``. ``known`` (check, which keeps nothing): the last build's
    renderings, read only."""
    resources = Resources(card_set, session.fonts, session.images, preview)
    memo = None
    kept = cache if cache is not None else known
    if kept is not None:
        kept.prefix = _render_prefix(card_set, session)
        memo = kept if kept.prefix else None
    session.templates.keep_names_in(memo)
    renderer = FaceRenderer(card_set, session.templates, Fingerprints(resources), memo)
    return Rendered(renderer, resources, cache)


def _render_prefix(card_set: CardSet, session: Session) -> str:
    """What every rendering of the set depends on besides its template and card: all templates,
    the set's values, the renderer's own code, and the template limits (a rendering made within
    larger ones may not be within these). Empty when a set value is not plain data."""
    shared = {"name": card_set.name, "title": card_set.title, "version": card_set.version,
              "variables": dict(card_set.variables)}
    if not plain_data(shared):
        return ""
    env = session.templates.env
    limits = f"{env.max_steps}:{env.max_depth}"
    return hashlib.sha256(f"{session.templates.digest}\0{RENDERER}\0{limits}\0{shared!r}".encode("utf-8")).hexdigest()


def lay_out_all(rendered: Rendered, cards: Iterable[Card], known: KnownFaces | None = None) -> None:
    """Render and lay out every distinct face of ``cards`` and keep none: what ``check`` needs.
    A face ``known`` to fit (the last build drew it) is not laid out again. Raises all problems."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for pair in rendered.pairs(cards):
        for face in pair:
            if face is None or face.markup_key in seen:
                continue
            seen.add(face.markup_key)
            if known is not None and known.fits(face.content_hash):
                continue
            try:
                rendered.lay_out(face)
            except CardgenError as error:
                problems.extend(error.problems)
    problems = rendered.renderer.problems() + problems
    if problems:
        raise CardgenError(problems)
