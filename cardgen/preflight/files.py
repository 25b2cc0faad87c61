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
    if limits.pdfx:
        return sorted((out / limits.shop / card_set.name).glob("*.pdf"))
    if limits.shop == "home":
        path = out / f"{card_set.name}.pdf"
        return [path] if path.is_file() else []
    return []


def check_files(card_set, limits, out: Path, findings: Findings, cmyk: bool) -> None:
    paths = _files(card_set, limits, out)
    if not paths:
        return
    import pikepdf  # only when there are files to read

    for path in paths:
        where = Source(_shown(path, card_set.root))
        try:
            pdf = pikepdf.open(path)
        except pikepdf.PdfError as exc:
            findings.add("file", "error", ("unreadable",), None, where, f"cannot read the PDF: {exc}")
            continue
        with pdf:
            transparency, rgb, ink = set(), False, 0.0
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary):
                    if float(obj.get("/ca", 1)) < 1 or float(obj.get("/CA", 1)) < 1:
                        transparency.add("opacity")
                    if "/SMask" in obj and obj.SMask != pikepdf.Name.None_:
                        transparency.add("soft mask")
                    if obj.get("/S") == pikepdf.Name.Transparency:
                        transparency.add("transparency group")
                    if obj.get("/ColorSpace") == pikepdf.Name.DeviceRGB:
                        rgb = True
                if isinstance(obj, pikepdf.Stream) and "/Length1" not in obj and obj.get("/Subtype") != \
                        pikepdf.Name.Image and (cmyk or limits.pdfx):
                    try:
                        data = _STRINGS.sub(b"", obj.read_bytes())
                    except pikepdf.PdfError:
                        continue
                    rgb = rgb or bool(limits.pdfx and _RGB.search(data))
                    for match in _CMYK.finditer(data):
                        try:
                            ink = max(ink, sum(float(v) for v in match.groups()) * 100)
                        except ValueError:
                            pass
            if limits.pdfx:
                if transparency:
                    findings.add("transparency", "error", ("file",), None, where,
                                 f"transparency in a PDF/X-1a file ({', '.join(sorted(transparency))}): "
                                 "export it again")
                if rgb:
                    findings.add("file", "error", ("rgb",), None, where, "RGB colour in a PDF/X-1a file")
                intents = pdf.Root.get("/OutputIntents")
                if intents is None or len(intents) != 1:
                    findings.add("file", "error", ("intent",), None, where,
                                 "a PDF/X file needs exactly one OutputIntent: export it again")
            if ink > limits.max_ink + 0.5:
                findings.add("ink", "error", ("file",), None, where,
                             f"a colour totals {ink:.0f}% ink, over the {limits.max_ink:g}% the printing condition "
                             "allows")


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)
