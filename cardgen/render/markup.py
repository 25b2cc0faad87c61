"""Card markup (XML from a template) -> checked :class:`Element` records."""
from __future__ import annotations

import re
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from lxml import etree

from ..draw import CONTAINERS, GROUP_END, PRIMITIVES
from ..errors import CardgenError, Problem, Source

_SRC = re.compile(r'_src="([^"]+):(\d+)"')
_UNCARRIED = re.compile(r"Char 0x([0-9A-Fa-f]+) out of allowed range|invalid Char value (\d+)")
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


def _last_marker_before(markup: str, line: int, fallback: Source | None, file: str | None = None) -> Source | None:
    """The template line of the last element that starts on or before ``line`` of the markup (of
    the template ``file``, if given), or ``fallback``."""
    found = fallback
    for text in markup.split("\n")[:line]:
        for match in _SRC.finditer(text):
            if file is None or match.group(1) == file:
                found = Source(match.group(1), int(match.group(2)))
    return found


def parse_markup(markup: str, card: str | None, fallback: Source) -> tuple[Element, ...]:
    """The checked elements of a face's markup (raises CardgenError naming the template line)."""
    elements = _in_known_frame(markup, fallback)
    if elements is not None:
        return elements
    return _parsed(markup, card, fallback)


# Every card of a layout renders the same frame around its own text: the markup with each
# ``<text>``'s content taken out (its frame) is parsed once, and a card's elements are its
# frame's with the contents put back. A content is put back only when the parser would read
# it as exactly those characters (no markup, no character XML refuses or changes: a carriage
# return becomes a line feed; no entity but the five escapes), and only into a frame with no
# comment, CDATA, DOCTYPE or processing instruction, where ``<text`` can only start an element
# (a start tag cut short by a ">" in an attribute leaves a frame that does not parse).
_TEXT_BOX = re.compile(r"(<text(?=[\s>])[^<>]*>)([^<]*)</text\s*>")
_HOLE = "\ufdd0"  # a box's content in its frame: a character no text is expected to hold (else: parsed whole)
_BOX_END = _HOLE + "</text>"
_REFUSED = re.compile("[\x00-\x08\x0b\x0c\r\x0e-\x1f\ud800-\udfff\ufffe\uffff\ufdd0]")
_UNKNOWN_ENTITY = re.compile(r"&(?!(?:lt|gt|amp|quot|apos|#34|#39);)")
_ESCAPE = re.compile(r"&(lt|gt|amp|quot|apos|#34|#39);")
_ESCAPED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'", "#34": '"', "#39": "'"}
_FRAMES_KEPT = 64
_frames: dict = {}  # (frame, fallback source) -> (its elements, the indexes of its boxes) or None: parsed whole
_FRAME_MOST = 1 << 20  # characters: longer markup is parsed whole (the parser's own limits then apply)


_new_tuple = tuple.__new__


def _in_known_frame(markup: str, fallback: Source) -> tuple[Element, ...] | None:
    """The elements of ``markup`` from its frame's (see above), or None: parse it whole."""
    if len(markup) > _FRAME_MOST:
        return None
    pieces = _TEXT_BOX.split(markup)
    contents = pieces[2::3]
    joined = "\n".join(contents)
    if _REFUSED.search(joined) or "]]>" in joined or ("&" in joined and _UNKNOWN_ENTITY.search(joined)):
        return None
    pieces[2::3] = [_BOX_END] * len(contents)
    key = ("".join(pieces), fallback)
    known = _frames.get(key, False)
    if known is False:
        known = _frame(key[0], fallback, len(contents))
        if len(_frames) >= _FRAMES_KEPT:  # layouts that differ card by card: memory stays flat
            _frames.clear()
        _frames[key] = known
    if known is None:
        return None
    elements, boxes = known
    elements = list(elements)
    for index, content in zip(boxes, contents):
        if "&" in content:
            content = _ESCAPE.sub(lambda match: _ESCAPED[match.group(1)], content)
        box = elements[index]
        elements[index] = _new_tuple(Element, (box[0], box[1], content, box[3]))  # (its __new__ costs a call)
    return tuple(elements)


