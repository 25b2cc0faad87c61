"""Card markup (XML from a template) -> checked :class:`Element` records."""
from __future__ import annotations

import re
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from lxml import etree

from ..draw import PRIMITIVES
from ..errors import CardgenError, Problem, Source

_SRC = re.compile(r'_src="([^"]+):(\d+)"')
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)


class Element(NamedTuple):  # a tuple: made four or five times a face, and cheap to make
    tag: str
    attrs: Mapping[str, Any]
    content: str | None  # text inside <text>
    source: Source  # template file and line


def _source(value: str | None, fallback: Source) -> Source:
    if value and ":" in value:
        return _marker(value)
    return fallback


@lru_cache(maxsize=1024)
def _marker(value: str) -> Source:
    """A ``_src`` marker as a Source: every card of a layout repeats the same few."""
    file, line = value.rsplit(":", 1)
    return Source(file, int(line))


def _last_marker_before(markup: str, line: int, fallback: Source) -> Source:
    found = fallback
    for text in markup.split("\n")[:line]:
        for match in _SRC.finditer(text):
            found = Source(match.group(1), int(match.group(2)))
    return found


def parse_markup(markup: str, card: str | None, fallback: Source) -> tuple[Element, ...]:
    try:
        root = etree.fromstring(markup.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or 1
        where = _last_marker_before(markup, line, fallback)
        # the parser's own "line 11, column 392" counts in the rendered markup, which the designer
        # never sees (and differs from card to card): the template line says where
        reason = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or "").strip())
        raise CardgenError(Problem(f"the template does not produce valid card markup: {reason}", where, card)) from None
    root_source = _source(root.get("_src"), fallback)
    if root.tag != "card":
        raise CardgenError(Problem(f"card markup must start with <card>, not <{root.tag}>", root_source, card))
    extra = [k for k in root.attrib if k != "_src"]
    if extra:
        raise CardgenError(Problem(f'<card> takes no attributes, got "{extra[0]}"', root_source, card))
    problems: list[Problem] = []
    elements = []
    for node in root:
        if not isinstance(node.tag, str):  # processing instructions
            continue
        where = _source(node.get("_src"), root_source)
        try:
            elements.append(_element(node, where))
        except ValueError as exc:
            problems.append(Problem(str(exc), where, card))
    if problems:
        raise CardgenError(problems)
    return tuple(elements)


def _element(node, where: Source) -> Element:
    items = node.items()
    if items and items[0][0] == "_src":  # where the renderer puts it (XML allows it only once)
        items = tuple(items[1:])
    else:
        items = tuple(item for item in items if item[0] != "_src")
    attrs = _attributes(node.tag, items)
    if len(node):
        raise ValueError(f"<{node.tag}> cannot contain other elements")
    content = node.text or ""
    if node.tag != "text" and content.strip():
        raise ValueError(f"<{node.tag}> cannot contain text")
    return Element(node.tag, attrs, content if node.tag == "text" else None, where)


@lru_cache(maxsize=8192)
def _attributes(tag: str, items: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
    """Checked attribute values of an element; every card of a layout repeats most elements
    exactly, so each distinct element is parsed once (the result is read-only and shared)."""
    primitive = PRIMITIVES.get(tag)
    if primitive is None:
        raise ValueError(f"unknown element <{tag}> (known: {', '.join(sorted(PRIMITIVES))})")
    spec = primitive.ATTRIBUTES
    attrs: dict[str, Any] = {}
    for key, value in items:
        if key not in spec:
            raise ValueError(f'<{tag}> has no attribute "{key}" (known: {", ".join(spec)})')
        try:
            attrs[key] = spec[key].parse(value)
        except ValueError as exc:
            raise ValueError(f'<{tag}> {key}: {exc}') from None
    for key, attr in spec.items():
        if key not in attrs:
            if attr.required:
                raise ValueError(f'<{tag}> needs the attribute "{key}"')
            attrs[key] = attr.default
    check = getattr(primitive, "check", None)
    if check is not None:
        check(attrs)
    return MappingProxyType(attrs)
