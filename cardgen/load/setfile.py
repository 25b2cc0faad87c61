"""Read ``data/<set>/set.yaml`` and its card files into a :class:`CardSet`."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import Source, fail
from ..model import Back, CardSet, CardType, Icon
from ..units import parse_length
from .cards import CardFiles
from .yamlfile import line_of, plain, read_yaml, relative_name

SET_KEYS = {"name", "title", "version", "size", "bleed", "safe", "defaults", "variables", "types",
            "backs", "icons", "cards", "rules", "sheet", "shape"}
TYPE_KEYS = {"template", "back", "size", "shape", "bleed", "safe", "defaults"}
ICON_KEYS = {"image", "glyph", "font", "color"}
SHEET_KEYS = {"template", "spacing", "orientation", "margin", "crop-marks", "cut-lines", "paper"}


def set_names(root: Path) -> list[str]:
    data = Path(root) / "data"
    if not data.is_dir():
        return []
    return sorted(p.name for p in data.iterdir() if (p / "set.yaml").is_file())


def load_set(name: str, root: Path | str = ".") -> CardSet:
    """Load one set by its folder name below ``<root>/data``."""
    root = Path(root).resolve()
    directory = root / "data" / name
    path = directory / "set.yaml"
    data = read_yaml(path, root)
    file = relative_name(path, root)
    if not isinstance(data, dict):
        raise fail("set.yaml must be a mapping", Source(file, 1))
    _unknown_keys(data, SET_KEYS, file, "set.yaml")

    def at(container: Any, key: Any = None) -> Source:
        return Source(file, line_of(container, key))

    for key in ("types", "backs", "icons", "variables", "defaults", "sheet"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise fail(f"`{key}` must be a mapping of name: value", at(data, key))
    if data.get("cards") is not None and not isinstance(data["cards"], (list, str, dict)):
        raise fail("`cards` must be a list of card files", at(data, "cards"))
    declared = str(data.get("name", name))
    if declared != name:
        raise fail(f'set name "{declared}" differs from its folder "{name}"', at(data, "name"))
    from ..sheets.sizes import card_size  # sizes and papers belong to the sheets stage

    default_size = card_size(plain(data.get("size", "poker")), at(data, "size") if "size" in data else at(data))
    bleed = _length(data, "bleed", 3.0, at)
    safe = _length(data, "safe", 3.0, at)
    defaults = plain(data.get("defaults") or {})

    backs = {}
    for back_name, spec in (data.get("backs") or {}).items():
        if isinstance(spec, str):
            spec = {"template": spec}
        if not isinstance(spec, dict) or "template" not in spec:
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
        if not isinstance(spec, dict) or "template" not in spec:
            raise fail(f'card type "{type_name}" needs a template', where)
        _unknown_keys(spec, TYPE_KEYS, file, f'card type "{type_name}"')
        back = spec.get("back")
        if back is not None and str(back) not in backs:
            raise fail(f'card type "{type_name}" names back "{back}", which `backs` does not define', at(spec, "back"))
        size = card_size(plain(spec["size"]), at(spec, "size")) if "size" in spec else default_size
        shape = str(spec.get("shape", data.get("shape", size.shape)))
        if shape not in ("rect", "circle"):
            raise fail(f'shape must be rect or circle, got "{shape}"', at(spec, "shape"))
        if shape == "circle" and abs(size.w - size.h) > 1e-9:
            raise fail("a circle needs equal width and height", at(spec, "size"))
        size = type(size)(size.w, size.h, size.name, shape)
        types[str(type_name)] = CardType(
            name=str(type_name), template=str(spec["template"]), back=str(back) if back is not None else None,
            size=size, bleed=_length(spec, "bleed", bleed, at), safe=_length(spec, "safe", safe, at),
            defaults=MappingProxyType({**defaults, **plain(spec.get("defaults") or {})}), source=where)

    icons = _icons(data.get("icons") or {}, directory, at)
    if isinstance(data.get("sheet"), dict):
        _unknown_keys(data["sheet"], SHEET_KEYS, file, "sheet")
        if "paper" in data["sheet"]:  # checked here, where its line is known
            from ..sheets.sizes import paper_size

            paper = plain(data["sheet"]["paper"])
            paper_size((paper.get("w"), paper.get("h")) if isinstance(paper, dict) else paper,
                       at(data["sheet"], "paper"))
    variables = plain(data.get("variables") or {})

    files, delimiters, warnings = _card_files(data, directory, root, at)
    cards = CardFiles(files, root, MappingProxyType(types), MappingProxyType(variables), delimiters)
    cards.check()

    rules_entries = data.get("rules") or []
    if isinstance(rules_entries, str):
        rules_entries = [rules_entries]
    rules = []
    for index, entry in enumerate(rules_entries):
        rules_path = directory / str(entry)
        if not rules_path.is_file():
            raise fail(f'rules file "{entry}" not found', at(data["rules"], index) if isinstance(data["rules"], list) else at(data, "rules"))
        rules.append(rules_path)

    return CardSet(
        name=name, title=str(data.get("title", name)), version=str(data.get("version", "")),
        root=root, directory=directory, types=MappingProxyType(types), backs=MappingProxyType(backs),
        cards=cards, icons=MappingProxyType(icons), variables=MappingProxyType(variables),
        rules=tuple(rules), sheet=MappingProxyType(plain(data.get("sheet") or {})), source=Source(file, 1),
        warnings=tuple(warnings))


CARD_FILE_KEYS = {"file", "type", "url", "delimiter", "timeout"}


def _card_files(data: Any, directory: Path, root: Path, at) -> tuple[list, dict, list]:
    """The card files of ``cards:`` as (path, type) pairs, the delimiters set.yaml names, and
    warnings (an online file read from its local copy). An entry is a file name, an address
    (http:// or https://), or a mapping of ``file``, ``url``, ``type``, ``delimiter``, ``timeout``."""
    from .delimiters import named_delimiter
    from .remote import TIMEOUT, copy_name, fetch_copy, is_url

    files, delimiters, warnings = [], {}, []
    card_files = data.get("cards") or []
    if isinstance(card_files, (str, dict)):
        card_files = [card_files]
    for index, entry in enumerate(card_files):
        where = at(data["cards"], index) if isinstance(data["cards"], list) else at(data, "cards")
        spec = dict(entry) if isinstance(entry, dict) else {"url": entry} if is_url(entry) else {"file": entry}
        if isinstance(entry, dict):
            _unknown_keys(entry, CARD_FILE_KEYS, where.file, "card file")
        url, name = spec.get("url"), spec.get("file")
        if url is not None and not is_url(url):
            raise fail(f'url: "{url}" is not an http:// or https:// address', where)
        if not name and not url:
            raise fail("each entry of `cards` is a file name, an address, or {file:, url:, type:, delimiter:}", where)
        relative = str(name) if name else f"downloads/{copy_name(str(url))}"
        card_path = directory / relative
        if not card_path.resolve().is_relative_to(directory.resolve()):
            raise fail(f'card file "{relative}" is outside the set\'s folder', where)
        if url is not None:
            try:
                timeout = float(spec.get("timeout", TIMEOUT))
            except (TypeError, ValueError):
                timeout = -1.0
            if not 0 < timeout <= 600:
                raise fail(f'timeout must be a number of seconds from 0 to 600, got "{spec.get("timeout")}"', where)
            warning = fetch_copy(str(url).strip(), card_path, relative_name(card_path, root), where, timeout)
            if warning is not None:
                warnings.append(warning)
        elif not card_path.is_file():
            raise fail(f'card file "{name}" not found', where)
        if spec.get("delimiter") is not None:
            delimiter = named_delimiter(spec["delimiter"])
            if delimiter is None:
                raise fail(f'delimiter must be one character or comma, semicolon, tab; got "{spec["delimiter"]}"',
                           where)
            delimiters[card_path] = delimiter
        forced_type = spec.get("type")
        files.append((card_path, str(forced_type) if forced_type is not None else None))
    return files, delimiters, warnings


def _length(container: Any, key: str, default: float, at) -> float:
    if key not in container:
        return default
    try:
        value = parse_length(container[key])
    except ValueError as exc:
        raise fail(f"{key}: {exc}", at(container, key)) from None
    if value < 0:
        raise fail(f"{key} must not be negative", at(container, key))
    return value


def _unknown_keys(mapping: dict, allowed: set[str], file: str, what: str) -> None:
    for key in mapping:
        if str(key) not in allowed:
            raise fail(f'{what}: unknown key "{key}" (known: {", ".join(sorted(allowed))})',
                       Source(file, line_of(mapping, key)))


def _icons(raw: Any, directory: Path, at) -> dict[str, Icon]:
    icons = {}
    for icon_name, spec in raw.items():
        where = at(raw, icon_name)
        if not isinstance(spec, dict) or ("image" in spec) == ("glyph" in spec):
            raise fail(f'icon "{icon_name}" needs exactly one of image: or glyph:', where)
        _unknown_keys(spec, ICON_KEYS, where.file, f'icon "{icon_name}"')
        image = None
        if "image" in spec:
            image = directory / str(spec["image"])
            if not image.is_file():
                raise fail(f'icon "{icon_name}": image "{spec["image"]}" not found', where)
        icons[str(icon_name)] = Icon(str(icon_name), image=image, glyph=spec.get("glyph") and str(spec["glyph"]),
                                     font=spec.get("font") and str(spec["font"]),
                                     color=spec.get("color") and str(spec["color"]), source=where)
    return icons
