"""Read ``data/<set>/set.yaml`` and its card files into a :class:`CardSet`."""
from __future__ import annotations

import os
import re

from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..color.settings import color_settings
from ..errors import Source, fail
from ..spelled import quoted
from ..model import Back, BoxSpec, CardSet, CardType, Icon
from ..paths import OutsideProject, confined, not_a_file, set_names  # noqa: F401 - set_names: the API's name here
from ..units import parse_length
from .cardfiles import card_files, unlisted_tables
from .cards import CardFiles
from .setvalues import card_shape, check_date, length, text, unknown_keys
from .yamlfile import line_of, plain, read_yaml, relative_name

SET_KEYS = {"name", "title", "version", "size", "bleed", "safe", "defaults", "variables", "types",
            "backs", "icons", "cards", "rules", "sheet", "shape", "color", "output-intent", "author", "subject",
            "date", "preflight", "language", "boxes",
            # Provenance, for people and tests, not for the pipeline: the source text the set's
            # words come from, and the keys whose words the editor added (README, "Sources").
            "source", "added"}
PREFLIGHT_KEYS = {"element", "min-size", "reason"}
BOX_KEYS = {"template", "cards", "deck", "thickness", "clearance", "fields"}
TYPE_KEYS = {"template", "back", "size", "shape", "bleed", "safe", "defaults"}
ICON_KEYS = {"image", "glyph", "font", "color"}
SHEET_KEYS = {"template", "spacing", "orientation", "margin", "crop-marks", "cut-lines", "paper"}


