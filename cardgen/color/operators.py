"""Colour operators of a content stream, converted to CMYK in one pass over its bytes (see
pdf.py for the whole file, build.py for a build's pages and forms as they are written).

Strings are set aside first (text, never operators; cardgen and reportlab escape their
parentheses), then the colour operators (``rg``/``RG``, ``sc``/``scn`` in an RGB space) are
found by one regular expression and rewritten as ``k``/``K``; ``q``/``Q``, ``BT``/``ET`` and
``gs`` are followed for the graphics state (text or line, opacity).
"""
from __future__ import annotations

import re

from .convert import Converter
from ..draw.pdfops import number

_RGB_SPACES = {"/DeviceRGB", "/CalRGB"}
_DELIM = rb"(?![^\s\[\]()<>/%{}])"  # the end of a token
_STRINGS = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)  # literal strings (parentheses escaped)
_OPERATORS = re.compile(rb"(?:rg|RG|scn|sc|SCN|SC|k|K|g|G|gs|cs|CS|q|Q|BT|ET)" + _DELIM)
_COLOUR_OPERATORS = re.compile(rb"(?:rg|RG|scn|sc|SCN|SC|k|K|g|G|cs|CS|BT|ET)" + _DELIM)
_BEFORE = frozenset(b" \t\r\n\f\x00]>)")
_WHITE = frozenset(b" \t\r\n\f\x00")
_NUMERIC = frozenset(b"0123456789.-+")


def _operands_start(piece: bytes, at: int) -> int:
    """Where the (up to four) numbers before the operator at ``at`` begin (``at``: none)."""
    begin = position = at
    for _ in range(4):
        while position > 0 and piece[position - 1] in _WHITE:
            position -= 1
        end = position
        while position > 0 and piece[position - 1] in _NUMERIC:
            position -= 1
        if position == end or (position > 0 and piece[position - 1] not in _WHITE):
            break
        begin = position
    return begin
_NAME_BEFORE = re.compile(rb"(/[^\s/\[\]()<>{}%]+)\s+\Z")
_INLINE_IMAGE = re.compile(rb"(?<![^\s\[\]()<>/%{}])BI" + _DELIM)


class _State:
    __slots__ = ("fill", "stroke", "fill_alpha", "stroke_alpha", "fill_space", "stroke_space")

    def __init__(self):
        self.fill = self.stroke = ("g", (0.0,))
        self.fill_alpha = self.stroke_alpha = 1.0
        self.fill_space = self.stroke_space = "/DeviceGray"

    def copy(self) -> "_State":
        other = _State.__new__(_State)
        other.fill, other.stroke, other.fill_alpha = self.fill, self.stroke, self.fill_alpha
        other.stroke_alpha, other.fill_space, other.stroke_space = self.stroke_alpha, self.fill_space, self.stroke_space
        return other


def _num(value: float) -> float:
    return round(value, 4)