def _frame(frame: str, fallback: Source, boxes: int) -> tuple[tuple[Element, ...], tuple[int, ...]] | None:
    """A frame's elements and the indexes of its emptied boxes, or None when it is not one to
    fill (the markup is then parsed whole, and its problems, if any, said as they are)."""
    if "<!" in frame or "<?" in frame or frame.count(_HOLE) != boxes:
        return None
    try:
        elements = _parsed(frame, None, fallback)
    except CardgenError:
        return None
    indexes = tuple(i for i, element in enumerate(elements) if element.tag == "text" and element.content == _HOLE)
    return (elements, indexes) if len(indexes) == boxes else None


def _parsed(markup: str, card: str | None, fallback: Source) -> tuple[Element, ...]:
    try:
        root = etree.fromstring(markup.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or 1
        where = _last_marker_before(markup, line, None)
        first = _SRC.search(markup)
        if where is None:  # before the first element: its template's <card> line, not set.yaml's (fallback)
            where = _marker(f"{first.group(1)}:{first.group(2)}") if first else fallback
        # the parser's own "line 11, column 392" counts in the rendered markup, which the designer
        # never sees (and differs from card to card): the template line says where
        reason = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or "").strip()).strip()
        character = _UNCARRIED.search(reason)
        if character:  # a value of the card's data, as a rule: a template writes no NUL
            code = int(character.group(1), 16) if character.group(1) else int(character.group(2))
            kind = "a control character" if code < 0x20 else "not a character"
            reason = f"a value here holds U+{code:04X} ({kind}), which card markup cannot carry: remove it from the data"
        elif reason.startswith("Start tag expected") and first is not None and markup.lstrip()[:1] != "<":
            where, card_line = _text_before_card(markup, first, where)
            reason = f"the template writes text before {card_line} (card markup is one <card> element; put " \
                     "text in a <text>)"
        elif reason == "Extra content at the end of the document" and first is not None:
            # the last element before it may be an included template's; what follows </card> is the layout's
            reason = "the template writes something after </card> (card markup is one <card> element)"
            where = _last_marker_before(markup, line, where, file=first.group(1))
        elif reason == "Document is empty":
            reason = "the template produces no card markup (it is empty, or writes only spaces)"
        elif reason.startswith("Excessive depth in document"):  # libxml2's limit, in libxml2's words
            reason = "the card markup nests elements more than 256 deep (groups inside groups?)"
        else:
            reason = f"the template does not produce valid card markup: {reason}"
        raise CardgenError(Problem(reason, where, card)) from None
    root_source = _source(root.get("_src"), fallback)
    if root.tag != "card":
        raise CardgenError(Problem(f"card markup must start with <card>, not <{root.tag}>", root_source, card))
    extra = [k for k in root.attrib if k != "_src"]
    if extra:
        raise CardgenError(Problem(f'<card> takes no attributes, got "{extra[0]}"', root_source, card))
    if (root.text or "").strip() or any((child.tail or "").strip() for child in root):
        # a value written outside any <text> (``<card>{{ name }}<rect .../>``) would print nowhere
        where, between = _stray_text(root, root_source, markup)
        raise CardgenError(Problem(f"<card> cannot contain text (put it in a <text>){between}", where, card))
    problems: list[Problem] = []
    elements: list[Element] = []
    _flatten(list(root), root_source, elements, problems, card, markup)
    if problems:
        raise CardgenError(problems)
    return tuple(elements)


_END_ATTRS = MappingProxyType({})


