"""The straight lines a PDF page paints, as pdfplumber's ``page.lines`` gives them, read through
pikepdf's content-stream parser (qpdf, in C++).

pdfplumber (pdfminer) tokenises every operator of a page in Python, text included: on sheets of
text-heavy cards that is seconds a page. Tests of crop marks and fold lines need only the lines:
the path painting, the graphics state that places and colours it, and the forms (each card's
face) the page draws. Each line is a dict with pdfplumber's keys: ``x0``, ``x1``, ``top`` and
``bottom`` in points (top and bottom from the top of the page), ``stroking_color`` (a tuple of
the colour's components) and ``dash`` (``(array, phase)``). A subpath is a line when it is one
``m`` and one ``l`` (as pdfminer splits and names paths); ``n`` paints nothing.

The operators are read by regular expressions of the content-stream syntax here: turning each of
qpdf's parsed operands into a Python object took longer than the parsing, on text-heavy faces.
One expression matches a whole instruction (its operands, then its operator) so that a starfield's
hundred thousand curve points are stepped over in C; only the operands of the operators that
place or colour a line are read into numbers. A stream with an inline image (``BI``) is read by
pikepdf's parser instead.
"""
from __future__ import annotations

import re
from pathlib import Path

import pikepdf

PAINT = {"S", "f", "F", "f*", "B", "B*"}  # painting operators that do not close the path first
CLOSING_PAINT = {"s", "b", "b*"}  # they close it: "h" first, so no subpath of theirs is a line
OPERATORS = " ".join(["q", "Q", "cm", "K", "RG", "G", "SC", "SCN", "CS", "d", "m", "l", "c", "v", "y", "h", "re",
                      "n", "Do", *PAINT, *CLOSING_PAINT])


def _multiply(a, b):
    """The matrix ``a`` then ``b`` (PDF's row-vector convention: a point is p * a * b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(matrix, x, y):
    return x * matrix[0] + y * matrix[2] + matrix[4], x * matrix[1] + y * matrix[3] + matrix[5]


def page_lines(pdf_path: Path) -> list[list[dict]]:
    """Each page's lines, in painting order."""
    with pikepdf.open(pdf_path) as pdf:
        pages = []
        parsed: dict = {}  # a form's operators, read once however often pages draw it
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.mediabox)
            found: list[dict] = []
            state = {"ctm": (1, 0, 0, 1, -x0, -y0), "color": (0.0,), "dash": None}  # pdfminer's start
            _run(page.obj, page.obj.get("/Resources"), state, found, y1 - y0, depth=0, parsed=parsed)
            pages.append(found)
        return pages


_DELIMITER = rb"\s()<>\[\]{}/%"
# every token, whitespace included, so that the tokens add up to the stream when all is read; a
# string with parentheses nested in it (cardgen's writer escapes them) is not read here
_TOKEN = re.compile(rb"\s+|%[^\r\n]*|\((?:[^()\\]|\\.)*\)|<<|>>|\[|\]|<[^<>]*>|/[^" + _DELIMITER + rb"]*|[^"
                    + _DELIMITER + rb"]+", re.S)
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_SPACE = frozenset(b" \t\r\n\f\x00%")  # whitespace, and comments
_NUMBER = frozenset(b"+-.0123456789")
# possessive throughout: a stream that does not parse fails at once, with no backtracking
_GAP = rb"(?:\s|%[^\r\n]*+)*+"
_STRING = rb"\((?:[^()\\]|\\.)*+\)"
_OPERAND = (rb"(?:[-+.0-9]++|/[^" + _DELIMITER + rb"]*+|" + _STRING + rb"|<[^<>]*+>|\[(?:[^\[\]()]|" + _STRING
            + rb")*+\]|<<(?:[^<>]|<[^<>]*+>)*+>>|(?:true|false|null)(?![^" + _DELIMITER + rb"]))")
_OPERANDS = rb"(?:" + _OPERAND + _GAP + rb")*+"
_WORD_END = rb"(?![^" + _DELIMITER + rb"])"
_OPERATOR = rb"[^" + _DELIMITER + rb"0-9+.-][^" + _DELIMITER + rb"]*+"
_WANTED = frozenset(OPERATORS.split())
_KNOWN = b"|".join(re.escape(op.encode()) for op in sorted(_WANTED | {"BI"}, key=len, reverse=True))
_SKIPPED = rb"(?:" + _OPERANDS + rb"(?!(?:" + _KNOWN + rb")" + _WORD_END + rb")" + _OPERATOR + _GAP + rb")*+"
# One wanted instruction: the unwanted ones before it (skipped), its operands, its operator. A
# curve segment or "h" takes the segments after it along: the first one already keeps its
# subpath from being a line.
_INSTRUCTION = re.compile(_GAP + _SKIPPED + rb"(" + _OPERANDS + rb")(" + _OPERATOR + rb")", re.S)
_MORE_SEGMENTS = re.compile(rb"(?:" + _GAP + _SKIPPED + _OPERANDS + rb"[cvyh]" + _WORD_END + rb")*+", re.S)
_CURVE_NEXT = re.compile(_GAP + _SKIPPED + _OPERANDS + rb"[cvy]" + _WORD_END, re.S)
_TRAILING = re.compile(_GAP + _SKIPPED + _GAP + rb"\Z", re.S)
_NO_OPERANDS = frozenset({"c", "v", "y", "re", "h"})  # their points never make a line: not read
_SEGMENTS = frozenset({"c", "v", "y", "h"})