def load_set(name: str, root: Path | str = ".", check_cards: bool = True) -> CardSet:
    """Load one set by its folder name below ``<root>/data``. With ``check_cards`` false its
    card files are not read (``card_set.cards.check()`` reads them; a build does it once its
    workers are started, see pipeline.py), unless set.yaml has a problem met after them: the
    problems of the card rows come first, as ever."""
    root = Path(root).resolve()
    directory = root / "data" / name
    path = directory / "set.yaml"
    try:
        directory = confined(root, root / "data", name, "the set folder")
        path = confined(root, directory, "set.yaml")
    except OutsideProject as exc:
        raise fail(str(exc), Source(f"data/{name}")) from None
    if os.path.islink(directory / "set.yaml") and not path.exists():
        raise fail(f'set.yaml is a link to "{os.readlink(directory / "set.yaml")}", which does not exist',
                   Source(f"data/{name}"))
    if not path.is_file():
        said = not_a_file(path)
        if not directory.is_dir():
            raise fail("no such set folder", Source(f"data/{name}"))
        if said != "not found":
            raise fail(f"set.yaml {said}", Source(f"data/{name}"))
        raise fail("set.yaml is missing: a set folder holds set.yaml, which names its card types and files",
                   Source(f"data/{name}"))
    data = read_yaml(path, root)
    file = relative_name(path, root)
    if not isinstance(data, dict):
        raise fail("set.yaml must be a mapping", Source(file, 1))
    unknown_keys(data, SET_KEYS, file, "set.yaml")

    def at(container: Any, key: Any = None) -> Source:
        return Source(file, line_of(container, key))

    for key in ("types", "backs", "icons", "variables", "defaults", "sheet"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise fail(f"`{key}` must be a mapping of name: value", at(data, key))
    if data.get("cards") is not None and not isinstance(data["cards"], (list, str, dict)):
        raise fail("`cards` must be a list of card files", at(data, "cards"))
    declared = text(data, "name", at)
    declared = name if declared is None else declared
    if declared != name:
        from ..lookalikes import difference

        how = difference(str(declared), name)
        raise fail(f'set name "{declared}" differs from its folder "{name}"' + (f" ({how})" if how else ""),
                   at(data, "name"))
    from ..sheets.sizes import card_size  # sizes and papers belong to the sheets stage

    default_size = card_size(plain(data.get("size", "poker")), at(data, "size") if "size" in data else at(data))
    bleed = length(data, "bleed", 3.0, at)
    safe = length(data, "safe", 3.0, at)
    defaults = plain(data.get("defaults") or {})

    backs = {}
    for back_name, spec in (data.get("backs") or {}).items():
        if isinstance(spec, str):
            spec = {"template": spec}
        if not isinstance(spec, dict) or not text(spec, "template", at, f'back "{back_name}": template'):
            raise fail(f'back "{back_name}" needs a template', at(data["backs"], back_name))
        fields = {k: v for k, v in plain(spec).items() if k != "template"}
        backs[str(back_name)] = Back(str(back_name), str(spec["template"]), at(data["backs"], back_name),
                                     MappingProxyType(fields))

    types = {}
    raw_types = data.get("types") or {}
    if not raw_types:
        raise fail("set.yaml defines no card types (`types:`)", at(data))
    for type_name, spec in raw_types.items():
        where = at(raw_types, type_name)
        if isinstance(spec, str):
            spec = {"template": spec}
        if not isinstance(spec, dict) or not text(spec, "template", at, f'card type "{type_name}": template'):
            raise fail(f'card type "{type_name}" needs a template', where)
        unknown_keys(spec, TYPE_KEYS, file, f'card type "{type_name}"')
        if spec.get("defaults") is not None and not isinstance(spec["defaults"], dict):
            raise fail(f'card type "{type_name}": `defaults` must be a mapping of name: value', at(spec, "defaults"))
        back = text(spec, "back", at, f'card type "{type_name}": back')
        if back is not None and str(back) not in backs:
            raise fail(f'card type "{type_name}" names back "{back}", which `backs` does not define', at(spec, "back"))
        size = card_size(plain(spec["size"]), at(spec, "size")) if "size" in spec else default_size
        shape = card_shape(spec.get("shape", data.get("shape", size.shape)),
                             at(spec, "shape") if "shape" in spec else at(data, "shape"))
        if shape == "circle" and abs(size.w - size.h) > 1e-9:
            raise fail("a circle needs equal width and height", at(spec, "size"))
        size = type(size)(size.w, size.h, size.name, shape)
        type_safe = length(spec, "safe", safe, at)
        if 2 * type_safe >= min(size.w, size.h):  # every box would be said to reach outside it, card by card
            raise fail(f'card type "{type_name}": a safe margin of {type_safe:g} mm leaves no room inside its '
                       f"{size.w:g} x {size.h:g} mm card (it must be under {min(size.w, size.h) / 2:g} mm)",
                       at(spec, "safe") if "safe" in spec else at(data, "safe") if "safe" in data else where)
        types[str(type_name)] = CardType(
            name=str(type_name), template=str(spec["template"]), back=str(back) if back is not None else None,
            size=size, bleed=length(spec, "bleed", bleed, at), safe=type_safe,
            defaults=MappingProxyType({**defaults, **plain(spec.get("defaults") or {})}), source=where,
            default_sources=MappingProxyType(
                {**{key: at(data["defaults"], key) for key in defaults},
                 **{key: at(spec["defaults"], key) for key in plain(spec.get("defaults") or {})}}))

    icons = _icons(data.get("icons") or {}, root, directory, at)
    if isinstance(data.get("sheet"), dict):
        unknown_keys(data["sheet"], SHEET_KEYS, file, "sheet")
        _sheet_files(data["sheet"], root, directory, at)
        if "paper" in data["sheet"]:  # checked here, where its line is known
            from ..sheets.sizes import paper_size

            if isinstance(data["sheet"]["paper"], dict):
                unknown_keys(data["sheet"]["paper"], {"w", "h"}, file, "paper")
                for side in ("w", "h"):
                    if side not in data["sheet"]["paper"]:
                        raise fail(f"paper: {side} is missing (give both w and h, in mm)", at(data["sheet"], "paper"))
            paper = plain(data["sheet"]["paper"])
            paper_size((paper.get("w"), paper.get("h")) if isinstance(paper, dict) else paper,
                       at(data["sheet"], "paper"))
    variables = plain(data.get("variables") or {})
    colour = color_settings(data.get("color"), data.get("output-intent"), directory,
                            lambda container, key: at(data if container is None else container, key))
    meta = {}
    for key in ("author", "subject", "date"):
        if data.get(key) is not None:
            meta[key] = text(data, key, at)
    if "date" in meta:
        check_date(meta["date"], at(data, "date"))
    preflight = _preflight(data.get("preflight"), at, at(data, "preflight"))

    files, delimiters, warnings = card_files(data, directory, root, at, types)
    warnings += unlisted_tables(directory, files, root)
    cards = CardFiles(files, root, MappingProxyType(types), MappingProxyType(variables),
                      at(data, "cards") if "cards" in data else at(data), delimiters)
    if check_cards:
        cards.check()
    try:
        return _rest_of_set(name, root, directory, data, file, at, types, backs, cards, icons, variables, colour,
                            meta, preflight, warnings)
    except Exception:
        if not cards.checked:
            cards.check()  # its problems first, as when it was checked before
        raise


def _rest_of_set(name, root, directory, data, file, at, types, backs, cards, icons, variables, colour, meta,
                 preflight, warnings) -> CardSet:
    rules_entries = data.get("rules") or []
    if isinstance(rules_entries, str):
        rules_entries = [rules_entries]
    if not isinstance(rules_entries, list) or not all(isinstance(e, str) for e in rules_entries):
        raise fail("`rules` must be a rules file name or a list of them", at(data, "rules"))
    rules = []
    for index, entry in enumerate(rules_entries):
        where = at(data["rules"], index) if isinstance(data["rules"], list) else at(data, "rules")
        try:
            rules_path = confined(root, directory, str(entry), "rules file")
        except OutsideProject as exc:
            raise fail(str(exc), where) from None
        if not rules_path.is_file():
            raise fail(f'rules file "{entry}" {not_a_file(rules_path)}', where)
        rules.append(rules_path)

    title = text(data, "title", at)
    return CardSet(
        name=name, title=name if title is None else title, version=text(data, "version", at) or "",
        root=root, directory=directory, types=MappingProxyType(types), backs=MappingProxyType(backs),
        cards=cards, icons=MappingProxyType(icons), variables=MappingProxyType(variables),
        rules=tuple(rules), sheet=MappingProxyType(plain(data.get("sheet") or {})), source=Source(file, 1),
        color=colour, meta=MappingProxyType(meta), preflight=preflight,
        language=_language(data, at), boxes=MappingProxyType(_boxes(data, directory, file, at)),
        warnings=tuple(warnings))


def _preflight(raw: Any, at, written: Source) -> tuple:
    """``preflight:`` in set.yaml: a list of {element, min-size, reason}, each
    lowering a minimum for the named element (a text box's ``name``), with the reason preflight
    prints."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise fail("preflight: must be a list of {element:, min-size:, reason:}", written)
    entries = []
    for index, entry in enumerate(raw):
        where = at(raw, index)
        if not isinstance(entry, dict):
            raise fail("each preflight entry is a mapping {element:, min-size:, reason:}", where)
        unknown_keys(entry, PREFLIGHT_KEYS, where.file, "preflight entry")
        # read as set.yaml's other texts: a list or true was printed in Python's spelling ("['a']", "True")
        element, reason = (text(entry, key, at, f"preflight {key}") for key in ("element", "reason"))
        if not (element or "").strip() or not (reason or "").strip():
            raise fail("a preflight entry needs `element` (a text box's name) and `reason`", where)
        values = {"element": element, "reason": reason, "source": where}
        for key in ("min-size",):
            if key in entry:
                try:
                    if isinstance(entry[key], bool):  # true is no size: float() made it 1 pt
                        raise TypeError
                    values[key] = float(entry[key])
                except (TypeError, ValueError):
                    shown = str(entry[key]).lower() if isinstance(entry[key], bool) else entry[key]
                    raise fail(f'{key} must be a number of points, got "{shown}"', at(entry, key)) from None
                if not 0 < values[key] < 1000:
                    raise fail(f"{key} must be a number of points greater than 0, got \"{entry[key]}\"",
                               at(entry, key))
        if "min-size" not in values:
            raise fail("a preflight entry lowers `min-size` (the text's minimum, pt)", where)
        entries.append(MappingProxyType(values))
    return tuple(entries)


_BOX_NAME = re.compile(r"[^/\\\x00-\x1f\x7f]+")


def _boxes(data: dict, directory: Path, file: str, at) -> dict[str, BoxSpec]:
    """``boxes:``: tuck boxes, each with its layout and the cards it holds."""
    entries = data.get("boxes") or {}
    if not isinstance(entries, dict):
        raise fail("`boxes` must be a mapping of name: {template:, cards: or deck:}", at(data, "boxes"))
    boxes = {}
    for name, spec in entries.items():
        where = at(entries, name)
        if not _BOX_NAME.fullmatch(str(name)) or str(name) in (".", ".."):
            # its name is part of its file's: "../../x" wrote output/<set>.box-../../x.pdf, out of the folder
            raise fail(f'box "{name}": a box\'s name is part of its file name ({data.get("name", "<set>")}.box-<name>.pdf): '
                       'give it one without "/", "\\" or control characters', where)
        if not isinstance(spec, dict) or not text(spec, "template", at, f'box "{name}": template'):
            raise fail(f'box "{name}" needs a `template` (its layout below templates/)', where)
        unknown_keys(spec, BOX_KEYS, file, f'box "{name}"')
        cards = spec.get("cards") or {}
        if not isinstance(cards, dict):
            raise fail(f'box "{name}": `cards` selects cards by field, such as {{type: ruling}}', at(spec, "cards"))
        if "cards" in spec and "deck" in spec:
            raise fail(f'box "{name}": give `cards` or `deck`, not both', at(spec, "deck"))
        deck = None
        if spec.get("deck") is not None:
            try:
                deck = confined(directory.parent.parent, directory, str(spec["deck"]), "deck list")
            except OutsideProject as exc:
                raise fail(f'box "{name}": {exc}', at(spec, "deck")) from None
            if not deck.is_file():
                raise fail(f'box "{name}": deck list "{spec["deck"]}" {not_a_file(deck)}', at(spec, "deck"))
        fields = spec.get("fields") or {}
        if not isinstance(fields, dict):
            raise fail(f'box "{name}": `fields` must be a mapping of name: value', at(spec, "fields"))
        thickness = length(spec, "thickness", 0.3, at)
        clearance = length(spec, "clearance", 1.0, at)
        if thickness <= 0:
            raise fail(f'box "{name}": thickness must be greater than 0', at(spec, "thickness"))
        boxes[str(name)] = BoxSpec(str(name), str(spec["template"]), MappingProxyType(plain(cards)), deck,
                                   thickness, clearance, MappingProxyType(plain(fields)), where)
    return boxes


def _language(data: dict, at) -> str | None:
    """The hyphenation language, checked against the dictionaries there are."""
    language = text(data, "language", at)
    if language is None:
        return None
    from ..text.hyphenate import dictionary

    try:
        dictionary(str(language))
    except ValueError as exc:
        raise fail(f"language: {exc}", at(data, "language")) from None
    return str(language)


def _sheet_files(sheet: Any, root: Path, directory: Path, at) -> None:
    """A sheet template file named in set.yaml (by itself or per paper) must be in the project."""
    template = sheet.get("template")
    named = template.items() if isinstance(template, dict) else [(None, template)]
    for paper, name in named:
        if name is not None and not isinstance(name, str):
            raise fail("a sheet template is a name (OL32, circle-cut, ...) or a file, or a mapping of paper: "
                       "either", at(template, paper) if paper is not None else at(sheet, "template"))
    if "margin" in sheet:
        try:
            if parse_length(sheet["margin"]) < 0:
                raise ValueError("must not be negative")
        except ValueError as exc:
            raise fail(f"sheet margin: {exc}", at(sheet, "margin")) from None
    from ..sheets.options import CHOICES

    for key in ("spacing", "orientation"):  # said here, at their lines: the build knows only the set's
        if sheet.get(key) is not None and sheet[key] not in CHOICES[key]:
            raise fail(f'sheet {key} must be one of {", ".join(CHOICES[key])}, got {quoted(sheet[key])}', at(sheet, key))
    for key in ("crop-marks", "cut-lines"):  # "no" is text in YAML 1.2, and text is true
        if sheet.get(key) is not None and not isinstance(sheet[key], bool):
            raise fail(f'sheet {key} must be true or false, got {quoted(sheet[key])}', at(sheet, key))
    for paper, name in named:
        if isinstance(name, str):
            from ..sheets.labels import is_path, load_template  # the sheet readers: only for sets that name a sheet
            from ..sheets.template import CIRCLE_CUT

        where = at(template, paper) if paper is not None else at(sheet, "template")
        if isinstance(name, str) and name and not is_path(name) and name != CIRCLE_CUT:
            load_template(name, source=where)  # a name it does not know is an error at this line
        if isinstance(name, str) and is_path(name):
            try:
                path = confined(root, directory, name.split("#", 1)[0], "sheet template file")
            except OutsideProject as exc:
                raise fail(str(exc), where) from None
            if not path.is_file():
                raise fail(f'sheet template file "{name.split("#", 1)[0]}" {not_a_file(path)}', where)


def _icons(raw: Any, root: Path, directory: Path, at) -> dict[str, Icon]:
    icons = {}
    for icon_name, spec in raw.items():
        where = at(raw, icon_name)
        if not isinstance(spec, dict) or ("image" in spec) == ("glyph" in spec):
            raise fail(f'icon "{icon_name}" needs exactly one of image: or glyph:', where)
        unknown_keys(spec, ICON_KEYS, where.file, f'icon "{icon_name}"')
        image = None
        if "image" in spec:
            text(spec, "image", at, f'icon "{icon_name}": image')  # a list: "must be text", not "['a.svg']" not found
            try:
                image = confined(root, directory, str(spec["image"]), f'icon "{icon_name}": image')
            except OutsideProject as exc:
                raise fail(str(exc), where) from None
            if not image.is_file():
                raise fail(f'icon "{icon_name}": image "{spec["image"]}" {not_a_file(image)}', where)
        glyph, font, color = (text(spec, key, at, f'icon "{icon_name}": {key}') for key in ("glyph", "font", "color"))
        if "glyph" in spec and not glyph:
            raise fail(f'icon "{icon_name}": glyph must be a character, got nothing', at(spec, "glyph"))
        icons[str(icon_name)] = Icon(str(icon_name), image=image, glyph=glyph, font=font or None,
                                     color=color or None, source=where)
    return icons
