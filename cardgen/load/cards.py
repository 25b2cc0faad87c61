"""Turn raw rows into :class:`Card` records: required fields, counts, ``each`` expansion; a
set's cards as its files, read again each time they are gone through."""
from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from ..errors import CardgenError, Problem, Source
from ..limits import COPIES_PER_CARD, COPIES_PER_SET, limit, limit_message
from ..model import Card, CardType, new_card
from ..spelled import quoted
from .header import hidden_character, read_by_another_name
from .tables import YAML_SUFFIXES, Row, read_rows, yaml_rows_from
from .yamlfile import relative_name

if TYPE_CHECKING:
    from .cursor import Cursor

# XML 1.0 cannot carry these, and no printer wants them: reject them at the door.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


KEPT_CARDS = 2000  # a set of at most this many cards is held once checked (a few megabytes)
MARK_EVERY = 32  # of a larger set's cards, one in this many has its place noted (see cursor.py)
MARK = 4  # numbers a mark: the card's file, its row's line, the cards its row made before it, a byte offset


class CardFiles(Sequence):
    """A set's cards. ``check`` reads them once, raising every problem of their rows
    (CardgenError), and counts them: ``copies`` holds the copies of each card type, types in
    order of first appearance. A small set's cards are then kept; a larger set's are read from
    their files again each time they are gone through, never held, so that it costs no more
    memory than a small one."""

    def __init__(self, files: Sequence[tuple[Path, str | None]], root: Path, types: Mapping[str, CardType],
                 variables: Mapping[str, Any], source: Source | None = None,
                 delimiters: Mapping[Path, str] | None = None):
        self.files = tuple(files)  # (path, the type its cards take when they name none)
        self.delimiters = dict(delimiters or {})  # a CSV file's delimiter, where set.yaml names it
        self.root, self.types, self.variables = root, types, variables
        self.source = source  # where the files are listed (set.yaml's `cards:`)
        self.warnings: tuple[Problem, ...] = ()  # card files that hold no card
        self._count = 0
        self.copies: dict[str, int] = {}
        self._kept: tuple[Card, ...] | None = None  # a small set's cards, as checked
        # where the cards 0, n, 2n... (n: ``marked_every``) of a set not kept are read: (index of
        # the file, line of the row, cards the row makes before it, the byte offset of a YAML
        # file's row to read it from, see yamlmarks.py, else -1) each, one after the other
        self.marks = array("q")
        self.marked_every = MARK_EVERY
        self.checked = False  # by ``check``: a build may fork its workers before (pipeline.py)
        self._told: dict[Path, dict] = {}  # what a reading of each YAML file tells the next (tables.read_rows)
        # type -> field name -> the first card whose row gives it (not its type's default): what
        # validate/unread.py needs to name misspelt fields, gathered by ``check``'s one reading
        self.field_firsts: dict[str, dict[str, Card]] = {}

    def check(self) -> None:
        problems: list[Problem] = []
        kept: list[Card] | None = []
        copies: dict[str, int] = {}
        count = total = 0
        most = limit(COPIES_PER_SET)
        warnings = []
        marks, every = array("q"), MARK_EVERY
        lists: list[tuple[int, int, int]] = []  # YAML files read as lists, whose marks get offsets: (file, marks)
        row, row_start = None, 0  # the source of the last card's row, and the first card it made
        firsts: dict[str, dict[str, Card]] = {}
        for index, (path, forced_type) in enumerate(self.files):
            before, first_mark = count, len(marks)
            rows = self.rows_of(path)
            for card in self.cards_of(rows, forced_type, problems):
                if card.source is not row:  # (a row makes several cards with `each`)
                    row, row_start = card.source, count
                if not count % every:
                    marks.extend((index, card.source.line or 0, count - row_start, -1))
                count += 1
                copies[card.type] = copies.get(card.type, 0) + card.count
                total += card.count
                _note_fields(firsts, card, self.types[card.type].defaults)
                if total > most:  # named at the card that passes it, and no further card is made
                    problems.append(Problem(limit_message(COPIES_PER_SET, f"the set's cards come to more than "
                                                                          f"{most} copies here"),
                                            card.source, card.name))
                    if path.suffix.lower() in YAML_SUFFIXES:
                        for _ in rows:  # a broken YAML file's own error comes first, as when it was read whole
                            pass
                    raise CardgenError(problems)
                if kept is not None:
                    kept.append(card)
                    if count > KEPT_CARDS:
                        kept = None
            if count == before and not problems:
                warnings.append(Problem("the card file holds no cards", Source(relative_name(path, self.root)),
                                        severity="warning"))
            if self._told.get(path, {}).get("list") and len(marks) > first_mark:
                lists.append((index, first_mark, len(marks)))
        self.warnings = tuple(warnings)
        if problems:
            raise CardgenError(problems)
        self._count, self.copies, self.field_firsts = count, copies, firsts
        self._kept = tuple(kept) if kept is not None else None
        if kept is None:
            for index, first_mark, end in lists:
                _offsets_marked(marks, first_mark, end, self.files[index][0])
        self.marks, self.marked_every = (marks if kept is None else array("q")), every
        self.checked = True

    def __iter__(self) -> Iterator[Card]:
        if self._kept is not None:
            yield from self._kept
            return
        for path, forced_type in self.files:
            problems: list[Problem] = []  # only if a file changed since it was checked
            yield from self._read(path, forced_type, problems)
            if problems:
                raise CardgenError(problems)

    def _read(self, path: Path, forced_type: str | None, problems: list[Problem]) -> Iterator[Card]:
        return self.cards_of(self.rows_of(path), forced_type, problems)

    def rows_of(self, path: Path) -> Iterator[Row]:
        """The rows of one of the card files."""
        return read_rows(path, self.root, self.delimiters.get(path), self._told.setdefault(path, {}))

    def rows_from(self, path: Path, offset: int, line: int) -> Iterator[Row]:
        """The rows of one of the card files, YAML, from the row a mark's offset names."""
        return yaml_rows_from(path, self.root, offset, line)

    def cards_of(self, rows: Iterator[Row], forced_type: str | None, problems: list[Problem]) -> Iterator[Card]:
        """The cards of ``rows``; each problem of a row is added to ``problems``."""
        for row in rows:
            try:
                yield from _cards_from_row(row, self.types, self.variables, forced_type)
            except CardgenError as error:
                problems.extend(error.problems)

    def cursor(self) -> "Cursor":
        """The cards, taken a chunk at a time (see cursor.py)."""
        from .cursor import cursor

        return cursor(self)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        return tuple(self)[index]


