"""Cosmic Encounter powers in the ce-conv text format -> a set's ``powers.yaml``.

ce-conv was the 1991 converter that turned a plain-text list of powers into PostScript
cards; its input is the format in which fan powers (the Prisoner Powers among them) were
distributed. The format, line by line:

    ; a comment
    #P Prisoners                      an origin: a code and its name
    NAME [T:Origin:Restrictions] SHORT DESCRIPTION
    You have the power to ...         the power text, over as many lines as needed
    History: ...                      tagged lines: History, Restriction, Wild, Super,
    Wild1: ...                        Wild1, Super1 (the one-shot, Mayfair-style flares)
    ... continuation lines            any other line continues the text above it

T is M (mandatory) or O (optional); the restriction letters (P: only with prisoners,
L: Lucre, 2: not in a two-player game, ...) may be left out with their colon. A blank line
inside a text starts a new paragraph. Every mistake is reported as ``file:line: message``,
all at once.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import LiteralScalarString

from ..errors import CardgenError, Problem, Source
from ..load.yamlfile import read_text
from ..write.atomic import staged

# Tagged lines, in the order a power card prints them, and the field each one fills.
TAGS = {"History": "history", "Restriction": "restriction", "Wild": "wild", "Super": "super",
        "Wild1": "wild1", "Super1": "super1"}
# Every field of an imported power, in the order powers.yaml lists them.
FIELDS = ("name", "short", "use", "origin", "origin_name", "restrictions", "text") + tuple(TAGS.values())
USES = {"M": "mandatory", "O": "optional"}
UNKNOWN = "unknown"  # what the data says where the file gives no value

# A line that starts like a header (a name in capitals, then " [") is parsed as one, so that a
# broken header is reported instead of being read as text of the power above it.
_HEADER_START = re.compile(r"^[A-Z0-9][A-Z0-9 '&./-]*\s*\[")
_HEADER = re.compile(r"^(?P<name>[A-Z0-9][A-Z0-9 '&./-]*?)\s*\[(?P<inside>[^\]]*)\]\s*(?P<short>.*)$")
_TAG = re.compile(r"^(?P<tag>[A-Za-z]+[0-9]*):(?:\s|$)(?P<value>.*)$")
_FLARE_LIKE = re.compile(r"^(?:Wild|Super|History|Restriction)")
_RESTRICTIONS = re.compile(r"^[A-Z0-9]*$")


class _Parser:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.origins: dict[str, str] = {}
        self.powers: list[dict[str, Any]] = []
        self.lines: dict[str, int] = {}  # power name -> its header line
        self.current: dict[str, Any] | None = None
        self.field = "text"  # the field that continuation lines extend
        self.paragraph = False  # a blank line was seen inside the current field

    def problem(self, line: int, message: str, card: str | None = None) -> None:
        self.problems.append(Problem(message, Source(self.file, line), card))

    def feed(self, number: int, raw: str) -> None:
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith(";"):
            return
        if not stripped:
            self.paragraph = self.current is not None and bool(self.current.get(self.field))
            return
        if stripped.startswith("#"):
            self.origin(number, stripped)
        elif _HEADER_START.match(line):
            self.header(number, line)
        elif (tag := _TAG.match(stripped)) and tag["tag"] in TAGS:
            self.tagged(number, tag["tag"], tag["value"].strip())
        elif (tag := _TAG.match(stripped)) and _FLARE_LIKE.match(tag["tag"]):
            known = ", ".join(f"{t}:" for t in TAGS)
            self.problem(number, f'unknown tag "{tag["tag"]}:" (the tags are {known})', self.name())
        elif self.current is None:
            self.problem(number, "text outside a power: a power starts with a header line "
                                 "NAME [T:Origin:Restrictions] SHORT DESCRIPTION")
        else:
            self.extend(stripped)

    def name(self) -> str | None:
        return self.current["name"] if self.current else None

    def origin(self, number: int, line: str) -> None:
        parts = line[1:].split(None, 1)
        if len(parts) < 2:
            self.problem(number, f'an origin line reads "#Code Name", got "{line}"')
            return
        code, name = parts[0], parts[1].strip()
        if code in self.origins and self.origins[code] != name:
            self.problem(number, f'origin "{code}" is already "{self.origins[code]}"')
            return
        self.origins[code] = name

    def header(self, number: int, line: str) -> None:
        self.finish()
        match = _HEADER.match(line)
        if not match:
            self.problem(number, 'a header line reads NAME [T:Origin:Restrictions] SHORT DESCRIPTION, '
                                 'but this one has no closing "]"')
            # Keep reading the broken power's lines into a power that is dropped, so that one
            # mistake gives one message rather than one per following line.
            self.current = {**{key: None for key in FIELDS}, "text": "", "_line": None}
            self.field, self.paragraph = "text", False
            return
        name, short = match["name"].strip(), match["short"].strip()
        parts = [p.strip() for p in match["inside"].split(":")]
        power: dict[str, Any] = {key: None for key in FIELDS}
        power.update(name=name, short=short or None, text="")
        self.current, self.field, self.paragraph = power, "text", False
        before = len(self.problems)
        if len(parts) not in (2, 3):
            self.problem(number, f'the brackets hold T:Origin or T:Origin:Restrictions, got "[{match["inside"]}]"', name)
        else:
            use, origin = parts[0], parts[1]
            restrictions = parts[2] if len(parts) == 3 else ""
            if use not in USES:
                self.problem(number, f'the power type must be M (mandatory) or O (optional), got "{use}"', name)
            if not origin:
                self.problem(number, "the header names no origin", name)
            elif origin not in self.origins:
                self.problem(number, f'unknown origin "{origin}": define it first with a line "#{origin} Name"', name)
            if not _RESTRICTIONS.match(restrictions):
                self.problem(number, f'restrictions are capital letters and digits (P, L, 2 ...), got "{restrictions}"', name)
            power.update(use=USES.get(use), origin=origin, origin_name=self.origins.get(origin),
                         restrictions=restrictions)
        if not short:
            self.problem(number, "the header has no short description after the brackets", name)
        if name in self.lines:
            self.problem(number, f"the power is already defined on line {self.lines[name]}", name)
        if len(self.problems) == before:
            self.lines[name] = number
            power["_line"] = number
        else:
            power["_line"] = None  # reported: keep reading its lines, but do not keep it

    def tagged(self, number: int, tag: str, value: str) -> None:
        if self.current is None:
            self.problem(number, f'"{tag}:" outside a power: a power starts with a header line '
                                 "NAME [T:Origin:Restrictions] SHORT DESCRIPTION")
            return
        field = TAGS[tag]
        if self.current[field] is not None:
            self.problem(number, f'a second "{tag}:" line', self.name())
            return
        self.current[field], self.field, self.paragraph = value, field, False

    def extend(self, text: str) -> None:
        old = self.current[self.field] or ""
        joint = "\n\n" if self.paragraph else " "
        self.current[self.field] = f"{old}{joint}{text}" if old else text
        self.paragraph = False

    def finish(self) -> None:
        power, self.current = self.current, None
        if power is None:
            return
        line = power.pop("_line")
        if line is None:
            return
        if not power["text"]:
            self.problem(line, 'no power text (a line such as "You have the power to ...") after the header',
                         power["name"])
            return
        self.powers.append(power)


def parse_ceconv(path: Path | str) -> list[dict[str, Any]]:
    """Read a ce-conv file: one dict per power, with every key of ``FIELDS`` (None where the
    file gives no value). Raise CardgenError listing every mistake as ``file:line: message``."""
    path = Path(path)
    file = path.as_posix()
    text = read_text(path, file)  # as every text file: bytes that are not UTF-8 named at their line
    text = text.removeprefix("\ufeff")  # Notepad's UTF-8 mark, as the CSV reader drops it (utf-8-sig)
    parser = _Parser(file)
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        parser.feed(number, line)
    parser.finish()
    if not parser.powers and not parser.problems:
        parser.problem(max(len(lines), 1), "no power in the file: a power starts with a header line "
                                           "NAME [T:Origin:Restrictions] SHORT DESCRIPTION")
    if parser.problems:
        raise CardgenError(parser.problems)
    return parser.powers


def format_ceconv(powers: list[dict[str, Any]]) -> str:
    """Write powers back in the ce-conv format (``parse_ceconv`` reads it back unchanged)."""
    out: list[str] = []
    origins: dict[str, str] = {}
    for power in powers:
        if power.get("origin") and power["origin"] not in origins:
            origins[power["origin"]] = power.get("origin_name") or power["origin"]
    out.extend(f"#{code} {name}" for code, name in origins.items())
    use_letter = {v: k for k, v in USES.items()}
    for power in powers:
        inside = f"{use_letter[power['use']]}:{power['origin']}"
        if power.get("restrictions"):
            inside += f":{power['restrictions']}"
        out += ["", f"{power['name']} [{inside}] {power['short']}", power["text"]]
        for tag, field in TAGS.items():
            if power.get(field) is not None:
                out.append(f"{tag}: {power[field]}".rstrip())
    return "\n".join(out) + "\n"


def powers_yaml(powers: list[dict[str, Any]], source_name: str) -> str:
    """The text of powers.yaml: one mapping per power, keys in FIELDS order, `unknown` for
    values the file does not give. Deterministic: the same input gives the same bytes."""
    from io import StringIO

    rows = []
    for power in powers:
        row = CommentedMap()
        for key in FIELDS:
            value = power.get(key)
            if value is None:
                value = UNKNOWN
            elif isinstance(value, str) and "\n" in value:
                value = LiteralScalarString(value)
            row[key] = value
        rows.append(row)
    yaml = YAML()
    yaml.width = 4096  # one line per value: folding would make diffs of re-imports noisy
    yaml.indent(mapping=2, sequence=2, offset=0)
    buffer = StringIO()
    buffer.write(f"{IMPORTED_MARK}{source_name}`: edit the ce-conv file and import\n"
                 "# it again (this file is replaced). `unknown`: the file gives no such line.\n")
    yaml.dump(rows, buffer)
    return buffer.getvalue()


def read_powers_yaml(path: Path | str) -> list[dict[str, Any]]:
    """Read powers.yaml back into the dicts ``parse_ceconv`` returns (`unknown` -> None)."""
    data = YAML(typ="safe", pure=True).load(Path(path).read_text(encoding="utf-8")) or []
    return [{key: (None if row.get(key) == UNKNOWN else row.get(key)) for key in FIELDS} for row in data]


def import_ceconv(path: Path | str, set_dir: Path | str) -> Path:
    """Import a ce-conv file into the set folder ``set_dir`` (``data/<set>``): write
    ``powers.yaml`` and make sure set.yaml lists it (as cards of type ``power``). Return the
    path written. Bad input raises CardgenError before anything is written."""
    powers = parse_ceconv(path)
    set_dir = Path(set_dir)
    set_file = set_dir / "set.yaml"
    if not set_file.is_file():
        raise CardgenError(Problem(f"no set.yaml in {set_dir.as_posix()}", Source(set_file.as_posix())))
    target = set_dir / "powers.yaml"
    _check_replaceable(target)
    # set.yaml read as every command reads it first (a mapping, its keys and kinds): this reader
    # of its own then met an empty file, a list or a bare word as None.get and an internal error
    from ..load.setfile import load_set
    load_set(set_dir.name, set_dir.parent.parent, check_cards=False)
    listed = _powers_listed(set_file)
    files = {target: powers_yaml(powers, Path(path).name)}
    if not listed:
        files[set_file] = _with_powers_entry(set_file)
    # whole or not at all, both files: a failed or killed import leaves the old ones as they were
    with staged(*files) as temporaries:
        for temporary, text in zip(temporaries, files.values()):
            temporary.write_text(text, encoding="utf-8")
    return target


IMPORTED_MARK = "# Written by `cardgen import ce-conv "  # the first line of every powers.yaml it writes


def _check_replaceable(target: Path) -> None:
    """A powers.yaml an earlier import wrote is replaced (its first line says so: the ce-conv
    file is what the designer edits); any other file of that name, written by hand, is not
    written over without a word, nor is a pipe or folder in its place."""
    from ..paths import kind_at

    shown = "/".join(target.parts[-3:])  # data/<set>/powers.yaml, as the project names it
    kind = kind_at(target)
    if kind is None and not target.is_file():
        return  # nothing there yet
    if kind is not None:
        raise CardgenError(Problem(f"is {kind}, not a file: the import writes the powers here", Source(shown)))
    try:
        with target.open("rb") as file:
            first = file.readline(len(IMPORTED_MARK.encode()) + 1)
    except OSError as exc:
        raise CardgenError(Problem(f"cannot read this file, which the import would replace: {exc.strerror or exc}",
                                   Source(shown))) from None
    if not first.startswith(IMPORTED_MARK.encode()):
        raise CardgenError(Problem("this file was not written by `cardgen import ce-conv` (its first line is not the "
                                   "import's), and the import would replace it: move it away or rename it first",
                                   Source(shown, 1)))


def _powers_listed(set_file: Path) -> bool:
    """Whether set.yaml's ``cards`` already lists powers.yaml; an error if it cannot."""
    from ..load.yamlfile import line_of, read_yaml

    data = read_yaml(set_file)
    file = set_file.as_posix()
    types = data.get("types") or {}
    if "power" not in types:
        raise CardgenError(Problem('set.yaml defines no card type "power" for the imported powers '
                                   '(add one, e.g. `power: {template: cosmic/power.xml.j2}`)',
                                   Source(file, line_of(data, "types") if "types" in data else 1)))
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise CardgenError(Problem("set.yaml has no `cards:` list to add powers.yaml to",
                                   Source(file, line_of(data, "cards") if "cards" in data else 1)))
    for entry in cards:
        name = entry.get("file") if isinstance(entry, dict) else entry
        if str(name) == "powers.yaml":
            return True
    return False


def _with_powers_entry(set_file: Path) -> str:
    """set.yaml's text with ``{file: powers.yaml, type: power}`` added after the last entry of
    ``cards:``, the rest (comments, layout) exactly as it was written."""
    from ..load.yamlfile import line_of, read_yaml

    cards = read_yaml(set_file)["cards"]
    lines = set_file.read_text(encoding="utf-8").splitlines(keepends=True)
    last = line_of(cards, len(cards) - 1)  # 1-based line of the last entry's "-"
    dash = re.match(r"^(\s*)-", lines[last - 1])
    prefix = dash.group(1) if dash else "  "
    end = last  # skip the rest of a block-style entry (lines indented past its "-")
    while end < len(lines) and lines[end].strip() and not lines[end].lstrip().startswith(("-", "#")) \
            and len(lines[end]) - len(lines[end].lstrip()) > len(prefix):
        end += 1
    if lines[end - 1] and not lines[end - 1].endswith("\n"):
        lines[end - 1] += "\n"
    lines.insert(end, f"{prefix}- {{file: powers.yaml, type: power}}\n")
    return "".join(lines)
