"""``cardgen new``: lay out a new project from the files in ``cardgen/scaffold/``.

The scaffold is an ordinary project whose names carry placeholders (``__SET__`` in paths and
text, ``__TITLE__``, ``__TITLE_YAML__`` (the title escaped for a double-quoted YAML value),
``__SIZE__``, ``__PAPER__`` in text); a new project is a copy with them
filled in. It builds as it is, so every part a designer changes first is there to change: a CSV
and a YAML card file, a layout with a frame, a title, a picture and rules text with an icon, a
back, a rules file and a deck list.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import CardgenError, Problem, Source, UsageError, os_reason
from .sheets.sizes import CARD_SIZES, PAPER_SIZES
from .write.atomic import staged

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
PAPERS = ("letter", "a4")
RENAMED = {"gitignore": ".gitignore"}  # dotfiles are kept under plain names in the package
FONTS = "fonts"  # made empty: git and the package keep no empty folder


@dataclass(frozen=True)
class NewProject:
    root: Path
    set_name: str
    files: tuple[Path, ...]  # relative to root


def set_name_for(folder: Path) -> str:
    """The set's name from the project folder's: lower case, words joined by hyphens. A letter
    or digit outside a-z and 0-9 is refused, not dropped: "ünï" made a set named "n"."""
    import unicodedata

    given = folder.resolve().name
    controls = [c for c in dict.fromkeys(given) if unicodedata.category(c) == "Cc"]
    if controls:  # a newline or tab typed into the path: a folder no shell lists plainly
        shown = ", ".join(f"U+{ord(c):04X}" for c in controls)
        raise UsageError(f"the folder name {given!r} holds a control character ({shown}): name the folder "
                         "with letters, digits and hyphens")
    kept_out = [c for c in dict.fromkeys(given) if not c.isascii() and unicodedata.category(c)[0] in "LNM"]
    if kept_out:
        shown = ", ".join(f'"{c}"' if unicodedata.category(c)[0] != "M" else f"U+{ord(c):04X}" for c in kept_out)
        raise UsageError(f'the set is named after the folder "{given}", and a set\'s name holds only the letters '
                         f"a-z, the digits 0-9 and hyphens, not {shown}: name the folder with those")
    name = re.sub(r"[^a-z0-9]+", "-", given.lower()).strip("-")
    return name or "game"


def new_project(path: Path, size: str = "poker", paper: str = "letter", title: str | None = None) -> NewProject:
    """Write a new project at ``path`` (a folder that does not exist yet, or is empty)."""
    path = Path(path)
    if size not in CARD_SIZES:
        raise UsageError(f'unknown card size "{size}" (presets: {", ".join(CARD_SIZES)})')
    if paper not in PAPERS or paper not in PAPER_SIZES:
        raise UsageError(f'unknown paper "{paper}" (choose {" or ".join(PAPERS)})')
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"{path} already exists and is not an empty folder: choose a new one")
    _not_inside_a_project_folder(path)
    set_name = set_name_for(path)
    if title is not None:
        _title_on_one_line(title)
    title = title or " ".join(word.capitalize() for word in set_name.split("-"))
    title = title.replace('"', "'")
    # set.yaml's title is between double quotes, where a backslash starts an escape: `--title 'A\B'`
    # wrote "A\B", which YAML refuses, and "Line\nx" read as two lines
    values = {"__SET__": set_name, "__TITLE__": title, "__TITLE_YAML__": title.replace("\\", "\\\\"),
              "__SIZE__": size, "__PAPER__": paper}
    sources = sorted(p for p in SCAFFOLD.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    written: list[Path] = []
    existed = path.exists()
    try:
        _write(sources, path, set_name, values, written)
        (path / FONTS).mkdir(exist_ok=True)  # the project's README names it: the user's own fonts go there
    except OSError as exc:
        for relative in reversed(written):  # no half project left behind
            (path / relative).unlink(missing_ok=True)
        if not existed:
            shutil.rmtree(path, ignore_errors=True)
        raise CardgenError(Problem(f"cannot write the new project: {os_reason(exc)}", Source(str(path)))) from None
    return NewProject(path, set_name, tuple(written))


def _title_on_one_line(title: str) -> None:
    """A newline or another control character in ``--title`` would break set.yaml's lines (its
    first, a comment, and the title's) or print as a blank box."""
    import unicodedata

    controls = [c for c in dict.fromkeys(title) if unicodedata.category(c) == "Cc"]
    if controls:
        shown = ", ".join(f"U+{ord(c):04X}" for c in controls)
        raise UsageError(f"the title {title!r} holds a control character ({shown}): give it on one line, "
                         "without tabs")
    if title and not title.strip():  # printed on every back and the proof's page: an empty frame
        raise UsageError("the title is blank: give the game's title, or leave --title out for the folder's name")


def _not_inside_a_project_folder(path: Path) -> None:
    """`cardgen new data/second`, typed in a project to add a set, made a whole project inside
    data/: a set folder without set.yaml, and data/second/data/second/ that no build reads."""
    from .project import enclosing_project

    project = enclosing_project(path)
    if project is None:
        return
    within = Path(os.path.abspath(path)).relative_to(project).parts[0]
    if within in ("data", "templates", "fonts", "output"):
        raise UsageError(f"{path} is inside the {within}/ folder of the project {project}: `cardgen new` lays out a "
                         "whole project; a new set of this one is a folder data/<set>/ with its own set.yaml and "
                         "card files (copy a set's folder, and give set.yaml its new name)")


def _filled(text: str, values: dict[str, str]) -> str:
    """``text`` with each placeholder replaced by its value; a comment after a placeholder on its
    line stays in its column (at least a space after the value), so that set.yaml's comments
    line up whatever the set's name, size and paper."""
    for placeholder, value in values.items():
        text = re.sub(rf"{re.escape(placeholder)}( +)(?=#)",
                      lambda gap: value + " " * max(1, len(placeholder) + len(gap.group(1)) - len(value)), text)
        text = text.replace(placeholder, value)
    return text


def _write(sources: list[Path], path: Path, set_name: str, values: dict[str, str], written: list[Path]) -> None:
    for source in sources:
        relative = source.relative_to(SCAFFOLD).as_posix().replace("__SET__", set_name)
        relative = "/".join(RENAMED.get(part, part) for part in relative.split("/"))
        data = source.read_bytes()
        if source.suffix.lower() in (".yaml", ".csv", ".j2", ".md", "") or source.name == "gitignore":
            text = data.decode("utf-8")
            data = _filled(text, values).encode("utf-8")
        target = path / relative
        with staged(target) as (temporary,):
            temporary.write_bytes(data)
        written.append(Path(relative))
