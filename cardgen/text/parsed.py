"""reportlab's reading of a TrueType file, kept between builds.

Every build in a new process reads each font it uses: reportlab walks the font's tables in
Python, about 10 ms a face (5 ms with the bulk reading of ttfread.py). What it finds is plain data (numbers, tables, names), kept here
with ``marshal`` by the file's content hash, reportlab's version and the code that read it
(code_identity.py), and read back in a fraction
of that time. The font file itself is still read from fonts/, so subsets are cut from it.
"""
from __future__ import annotations

import marshal
from fnmatch import fnmatch
from pathlib import Path
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from ..code_identity import code_identity
from ..kept_file import read_sealed, sealed
from ..write.atomic import staged
from .fontcheck import SHIPPED_SOUND, check_font
from .ttfread import read_face

_NOT_KEPT = ("_pdfScale", "_ttf_data", "filename")  # a function, the file itself, its path (no machine's path kept)


def load_ttf(pdf_name: str, path: Path, digest: str, folder: Path | None) -> TTFont:
    """``TTFont(pdf_name, path)``, from ``folder``'s copy when there is one (and kept there)."""
    kept = folder / f"font-{digest}.marshal" if folder is not None else None
    if kept is not None:
        ttf = _revive(pdf_name, path, kept, digest)
        if ttf is not None:
            return ttf
    if digest not in SHIPPED_SOUND:  # a shipped font's bytes are known sound
        check_font(Path(path).read_bytes())  # raises DamagedFont
    face = read_face(path)
    ttf = _ttfont(pdf_name, face) if face is not None else TTFont(pdf_name, str(path))
    if kept is not None:
        _keep(ttf, kept, digest)
    return ttf


def _keep(ttf: TTFont, kept: Path, digest: str) -> None:
    face = {key: value for key, value in vars(ttf.face).items() if key not in _NOT_KEPT}
    names = {key: value.ustr for key, value in face.items() if isinstance(value, TTFNameBytes)}
    face.update((key, bytes(value)) for key, value in face.items() if key in names)
    try:
        data = sealed(marshal.dumps({"reportlab": reportlab.Version, "code": code_identity(), "font": digest,
                                     "face": face, "names": names}))
        with staged(kept) as (temporary,):
            temporary.write_bytes(data)
    except (ValueError, OSError):
        pass  # a value marshal cannot keep, or no room: the font is read again next time


def _revive(pdf_name: str, path: Path, kept: Path, digest: str) -> TTFont | None:
    try:
        stored = marshal.loads(read_sealed(kept) or b"")
        if stored["reportlab"] != reportlab.Version or stored["code"] != code_identity():
            return None
        if stored["font"] != digest:  # another font's reading under this one's name (a copied cache)
            return None
        values, names = stored["face"], stored["names"]
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        return None
    face = TTFontFace.__new__(TTFontFace)  # what TTFontFace.__init__ would have read
    face.__dict__.update(values)
    for key, text in names.items():
        face.__dict__[key] = TTFNameBytes(text.encode("utf-8"))
    face._ttf_data = path.read_bytes()
    face.filename = str(path)  # as reportlab's reading sets it
    scale = 1000 / face.unitsPerEm
    face._pdfScale = (lambda x: x) if face.unitsPerEm == 1000 else (lambda x: x * scale)
    return _ttfont(pdf_name, face)


def _ttfont(pdf_name: str, face: TTFontFace) -> TTFont:
    ttf = TTFont.__new__(TTFont)  # the rest of TTFont.__init__
    ttf.fontName = pdf_name
    ttf.face = face
    ttf.encoding = TTEncoding()
    ttf.state = WeakKeyDictionary()
    ttf._asciiReadable = rl_config.ttfAsciiReadable
    ttf.shapable = not any(fnmatch(pdf_name, glob) for glob in rl_config.unShapedFontGlob)
    return ttf