def _flatten(nodes, parent_source: Source, elements: list, problems: list, card: str | None,
             markup: str | None = None) -> None:
    """Append the elements of ``nodes``; a group or clip becomes its start, its content and an
    end marker, so that every later stage sees a flat list."""
    for node in nodes:
        if not isinstance(node.tag, str):  # processing instructions
            continue
        where = _source(node.get("_src"), parent_source)
        if node.tag in CONTAINERS:
            try:
                start = _container(node, where, markup)
            except ValueError as exc:
                problems.append(Problem(str(exc), exc.source if isinstance(exc, StrayText) else where, card))
                continue
            elements.append(start)
            content = [child for child in node if isinstance(child.tag, str)]
            if node.tag == "clip":
                content = content[1:]  # the first is the outline, part of the start
            _flatten(content, where, elements, problems, card, markup)
            elements.append(Element(GROUP_END, _END_ATTRS, None, where))
            continue
        try:
            elements.append(_element(node, where))
        except ValueError as exc:
            problems.append(Problem(str(exc), where, card))


def _text_before_card(markup: str, card_marker, card: Source) -> tuple[Source, str]:
    """The template line of text written before ``<card>``: as many lines above the ``<card>``
    line as the text is in the markup, exact unless a line of Jinja statements (which prints no
    line of its own) lies between: so the ``<card>``'s line is named too."""
    card_start = markup.rfind("<", 0, card_marker.start())
    distance = markup.count("\n", len(markup) - len(markup.lstrip()), card_start)
    if distance == 0:
        return card, "<card>"
    return Source(card.file, max(1, card.line - distance)), f"the <card> of line {card.line}"


def _items(node) -> tuple:
    items = node.items()
    if items and items[0][0] == "_src":  # where the renderer puts it (XML allows it only once)
        return tuple(items[1:])
    return tuple(item for item in items if item[0] != "_src")


class StrayText(ValueError):
    """Text in a container, said at the template line it is estimated to be written on."""

    def __init__(self, message: str, source: Source):
        super().__init__(message)
        self.source = source


def _start_lines(root, markup: str | None):
    """The markup line each element's start tag begins on (lxml's ``sourceline`` is the line it
    ends on), from the ``_src`` markers, which the start tags hold in document order."""
    if markup is None:
        return lambda element: element.sourceline
    marked = [element for element in root.iter() if isinstance(element.tag, str) and element.get("_src")]
    lines = [markup.count("\n", 0, found.start()) + 1 for found in _SRC.finditer(markup)]
    if len(lines) != len(marked):  # a marker's text written where no tag is: lxml's lines, then
        return lambda element: element.sourceline
    starts = {id(element): line for element, line in zip(marked, lines)}
    return lambda element: starts.get(id(element), element.sourceline)


def _stray_text(node, node_source: Source, markup: str | None = None) -> tuple[Source, str]:
    """Where the first text written in ``node`` outside any element is: its template line, and
    the elements around it when that line is uncertain. The parser knows the markup's line of
    each element only, and the template line of each (``_src``): the text's markup line is
    counted back from the element after it (or from the container's end, for the root), and its
    template line as many lines away from the elements around it, exact unless a line of Jinja
    statements (which prints no line of its own) lies between: then those two differ, and the
    message names both elements."""
    children = [child for child in node if isinstance(child.tag, str)]
    start_line = _start_lines(node.getroottree().getroot(), markup)
    pieces = [(None, node.text)] + [(child, child.tail) for child in children]
    for index, (before, text) in enumerate(pieces):
        if not (text or "").strip():
            continue
        start = len(text) - len(text.lstrip())
        after = children[index] if index < len(children) else None
        previous = before if before is not None else node
        if after is not None:
            line = start_line(after) - text.count("\n", start)
        elif markup is not None and node.getparent() is None and "</card" in markup:
            line = markup.count("\n", 0, markup.rindex("</card")) + 1 - text.count("\n", start)
        elif before is None:
            line = start_line(node) + text.count("\n", 0, start)
        else:
            return _source(previous.get("_src"), node_source), ""
        around = []
        for element, sign in ((previous, 1), (after, -1)):
            if element is not None and element.get("_src") and start_line(element):
                marked = _source(element.get("_src"), node_source)
                distance = (line - start_line(element)) * sign
                if distance >= 0:
                    around.append((element, marked, Source(marked.file, max(1, marked.line + distance * sign))))
        if not around:
            return node_source, ""
        estimate = around[-1][2]  # the element after: a designer's stray words lead into it as often as not
        if len(around) == 2 and around[0][1].file == around[1][1].file and around[0][2] != around[1][2]:
            (first, first_at, _), (second, second_at, _) = around
            return estimate, f" (it is written between the <{first.tag}> of line {first_at.line} and the " \
                             f"<{second.tag}> of line {second_at.line})"
        return estimate, ""
    return node_source, ""


