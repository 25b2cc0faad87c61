"""Content hashes of what a face depends on beyond its markup: fonts, images, icons."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .layout import Resources
from .streams import Latest
from .text.fonts import file_digest

_ICON = re.compile(r":([a-z][a-z0-9_-]*):")
_IMAGE_SRC = re.compile(r"<image\b[^>]*?\ssrc=\"([^\"]*)\"")


class Fingerprints:
    """Content hashes for one build. What the files a face names add to its hash is worked out
    once per build for each set of names (every card of a layout names the same few files),
    not looked up, resolved and stat'ed again for every face."""

    NAMED = 512  # sets of names kept: memory stays flat however many different images a set uses

    def __init__(self, resources: Resources):
        self.resources = resources
        self._fonts = resources.fonts.fingerprint
        # text boxes hyphenate in the set's language (hyphenate="auto"): where lines break, and
        # whether text fits. A set without one hashes as before (the manifests' face hashes stay)
        language = resources.card_set.language
        self._language = (f"language:{language}",) if language else ()
        self._named = Latest(self.NAMED)  # refs -> what the files they name add to a hash

    @staticmethod
    def file(path: Path) -> str:
        try:
            return file_digest(path)  # remembered per process, like the fonts'
        except OSError:
            return "missing"

    @staticmethod
    def _combine(parts) -> str:
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    def __call__(self, markup_key: str, markup: str) -> str:
        """The content hash of a face: its markup key, the fonts, the set's language, and every
        image and icon the markup names (read from the text: the markup is parsed later, when it is laid out)."""
        return self.of(markup_key, self.refs(markup))

    @staticmethod
    def refs(markup: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The image sources and icon names a face's markup names."""
        return (tuple(sorted({_unescaped(src) for src in _IMAGE_SRC.findall(markup)})),
                tuple(sorted(set(_ICON.findall(markup)))))

    def of(self, markup_key: str, refs: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
        """The content hash of a face from its markup key and what its markup names."""
        return self._combine((markup_key, *self.added(refs)))

    def added(self, refs: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
        """What a face's content hash adds to its markup key: the fonts, the set's language and
        the files ``refs`` (its markup's) name."""
        named = self._named.get(refs)
        if named is None:
            named = self._named[refs] = self._named_parts(refs)
        return (self._fonts, *self._language, *named)

    def _named_parts(self, refs: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
        images, icon_names = refs
        parts = []
        icons = self.resources.card_set.icons
        for src in images:
            try:
                parts.append(self.file(self.resources.find_image(src)))
            except ValueError:
                parts.append("missing")  # layout reports it
        for name in icon_names:
            icon = icons.get(name)
            if icon is not None:
                parts.append(f"{name}:{icon.glyph}:{icon.font}:{icon.color}:"
                             + (self.file(icon.image) if icon.image else ""))
        return tuple(parts)


def _unescaped(src: str) -> str:
    """``html.unescape(src)``, whose module (with its table of entities) a build whose image
    paths have no ``&`` does not import."""
    if "&" not in src:  # (html.unescape's own first test)
        return src
    import html

    return html.unescape(src)
