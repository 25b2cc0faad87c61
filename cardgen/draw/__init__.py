"""Drawing primitives, one module each, with their attributes (argument checking and docs)."""
from __future__ import annotations

from importlib import import_module

from .. import collector_paused

# Each primitive's module (named as its tag) is imported when a face first uses the tag: a
# build whose layouts draw rectangles, text and images does not pay for paths, transforms and
# the rest at start-up.
TAGS = ("rect", "circle", "ellipse", "line", "polygon", "path", "image", "text", "group", "clip")
CONTAINERS = ("group", "clip")  # elements that hold others; flattened into a start and an end
GROUP_END = "/group"  # a group's end (not an XML name: no template can write it)


class _Primitives(dict):
    """Tag -> the primitive's module, as a dict whose modules are imported on first use. A
    loaded tag is a plain dict lookup; anything that looks at the whole (iterating, ``len``,
    ``in``, ``items``) sees every tag."""

    def __missing__(self, tag):
        if tag not in TAGS:
            raise KeyError(tag)
        with collector_paused():  # as at start-up: no collector's scans, dataclasses' methods kept compiled
            module = import_module(f".{tag}", __name__)
        self[tag] = module
        return module

    def get(self, tag, default=None):
        return self[tag] if tag in TAGS else default

    def _all(self) -> None:
        if dict.__len__(self) < len(TAGS):
            for tag in TAGS:
                self[tag]
            # reordered as the tags are listed, whatever order they were first used in
            loaded = {tag: dict.__getitem__(self, tag) for tag in TAGS}
            dict.clear(self)
            dict.update(self, loaded)

    def __contains__(self, tag) -> bool:
        return tag in TAGS

    def __len__(self) -> int:
        return len(TAGS)

    def __iter__(self):
        return iter(TAGS)

    def keys(self):
        self._all()
        return dict.keys(self)

    def values(self):
        self._all()
        return dict.values(self)

    def items(self):
        self._all()
        return dict.items(self)


PRIMITIVES = _Primitives()


def draw_element(canvas, element, geometry, prepared=None) -> None:
    if element.tag == GROUP_END:
        PRIMITIVES["group"].draw_end(canvas, element, geometry, prepared)
        return
    PRIMITIVES[element.tag].draw(canvas, element, geometry, prepared)


def direct(element) -> bool:
    """Whether an element is drawn with PDF operators alone, which mean the same in any document
    and leave reportlab's own record of the graphics state as it was: such a drawing can be
    kept and replayed (draw/content.py). Images, transparency and rotated shapes go through
    reportlab, which registers resources and may set the PDF version: they are drawn anew."""
    if element.tag == GROUP_END:
        return True
    return PRIMITIVES[element.tag].direct(element.attrs)
