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
shape) they give up (``Unsure``), and the caller reads the file with ruamel's parser (a card
file from the card this reader stopped at): results and messages stay what they were.
"""
from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Any, Iterator

from ..errors import CardgenError, UsageError
from ..limits import YAML_EXPANSION, limit
from .yamlplain import Unsure as NotPlain, resolved_plainly

MAX_DEPTH = 64  # lists and mappings inside a card; deeper is read_yaml's to judge

# Characters read_yaml takes differently from libyaml, or that ruamel's reader refuses: a file
# holding one is read_yaml's. Line breaks YAML 1.1 has and 1.2 has not, a byte-order mark, what
# is not printable, a line ended by a carriage return alone, and a tab but in a comment line
# (ruamel and libyaml differ on where one may stand). The patterns are compiled when a file is first read here (_unsure_text, which every reading
# starts with): a build whose files are all CSV or small YAML never pays for them.
_UNSURE_CHARACTER = _UNSURE_TAB = _UNSURE_SYNTAX = _SPACES_LINE = _SPACES_LINE_BYTES = None


def _compile_patterns() -> None:
    global _UNSURE_CHARACTER, _UNSURE_TAB, _UNSURE_SYNTAX, _SPACES_LINE, _SPACES_LINE_BYTES
    # Written as the characters refused, not the complement of those taken: the same set, but a
    # negated class with ranges up to U+10FFFF costs `re` about 3 ms to compile, this 0.3 ms.
    _UNSURE_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
                                   "|\r(?!\n)")
    _UNSURE_TAB = re.compile("^(?! *#).*\t", re.M)
    # A block scalar's header with a comment and no space before it ("|#"): libyaml takes it, ruamel not.
    _UNSURE_SYNTAX = re.compile(r"[|>][-+0-9]*#")
    # A line of spaces only inside a block scalar: ruamel refuses some that libyaml takes.
    _SPACES_LINE = re.compile(r"[\r\n] +[\r\n]")
    _SPACES_LINE_BYTES = re.compile(_SPACES_LINE.pattern.encode())


_STR = "tag:yaml.org,2002:str"
_KNOWN = {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}

CardEntry = tuple[dict[str, Any], int, dict[str, int]]  # values, 1-based line, each field's line


class Unsure(Exception):
    """This reader cannot promise to read the file exactly as read_yaml does."""


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


def card_entries(path: Path) -> Iterator[CardEntry]:
    """The cards of the YAML card file ``path``, each as (values, line, field lines), as
    ``tables.py`` makes them from ``read_yaml``. Raises ``Unsure`` (possibly after some cards)
    where it cannot read on exactly as read_yaml would; a file read_yaml refuses always ends so.
    The file is read in pieces, twice (first for what only read_yaml may read), never held."""
    global _scalars
    try:
        limit(YAML_EXPANSION)  # read_yaml's check after parsing: a bad setting is its to report
        ascii, spaces_lines = _scan(path)
        try:
            from yaml import events
            from yaml._yaml import CParser
        except ImportError:  # PyYAML built without libyaml: read_yaml reads it all
            raise Unsure from None
        if _scalars is None:
            _scalars = _Scalars()
        # a line of spaces only may stand inside a block scalar: then the bytes are kept to look
        data = Path(path).read_bytes() if spaces_lines else None
        with open(path, "rb") as handle:
            yield from _Reader(CParser(data if data is not None else handle), events, _scalars, data,
                               ascii).document()
    except Unsure:
        raise
    except (OSError, CardgenError, UsageError, ValueError):
        raise Unsure from None
    except Exception as error:
        from yaml import YAMLError

        if isinstance(error, YAMLError):  # libyaml's own errors: the messages are read_yaml's to give
            raise Unsure from None
        raise


SCAN_PIECE = 1 << 20  # characters


def _unsure_text(text: str) -> bool:
    if _UNSURE_CHARACTER is None:
        _compile_patterns()
    return bool(_UNSURE_CHARACTER.search(text) or _UNSURE_SYNTAX.search(text)
                or ("\t" in text and _UNSURE_TAB.search(text)))


def _scan(path: Path) -> tuple[bool, bool]:
    """Read the file a piece at a time for what only read_yaml may read (``Unsure``); tell
    whether it is ASCII and whether it has a line of spaces only."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    ascii, spaces_lines, carried = True, False, ""
    with open(path, "rb") as handle:
        while True:
            piece = handle.read(SCAN_PIECE)
            try:
                text = carried + decoder.decode(piece, final=not piece)
            except UnicodeDecodeError:
                raise Unsure from None
            if piece:  # whole lines only: the patterns look at line starts and ends
                cut = text.rfind("\n") + 1
                text, carried = text[:cut], text[cut:]
                if len(carried) > 4 * SCAN_PIECE:
                    raise Unsure  # one line of megabytes: read_yaml's
            if _unsure_text(text):
                raise Unsure
            ascii = ascii and text.isascii()
            spaces_lines = spaces_lines or _SPACES_LINE.search("\n" + text) is not None
            if not piece:
                return ascii, spaces_lines


class _Reader:
    def __init__(self, parser, events, scalars: _Scalars, data: bytes | None, ascii: bool):
        self.parser, self.scalars = parser, scalars
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
            return _SPACES_LINE_BYTES.search(self.data, start, end) is not None
        if self._text is None:
            self._text = self.data.decode("utf-8")
        return _SPACES_LINE.search(self._text, start, end) is not None

    def document(self) -> Iterator[CardEntry]:
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
        elif type(top) is self.MappingStartEvent:
            yield from self.top_mapping(top)
        else:  # a lone value, or an alias: read_yaml's
            raise Unsure
        if type(self.next()) is not events.DocumentEndEvent or type(self.next()) is not events.StreamEndEvent:
            raise Unsure  # a second document (read_yaml refuses it)

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
                lines[key] = key_event.start_mark.line + 1
                values[key] = self.value(self.next(), 1)
            yield values, event.start_mark.line + 1, lines

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
    if _unsure_text(text):
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