def _note_fields(firsts: dict[str, dict[str, Card]], card: Card, defaults: Mapping[str, Any]) -> None:
    """Note ``card`` as the first of its type to give each of its fields that no card before it
    gave (a field holding its type's default object is the default's, not the card's)."""
    seen = firsts.get(card.type)
    if seen is None:
        seen = firsts[card.type] = {}
    fields = card.fields
    for key in fields:
        if key not in seen and not (key in defaults and fields[key] is defaults[key]):
            seen[key] = card


def _offsets_marked(marks: array, first_mark: int, end: int, path: Path) -> None:
    """Give the marks of a YAML file read as a list (``marks[first_mark:end]``) the byte offset
    their row may be read from (yamlmarks.py)."""
    from .yamlmarks import item_offsets

    lines = marks[first_mark + 1:end:MARK]
    for at, offset in enumerate(item_offsets(path, lines)):
        marks[first_mark + MARK * at + 3] = offset


_NAMES_SEEN: set[str] = set()  # field names found visible


def _check_field_name(key: str, source: Source, card: str | None, fields: Mapping[str, Any]) -> None:
    """A YAML card's field name holding an invisible character (``co\u200bunt: 3``), or one
    like `count` that is not it (``Count: 3``), is refused, as such a column name is (tables.py):
    it is no `count`, and the card printed once."""
    hidden = hidden_character(key)
    if hidden is not None:
        raise CardgenError(Problem(f"a field's name {hidden}", source, card))
    alike = read_by_another_name(key, fields)
    if alike is not None:
        raise CardgenError(Problem(f"a field's name {alike}", source, card))
    if len(_NAMES_SEEN) < 4096:
        _NAMES_SEEN.add(key)


def _clean(value: Any, field: str, source: Source, card: str | None) -> Any:
    if isinstance(value, str):
        value = value.replace("\r\n", "\n").replace("\r", "\n")
        bad = _FORBIDDEN.search(value)
        if bad:
            raise CardgenError(Problem(f"{field} contains the control character U+{ord(bad.group()):04X}", source, card))
    elif isinstance(value, list):
        return [_clean(v, field, source, card) for v in value]
    elif isinstance(value, dict):
        return {k: _clean(v, f"{field}.{k}", source, card) for k, v in value.items()}
    return value


def _kind(value: list | dict) -> str:
    return "list" if isinstance(value, list) else "mapping"


def _count(value: Any, source: Source, card: str) -> int:
    if value in (None, ""):
        return 1
    if isinstance(value, bool):
        raise CardgenError(Problem(f"count must be a whole number, got {quoted(value)}", source, card))
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+\s*", value):
        # a cell's "-1" is a whole number, and is told as YAML's -1 is: negative
        sign, digits = re.fullmatch(r"\s*([-+]?)0*(\d*?)\s*", value).groups()
        digits = digits or "0"
        if len(digits) > 18:  # past any limit, and past what Python turns into a number at 4,300 digits
            raise CardgenError(Problem(_too_many(f"of {len(digits):,} digits"), source, card))
        number = -int(digits) if sign == "-" else int(digits)
    else:
        raise CardgenError(Problem(f"count must be a whole number, got {quoted(value)}", source, card))
    if number < 0:
        raise CardgenError(Problem(f"count must not be negative, got {number}", source, card))
    if number > limit(COPIES_PER_CARD):
        shown = str(number) if number < 10 ** 18 else f"of {len(str(number)):,} digits"  # a spreadsheet's 1e300
        raise CardgenError(Problem(_too_many(shown), source, card))
    return number


