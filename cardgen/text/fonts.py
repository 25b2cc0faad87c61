"""The project's fonts (the shipped ones, its own ``fonts/``, declared system ones: see
fontfolders.py), registered with reportlab, measured once.

Every face is embedded (reportlab subsets TrueType fonts on output). Widths of words are cached
at 1 pt so that fitting text at any size is arithmetic, not re-measurement.
"""
from __future__ import annotations

import hashlib
import marshal
import struct
from dataclasses import dataclass, field
from pathlib import Path
from weakref import WeakKeyDictionary

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..errors import CardgenError, Source, fail
from ..kept_file import path_key, read_sealed, sealed
from ..write.atomic import staged
from .fontfolders import STYLES, MissingFace, project_families  # noqa: F401 (STYLES, MissingFace: re-exported)
from .fontcheck import DamagedFont
from .otf import is_cff, truetype_copy
from .parsed import load_ttf
from .scripts import unshaped
from ..scratch import scratch_folder

WIDTHS_KEPT = 8192  # word widths cached per face: a few hundred kilobytes at most


def _utf16_hex(code: int) -> str:
    return "".join(f"{unit:04X}" for unit in struct.unpack(">" + "H" * (2 if code > 0xFFFF else 1),
                                                         chr(code).encode("utf-16-be")))


def _to_unicode_cmap(fontname: str, subset) -> str:
    """reportlab's ToUnicode CMap, with characters beyond U+FFFF written as UTF-16 surrogate
    pairs, as the PDF format requires (reportlab writes five hex digits, and PDF readers then
    extract the wrong character: U+1F030 came back as U+1F03)."""
    entries = "\n".join(f"<{i:02X}> <{_utf16_hex(v)}>" for i, v in enumerate(subset))
    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
        f"<< /Registry ({fontname})", f"/Ordering ({fontname})", "/Supplement 0", ">> def",
        f"/CMapName /{fontname} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>", "endcodespacerange", f"{len(subset)} beginbfchar", entries,
        "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"])


ttfonts.makeToUnicodeCMap = _to_unicode_cmap


@dataclass(eq=False)
class FontFace:
    """One font file, registered under ``pdf_name``; measures text at 1 pt."""

    pdf_name: str
    path: Path
    ttf: TTFont
    ascent: float  # at 1 pt
    descent: float  # positive, at 1 pt
    _coverage: frozenset = field(repr=False, default=frozenset())
    _widths: dict = field(repr=False, default_factory=dict)

    def missing(self, text: str) -> str | None:
        """The first character of ``text`` this face cannot draw, or None."""
        coverage = self._coverage
        for char in text:
            if ord(char) not in coverage:
                return char
        return None

    def width(self, text: str) -> float:
        """Width of ``text`` at 1 pt (cached)."""
        cached = self._widths.get(text)
        if cached is None:
            cached = self._remember(text)
        return cached

    def checked_width(self, text: str) -> float | str:
        """Width of ``text`` at 1 pt, or the first character the face lacks (a str). Cached: a
        word met again costs one lookup, glyph check included."""
        cached = self._widths.get(text)
        if cached is None:
            missing = self.missing(text)
            if missing is not None:
                return missing
            cached = self._remember(text)
        return cached

    def _remember(self, text: str) -> float:
        widths = self._widths
        if len(widths) >= WIDTHS_KEPT:  # words of a language repeat; names and numbers need not
            widths.clear()
        width = widths[text] = self.ttf.stringWidth(text, 1.0)
        return width


def _reason(exc: Exception, path: Path) -> str:
    """What is wrong with a font file, without the file's absolute path reportlab adds."""
    if isinstance(exc, OSError):
        return (exc.strerror or str(exc)).lower()
    text = str(exc).replace(f'"{path}" ', "").replace(str(path), path.name)
    text = text.split(" (", 1)[0] if "(" in text else text
    return "not a TrueType font file" + (f" ({text.split(': ', 1)[1]})" if ": " in text else "") \
        if text.startswith("is not") else text


def _register(ttf: TTFont) -> None:
    """Register ``ttf`` under its own name. reportlab's ``registerFont`` gives a new name to the
    font first registered with the same PostScript name: a font file edited while `cardgen
    watch` runs, or two files of one PostScript name, then drew the reportlab-drawn text (sheet
    notes, stamps) in the other font, and the PDF named both fonts' subsets alike."""
    pdfmetrics.registerFont(ttf)
    if pdfmetrics.getFont(ttf.fontName) is not ttf:
        pdfmetrics._fonts[ttf.fontName] = ttf  # reportlab has no public way to register it as itself


def _pdf_name(path: Path, digest: str) -> str:
    return f"cg-{path.stem}-{digest[:8]}"


_DIGESTS: dict[tuple[Path, int, int], str] = {}
_SEEN: dict[tuple[Path, int, int], tuple[int, int]] = {}  # (change time, inode) of each file digested in this process
_READS: dict[Path, int] = {}  # how many times each file was read whole, to digest it
_EMBEDDED: WeakKeyDictionary = WeakKeyDictionary()  # a loaded TTFont -> the digest of the file it embeds


