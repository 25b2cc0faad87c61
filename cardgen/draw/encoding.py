"""Text to PDF string operands for reportlab's subset fonts.

reportlab's own path (``splitString`` then ``escape``) walks every character twice in Python.
Here, once every character of a text has its code in the document's first subset, the text is
turned into its escaped string by one ``str.translate``; new characters go through reportlab,
so its subsets stay the single source of codes.
"""
from __future__ import annotations

_ESCAPED = [chr(b) if 32 <= b < 127 else f"\\{b:03o}" for b in range(256)]
_ESCAPED[40], _ESCAPED[41], _ESCAPED[92] = "\\(", "\\)", "\\\\"


class _Known:
    """Per document and font: the characters coded in subset 0, and their escaped codes."""

    __slots__ = ("chars", "table", "names")

    def __init__(self):
        self.chars: set[str] = set()
        self.table: dict[int, str] = {}
        self.names: dict[int, str] = {}  # subset -> its font resource name


def _known(state) -> _Known:
    known = getattr(state, "cardgen_known", None)
    if known is None:
        known = state.cardgen_known = _Known()
    return known


def encode(ttf, text: str, doc) -> list[tuple[int, str]]:
    """``text`` as (subset number, escaped string) runs in the font ``ttf`` of document ``doc``."""
    state = ttf.state.get(doc)
    if state is not None:
        known = _known(state)
        if known.chars.issuperset(text):
            return [(0, text.translate(known.table))]
    runs = [(subset, "".join([_ESCAPED[b] for b in chunk])) for subset, chunk in ttf.splitString(text, doc)]
    known = _known(ttf.state[doc])
    assignments = ttf.state[doc].assignments
    for char in set(text):
        code = assignments.get(ord(char))
        if code is not None and code < 256:  # U+00A0 has none: reportlab prints it as a space
            known.chars.add(char)
            known.table[ord(char)] = _ESCAPED[code]
    return runs


def subset_name(ttf, subset: int, doc) -> str:
    """The font resource name of a subset (``encode`` has made the document's state)."""
    names = _known(ttf.state[doc]).names
    name = names.get(subset)
    if name is None:
        name = names[subset] = ttf.getSubsetInternalName(subset, doc)
    return name
