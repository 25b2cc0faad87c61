"""Where the project is, and which set a name on the command line means.

A command run from a folder that is no project (a subfolder of one, a new terminal's home
folder) said "no sets found: data has no <set>/set.yaml", or printed nothing and ended well
(`cardgen list`), and `cardgen proof` made a cache folder there first. Every command that reads
sets asks here first, and is told what to do.
"""
from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Sequence

from .errors import CardgenError, Problem, Source, UsageError
from .lookalikes import alike_in, difference
from .paths import editors_own, set_names


def _holds_sets(folder: Path) -> bool:
    return bool(set_names(folder))


def enclosing_project(folder: Path) -> Path | None:
    """The nearest folder above ``folder`` whose data/ holds a set, or None."""
    for above in Path(os.path.abspath(folder)).parents:
        try:
            if (above / "data").is_dir() and _holds_sets(above):
                return above
        except OSError:  # a folder on the way that cannot be read: no project found there
            return None
    return None


def require_project(root: Path | str) -> None:
    """UsageError, saying what to do, when ``root`` is not a project folder (it has no data/)."""
    root = Path(root)
    if (root / "data").is_dir():
        return
    shown = os.path.abspath(root)
    if not root.exists():
        raise UsageError(f"no project at {shown}: the folder does not exist (`cardgen new {root}` makes a project "
                         "there)")
    said = f"{shown} is not a project folder (it has no data/ folder holding <set>/set.yaml)"
    above = enclosing_project(root)
    if above is not None:
        raise UsageError(f"{said}; it is inside the project {above}: run cardgen there (cd {above}) "
                         f"or give --root {above}")
    raise UsageError(f"{said}: run cardgen in your project's folder or give it with --root DIR "
                     "(`cardgen new DIR` makes a new project)")


def unknown_set(name: str, known: list[str], root: Path | str | None = None) -> str:
    """The message for a set name that names no set, with the name meant when it is plain."""
    sets = ", ".join(known) or "none"
    said = f'unknown set "{name}" (sets: {sets})'
    folder = Path(name.replace("\\", "/")).name
    if ("/" in name or "\\" in name) and folder in known:  # a path, as a shell completes it: data/base/
        return f'{said}: a set is named by its folder in data/, as "{folder}"'
    if editors_own(name) and root is not None and name not in (".", "..") and (Path(root) / "data" / name).is_dir():
        return f"{said}: a folder of data/ whose name starts with \".\" or \"#\", or ends with \"~\", is kept aside, not built"
    alike = alike_in(known, name)
    if alike is not None:
        return f'{said}: "{alike[0]}" differs {alike[1]}'
    return said


# What a build of set S writes besides S.pdf and S.json: S.deck-<deck>.*, S.reprint.*, S.box-<box>.pdf
_PART_FILES = (".deck-", ".reprint", ".box-")


def _file_key(name: str) -> str:
    """A set's name as a file system that ignores case and Unicode composition (macOS, Windows)
    sees its output files' names."""
    return unicodedata.normalize("NFC", name).casefold()


def sharing_outputs(names: list[str], known: list[str]) -> Problem | None:
    """The problem when two sets would write one output file: their names equal but for case or
    Unicode composition (one file on macOS and Windows, whichever builds last), or one set's name
    is another's with the suffix of its deck, reprint or box files (base.deck-starter). A build
    wrote one over the other without a word."""
    keys: dict[str, str] = {}
    for name in dict.fromkeys(names):
        other = keys.setdefault(_file_key(name), name)
        if other != name:
            how = difference(name, other) or "in case"
            return Problem(f'set "{name}" and set "{other}", which differs {how}, write output files that are one '
                           "file on macOS and Windows, whose names ignore that difference: rename one of the two "
                           "folders", Source(f"data/{name}"))
    built = {_file_key(name) for name in names}
    for name in known:
        for owner in known:
            key, owner_key = _file_key(name), _file_key(owner)
            if name != owner and key.startswith(owner_key) and key[len(owner_key):].startswith(_PART_FILES) and (
                    key in built or owner_key in built):
                return Problem(f'set "{name}" writes output/{name}.pdf, a name set "{owner}" gives to its own deck, '
                               "reprint or box files: rename the folder", Source(f"data/{name}"))
    return None


def resolve_names(names: Sequence[str] | None, root: Path) -> list[str]:
    """The sets a command means: those named (each a set of ``root``'s data/, or a folder of it
    that lacks its set.yaml, which loading says), or every set; refused when two would write one
    output file."""
    require_project(root)
    known = set_names(root)
    if not names:
        if not known:
            raise UsageError(f"no sets found: {Path(root) / 'data'} has no <set>/set.yaml")
        _one_set_a_file(known, known)
        return known
    # a folder of data/ without set.yaml is a set that lacks it: load_set says so
    folders = {n for n in names if n not in known and n not in ("", ".", "..") and "/" not in n and "\\" not in n
               and not editors_own(n) and (Path(root) / "data" / n).is_dir()}
    unknown = [n for n in names if n not in known and n not in folders]
    if unknown:
        raise UsageError(unknown_set(unknown[0], known, root))
    _one_set_a_file(list(names), known)
    return list(names)


def _one_set_a_file(names: list[str], known: list[str]) -> None:
    shared = sharing_outputs(names, known)
    if shared is not None:
        raise CardgenError(shared)


GONE = "{}: no longer a set in data/ (not built; its earlier output is left)"


def sets_now(before: Sequence[str], root: Path) -> tuple[list[str], list[str], list[str]]:
    """The project's sets now, read again (``watch`` and ``serve`` without SET, at each save),
    those of ``before`` gone from data/, and the problems that keep the sets from being read
    (two sets writing one file, no set left): then the sets of ``before`` still in data/ stay,
    and none is added until the problem is fixed."""
    try:
        now, problems = resolve_names(None, root), []
    except (UsageError, CardgenError) as error:
        problems = [str(p) for p in error.problems] if isinstance(error, CardgenError) else [str(error)]
        present = set(set_names(root))
        now = [name for name in before if name in present]
    return now, [name for name in before if name not in now], problems