def embedded_digest(ttf) -> str | None:
    """The SHA-256 of the TrueType data ``ttf`` cuts its subsets from (the font file, or its
    TrueType conversion), when a FontBook loaded it; else None."""
    return _EMBEDDED.get(ttf)


_KEPT_DIGESTS = "font-digests.marshal"


def recall_digests(folder: Path, paths) -> int:
    """Take the digests an earlier build kept in ``folder`` of the files ``paths`` (by path,
    size, modification time, change time and inode, as git's index does: a font swapped for
    another of its size with its time put back (``touch -r``, a tool keeping times) kept the
    old font's digest, and the build printed the old font's kept faces and subsets; the path
    by its digest, kept_file.path_key: the cache names no folder of the machine); return how
    many times this process has read ``paths`` so far (see ``FontBook.fingerprint``)."""
    try:
        kept = marshal.loads(read_sealed(folder / _KEPT_DIGESTS) or b"")
        if kept:
            by_key = {path_key(path): path for path in {Path(p).resolve() for p in paths}}
            for entry, digest in kept.items():
                if len(entry) != 5:  # (kept by an earlier cardgen, without the change time and inode)
                    continue
                key, size, modified, changed, inode = entry
                path = by_key.get(key)
                if path is not None and (path, size, modified) not in _DIGESTS:
                    _DIGESTS[path, size, modified] = digest
                    _SEEN[path, size, modified] = (changed, inode)  # one whose now differ is read again
    except (OSError, EOFError, ValueError, TypeError, AttributeError):
        pass  # none kept, or damaged: the files are read
    return _reads(paths)


def keep_digests(folder: Path, paths) -> None:
    """Keep the digests of ``paths`` for the next build."""
    wanted = {Path(p).resolve() for p in paths}
    kept = {(path_key(path), size, modified, *_SEEN[path, size, modified]): digest
            for (path, size, modified), digest in _DIGESTS.items()
            if path in wanted and (path, size, modified) in _SEEN}
    try:
        with staged(folder / _KEPT_DIGESTS) as (temporary,):
            temporary.write_bytes(sealed(marshal.dumps(kept)))
    except OSError:
        pass


