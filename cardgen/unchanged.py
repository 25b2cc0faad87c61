"""A set whose every input is as it was at its last build, and whose output files are as that
build wrote them, is not built again: the files it would write are those already there. The
command line asks for this (``BuildOptions.skip_unchanged``); the Python API builds whenever it
is called.

The inputs are everything a build of a plain set can read: every file of the project (its
content, size and time: the PDF's dates come from the files' times), except the cache and what
builds write into the output folder (PDFs, manifests), and the fonts cardgen ships; cardgen's own code (code_identity.py) and the
versions of the libraries that shape the output; the build options, the output folder and the
environment variables cardgen reads. A build reads something else only for what this module
leaves out: a deck list, a reprint, a sheet file typed on the command line, a stamp (the
PDF's date), CMYK (colour profiles), tuck boxes, online card files, system fonts (fontconfig), or a
project with links in it. Those builds always run, and so does any build after one of them.

The check costs a walk of the project and a hash of its files (fonts by their size, times and
inode, as the font cache knows them): a few milliseconds, against a rebuild's tenths of a second.
Each full build that could be skipped next time keeps, in ``.cardgen-cache/built-<set>.marshal``,
the inputs' digest taken before it read anything (a file changed during the build makes the
next build a full one), the digests of what it wrote, and its result.
"""
from __future__ import annotations

import hashlib
import marshal
import os
from stat import S_ISREG
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import Problem, Source
from .kept_file import read_sealed, relative_path, resolved_path, sealed
from .results import BuildResult, SetResult

FORMAT = "cardgen-built 1"
MAX_FILES = 5_000  # files and folders: a project larger (a virtual environment inside it?) is always built
MAX_BYTES = 128 * 1024 * 1024
_SKIPPED_FOLDERS = (".git", ".hg", ".svn")  # version control: never read by a build
_FONT_SUFFIXES = (".ttf", ".otf", ".ttc")
_ENVIRONMENT = ("SOURCE_DATE_EPOCH",)  # besides every CARDGEN_* variable (limits)


@contextmanager
def looked(names, root: Path | str, out: Path | str | None, options) -> Iterator:
    """``with looked(names, root, out, options) as skipped:`` the result of
    ``pipeline.build(names, root, out, options)`` when it would skip every set it builds,
    found without importing the build stack (jinja2, lxml, reportlab: most of a skipped
    build's time); else None, and a build of the same run inside the block takes the first
    set's digest taken here, not the project's walk and hash again. Past the block the digest
    is let go: it is of the project as it was then. Anything unusual (an unknown set, a cache
    folder that links out) is left to the build, which says what is wrong."""
    global _taken
    try:
        yield skipped_build(names, root, out, options)
    finally:
        _taken = None


def skipped_build(names, root: Path | str, out: Path | str | None, options):
    """What ``looked`` yields (see there); the digest it takes of a set that must be built is
    kept for the next ``inputs_digest`` of the same."""
    from .options import output_stem
    from .paths import CACHE_FOLDER, is_inside, set_names
    from .write.temporary import remove_stale
    from . import stops

    global _taken
    started = time.perf_counter()
    root = Path(root).resolve()
    cache_folder = root / CACHE_FOLDER
    if not (options.cache and may_skip(options)) or not is_inside(cache_folder, root):
        return None
    out = Path(out) if out is not None else root / "output"
    known = set_names(root)
    names = list(names) or known
    if not names or any(name not in known for name in names):
        return None
    remove_stale(out, cache_folder)  # what builds killed half-way left, as a build does first
    results = []
    for name in names:
        stops.check()
        stem = output_stem(name, options)
        digest = inputs_digest(name, root, out, cache_folder, options)
        if digest is None:
            return None
        kept = recall(record_path(cache_folder, stem), digest, cache_folder / f"faces-{name}.bin", SetResult)
        if kept is None:
            _taken = (_digest_key(name, root, out, cache_folder, options), digest)
            return None
        results.append(kept)
    return BuildResult(tuple(results), time.perf_counter() - started)


_taken = None  # (what a digest was taken of, the digest): taken by skipped_build for the build after it (see looked)


def _digest_key(name: str, root: Path, out: Path, cache_folder: Path, options) -> tuple:
    return name, str(root), str(Path(out).resolve()), str(Path(cache_folder).resolve()), repr(options)


