"""A minimal XML tree that remembers the line of every element (for file:line messages)."""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from ...errors import Source, fail


@dataclass
class Element:
    tag: str
    attrib: dict[str, str]
    line: int
    children: list["Element"] = field(default_factory=list)


def parse_xml(text: str, name: str) -> Element:
    parser = expat.ParserCreate()
    stack: list[Element] = []
    roots: list[Element] = []

    def start(tag: str, attrib: dict[str, str]) -> None:
        element = Element(tag, dict(attrib), parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise fail(f"invalid XML: {expat.ErrorString(exc.code)}", Source(name, exc.lineno)) from None
    return roots[0]
