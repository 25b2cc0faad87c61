"""YAML read through libyaml, exactly as ruamel's round-trip loader reads it.

``read_yaml`` (yamlfile.py) gives ruamel's round-trip containers, whose line records the error
messages use. ruamel's own parser is pure Python: 0.3 ms a card, and a whole document held at
once. Here libyaml (PyYAML's C extension) parses, and the values are built from its events:

- ``card_entries``: a card file, the one YAML file that grows with a game, one card at a time:
  each card's plain values and the lines of its fields, never the whole document;
- ``read_document``: any other YAML file (set.yaml, rules, decks), as ruamel's CommentedMap
  and CommentedSeq with the same line records and ruamel's own scalar types.

Both take only what they read exactly as ruamel does (YAML 1.2 as ruamel resolves it, lines as
ruamel records them). On anything else (a parse error, an anchor, alias or tag, a tab, a value
other than text, a number, true/false or null, a key given twice, a card file of another
shape; what yamlscan.py looks for first) they give up (``Unsure``), and the caller reads the
file with ruamel's parser (a card file from the card this reader stopped at): results and
messages stay what they were.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from ..errors import CardgenError, UsageError
from ..limits import YAML_EXPANSION, limit
from .yamlplain import Unsure as NotPlain, resolved_plainly
from .yamlscan import Unsure, scanned, spaces_line_between, unsure_text

MAX_DEPTH = 64  # lists and mappings inside a card; deeper is read_yaml's to judge

_STR = "tag:yaml.org,2002:str"
_KNOWN = {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}

CardEntry = tuple[dict[str, Any], int, dict[str, int]]  # values, 1-based line, each field's line


class _Scalars:
    """Plain (unquoted) scalars resolved as ruamel resolves them for YAML 1.2, and numbers and
    true/false built by ruamel's own constructor."""

    def __init__(self):
        self.resolvers: dict | None = None  # first character -> [(tag, pattern)], ruamel's
        self.constructor = None
        self.cache: dict[str, Any] = {}

    def _ruamels(self) -> None:
        """ruamel's resolver and constructor: imported for the first scalar that is more than
        text, a whole number, true/false or null (most card files have none)."""
        from ruamel.yaml import YAML

        yaml = YAML(typ="rt", pure=True)
        self.resolvers = yaml.resolver.versioned_resolver
        self.constructor = yaml.constructor

    def tag(self, value: str) -> str:
        if self.resolvers is None:
            self._ruamels()
        for tag, pattern in self.resolvers.get(value[:1], ()):
            if pattern.match(value):
                return str(tag)
        return _STR

    def built(self, text: str) -> Any:
        """The plain scalar ``text`` as read_yaml's loader builds it (ruamel's number types)."""
        try:  # text, a whole number, true/false or null, as ruamel builds them (yamlplain.py)
            return resolved_plainly(text)
        except NotPlain:
            pass
        from ruamel.yaml.nodes import ScalarNode

        tag = self.tag(text)
        if tag == _STR:
            return text
        if tag not in _KNOWN:  # a date, a merge key, "=": read_yaml's
            raise Unsure
        if tag.endswith("null"):
            return None
        return getattr(self.constructor, "construct_yaml_" + tag.rpartition(":")[2])(ScalarNode(tag, text, None, None))

    def value(self, text: str) -> Any:
        """The plain scalar ``text`` as ``plain(read_yaml(...))`` gives it."""
        if text in self.cache:
            return self.cache[text]
        value = built = self.built(text)
        if built.__class__ is not str and built is not None:
            value = bool(built) if isinstance(built, bool) else int(built) if isinstance(built, int) else float(built)
        if len(self.cache) < 1000:
            self.cache[text] = value
        return value


_scalars: _Scalars | None = None


def card_entries(path: Path, told: dict | None = None) -> Iterator[CardEntry]:
    """The cards of the YAML card file ``path``, each as (values, line, field lines), as
    ``tables.py`` makes them from ``read_yaml``. Raises ``Unsure`` (possibly after some cards)
    where it cannot read on exactly as read_yaml would; a file read_yaml refuses always ends so.
    The file is read in pieces, twice (first for what only read_yaml may read), never held.
    ``told`` holds what a reading learns of the file for the next (one build's): what the first
    pass found, kept for the file as it is (``yamlscan.scanned``), and ``told["list"]``, set when the
    whole file was read so, its cards a list in block style at its top (``- name: ...``): then
    each card's line may be read from (``card_entries_from``)."""
    global _scalars
    told = {} if told is None else told
    told.pop("list", None)
    try:
        limit(YAML_EXPANSION)  # read_yaml's check after parsing: a bad setting is its to report
        ascii, spaces_lines = scanned(path, told)
        CParser, events = _libyaml()
        if _scalars is None:
            _scalars = _Scalars()
        # a line of spaces only may stand inside a block scalar: then the bytes are kept to look
        data = Path(path).read_bytes() if spaces_lines else None
        with open(path, "rb") as handle:
            yield from _Reader(CParser(data if data is not None else handle), events, _scalars, data,
                               ascii, told=told).document()
    except Unsure:
        raise
    except (OSError, CardgenError, UsageError, ValueError):
        raise Unsure from None
    except Exception as error:
        from yaml import YAMLError

        if isinstance(error, YAMLError):  # libyaml's own errors: the messages are read_yaml's to give
            raise Unsure from None
        raise


