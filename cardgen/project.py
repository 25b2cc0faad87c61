"""Where the project is, and which set a name on the command line means.

A command run from a folder that is no project (a subfolder of one, a new terminal's home
folder) said "no sets found: data has no <set>/set.yaml", or printed nothing and ended well
(`cardgen list`), and `cardgen proof` made a cache folder there first. Every command that reads
sets asks here first, and is told what to do.
"""
from __future__ import annotations

import os
from pathlib import Path

from .errors import UsageError
from .lookalikes import alike_in
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


def unknown_set(name: str, known: list[str]) -> str:
    """The message for a set name that names no set, with the name meant when it is plain."""
    sets = ", ".join(known) or "none"
    said = f'unknown set "{name}" (sets: {sets})'
    folder = Path(name.replace("\\", "/")).name
    if ("/" in name or "\\" in name) and folder in known:  # a path, as a shell completes it: data/base/
        return f'{said}: a set is named by its folder in data/, as "{folder}"'
    if editors_own(name):
        return f"{said}: a folder of data/ whose name starts with \".\" or \"#\", or ends with \"~\", is kept aside, not built"
    alike = alike_in(known, name)
    if alike is not None:
        return f'{said}: "{alike[0]}" differs {alike[1]}'
    return said