def record_path(cache_folder: Path, name: str) -> Path:
    return cache_folder / f"built-{name}.marshal"


def may_skip(options) -> bool:
    """Whether a build with these options reads only what ``inputs_digest`` covers."""
    return (options.skip_unchanged and options.cache and options.deck is None and options.changed_since is None and not options.sheet
            and not options.stamp and options.color in (None, "rgb"))


def inputs_digest(name: str, root: Path, out: Path, cache_folder: Path, options) -> str | None:
    """The digest of everything a build of set ``name`` reads, or None when it cannot be told
    (links in the project, a project too large to hash). A digest ``skipped_build`` has just
    taken of the same is used once, as it is."""
    global _taken
    if _taken is not None:
        (key, taken), _taken = _taken, None
        if key == _digest_key(name, root, out, cache_folder, options):
            return taken
    from .code_identity import code_identity
    from .paths import shipped_folder

    digest = hashlib.sha256()  # (the processor's own instructions: twice blake2b's speed)
    digest.update(repr((FORMAT, code_identity(), sys.version, _library_versions(), name, str(root),
                        str(Path(out).resolve()), repr(options), _environment())).encode("utf-8"))
    out_folder = Path(out).resolve()
    skipped = {Path(cache_folder).resolve()}
    try:
        shipped = shipped_folder().resolve()
    except Exception:  # the build says what is wrong
        return None
    for folder in (root,) if shipped.is_relative_to(root) else (root, shipped):
        if not _walk(folder, skipped, out_folder, digest):
            return None
    return digest.hexdigest()


def _library_versions() -> tuple:
    """The libraries that shape the output: every package installed on ``sys.path``, by its
    metadata folder's name, which holds its version (an upgrade of svglib or reportlab builds
    again)."""
    versions = []
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:  # a zip file, a folder gone
            continue
        versions.append((entry, tuple(sorted(name for name in listing if name.endswith((".dist-info", ".egg-info"))))))
    return tuple(versions)


def _environment() -> tuple:
    return tuple(sorted((key, value) for key, value in os.environ.items()
                        if key.startswith("CARDGEN_") or key in _ENVIRONMENT))


def _written(name: str) -> bool:
    """A file that builds write into an output folder (PDFs, manifests, their temporaries): no
    build reads one (a reprint's earlier manifest is never skipped)."""
    from .write.temporary import is_temporary

    return name.lower().endswith((".pdf", ".json")) or is_temporary(Path(name))


def _walk(folder: Path, skipped: set[Path], out_folder: Path, digest) -> bool:
    """Add every file below ``folder`` to ``digest``, in a fixed order; False when the folder
    cannot be told whole (a link, an unreadable file, too many files or bytes: all are listed
    and measured before any is read, so a project too large costs only the listing). In the
    output folder, wherever it is, what builds write there is left out: other sets' output
    changes as they are built."""
    found: list[tuple[Path, os.stat_result] | Path] = []
    total = 0
    pending = [Path(folder)]
    while pending:
        current = pending.pop()
        if current in skipped:
            continue
        try:
            entries = sorted(os.scandir(current), key=lambda entry: entry.name)
            if current == out_folder:  # made by the first build: in view only for what it holds
                entries = [entry for entry in entries if entry.is_dir(follow_symlinks=False)
                           or entry.is_symlink() or not _written(entry.name)]
            else:
                found.append(current)
            folders = []
            for entry in entries:
                if entry.is_symlink():
                    return False
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED_FOLDERS:
                        folders.append(Path(entry.path))
                    continue
                stat = entry.stat(follow_symlinks=False)
                total += stat.st_size
                found.append((Path(entry.path), stat))
                if len(found) > MAX_FILES or total > MAX_BYTES:
                    return False
        except OSError:
            return False
        pending.extend(reversed(folders))
    for item in found:
        if isinstance(item, Path):
            digest.update(b"D %d %s\n" % (len(str(item)), os.fsencode(str(item))))
            continue
        path, stat = item
        try:
            if not S_ISREG(stat.st_mode):  # a pipe or device: reading it waits for ever (a FIFO hung every build)
                content = f"special {stat.st_mode:o}"
            elif path.suffix.lower() in _FONT_SUFFIXES:
                # told by its size, times and inode, as the font cache knows fonts (text/fonts.py): a
                # font swapped for one of its size, its time put back, skipped the build
                content = f"font {stat.st_ctime_ns} {stat.st_ino}"
            else:
                content = _content_digest(path)
        except OSError:
            return False
        digest.update(f"F {str(path)!r} {stat.st_size} {stat.st_mtime_ns} {content}\n".encode("utf-8",
                                                                                              "surrogateescape"))
    return True