def card_entries_from(path: Path, offset: int, line: int) -> Iterator[CardEntry]:
    """The cards of the YAML card file ``path`` that ``card_entries`` read whole as a list in
    block style (``told["list"]``), from the one whose list item starts line ``line`` (1-based),
    at byte ``offset``: as ``card_entries`` gives them, lines and all. libyaml reads the file from
    there, as a list of its own: that item's "-" stands at its line's start, after the spaces the
    list's other items have, and nothing outside the list is above it but the document's start.
    The file is not looked at again for what only read_yaml may read (``card_entries`` did): a
    file changed since may end in ``Unsure`` or another error, or give other cards (workers.py
    compares them with the build's)."""
    global _scalars
    CParser, events = _libyaml()
    if _scalars is None:
        _scalars = _Scalars()
    with open(path, "rb") as handle:
        handle.seek(offset)
        yield from _Reader(CParser(handle), events, _scalars, None, True, first_line=line).document(list_only=True)


def _libyaml():
    """libyaml's parser and PyYAML's events (``Unsure`` without them)."""
    try:
        from yaml import events
        from yaml._yaml import CParser
    except ImportError:  # PyYAML built without libyaml: read_yaml reads it all
        raise Unsure from None
    return CParser, events


class _Reader:
    def __init__(self, parser, events, scalars: _Scalars, data: bytes | None, ascii: bool,
                 first_line: int = 1, told: dict | None = None):
        self.parser, self.scalars = parser, scalars
        self.first_line, self.told = first_line, told  # the line libyaml's first is (1-based) in the file
        self.data, self.ascii, self._text = data, ascii, None  # data None: no line of spaces only
        self.next = parser.get_event
        self.ScalarEvent, self.MappingStartEvent = events.ScalarEvent, events.MappingStartEvent
        self.SequenceStartEvent, self.MappingEndEvent = events.SequenceStartEvent, events.MappingEndEvent
        self.SequenceEndEvent = events.SequenceEndEvent
        self.events = events

    def spaces_line(self, start: int, end: int) -> bool:
        """Whether characters ``start`` to ``end`` of the file hold a line of spaces only."""
        if self.data is None:
            return False
        if self.ascii:
            return spaces_line_between(self.data, start, end)
        if self._text is None:
            self._text = self.data.decode("utf-8")
        return spaces_line_between(self._text, start, end)

    def document(self, list_only: bool = False) -> Iterator[CardEntry]:
        events = self.events
        if type(self.next()) is not events.StreamStartEvent:
            raise Unsure
        start = self.next()
        if type(start) is events.StreamEndEvent:
            return  # an empty file: no cards
        if type(start) is not events.DocumentStartEvent or start.version or start.tags:
            raise Unsure
        top = self.next()
        if type(top) is self.SequenceStartEvent:
            self.collection(top)
            yield from self.cards()
        elif type(top) is self.MappingStartEvent and not list_only:
            yield from self.top_mapping(top)
        else:  # a lone value, or an alias: read_yaml's
            raise Unsure
        if type(self.next()) is not events.DocumentEndEvent or type(self.next()) is not events.StreamEndEvent:
            raise Unsure  # a second document (read_yaml refuses it)
        if self.told is not None and type(top) is self.SequenceStartEvent and not top.flow_style:
            self.told["list"] = True

    @staticmethod
    def collection(event) -> None:
        if event.anchor is not None or event.tag is not None:
            raise Unsure

    def top_mapping(self, start) -> Iterator[CardEntry]:
        """``cards: [...]`` beside other keys, whose values are read (and checked) and dropped."""
        self.collection(start)
        keys: set[str] = set()
        while True:
            event = self.next()
            if type(event) is self.MappingEndEvent:
                break
            key = self.key(event)
            if key in keys:
                raise Unsure
            keys.add(key)
            if key == "cards":
                items = self.next()
                if type(items) is not self.SequenceStartEvent:
                    raise Unsure  # not a list: an error, read_yaml's to word
                self.collection(items)
                yield from self.cards()
            else:
                self.value(self.next(), 1)
        if "cards" not in keys:
            raise Unsure

    def cards(self) -> Iterator[CardEntry]:
        """The entries of the list of cards, up to its end."""
        first = self.first_line
        while True:
            event = self.next()
            if type(event) is self.SequenceEndEvent:
                return
            if type(event) is not self.MappingStartEvent:
                raise Unsure  # not a mapping: an error, read_yaml's to word
            self.collection(event)
            values: dict[str, Any] = {}
            lines: dict[str, int] = {}
            while True:
                key_event = self.next()
                if type(key_event) is self.MappingEndEvent:
                    break
                key = self.key(key_event)
                if key in values:
                    raise Unsure
                lines[key] = key_event.start_mark.line + first
                values[key] = self.value(self.next(), 1)
            yield values, event.start_mark.line + first, lines

    def key(self, event) -> str:
        if type(event) is not self.ScalarEvent or event.anchor is not None or event.tag is not None:
            raise Unsure
        if not event.style:  # plain (libyaml says "")
            value = self.scalars.value(event.value)
            if value.__class__ is not str:
                raise Unsure  # a number, true or null as a key: read_yaml's
            return value
        return event.value

    def value(self, event, depth: int) -> Any:
        kind = type(event)
        if kind is self.ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                raise Unsure
            style = event.style
            if not style:
                return self.scalars.value(event.value)
            if style in "|>" and self.spaces_line(event.start_mark.index, event.end_mark.index):
                raise Unsure
            return event.value
        if depth > MAX_DEPTH:
            raise Unsure
        if kind is self.SequenceStartEvent:
            self.collection(event)
            items = []
            while True:
                item = self.next()
                if type(item) is self.SequenceEndEvent:
                    return items
                items.append(self.value(item, depth + 1))
        if kind is self.MappingStartEvent:
            self.collection(event)
            mapping: dict[str, Any] = {}
            while True:
                key_event = self.next()
                if type(key_event) is self.MappingEndEvent:
                    return mapping
                key = self.key(key_event)
                if key in mapping:
                    raise Unsure
                mapping[key] = self.value(self.next(), depth + 1)
        raise Unsure  # an alias


