"""Apply a CMYK build's conversion to a written PDF: every content stream (pages and forms),
and every image.

Colours set with ``rg``/``RG`` (and ``sc``/``scn`` in DeviceRGB) become ``k``/``K`` by the set's
conversion (convert.py); ``cmyk()`` colours (``k``/``K``) and greys (``g``/``G``) are written as
they are. RGB images become CMYK images. With ``flatten`` (PDF/X-1a, which forbids
transparency), an opacity (``ca``/``CA`` of a graphics state) is pre-mixed into the colour it
paints, as a solid tint against paper white, and an image's soft mask is composited onto white.

A build converts its operators as each page and form is written (build.py) and uses this only
for images; exports convert a finished file here. Either way the drawing and its cache are the
RGB build's.
"""
from __future__ import annotations

import zlib
from pathlib import Path

import pikepdf
from PIL import Image
from pikepdf import Name, Operator

from .convert import Converter
from .operators import _RGB_SPACES, _State, OperatorRewriter, _num

_TRANSPARENCY_KEYS = ("/CA", "/ca", "/SMask", "/BM", "/AIS")


class PdfConverter(OperatorRewriter):
    def __init__(self, converter: Converter, flatten: bool = False, streams: bool = True):
        super().__init__(converter, flatten)
        self.streams = streams
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
        if not self.streams:  # images only: the operators were converted as they were written
            return
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
        for _, shading in (resources.get("/Shading") or {}).items():
            self._shading(shading)
        for _, pattern in (resources.get("/Pattern") or {}).items():
            if "/Shading" in pattern:
                self._shading(pattern.Shading)
        xobjects = resources.get("/XObject")
        if xobjects is None:
            return
        for _, xobject in xobjects.items():
            subtype = xobject.get("/Subtype")
            if subtype == Name.Image:
                self._image(xobject)
            elif subtype == Name.Form:
                self._stream(xobject, xobject.get("/Resources"), pdf)

    # shadings (gradients) ------------------------------------------------------------------
    def _shading(self, shading) -> None:
        """An RGB shading's colour space and its functions' end colours, converted: a gradient
        between converted colours (interpolated in CMYK, which a press does too)."""
        key = shading.objgen
        if (key != (0, 0) and key in self._done) or not _is_rgb(shading.get("/ColorSpace")):
            return
        self._done.add(key)
        shading.ColorSpace = Name.DeviceCMYK
        for function in _functions(shading.get("/Function")):
            for end in ("/C0", "/C1"):
                values = [float(v) for v in function.get(end, [0, 0, 0] if end == "/C0" else [1, 1, 1])]
                if len(values) == 3:
                    function[end] = pikepdf.Array([_num(v) for v in self.converter.cmyk(*values)])

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
        if soft is not None and space == Name.DeviceCMYK:
            # composited in its own inks: read with its mask, pikepdf turned it RGBA (with a warning
            # on stderr) and the inks of the build's conversion went through RGB and back
            alpha = pikepdf.PdfImage(soft).as_pil_image().convert("L")
            del xobject["/SMask"]
            picture = pikepdf.PdfImage(xobject).as_pil_image().convert("CMYK")
            picture = Image.composite(picture, Image.new("CMYK", picture.size, (0, 0, 0, 0)),
                                      alpha.resize(picture.size))
            soft = None
        else:
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


def _functions(function) -> list:
    """The type 2 (exponential) functions of a shading, through type 3 (stitching) ones."""
    if function is None:
        return []
    if isinstance(function, pikepdf.Array):
        return [f for item in function for f in _functions(item)]
    if int(function.get("/FunctionType", 0)) == 3:
        return [f for item in function.Functions for f in _functions(item)]
    return [function] if int(function.get("/FunctionType", 0)) == 2 else []


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


def rewrite_parsed(self: OperatorRewriter, data: bytes, resources) -> bytes:
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
            out.append(_operation(self._set(paint, state.stroke_alpha if stroke else state.fill_alpha, stroke)))
            continue
        elif op == "gs" and self.flatten and states is not None:
            graphics = states.get(str(operands[0]))
            if graphics is not None and ("/ca" in graphics or "/CA" in graphics):
                state.fill_alpha = float(graphics.get("/ca", state.fill_alpha))
                state.stroke_alpha = float(graphics.get("/CA", state.stroke_alpha))
                out.append((operands, operator))
                out.append(_operation(self._set(state.fill, state.fill_alpha, False)))
                out.append(_operation(self._set(state.stroke, state.stroke_alpha, True)))
                continue
        out.append((operands, operator))
    if self.flatten and states is not None:
        self._states.append(states)
    return pikepdf.unparse_content_stream(out)


def _operation(pair):
    values, operator = pair
    return values, Operator(operator)