def _container(node, where: Source, markup: str | None = None) -> Element:
    if (node.text or "").strip() or any((child.tail or "").strip() for child in node):
        where, between = _stray_text(node, where, markup)
        raise StrayText(f"<{node.tag}> cannot contain text (put it in a <text>){between}", where)
    if node.tag == "group":
        return Element("group", _attributes("group", _items(node)), None, where)
    extra = [key for key in node.attrib.keys() if key != "_src"]
    if extra:
        raise ValueError(f'<clip> has no attributes, got "{extra[0]}"')
    children = [child for child in node if isinstance(child.tag, str)]
    from ..draw.clip import SHAPES

    if not children or children[0].tag not in SHAPES:
        found = f"<{children[0].tag}>" if children else "nothing"
        raise ValueError(f"<clip> starts with its outline, one of {', '.join(f'<{t}>' for t in SHAPES)}; "
                         f"got {found}")
    return Element("clip", _clip_attributes(children[0].tag, _items(children[0])), None, where)


@lru_cache(maxsize=1024)
def _clip_attributes(tag: str, items: tuple) -> Mapping[str, Any]:
    from ..draw.clip import check_outline

    shape_attrs = _attributes(tag, items)
    check_outline(tag, shape_attrs)
    return MappingProxyType({"shape": tag, "shape_attrs": shape_attrs})


def _element(node, where: Source) -> Element:
    items = _items(node)
    attrs = _attributes(node.tag, items)
    if len(node):
        entity = next((child for child in node if child.tag is etree.Entity), None)
        if entity is not None:  # a DOCTYPE's entity, never expanded: nothing outside the markup is read
            raise ValueError(f"<{node.tag}> holds the entity {entity.text}, which card markup does not expand (write "
                             "the characters themselves, or &amp; &lt; &gt; &quot; &apos; &#...;)")
        raise ValueError(f"<{node.tag}> cannot contain other elements")
    content = node.text or ""
    if node.tag != "text" and content.strip():
        raise ValueError(f"<{node.tag}> cannot contain text")
    return Element(node.tag, attrs, content if node.tag == "text" else None, where)


def _near(name: str, known) -> str:
    """' (did you mean "align"?)' for a misspelt element or attribute name, else ''."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""


@lru_cache(maxsize=8192)
def _attributes(tag: str, items: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
    """Checked attribute values of an element; every card of a layout repeats most elements
    exactly, so each distinct element is parsed once (the result is read-only and shared)."""
    primitive = PRIMITIVES.get(tag)
    if primitive is None:
        raise ValueError(f"unknown element <{tag}>{_near(tag, PRIMITIVES)} (known: {', '.join(sorted(PRIMITIVES))})")
    spec = primitive.ATTRIBUTES
    attrs: dict[str, Any] = {}
    for key, value in items:
        if key not in spec:
            raise ValueError(f'<{tag}> has no attribute "{key}"{_near(key, spec)} (known: {", ".join(spec)})')
        try:
            attrs[key] = spec[key].parse(value)
        except ValueError as exc:
            raise ValueError(f'<{tag}> {key}: {exc}') from None
        except ArithmeticError:  # a parser's arithmetic on numbers too near 0 or too large: the attribute's problem
            raise ValueError(f'<{tag}> {key}: its numbers are too large or too near 0 to compute with, got '
                             f'"{value}"') from None
    for key, attr in spec.items():
        if key not in attrs:
            if attr.required:
                raise ValueError(f'<{tag}> needs the attribute "{key}"')
            attrs[key] = attr.default
    check = getattr(primitive, "check", None)
    if check is not None:
        check(attrs)
    return MappingProxyType(attrs)