def read_document(text: str) -> Any:
    """The YAML document ``text`` as read_yaml's round-trip loader builds it: ruamel's
    CommentedMap and CommentedSeq with the same line records, ruamel's own scalar types. Raises
    ``Unsure`` where it cannot promise that (see the module's docstring)."""
    global _scalars
    if unsure_text(text):
        raise Unsure
    try:
        from yaml import YAMLError, events
        from yaml._yaml import CParser
    except ImportError:
        raise Unsure from None
    if _scalars is None:
        _scalars = _Scalars()
    data = text.encode("utf-8")
    try:
        return _Builder(CParser(data), events, _scalars, data, text.isascii(), text).document_value()
    except (YAMLError, ValueError):  # libyaml's own errors: the messages are ruamel's to give
        raise Unsure from None


class _Builder(_Reader):
    """A whole document in ruamel's round-trip containers (for read_yaml's small files)."""

    def __init__(self, parser, events, scalars: _Scalars, data: bytes, ascii: bool, text: str):
        super().__init__(parser, events, scalars, data, ascii)
        self._text = text
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

        self.CommentedMap, self.CommentedSeq = CommentedMap, CommentedSeq
        self.block = {"|": LiteralScalarString, ">": FoldedScalarString}

    def document_value(self) -> Any:
        events = self.events
        if type(self.next()) is not events.StreamStartEvent:
            raise Unsure
        start = self.next()
        if type(start) is events.StreamEndEvent:
            return None  # no document: as ruamel
        if type(start) is not events.DocumentStartEvent or start.version or start.tags:
            raise Unsure
        value = self.value(self.next(), 0)
        if type(self.next()) is not events.DocumentEndEvent or type(self.next()) is not events.StreamEndEvent:
            raise Unsure
        return value

    def value(self, event, depth: int) -> Any:
        kind = type(event)
        if kind is self.ScalarEvent:
            if not event.style:
                if event.anchor is not None or event.tag is not None:
                    raise Unsure
                return self.scalars.built(event.value)
            value = super().value(event, depth)
            return self.block[event.style](value) if event.style in ("|", ">") else value
        if depth > MAX_DEPTH or kind not in (self.SequenceStartEvent, self.MappingStartEvent):
            raise Unsure  # too deep, or an alias
        self.collection(event)
        mark = event.start_mark
        if kind is self.SequenceStartEvent:
            items = self.CommentedSeq()
            items._yaml_set_line_col(mark.line, mark.column)
            while True:
                item = self.next()
                if type(item) is self.SequenceEndEvent:
                    return items
                if type(item) is self.ScalarEvent and not item.style and not item.value:
                    raise Unsure  # an empty item: ruamel records it where the next token starts
                items._yaml_set_idx_line_col(len(items), [item.start_mark.line, item.start_mark.column])
                items.append(self.value(item, depth + 1))
        if kind is self.MappingStartEvent:
            mapping = self.CommentedMap()
            mapping._yaml_set_line_col(mark.line, mark.column)
            while True:
                key_event = self.next()
                if type(key_event) is self.MappingEndEvent:
                    return mapping
                key = self.key(key_event)
                if key_event.style in ("|", ">"):
                    raise Unsure
                if key in mapping:
                    raise Unsure
                value_event = self.next()  # (an empty value's place is not ruamel's: nothing reads it)
                mapping._yaml_set_kv_line_col(key, [key_event.start_mark.line, key_event.start_mark.column,
                                                    value_event.start_mark.line, value_event.start_mark.column])
                mapping[key] = self.value(value_event, depth + 1)
        raise Unsure  # an alias