def _tokenized(data: bytes) -> list[tuple[str, list]] | None:
    """The wanted operators of a content stream with their operands (numbers as floats, names
    as "/Name", arrays as lists; none for the curve and rectangle operators, whose subpaths are
    not lines, and None for an ``m`` whose subpath curves at once, its segments skipped); None if
    these expressions cannot read the stream (an inline image, a string with nested parentheses)."""
    found: list[tuple[str, list]] = []
    at, end = 0, len(data)
    instruction = _INSTRUCTION.match
    while at < end:
        match = instruction(data, at)
        if match is None:
            break
        at = match.end()
        operator = match.group(2).decode("latin-1")
        if operator == "BI":
            return None
        if operator in _SEGMENTS:
            at = _MORE_SEGMENTS.match(data, at).end()
        elif operator == "m":
            curve = _CURVE_NEXT.match(data, at)
            if curve is not None:  # a curved subpath (a star, a disc): never a line, its points unread
                at = _MORE_SEGMENTS.match(data, curve.end()).end()
                found.append(("m", None))
                continue
        if operator in _WANTED:
            if operator in _NO_OPERANDS or not match.group(1):
                found.append((operator, []))
            else:
                operands = _operands(match.group(1))
                if operands is None:
                    return None
                found.append((operator, operands))
    if not _TRAILING.match(data, at):
        return None
    return found


def _operands(data: bytes) -> list | None:
    """One instruction's operands, read token by token."""
    tokens = _TOKEN.findall(data)
    if sum(map(len, tokens)) != len(data):
        return None
    operands: list = []
    nested: list[list] = []
    for token in tokens:
        first = token[0]
        if first in _SPACE:
            continue
        if first in _NUMBER:
            operands.append(float(token))
        elif first == 0x2F:  # /
            operands.append(_NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), token).decode("latin-1"))
        elif token in (b"[", b"<<"):
            nested.append(operands)
            operands = []
        elif token in (b"]", b">>"):
            inner, operands = operands, nested.pop()
            operands.append(inner)
        elif first in b"(<" or token in (b"true", b"false", b"null"):
            operands.append(token)
        else:  # a word among the operands: not an instruction this reader knows
            return None
    return operands if not nested else None


def _content(stream) -> bytes:
    """A form's stream, or a page's contents (one stream or several, read as one)."""
    if isinstance(stream, pikepdf.Stream):
        return stream.read_bytes()
    contents = stream.get("/Contents")
    if contents is None:
        return b""
    if isinstance(contents, pikepdf.Array):
        return b"\n".join(part.read_bytes() for part in contents)
    return contents.read_bytes()


def _operators(stream, parsed: dict) -> list[tuple[str, list]]:
    key = stream.objgen
    if key == (0, 0) or key not in parsed:
        found = _tokenized(_content(stream))
        if found is None:  # an inline image: qpdf's parser knows where its data ends
            found = [(str(operator), list(operands))
                     for operands, operator in pikepdf.parse_content_stream(stream, OPERATORS)]
        if key == (0, 0):
            return found
        parsed[key] = found
    return parsed[key]


def _run(stream, resources, state, found, height, depth, parsed):
    if depth > 16:
        raise AssertionError("forms nested more than 16 deep")
    stack = []
    subpaths: list[tuple[str, list]] = []
    for op, operands in _operators(stream, parsed):
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state.update(stack.pop())
        elif op == "cm":
            state["ctm"] = _multiply(tuple(float(v) for v in operands), state["ctm"])
        elif op in ("K", "RG", "G", "SC"):
            state["color"] = tuple(float(v) for v in operands)
        elif op == "SCN":
            if all(isinstance(v, (int, float, pikepdf.Object)) and not isinstance(v, pikepdf.Name)
                   for v in operands):
                state["color"] = tuple(float(v) for v in operands)
            else:
                state["color"] = None  # a pattern
        elif op == "CS":
            state["color"] = (0.0,)  # the initial colour of a new space, as pdfminer keeps it: unknown
        elif op == "d":
            array, phase = operands
            state["dash"] = ([float(v) for v in array], float(phase))
        elif op == "m":
            if operands is None:  # a subpath that curves at once
                subpaths.append(("mc", []))
            else:
                subpaths.append(("m", [_apply(state["ctm"], float(operands[0]), float(operands[1]))]))
        elif op in ("l", "c", "v", "y", "h", "re"):
            if op == "re":
                subpaths.append(("re", []))
            elif subpaths:
                shape, points = subpaths[-1]
                points = points + ([_apply(state["ctm"], float(operands[-2]), float(operands[-1]))]
                                   if op == "l" else [])
                subpaths[-1] = (shape + op, points)
        elif op in PAINT or op in CLOSING_PAINT or op == "n":
            if op in PAINT:
                for shape, points in subpaths:
                    if shape == "ml":
                        (ax, ay), (bx, by) = points
                        found.append({"x0": min(ax, bx), "x1": max(ax, bx), "top": height - max(ay, by),
                                      "bottom": height - min(ay, by), "stroking_color": state["color"],
                                      "dash": state["dash"], "stroke": op not in ("f", "F", "f*")})
            subpaths = []
        elif op == "Do" and resources is not None:
            xobject = resources.get("/XObject", {}).get(operands[0])
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                saved = dict(state)
                matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                state["ctm"] = _multiply(matrix, state["ctm"])
                _run(xobject, xobject.get("/Resources", resources), state, found, height, depth + 1, parsed)
                state.clear()
                state.update(saved)