def _content_digest(path: Path) -> str:
    """A file's digest, read a piece at a time: a large set's card file, PDF or manifest (tens
    of megabytes at 100,000 cards) would otherwise be held whole, the build's peak memory."""
    with open(path, "rb") as handle:
        # SHA-256 by the processor's own instructions: twice blake2b's speed on megabytes (the
        # PDF and manifest are hashed after every build, while nothing else runs)
        return hashlib.file_digest(handle, hashlib.sha256).hexdigest()


def _file_digest(path: Path) -> tuple[int, int, str] | None:
    try:
        stat = path.stat()
        return stat.st_size, stat.st_mtime_ns, _content_digest(path)
    except OSError:
        return None


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def recall(record: Path, digest: str, faces_cache: Path, result_type):
    """The result of the last build when its inputs' digest was ``digest``, its files are
    still as it wrote them and its face cache as it left it (a cache damaged or replaced since
    makes a full build, which says how many faces it laid out again); else None."""
    try:
        kept = marshal.loads(read_sealed(record) or b"")
        if kept["format"] != FORMAT or kept["inputs"] != digest or kept["faces_cache"] != _stat(faces_cache):
            return None
        base = record.parent  # the paths are kept relative to the cache folder (kept_file.relative_path)
        for path, written in kept["files"]:
            if _file_digest(Path(resolved_path(path, base))) != tuple(written):
                return None
        fields = kept["result"]
        warnings = tuple(Problem(message, Source(file, line) if file is not None else None, card, severity)
                         for message, file, line, card, severity in fields["warnings"])
        return result_type(fields["name"], Path(resolved_path(fields["pdf"], base)),
                           Path(resolved_path(fields["manifest"], base)), faces=fields["faces"],
                           cards=fields["cards"], pages=fields["pages"], warnings=warnings, laid_out=0,
                           reused=fields["distinct"])
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        return None


def keep(record: Path, digest: str, faces_cache: Path, result, card_set, fonts, batch=None) -> None:
    """Keep what the next build needs to skip this one's work, if it may; else forget the last.
    With ``batch`` (write/atomic.py), the build's files are still staged: the record is told
    their staged content, and put in place with them."""
    if not _plain_set(card_set, fonts) or result.boxes or any(
            type(p) is not Problem or type(p.source) not in (Source, type(None)) for p in result.warnings):
        forget(record)
        return
    files = []
    for path in (result.pdf, result.manifest):
        written = _file_digest(batch.written(Path(path)) if batch is not None else Path(path))
        if written is None:
            forget(record)
            return
        files.append((relative_path(path, record.parent), written))
    # no absolute path of the machine is kept: the project (its cache too) gets zipped and shared
    fields = {"name": result.name, "pdf": relative_path(result.pdf, record.parent),
              "manifest": relative_path(result.manifest, record.parent), "faces": result.faces,
              "cards": result.cards, "pages": result.pages, "distinct": result.laid_out + result.reused,
              "warnings": [(p.message, p.source.file if p.source else None, p.source.line if p.source else None,
                            p.card, p.severity) for p in result.warnings]}
    from .write.atomic import staged

    try:
        data = sealed(marshal.dumps({"format": FORMAT, "inputs": digest, "files": files, "result": fields,
                                     "faces_cache": _stat(faces_cache)}))
        with staged(record, batch=batch, spare=True) as (temporary,):
            temporary.write_bytes(data)
    except (ValueError, OSError):  # a value marshal cannot keep, or no room: the next build is a full one
        forget(record)


def forget(record: Path) -> None:
    try:
        record.unlink()
    except OSError:
        pass


def _plain_set(card_set, fonts) -> bool:
    """A set whose build read nothing beyond the project and cardgen: no tuck boxes, no colour
    management, no online card file, no system font, nothing said while loading."""
    if card_set.boxes or getattr(card_set.color, "cmyk", False) or card_set.warnings:
        return False
    if any(getattr(family, "origin", None) == "system" for family in fonts.found.values()):
        return False
    try:
        text = (card_set.directory / "set.yaml").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return False
    return "http://" not in text and "https://" not in text