# ASCII digits only: int() takes "١..٣" as 1..3, and the card would say numbers its row does not
_RANGE = re.compile(r"\s*(-?[0-9]{1,30})\s*\.\.\s*(-?[0-9]{1,30})\s*")


def _numbered(each: Any, source: Source, card: str) -> list[dict] | None:
    """``each: 1..10`` (Squib's ranges, nanDECK's 1-10): one card per whole number from the first to
    the last, each with ``item.name`` (the number as text) and ``item.number``; None if ``each`` is
    no range."""
    match = _RANGE.fullmatch(str(each)) if isinstance(each, str) else None
    if match is None:
        return None
    first, last = int(match[1]), int(match[2])
    if last < first:
        raise CardgenError(Problem(f"each: {quoted(each)} counts down: write the smaller number first", source, card))
    if last - first + 1 > limit(COPIES_PER_CARD):
        raise CardgenError(Problem(limit_message(COPIES_PER_CARD, f"each: {each} makes {last - first + 1:,} cards"),
                                   source, card))
    return [{"name": str(number), "number": number} for number in range(first, last + 1)]


def _too_many(count: str) -> str:
    return limit_message(COPIES_PER_CARD, f"count {count} is too many copies")


_NO_SOURCES: Mapping[str, Source] = MappingProxyType({})


def _sources(row: Row) -> Mapping[str, Source]:
    """Where each field came from, when not from the row's own line (CSV and XLSX rows: never)."""
    return MappingProxyType(dict(row.sources)) if row.sources else _NO_SOURCES


def _cards_from_row(row: Row, types: Mapping[str, CardType], variables: Mapping[str, Any],
                    forced_type: str | None) -> list[Card]:
    values = row.values
    source_of = row.sources.get
    raw_name = values.get("name")
    if raw_name is None or str(raw_name).strip() == "":
        for key in values:  # "Name:" in a YAML card: said as what it is
            _check_field_name(key, source_of(key, row.source), None, values)
        raise CardgenError(Problem("the card has no name (column `name`)", row.source))
    if isinstance(raw_name, (list, dict)):  # printed, it would read "['a']" as Python writes it
        raise CardgenError(Problem(f"the card's name must be text, got a {_kind(raw_name)}",
                                   source_of("name", row.source)))
    name = str(raw_name).strip()
    type_name = values.get("type") or forced_type
    if isinstance(type_name, (list, dict)):
        raise CardgenError(Problem(f"the card's type must be text, got a {_kind(type_name)}",
                                   source_of("type", row.source), name))
    if type_name is None or str(type_name).strip() == "":
        raise CardgenError(Problem("the card has no type (column `type`)", row.source, name))
    type_name = str(type_name).strip()
    if type_name not in types:
        known = ", ".join(sorted(types))
        raise CardgenError(Problem(f'unknown card type "{type_name}" (the set has: {known})',
                                   source_of("type", row.source), name))
    count = _count(values.get("count"), source_of("count", row.source), name)
    fields = {**types[type_name].defaults}
    for key, value in values.items():
        if key not in _NAMES_SEEN:  # a card file's few field names, each checked once
            _check_field_name(key, source_of(key, row.source), name, values)
        if value.__class__ is str:  # most values: checked here, without a call
            if "\r" in value:
                value = value.replace("\r\n", "\n").replace("\r", "\n")
            if value.isprintable() or _FORBIDDEN.search(value) is None:  # (no printable character is forbidden)
                fields[key] = value
                continue
        elif value is None:  # `flavor:` left empty in YAML: an empty cell, as in CSV, not the word "None" printed
            fields[key] = ""
            continue
        fields[key] = _clean(value, key, source_of(key, row.source), name)
    fields.update(name=name, type=type_name, count=count)

    each = fields.pop("each", None)
    if each in (None, ""):
        return [new_card(name, type_name, count, MappingProxyType(fields), row.source, _sources(row))]
    items = variables.get(str(each))
    if items is None:
        items = _numbered(each, source_of("each", row.source), name)
    if not isinstance(items, list) or not all(isinstance(i, dict) and "name" in i for i in items):
        raise CardgenError(Problem(f'each: {quoted(each)} must name a list of {{name: ...}} items in the set\'s variables, '
                                   f'or a range of numbers such as 1..10',
                                   source_of("each", row.source), name))
    cards = []
    for item in items:
        item_name = str(item["name"])
        card_name = name.replace("{item}", item_name) if "{item}" in name else f"{name} ({item_name})"
        item_fields = {**fields, "name": card_name, "item": dict(item)}
        cards.append(Card(card_name, type_name, count, MappingProxyType(item_fields), row.source, _sources(row)))
    return cards
