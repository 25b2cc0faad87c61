"""Where a project's font families come from, in the order they are looked up:

1. the fonts cardgen ships (installed with the package: every project has them, nothing to copy);
2. the project's own ``fonts/``: a ``fonts.yaml`` naming its families, or, without one, every
   ``.ttf`` and ``.otf`` file there, grouped by the family and style their name tables give;
   a family of the project replaces a shipped one of the same name;
3. families that the project's ``fonts.yaml`` declares ``system``: found by fontconfig's
   ``fc-match`` among the fonts installed on the machine (only when declared, so that a build
   never depends on the machine by accident).

A family maps each of its styles (regular, bold, italic, bold-italic) to a file; a style the
family lacks is an error when a layout asks for it, never a silent substitute.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LOOP_REASON, Source, fail
from ..load.yamlfile import line_of, read_yaml, relative_name
from ..spelled import spelled
from ..paths import OutsideProject, confined, link_loop, kind_at, not_a_file, real_inside, shipped_folder

STYLES = ("regular", "bold", "italic", "bold-italic")
FONT_SUFFIXES = (".ttf", ".otf")
class MissingFace(ValueError):
    """A layout asked for a style its family does not have."""


@dataclass
class Family:
    """One font family: its files by style, where it was declared and where it comes from."""

    name: str
    faces: dict[str, Path]  # style -> file
    origin: str  # "shipped", "project" or "system"
    source: Source
    missing: dict[str, str] = field(default_factory=dict)  # style -> why it is missing (system)
    declared: bool = True  # named in a fonts.yaml (else found by scanning fonts/)

    def path(self, style: str) -> Path:
        path = self.faces.get(style)
        if path is None:
            have = ", ".join(s for s in STYLES if s in self.faces)
            why = self.missing.get(style) or (f"{self.source} names only: {have}" if self.declared
                                              else f"fonts/ holds only: {have}")
            raise MissingFace(f'font family "{self.name}" has no {style} face ({why})')
        return path


@dataclass
class Families:
    """Every family a project can use, by name, and the default family."""

    families: dict[str, Family]
    default: str
    indexes: list[Path]  # the fonts.yaml files read: part of the fonts' fingerprint


def _yaml_kind(value: object) -> str:
    kinds = ((bool, "true or false"), ((int, float), "number"), (list, "list"), (dict, "mapping"))
    return next((kind for types, kind in kinds if isinstance(value, types)), "value")


def _style_of(key: str, file: Source) -> str:
    if key not in STYLES:
        raise fail(f'unknown font style "{key}" (styles: {", ".join(STYLES)})', file)
    return key


def _declared(index: Path, root: Path, origin: str, folder_name: str) -> tuple[dict[str, Family], tuple | None]:
    """The families of one fonts.yaml (its folder's files, or ``system``). A project's files
    must lie inside the project (paths.py), and inside its fonts/; cardgen's own folder is a
    root of its own, trusted as the package is."""
    folder = index.parent
    trusted = folder if origin == "shipped" else root
    data = read_yaml(index, root)
    real_trusted, real_folder = os.path.realpath(trusted), folder.resolve()  # once, not once a file
    file = relative_name(index, root) if origin == "project" else f"(cardgen) {folder_name}/fonts.yaml"
    families = data.get("families") if isinstance(data, dict) else None
    if origin == "project" and isinstance(data, dict) and families is None and "default" in data:
        families = {}  # only a default among the shipped families
    if not isinstance(families, dict) or (not families and origin != "project"):
        raise fail("fonts.yaml must list `families`", Source(file, 1))
    found: dict[str, Family] = {}
    for name, styles in families.items():
        where = Source(file, line_of(families, name))
        if styles == "system" and origin == "project":
            found[str(name)] = system_family(str(name), where)
            continue
        if not isinstance(styles, dict) or not styles:
            raise fail(f'font family "{name}" needs a file for at least one style ({", ".join(STYLES)}), '
                       "or `system`", where)
        faces = {}
        for key, value in styles.items():
            style = _style_of(str(key), Source(file, line_of(styles, key)))
            if not isinstance(value, str) or not value.strip():  # null read as the file "None"
                given = ("empty (null in YAML)" if value is None or isinstance(value, str)
                         else f"a {_yaml_kind(value)}, {spelled(value)}")
                raise fail(f'font family "{name}": {key}: expected the name of a .ttf or .otf file in '
                           f"{folder_name}/, got {given}", Source(file, line_of(styles, key)))
            path = folder / str(value)  # named as written: fonts/ itself may be a link inside the project
            if "\0" in str(value) or not real_inside(os.path.realpath(path), real_trusted):
                try:  # refused: confined says why
                    confined(trusted, folder, str(value), f'font file of family "{name}"')
                except OutsideProject as exc:
                    raise fail(str(exc), Source(file, line_of(styles, key))) from None
            try:
                inside = path.resolve().is_relative_to(real_folder)
            except RuntimeError as error:
                if link_loop(error) is None:
                    raise
                raise fail(f'font file "{value}" of family "{name}" is {LOOP_REASON}',
                           Source(file, line_of(styles, key))) from None
            if inside and path.suffix.lower() in FONT_SUFFIXES and kind_at(path) is not None:
                raise fail(f'font file "{value}" of family "{name}" {not_a_file(path)}',
                           Source(file, line_of(styles, key)))
            if inside and path.is_file() and path.suffix.lower() not in FONT_SUFFIXES:
                raise fail(f'font file "{value}" of family "{name}" is not a .ttf or .otf file: cardgen reads '
                           "TrueType and OpenType fonts (a .ttc collection or a web font: save the face as "
                           ".ttf or .otf)", Source(file, line_of(styles, key)))
            if not inside or not path.is_file() or path.suffix.lower() not in FONT_SUFFIXES:
                raise fail(f'font file "{value}" of family "{name}" is not in {folder_name}/ '
                           f"(a .ttf or .otf file)", Source(file, line_of(styles, key)))
            faces[style] = path
        found[str(name)] = Family(str(name), faces, origin, where)
    default = data.get("default") if isinstance(data, dict) else None
    if default is None:
        return found, None
    return found, (str(default), Source(file, line_of(data, "default")))


def _scanned(folder: Path, root: Path) -> dict[str, Family]:
    """A fonts/ folder without fonts.yaml: its files, grouped by the names their fonts give."""
    found: dict[str, Family] = {}
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in FONT_SUFFIXES and not p.is_dir()):
        name = relative_name(folder, root) + "/" + path.name
        if kind_at(path) is not None:  # a pipe named as a font was passed over unsaid
            raise fail(f"it is {kind_at(path)}, not a font file", Source(name))
        try:
            confined(root, folder, path.name, "font file")
        except OutsideProject as exc:
            raise fail(str(exc), Source(name)) from None
        family, style = font_names(path, name)
        entry = found.setdefault(family, Family(family, {}, "project", Source(name), declared=False))
        if style in entry.faces:
            raise fail(f'font family "{family}" has two {style} faces: {entry.faces[style].name} and '
                       f"{path.name} (name them in fonts/fonts.yaml)", Source(name))
        entry.faces[style] = path
    return found


def font_names(path: Path, name: str) -> tuple[str, str]:
    """(family, style) of a font file, from its name table and style bits."""
    from fontTools.ttLib import TTFont, TTLibError  # only projects without fonts.yaml need it

    try:
        with TTFont(path, lazy=True, fontNumber=0) as font:
            names = font["name"]
            family = names.getDebugName(16) or names.getDebugName(1)
            bold = italic = False
            if "OS/2" in font:
                selection = font["OS/2"].fsSelection
                bold, italic = bool(selection & 0x20), bool(selection & 0x01)
            elif "head" in font:
                style_bits = font["head"].macStyle
                bold, italic = bool(style_bits & 1), bool(style_bits & 2)
    except (TTLibError, KeyError, OSError, AssertionError, ValueError) as exc:
        raise fail(f"cannot read font: {exc}", Source(name)) from None
    if not family:
        raise fail("the font names no family", Source(name))
    style = ("bold-italic" if italic else "bold") if bold else ("italic" if italic else "regular")
    return family, style


def _fc_match(pattern: str) -> tuple[list[str], int, int, str] | None:
    """fontconfig's best match for a pattern: (family names, weight, slant, file)."""
    import subprocess  # only projects that declare system fonts run it

    try:
        done = subprocess.run(["fc-match", "--format=%{family}\t%{weight}\t%{slant}\t%{file}", pattern],
                              capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = done.stdout.split("\t")
    if done.returncode != 0 or len(parts) != 4:
        return None
    families, weight, slant, file = parts
    try:
        return [f.strip() for f in families.split(",")], int(float(weight)), int(float(slant)), file.strip()
    except ValueError:
        return None


FC_WEIGHT = {False: 80, True: 200}  # fontconfig's regular and bold
FC_SLANT = {False: 0, True: 100}  # roman and italic


def system_family(name: str, where: Source) -> Family:
    """A family installed on this machine, found by ``fc-match`` style by style."""
    import shutil

    if shutil.which("fc-match") is None:
        raise fail(f'font family "{name}" is declared `system`, but fontconfig (fc-match) is not installed', where)
    faces: dict[str, Path] = {}
    missing: dict[str, str] = {}
    for style in STYLES:
        bold, italic = "bold" in style, "italic" in style
        match = _fc_match(f"{name}:weight={FC_WEIGHT[bold]}:slant={FC_SLANT[italic]}")
        if match is None or name.casefold() not in {f.casefold() for f in match[0]}:
            if style == "regular":
                raise fail(f'font family "{name}" is not installed on this system (fc-match finds no such family)', where)
            missing[style] = "the system has none"
            continue
        _, weight, slant, file = match
        if (weight >= 180) != bold or (slant > 0) != italic or Path(file).suffix.lower() not in FONT_SUFFIXES:
            missing[style] = f"the system's nearest is {Path(file).name}"
            continue
        faces[style] = Path(file)
    return Family(name, faces, "system", where, missing)


def project_families(root: Path) -> Families:
    """The families a project at ``root`` can use (see the module's docstring)."""
    root = Path(root).resolve()
    shipped = shipped_folder()
    found, default = _declared(shipped / "fonts.yaml", root, "shipped", "fonts")
    indexes = [shipped / "fonts.yaml"]
    own = root / "fonts"
    try:
        confined(root, root, "fonts", "the fonts folder")
    except OutsideProject as exc:
        raise fail(str(exc), Source("fonts")) from None
    if own.exists() and not own.is_dir():  # its fonts would be left out without a word, and a family "not known"
        raise fail(f"it is {kind_at(own) or 'a file'}, not a folder: the project's own fonts go in a folder "
                   "named fonts (rename or remove the file)", Source("fonts"))
    if own.is_dir() and own.resolve() != shipped.resolve():
        index = own / "fonts.yaml"
        try:
            confined(root, own, "fonts.yaml")
        except OutsideProject as exc:
            raise fail(str(exc), Source("fonts")) from None
        if kind_at(index) is not None:  # a pipe or folder: the fonts were scanned instead, unsaid
            raise fail(f"it is {kind_at(index)}, not a file", Source("fonts/fonts.yaml"))
        if index.is_file():
            added, own_default = _declared(index, root, "project", "fonts")
            indexes.append(index)
        else:
            added, own_default = _scanned(own, root), None
        found.update(added)
        default = own_default or default
    elif own.resolve() == shipped.resolve():
        for family in found.values():  # the repository itself: its fonts are the project's
            family.origin = "project"
            family.source = Source(relative_name(shipped / "fonts.yaml", root), family.source.line)
    if default is None:
        return Families(found, next(iter(found)), indexes)
    name, where = default
    if name not in found:
        raise fail(f'default font family "{name}" is neither in fonts/ nor one of cardgen\'s '
                   f'(known: {", ".join(sorted(found))})', where)
    if "regular" not in found[name].faces:
        raise fail(f'default font family "{name}" needs a regular face', where)
    return Families(found, name, indexes)