def file_digest(path: Path) -> str:
    """SHA-256 of a file, remembered while its size and modification time stay the same (a
    build reads each font once, however many sets use it) and it stays the same file, unwritten
    (its change time and inode): `cardgen watch` lives across saves, and an image saved at its
    old size with its old time put back (an editor, a tool keeping times) kept the old picture
    in every later build. A font's is kept for the next build the same way (``recall_digests``)."""
    path = Path(path).resolve()
    stat = path.stat()
    key = (path, stat.st_size, stat.st_mtime_ns)
    unwritten = (stat.st_ctime_ns, stat.st_ino)
    digest = _DIGESTS.get(key)
    if digest is None or _SEEN.setdefault(key, unwritten) != unwritten:
        digest = _DIGESTS[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        _READS[path] = _READS.get(path, 0) + 1
    _SEEN[key] = unwritten
    return digest


def _reads(paths) -> int:
    """How many times this process has read ``paths`` whole, to digest them."""
    return sum(_READS.get(Path(path).resolve(), 0) for path in paths)


_RUN_KEYS_KEPT = 256


class FontBook:
    """The families a project can use (text/fontfolders.py: the shipped fonts, the project's
    ``fonts/`` and declared system fonts): family name -> style -> :class:`FontFace`."""

    # reportlab's registry is process-wide, so is this; keyed by content, because two TTFont
    # objects of one face in one PDF collide (same subset and CMap names).
    _registered: dict[str, FontFace] = {}
    _named: dict[str, FontFace] = {}  # by PDF name

    def __init__(self, root: Path, parse_cache: Path | None = None):
        """``parse_cache``: a folder where reportlab's reading of each font is kept between
        builds (see parsed.py); None reads every font anew and writes nothing."""
        self.root = Path(root)
        self.parse_cache = parse_cache
        found = project_families(self.root)
        self.found = found.families
        self.families: dict[str, dict[str, Path]] = {name: family.faces for name, family in found.families.items()}
        self._reads = recall_digests(parse_cache, [path for styles in self.families.values()
                                                   for path in styles.values()]) if parse_cache is not None else 0
        self.indexes = found.indexes
        self.default = found.default
        self._faces: dict[tuple[str, str], FontFace] = {}
        self._run_keys: dict[tuple, tuple] = {}  # see run_key
        self._fingerprint: str | None = None

    def face(self, family: str | None, bold: bool = False, italic: bool = False) -> FontFace:
        family = family or self.default
        style = ("bold-italic" if italic else "bold") if bold else ("italic" if italic else "regular")
        key = (family, style)
        face = self._faces.get(key)
        if face is None:
            if family not in self.found:
                raise KeyError(family)
            face = self._faces[key] = self._load(self.found[family].path(style))
        return face

    def run_key(self, family: str | None, bold: bool, italic: bool, run_style) -> tuple:
        """(face, colour) of the words of ``run_style`` (text/rich.py) in a box of ``family``,
        ``bold`` and ``italic``: one tuple for the book, made once (layout compares them by
        identity, and measures every card's text with them)."""
        known = self._run_keys.get((family, bold, italic, run_style))
        if known is None:
            face = self.face(family, bold or run_style.bold, italic or run_style.italic)
            if len(self._run_keys) >= _RUN_KEYS_KEPT:  # colours written card by card: memory stays flat
                self._run_keys.clear()
            known = self._run_keys[family, bold, italic, run_style] = (face, run_style.color)
        return known

    @property
    def fingerprint(self) -> str:
        """One hash of fonts.yaml and every font file: part of every face's content hash."""
        if self._fingerprint is None:
            paths = sorted({p for styles in self.families.values() for p in styles.values()})
            parts = [hashlib.sha256(index.read_bytes()).hexdigest() for index in self.indexes]
            parts += [f"{name}:{style}:{path.name}" for name, styles in sorted(self.families.items())
                      for style, path in sorted(styles.items())]
            parts += [file_digest(p) for p in paths]
            if self.parse_cache is not None and _reads(paths) > self._reads:  # a font read anew
                keep_digests(self.parse_cache, paths)
            self._fingerprint = hashlib.sha256("\n".join(parts).encode()).hexdigest()
        return self._fingerprint

    def _load(self, path: Path) -> FontFace:
        cls = type(self)
        path = path.resolve()
        try:
            digest = file_digest(path)
        except OSError as exc:
            raise fail(f"cannot read font: {exc.strerror or exc}", self._shown(path)) from None
        face = cls._registered.get(digest)
        if face is not None:
            return face
        pdf_name = _pdf_name(path, digest)
        try:
            if self.parse_cache is None and is_cff(path):  # converted in a folder of this build's own
                with scratch_folder("cardgen-font-") as private:
                    outlines = self._truetype_outlines(path, digest, Path(private))
                    embedded = file_digest(outlines)
                    ttf = load_ttf(pdf_name, outlines, embedded, None)  # read whole, at once
            else:
                outlines = self._truetype_outlines(path, digest, self.parse_cache and self.parse_cache / "fonts")
                embedded = file_digest(outlines)
                ttf = load_ttf(pdf_name, outlines, embedded, self.parse_cache)
        except (TTFError, OSError) as exc:
            raise fail(f"cannot read font: {_reason(exc, path)}", self._shown(path)) from None
        except DamagedFont as exc:
            raise fail(f"cannot read font: {exc}", self._shown(path)) from None
        except CardgenError:
            raise
        except Exception:  # reportlab's reader fails in many ways on a damaged file (struct.error, ...)
            raise fail("cannot read font: the file is damaged or not a TrueType font", self._shown(path)) from None
        _register(ttf)
        _EMBEDDED[ttf] = embedded
        coverage = frozenset(ttf.face.charToGlyph).difference(unshaped())  # (see scripts.py)
        face = FontFace(pdf_name, path, ttf, ttf.face.ascent / 1000.0, abs(ttf.face.descent) / 1000.0, coverage)
        cls._registered[digest] = cls._named[pdf_name] = face
        return face

    def _truetype_outlines(self, path: Path, digest: str, folder: Path | None) -> Path:
        """The file to embed: the font itself, or, for CFF outlines (reportlab embeds TrueType
        outlines only), its TrueType conversion."""
        if not is_cff(path):
            return path
        try:
            return truetype_copy(path, digest, folder)
        except OSError:
            raise
        except Exception as exc:  # fontTools raises many types for a broken file
            reason = f"it has no {exc.args[0]!r} table" if isinstance(exc, KeyError) else str(exc)
            raise fail(f"cannot read font: its PostScript outlines cannot be converted ({reason})",
                       self._shown(path)) from None

    def _shown(self, path: Path) -> Source:
        """A font file as messages name it: relative to the project, or its name (cardgen's own)."""
        try:
            return Source(path.relative_to(self.root.resolve()).as_posix())
        except ValueError:
            return Source(path.name)

    @classmethod
    def loaded(cls, pdf_name: str) -> FontFace:
        """A face already loaded in this process, by its PDF name."""
        return cls._named[pdf_name]

    def face_named(self, pdf_name: str) -> FontFace:
        """A face of this book by its PDF name, loaded if need be (KeyError if it has none)."""
        face = self._named.get(pdf_name)
        if face is None:
            for family, styles in self.families.items():
                for path in styles.values():
                    if _pdf_name(path, file_digest(path)) == pdf_name:
                        return self._load(path)
            raise KeyError(pdf_name)
        return face
