"""Apply a CMYK build's conversion to a written PDF: every content stream (pages and forms),
and every image.

Colours set with ``rg``/``RG`` (and ``sc``/``scn`` in DeviceRGB) become ``k``/``K`` by the set's
conversion (convert.py); ``cmyk()`` colours (``k``/``K``) and greys (``g``/``G``) are written as
they are. RGB images become CMYK images. With ``flatten`` (PDF/X-1a, which forbids
transparency), an opacity (``ca``/``CA`` of a graphics state) is pre-mixed into the colour it
paints, as a solid tint against paper white, and an image's soft mask is composited onto white.

The conversion runs on the finished file rather than while drawing, so the drawing, its cache
and the RGB build stay one code path.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path

import pikepdf
from PIL import Image
from pikepdf import Name, Operator

from .convert import Converter

_RGB_SPACES = {"/DeviceRGB", "/CalRGB"}
_TRANSPARENCY_KEYS = ("/CA", "/ca", "/SMask", "/BM", "/AIS")
_DELIM = rb"(?![^\s\[\]()<>/%{}])"  # the end of a token
_STRINGS = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)  # literal strings (parentheses escaped)
_OPERATORS = re.compile(rb"(?:rg|RG|scn|sc|SCN|SC|k|K|g|G|gs|cs|CS|q|Q|BT|ET)" + _DELIM)
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


class PdfConverter:
    def __init__(self, converter: Converter, flatten: bool = False):
        self.converter, self.flatten = converter, flatten
        self._done: set = set()
        self._memo: dict = {}  # (operator, operands, in text, opacity) -> (paint, replacement)
        self._states: list = []  # graphics states whose opacity is pre-mixed once every stream is read

    def convert_file(self, path: Path, out: Path | None = None) -> None:
        with pikepdf.open(path, allow_overwriting_input=True) as pdf:
            self.convert(pdf)
            pdf.save(out or path, deterministic_id=True, compress_streams=True,
                     object_stream_mode=pikepdf.ObjectStreamMode.disable)

    def convert(self, pdf: pikepdf.Pdf) -> None:
        self._done, self._states = set(), []  # object numbers are the document's own
        for page in pdf.pages:
            self._stream(page.obj, page.obj.get("/Resources"), pdf)
        for states in self._states:
            for _, graphics in states.items():
                for key in ("/CA", "/ca"):
                    if key in graphics:
                        del graphics[key]

    # content streams -------------------------------------------------------------------------
    def _stream(self, holder, resources, pdf) -> None:
        key = holder.objgen
        if key in self._done and key != (0, 0):
            return
        self._done.add(key)
        if resources is not None:
            self._resources(resources, pdf)
        if holder.get("/Type") == Name.Page:
            contents = holder.get("/Contents")
            streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
            data = b"\n".join(s.read_bytes() for s in streams)
            new = self._rewrite(data, resources)
            if new is not data:
                holder.Contents = pdf.make_stream(zlib.compress(new, 5))
                holder.Contents.Filter = Name.FlateDecode
        else:
            data = holder.read_bytes()
            new = self._rewrite(data, resources)
            if new is not data:
                holder.write(zlib.compress(new, 5), filter=Name.FlateDecode)

    def _resources(self, resources, pdf) -> None:
        states = resources.get("/ExtGState")
        if states is not None and self.flatten:
            for _, state in states.items():
                for key in _TRANSPARENCY_KEYS:
                    if key in state:
                        if key not in ("/CA", "/ca"):
                            del state[key]
        xobjects = resources.get("/XObject")
        if xobjects is None:
            return
        for _, xobject in xobjects.items():
            subtype = xobject.get("/Subtype")
            if subtype == Name.Image:
                self._image(xobject)
            elif subtype == Name.Form:
                self._stream(xobject, xobject.get("/Resources"), pdf)

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

        def segment(piece: bytes, out: list) -> None:
            nonlocal state
            done = 0
            for match in _OPERATORS.finditer(piece):
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
        return (" ".join(f"{v:.4g}" for v in values) + " " + str(operator)).encode("ascii")

    def _rewrite_parsed(self, data: bytes, resources) -> bytes:
        """The same through pikepdf's parser, for streams with inline images."""
        out = []
        state = _State()
        stack: list[_State] = []
        in_text = False
        states = resources.get("/ExtGState") if resources is not None else None
        convert = self.converter.cmyk
        with pikepdf.new() as scratch:
            instructions = pikepdf.parse_content_stream(pikepdf.Stream(scratch, data))
        for operands, operator in instructions:
            op = str(operator)
            if op == "q":
                stack.append(state.copy())
            elif op == "Q":
                state = stack.pop() if stack else _State()
            elif op == "BT":
                in_text = True
            elif op == "ET":
                in_text = False
            elif op in ("rg", "RG", "k", "K", "g", "G"):
                stroke = op.isupper()
                values = tuple(float(v) for v in operands)
                kind = op.lower()
                if kind == "rg":
                    values, kind = convert(*values, stroke or in_text), "k"
                paint = (kind, values)
                if stroke:
                    state.stroke = paint
                else:
                    state.fill = paint
                out.append(self._set(paint, state.stroke_alpha if stroke else state.fill_alpha, stroke))
                continue
            elif op == "gs" and self.flatten and states is not None:
                graphics = states.get(str(operands[0]))
                if graphics is not None and ("/ca" in graphics or "/CA" in graphics):
                    state.fill_alpha = float(graphics.get("/ca", state.fill_alpha))
                    state.stroke_alpha = float(graphics.get("/CA", state.stroke_alpha))
                    out.append((operands, operator))
                    out.append(self._set(state.fill, state.fill_alpha, False))
                    out.append(self._set(state.stroke, state.stroke_alpha, True))
                    continue
            out.append((operands, operator))
        if self.flatten and states is not None:
            self._states.append(states)
        return pikepdf.unparse_content_stream(out)

    def _set(self, paint, alpha: float, stroke: bool):
        kind, values = paint
        if alpha < 1 and self.flatten:  # a solid tint against paper white
            if kind == "g":
                values, kind = (1 - (1 - values[0]) * alpha,), "g"
            else:
                values = tuple(v * alpha for v in values)
        operator = {"g": "g", "k": "k"}[kind]
        return [_num(v) for v in values], Operator(operator.upper() if stroke else operator)

    # images ----------------------------------------------------------------------------------
    def _image(self, xobject) -> None:
        key = xobject.objgen
        if key in self._done:
            return
        self._done.add(key)
        space = xobject.get("/ColorSpace")
        rgb = _is_rgb(space)
        soft = xobject.get("/SMask") if self.flatten else None
        if not rgb and soft is None:
            return
        picture = pikepdf.PdfImage(xobject).as_pil_image()
        if soft is not None:
            alpha = pikepdf.PdfImage(soft).as_pil_image().convert("L")
            base = picture.convert("RGB" if rgb or picture.mode != "L" else "L")
            white = Image.new(base.mode, base.size, "white")
            picture = Image.composite(base, white, alpha.resize(base.size))
            del xobject["/SMask"]
        if picture.mode == "L":
            data, space_name = picture.tobytes(), Name.DeviceGray
        elif picture.mode == "CMYK" and not rgb:
            data, space_name = picture.tobytes(), Name.DeviceCMYK
        else:
            data, space_name = self.converter.image(picture.convert("RGB")).tobytes(), Name.DeviceCMYK
        for key_name in ("/DecodeParms", "/Decode", "/Mask"):
            if key_name in xobject:
                del xobject[key_name]
        xobject.write(zlib.compress(data, 6), filter=Name.FlateDecode)
        xobject.ColorSpace = space_name
        xobject.BitsPerComponent = 8


def _is_rgb(space) -> bool:
    if space is None:
        return False
    if isinstance(space, pikepdf.Name):
        return str(space) in _RGB_SPACES
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family == "/ICCBased":
            return int(space[1].get("/N", 3)) == 3
        if family == "/Indexed":
            return _is_rgb(space[1])
        return family in _RGB_SPACES
    return False


def to_cmyk(path: Path, converter: Converter, flatten: bool = False) -> None:
    """Convert the PDF at ``path`` in place."""
    PdfConverter(converter, flatten).convert_file(Path(path))
