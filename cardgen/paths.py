"""Confinement: every file that data, set.yaml, rules, sheet or font files, or templates name is
read only if it lies inside the project folder, symlinks followed.

A set folder is untrusted input (sets get shared and downloaded): a name such as
``../../../home/me/.ssh/id_rsa`` or a link pointing out of the project must never make cardgen
read, embed or even describe a file elsewhere. Every stage resolves a data-named path through
``confined`` before it opens it; only paths given on the command line (``--deck``, ``--out``,
``--sheet FILE``, ``--changed-since``) are the user's own and are not confined.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from .errors import LOOP_REASON


NAME_MAX = 255  # bytes in one part of a path: ext4, APFS, NTFS (in UTF-16 units there), ZFS


class OutsideProject(ValueError):
    """A data-named path that resolves outside the project folder; the message names the path
    as it was written, never where it leads."""


class LinkLoop(OutsideProject):
    """A data-named path whose symbolic links lead round in a circle: it names no file at all.
    Caught where OutsideProject is, so the message names the line that wrote the path."""


_PYTHON_LOOP = re.compile(r"^Symlink loop from '(.*)'$", re.S)


def link_loop(error: BaseException) -> OSError | None:
    """The OSError (ELOOP) that ``Path.resolve()`` reported as a RuntimeError, or None: Python
    3.11 raises "Symlink loop from '<path>'" where any other failure would be an OSError."""
    match = _PYTHON_LOOP.match(str(error)) if type(error) is RuntimeError else None
    if match is None:
        return None
    return OSError(errno.ELOOP, os.strerror(errno.ELOOP), match.group(1))


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def kind_of(mode: int) -> str | None:
    """What a file of this mode is when it is no regular file ("a folder", "a named pipe
    (FIFO)", "a socket", "a device"); None for a regular file."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None


def kind_at(path: Path | str) -> str | None:
    """What is at ``path`` (links followed) when it is there but is no regular file; else None."""
    try:
        return kind_of(os.stat(path).st_mode)
    except (OSError, ValueError):
        return None


def not_a_file(path: Path | str) -> str:
    """The words after a file's name when it is no regular file: "not found", or what it is
    instead. A named pipe (a FIFO left by another tool) was said "not found", and the designer
    looked for a missing file that was there; reading one waits for a writer for ever."""
    kind = kind_at(path)
    if kind is not None:
        return f"is {kind}, not a file"
    try:
        os.stat(path)
    except PermissionError:  # a folder on the way is closed: the file may well be there
        from .errors import closed_folder, shown_path

        closed = closed_folder(os.fspath(path))
        return "cannot be opened: permission denied" + (
            f" (the folder {shown_path(closed)} cannot be opened)" if closed is not None else "")
    except (OSError, ValueError):
        pass
    from .lookalikes import alike_on_disk  # only on the way to an error

    return "not found" + alike_on_disk(path)


CACHE_FOLDER = ".cardgen-cache"  # in a project's folder: what builds keep for the next one


# A system's own files that Windows and macOS hide by an attribute, not by a dot: Explorer's
# thumbnails and folder settings, a Mac folder's custom icon. A project copied from such a machine
# has them beside the pictures.
_SYSTEMS_OWN = frozenset({"thumbs.db", "ehthumbs.db", "ehthumbs_vista.db", "desktop.ini", "icon\r"})


def editors_own(name: str) -> bool:
    """A file an editor keeps beside the one it edits (vim's ``.cards.csv.swp``, emacs's
    ``#cards.csv#`` and ``.#cards.csv``, a backup ``cards.csv~``), or a hidden one (a system's:
    ``.DS_Store``, and Windows' ``Thumbs.db`` and ``desktop.ini``): no file of the project that a
    build reads. They change as the designer types, or as a file browser shows the folder."""
    return name.startswith((".", "#")) or name.endswith("~") or name.lower() in _SYSTEMS_OWN


def set_names(root: Path | str) -> list[str]:
    """The project's sets: the folders of ``<root>/data`` holding a set.yaml. A hidden folder or
    a backup one (``.old``, ``base~``: an editor's or a copy kept aside) is no set: its set.yaml,
    naming the set it was copied from, failed the build of every set."""
    data = Path(root) / "data"
    if not data.is_dir():
        return []
    return sorted(p.name for p in data.iterdir() if not editors_own(p.name) and _may_be_set_file(p / "set.yaml"))


def _may_be_set_file(path: Path) -> bool:
    """A set.yaml that is a file, or a pipe or device in its place, or a link that leads to no
    file: that set is listed, and loading it says what its set.yaml is (it was left out of a build
    of every set unsaid)."""
    return path.is_file() or kind_at(path) not in (None, "a folder") or os.path.islink(path)


PACKAGE = Path(__file__).resolve().parent  # cardgen/


def shipped_folder() -> Path:
    """The fonts cardgen ships: ``cardgen/fonts/`` in an installed wheel (copied there from
    the repository's ``fonts/`` when the wheel is built), the repository's ``fonts/`` in a
    checkout or an editable install. Both are trusted roots: they belong to cardgen, not to a
    project's data."""
    for folder in (PACKAGE / "fonts", PACKAGE.parent / "fonts"):
        if (folder / "fonts.yaml").is_file():
            return folder
    from .errors import Source, fail

    raise fail("cardgen's own fonts are missing (reinstall cardgen)", Source("fonts/fonts.yaml"))


def is_inside(path: Path | str, root: Path | str) -> bool:
    """Whether ``path``, symlinks followed, lies inside ``root`` (itself resolved)."""
    return real_inside(os.path.realpath(path), os.path.realpath(root))


def real_inside(real: str, base: str) -> bool:
    """``is_inside`` for a path and a root resolved already (``os.path.realpath``): for many
    files of one folder, the folder is resolved once."""
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def confined(root: Path | str, base: Path | str, name: str | os.PathLike, what: str = "file") -> Path:
    """The path ``name`` names (relative to ``base``, the folder of the file that names it),
    resolved with symlinks followed; OutsideProject if that is not inside ``root``. The file need
    not exist: callers say "not found" themselves."""
    text = os.fspath(name)
    if "\0" in text:
        raise OutsideProject(f'{what} "{text}" is not a file name (it holds a NUL character)')
    longest = max((len(os.fsencode(part)) for part in Path(text).parts), default=0)
    if longest > NAME_MAX:  # the system refuses it at every look-up, in words that name no line
        raise OutsideProject(f'{what} "{text}" is not a file name (a part of it is {longest} bytes long; '
                             f'a file system takes at most {NAME_MAX})')
    path = Path(base) / text
    if not is_inside(path, root):
        raise OutsideProject(f'{what} "{text}" {_where(path, root)}: only files inside the project folder are read')
    try:
        return path.resolve()
    except RuntimeError as error:
        if link_loop(error) is None:
            raise
        raise LinkLoop(f'{what} "{text}" is {LOOP_REASON}') from None


def _where(path: Path, root: Path | str) -> str:
    """Why a path is outside: written so, or a link (somewhere on the way) that leads out."""
    lexical = os.path.normpath(os.path.abspath(path))
    base = os.path.realpath(root)
    plain_root = os.path.normpath(os.path.abspath(root))
    for candidate in (base, plain_root):
        if lexical == candidate or lexical.startswith(candidate.rstrip(os.sep) + os.sep):
            return "is a link to outside the project folder"
    return "is outside the project folder"


_HREF = re.compile(r"""(?:xlink:)?href\s*=\s*(["'])(.*?)\1""", re.S)


def svg_references(path: Path, root: Path | str, shown: str, _seen: set | None = None) -> None:
    """Refuse an SVG file whose external references (``href``/``xlink:href`` to another file),
    or those of the SVG files it refers to, lead outside the project; the message names the SVG
    line. The text is scanned before any XML library sees it, so nothing is fetched to find out."""
    from .errors import Source, fail

    seen = _seen if _seen is not None else set()
    if str(path) in seen:
        return
    seen.add(str(path))
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return  # the loader reports an unreadable file
    for match in _HREF.finditer(text):
        target = match.group(2).strip()
        if not target or target.startswith("#") or target.lower().startswith("data:"):
            continue
        line = text.count("\n", 0, match.start()) + 1
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not re.match(r"^[a-z]:[\\/]", target, re.I):
            raise fail(f'the SVG refers to "{target}": only files inside the project folder are read',
                       Source(shown, line))
        file = target.split("#", 1)[0]
        try:
            referenced = confined(root, Path(path).parent, file, "the SVG's reference")
        except OutsideProject as exc:
            raise fail(str(exc), Source(shown, line)) from None
        if referenced.suffix.lower() == ".svg" and referenced.is_file():
            inner = referenced.relative_to(Path(root).resolve()).as_posix()
            svg_references(referenced, root, inner, seen)
