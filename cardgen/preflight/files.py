"""Preflight of the files already written for a set: the shop's PDF/X files (transparency,
colour spaces, the OutputIntent) and the total ink of a CMYK build."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import Source
from .report import Findings

_CMYK = re.compile(rb"(?<![\w.])([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+[kK](?![\w])")
_RGB = re.compile(rb"(?<![\w/])(rg|RG)(?![\w])")
_STRINGS = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)


def _files(card_set, limits, out: Path) -> list[Path]:
    """The written files to read: regular files only (a FIFO or a link to a device named like a
    PDF held preflight reading for ever)."""
    if limits.pdfx:
        return [path for path in sorted((out / limits.shop / card_set.name).glob("*.pdf")) if path.is_file()]
    if limits.shop == "home":
        path = out / f"{card_set.name}.pdf"
        return [path] if path.is_file() else []
    return []


def _dictionaries(pdf):
    """Every dictionary and stream of the file: each object, and the dictionaries written inside
    another (a page's /Group, an ExtGState in its resources), which are no objects of their own."""
    import pikepdf

    for obj in pdf.objects:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        stack = [obj]
        while stack:
            item = stack.pop()
            yield item
            for _, value in item.items():
                if isinstance(value, pikepdf.Array):
                    stack.extend(v for v in value if isinstance(v, pikepdf.Dictionary) and not v.is_indirect)
                elif isinstance(value, pikepdf.Dictionary) and not value.is_indirect:
                    stack.append(value)


def _opaque(value) -> bool:
    """An opacity of 1 (anything else, a number or not, is transparency)."""
    try:
        return float(value) >= 1
    except (TypeError, ValueError):
        return False


def _rgb_space(space) -> bool:
    """A colour space, or a resources' /ColorSpace dictionary, that is (or holds) RGB."""
    import pikepdf

    from ..color.pdf import _is_rgb

    if isinstance(space, pikepdf.Dictionary):
        return any(_is_rgb(value) for _, value in space.items())
    return _is_rgb(space)


def _image_ink(image) -> float:
    """The total ink (%) of a CMYK image's darkest pixel: a picture supplied in CMYK goes to the
    file as it is (its inks are the designer's), so only reading it shows 400% of rich black."""
    import pikepdf
    from PIL import ImageMath

    if image.get("/ColorSpace") != pikepdf.Name.DeviceCMYK:
        return 0.0
    picture = pikepdf.PdfImage(image).as_pil_image()  # the inks as printed (/Decode applied)
    if picture.mode != "CMYK":
        return 0.0
    c, m, y, k = picture.split()
    total = ImageMath.lambda_eval(lambda bands: bands["c"] + bands["m"] + bands["y"] + bands["k"],
                                  c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100


def check_files(card_set, limits, out: Path, findings: Findings, cmyk: bool) -> None:
    paths = _files(card_set, limits, out)
    if not paths:
        return
    import pikepdf  # only when there are files to read

    for path in paths:
        where = Source(_shown(path, card_set.root))
        try:  # no recovery: a file cut short opened "recovered" with some of its pages, and passed
            pdf = pikepdf.open(path, attempt_recovery=False)
        except pikepdf.PasswordError:
            findings.add("file", "error", ("unreadable",), None, where, "cannot read the PDF: it is encrypted "
                         "with a password")
            continue
        except pikepdf.PdfError as exc:
            detail = str(exc).removeprefix(f"{path}: ")
            findings.add("file", "error", ("unreadable",), None, where,
                         f"cannot read the PDF ({detail}): a damaged or cut-short file? export it again")
            continue
        with pdf:
            transparency, rgb, ink, image_ink = set(), False, 0.0, 0.0
            for obj in _dictionaries(pdf):
                if not _opaque(obj.get("/ca", 1)) or not _opaque(obj.get("/CA", 1)):
                    transparency.add("opacity")
                if "/SMask" in obj and obj.SMask != pikepdf.Name.None_:
                    transparency.add("soft mask")
                if obj.get("/S") == pikepdf.Name.Transparency:
                    transparency.add("transparency group")
                if _rgb_space(obj.get("/ColorSpace")):
                    rgb = True
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image and \
                        (cmyk or limits.pdfx):
                    try:
                        image_ink = max(image_ink, _image_ink(obj))
                    except (pikepdf.PdfError, NotImplementedError, OSError, ValueError) as exc:
                        findings.add("file", "error", ("unreadable",), None, where,
                                     f"cannot read the PDF (an image cannot be decoded: {exc}): a damaged or "
                                     "cut-short file? export it again")
                if isinstance(obj, pikepdf.Stream) and obj.is_indirect and "/Length1" not in obj and \
                        obj.get("/Subtype") != pikepdf.Name.Image and (cmyk or limits.pdfx):
                    try:
                        data = _STRINGS.sub(b"", obj.read_bytes())
                    except pikepdf.PdfError as exc:
                        findings.add("file", "error", ("unreadable",), None, where,
                                     f"cannot read the PDF (a stream cannot be decoded: {exc}): a damaged or cut-short "
                                     "file? export it again")
                        continue
                    rgb = rgb or bool(limits.pdfx and _RGB.search(data))
                    for match in _CMYK.finditer(data):
                        try:
                            ink = max(ink, sum(float(v) for v in match.groups()) * 100)
                        except ValueError:
                            pass
            if limits.pdfx:
                if pdf.is_encrypted:
                    findings.add("file", "error", ("encrypted",), None, where,
                                 "a PDF/X file may not be encrypted: export it again")
                if transparency:
                    findings.add("transparency", "error", ("file",), None, where,
                                 f"transparency in a PDF/X-1a file ({', '.join(sorted(transparency))}): "
                                 "export it again")
                if rgb:
                    findings.add("file", "error", ("rgb",), None, where, "RGB colour in a PDF/X-1a file")
                intents = pdf.Root.get("/OutputIntents")
                if not isinstance(intents, pikepdf.Array) or len(intents) != 1:
                    findings.add("file", "error", ("intent",), None, where,
                                 "a PDF/X file needs exactly one OutputIntent: export it again")
            if ink > limits.max_ink + 0.5:
                findings.add("ink", "error", ("file",), None, where,
                             f"a colour totals {ink:.0f}% ink, over the {limits.max_ink:g}% the printing condition "
                             "allows")
            if image_ink > limits.max_ink + 0.5:
                findings.add("ink", "error", ("image",), None, where,
                             f"an image's darkest colour totals {image_ink:.0f}% ink, over the {limits.max_ink:g}% "
                             "the printing condition allows (a picture given in CMYK is sent with its own inks)")


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)