class OperatorRewriter:
    """Rewrites content streams' colour operators by ``converter``; with ``flatten``, opacity
    (the ``ca``/``CA`` of a graphics state) is pre-mixed into the colour, against paper white."""

    def __init__(self, converter: Converter, flatten: bool = False):
        self.converter, self.flatten = converter, flatten
        self._memo: dict = {}  # (operator, operands, in text, opacity) -> (paint, replacement)
        self._states: list = []  # graphics states whose opacity is pre-mixed once every stream is read

    def _rewrite(self, data: bytes, resources) -> bytes:
        """The stream with its colour operators converted. Tokens are found by one regular
        expression that steps over strings (their parentheses are escaped: cardgen and reportlab
        write them so), which is ten times faster than parsing the stream into objects."""
        if b"BI" in data and _INLINE_IMAGE.search(data):  # binary data inside: parse it properly
            return self._rewrite_parsed(data, resources)
        state = _State()
        stack: list[_State] = []
        text = [False]
        states = resources.get("/ExtGState") if resources is not None and self.flatten else None
        changed = [False]

        memo = self._memo

        def colour(op: bytes, numbers: bytes) -> bytes | None:
            """The replacement of one colour operator with its operands, or None to keep it."""
            stroke = op[:1].isupper()
            alpha = state.stroke_alpha if stroke else state.fill_alpha
            key = (op, numbers, text[0], alpha)
            known = memo.get(key)
            if known is not None:
                if stroke:
                    state.stroke = known[0]
                else:
                    state.fill = known[0]
                return known[1]
            result = _colour(op, numbers, stroke, alpha)
            if op in (b"rg", b"RG", b"k", b"K", b"g", b"G"):
                memo[key] = (state.stroke if stroke else state.fill, result)
            return result

        def _colour(op: bytes, numbers: bytes, stroke: bool, alpha: float) -> bytes | None:
            values = tuple(float(v) for v in numbers.split())
            lower = op.lower()
            if lower in (b"sc", b"scn"):
                current = state.stroke_space if stroke else state.fill_space
                kind_of = {3: "rg", 4: "k", 1: "g"}.get(len(values))
                if kind_of is None or (current not in _RGB_SPACES and current not in ("/DeviceCMYK", "/DeviceGray")):
                    return None
            else:
                kind_of = lower.decode("ascii")
                if len(values) != {"rg": 3, "k": 4, "g": 1}[kind_of]:
                    return None
            if kind_of == "rg":
                values = self.converter.cmyk(*values, stroke or text[0])
                kind_of = "k"
            paint = (kind_of, values)
            if stroke:
                state.stroke = paint
            else:
                state.fill = paint
            if kind_of != "k" or lower != b"k" or alpha < 1:
                return self._op(paint, alpha, stroke)
            return None

        # q/Q matter only to restore an opacity (flatten); otherwise colours are rewritten one by one
        operators = _OPERATORS if self.flatten else _COLOUR_OPERATORS

        def segment(piece: bytes, out: list) -> None:
            nonlocal state
            done = 0
            for match in operators.finditer(piece):
                word = match.group(0)
                at = match.start()
                if at and piece[at - 1] not in _BEFORE:
                    continue
                if word == b"q":
                    stack.append(state.copy())
                elif word == b"Q":
                    state = stack.pop() if stack else _State()
                elif word == b"BT":
                    text[0] = True
                elif word == b"ET":
                    text[0] = False
                elif word in (b"gs", b"cs", b"CS"):
                    named = _NAME_BEFORE.search(piece, max(0, at - 128), at)
                    if named is None:
                        continue
                    name = named.group(1).decode("latin-1")
                    if word != b"gs":
                        setattr(state, "stroke_space" if word == b"CS" else "fill_space",
                                "/DeviceCMYK" if name in _RGB_SPACES else name)
                        if name in _RGB_SPACES:
                            out.append(piece[done:named.start(1)])
                            out.append(b"/DeviceCMYK ")
                            done = at
                            changed[0] = True
                        continue
                    graphics = states.get(name) if states is not None else None
                    if graphics is None or ("/ca" not in graphics and "/CA" not in graphics):
                        continue
                    state.fill_alpha = float(graphics.get("/ca", state.fill_alpha))
                    state.stroke_alpha = float(graphics.get("/CA", state.stroke_alpha))
                    out.append(piece[done:match.end()])
                    out.append(b" " + self._op(state.fill, state.fill_alpha, False) + b" "
                               + self._op(state.stroke, state.stroke_alpha, True))
                    done = match.end()
                    changed[0] = True
                else:
                    begin = _operands_start(piece, at)
                    if begin == at:
                        continue
                    replacement = colour(word, piece[begin:at])
                    if replacement is not None:
                        out.append(piece[done:begin])
                        out.append(replacement)
                        done = match.end()
                        changed[0] = True
            out.append(piece[done:])

        # strings are text, never operators: they are set aside (each becomes "()"), and put
        # back in order once the operators around them are converted
        strings = _STRINGS.findall(data)
        out: list = []
        segment(_STRINGS.sub(b"()", data) if strings else data, out)
        result = b"".join(out)
        if strings and changed[0]:
            pieces = result.split(b"()")
            if len(pieces) != len(strings) + 1:  # pragma: no cover - "()" only ever stands for a string
                raise AssertionError("strings lost while converting colours")
            joined = [pieces[0]]
            for string, piece in zip(strings, pieces[1:]):
                joined.append(string)
                joined.append(piece)
            result = b"".join(joined)
        if states is not None:
            self._states.append(states)
        return result if changed[0] else data

    def _op(self, paint, alpha: float, stroke: bool) -> bytes:
        values, operator = self._set(paint, alpha, stroke)
        return (" ".join(map(number, values)) + " " + operator).encode("ascii")

    def _rewrite_parsed(self, data: bytes, resources) -> bytes:
        from .pdf import rewrite_parsed  # pikepdf's parser, for the rare stream with inline images

        return rewrite_parsed(self, data, resources)

    def _set(self, paint, alpha: float, stroke: bool):
        kind, values = paint
        if alpha < 1 and self.flatten:  # a solid tint against paper white
            if kind == "g":
                values, kind = (1 - (1 - values[0]) * alpha,), "g"
            else:
                values = tuple(v * alpha for v in values)
        operator = {"g": "g", "k": "k"}[kind]
        return [_num(v) for v in values], operator.upper() if stroke else operator
