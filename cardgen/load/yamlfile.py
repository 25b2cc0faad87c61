"""YAML with line numbers: every mapping value and list item knows the line it is on."""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from ..errors import Source, fail, os_reason
from ..limits import YAML_EXPANSION, YAML_EXPANSION_FLOOR, limit, limit_message
from ..paths import kind_of
from . import yamlkept
from .yamldepth import MAX_FLOW_DEPTH, deeper_than, nested_deeper_than, with_stack_budget


def relative_name(path: Path, root: Path | None) -> str:
    """The path as errors show it: relative to the project folder, with forward slashes."""
    path = Path(path)
    if root is not None:
        try:
            return path.resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def read_text(path: Path, name: str) -> str:
    """A UTF-8 text file; a missing or undecodable file is an error naming ``name``."""
    try:
        # not blocking: a named pipe opened for reading waits for a writer for ever (--deck naming one hung)
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            kind = kind_of(os.fstat(handle.fileno()).st_mode)
            if kind is not None and kind != "a folder":  # the zero device read until memory ran out
                raise fail(f"it is {kind}, not a file", Source(name))
            data = handle.read()
    except FileNotFoundError:
        raise fail("file not found", Source(name)) from None
    except OSError as exc:
        raise fail(f"cannot read the file: {os_reason(exc)}", Source(name)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(data, exc, name) from None
    if "\0" in text[:4] and utf16_without_mark(data):
        raise fail(UTF16, Source(name, 1))
    return text


UTF16 = 'the file is not UTF-8 text: it is UTF-16 (save it as UTF-8, from a spreadsheet as "CSV UTF-8")'


def utf16_without_mark(start: bytes) -> bool:
    """Whether a file starting with the bytes ``start`` is UTF-16 written without its byte-order
    mark: a NUL beside each character, which decodes as UTF-8 (text with NULs) and was said as
    what that text broke ("row has 7 cells but the header has 6 columns")."""
    sample = start[:4096]
    if len(sample) < 4 or b"\0" not in sample[:4]:
        return False
    return any(half.count(0) > 0.9 * len(half) for half in (sample[0::2], sample[1::2]))


def not_utf8(data: bytes, exc: UnicodeDecodeError, name: str, line_offset: int = 0, byte_offset: int = 0):
    """The error for bytes that are not UTF-8: the line, and the byte offset in the file."""
    start = exc.start
    if start + byte_offset == 0 and data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # its byte-order mark
        return fail(UTF16, Source(name, 1))
    line = data.count(b"\n", 0, start) + 1 + line_offset
    bad = data[start:start + 1].hex().upper()
    return fail(f"the file is not UTF-8 text: byte 0x{bad} at byte offset {start + byte_offset} "
                "(save it as UTF-8)", Source(name, line))


def first_bad_utf8(path: Path, name: str):
    """The not-UTF-8 error of a file already found to be so while it was read piece by piece."""
    try:
        data = Path(path).read_bytes()
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return not_utf8(data, exc, name)
    except OSError as exc:
        return fail(f"cannot read the file: {os_reason(exc)}", Source(name))
    return fail("the file is not UTF-8 text (save it as UTF-8)", Source(name))


# Characters below which a YAML file is read by ruamel's own parser: a set.yaml or fonts.yaml of
# a few hundred bytes parses in a millisecond or two, where importing PyYAML (for libyaml's
# parser, yamlstream.py) costs a build about 15 ms of start-up. Once a larger file has paid
# for that import, libyaml reads the small ones too: a 2-3 KB set.yaml costs ruamel 8-12 ms,
# libyaml under 1 ms (`cardgen list` reads every set's).
SMALL_YAML = 4096


def _libyaml_imported() -> bool:
    return "yaml._yaml" in sys.modules


def small_files_through_libyaml() -> None:
    """For a command about to read many YAML files (`cardgen list`: every set's set.yaml):
    pay for PyYAML's import now, so that the small files too are read through libyaml."""
    try:
        import yaml._yaml  # noqa: F401
    except ImportError:  # no libyaml: read_document says Unsure and ruamel reads everything
        pass


def read_yaml(path: Path, root: Path | None = None, card_file: bool = False) -> Any:
    """Parse a YAML file (round-trip loader, so ``line_of`` works); errors name file and line.
    Aliases may not expand the file beyond ``CARDGEN_MAX_YAML_EXPANSION`` times its own values
    (the "billion laughs"), nor refer to a value they are inside of. Of a ``card_file``, control
    characters in values are left to the card check (load/cards.py), which names the card and
    field, as it does of a card file that libyaml's reader read (yamlstream.py)."""
    name = relative_name(path, root)
    text = read_text(path, name)
    fresh = False
    if len(text) < SMALL_YAML and not _libyaml_imported():  # ruamel itself: the reference, and here cheaper than importing libyaml's
        data = yamlkept.recall(path, text)  # as ruamel read it at the last build (yamlkept.py)
        if data is None:
            data, fresh = _plain_or_round_trip(text, name), True
    else:
        from .yamlstream import Unsure, read_document  # a set whose YAML files are all small never needs it

        try:  # through libyaml, as ruamel would build it; else ruamel's own (pure Python) parser
            data = read_document(text)
        except Unsure:
            data = _round_trip(text, name)
    _check_expansion(data, name, _NOT_A_CHARACTER if card_file else _UNPRINTABLE)
    if fresh:
        yamlkept.keep(path, text, data)
    return data


def _plain_or_round_trip(text: str, name: str) -> Any:
    """ruamel's reading of a small file: for the plainest YAML (yamlplain.py) without ruamel."""
    from .yamlplain import Unsure, read_plain

    try:
        return read_plain(text)
    except Unsure:
        return _round_trip(text, name)


def _round_trip(text: str, name: str) -> Any:
    from ruamel.yaml import YAML  # imported when a file is parsed: a rebuild may read only kept ones
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    # ruamel's scanner looks at every open level for each token: 5,000 levels took a minute
    # before the RecursionError that ends any depth beyond MAX_FLOW_DEPTH (1,000: 2 s)
    if text.count("[") + text.count("{") > MAX_FLOW_DEPTH:  # never, in a card file
        # the brackets first (quick); what they find, libyaml's events confirm
        if deeper_than(text, MAX_FLOW_DEPTH) and nested_deeper_than(text, MAX_FLOW_DEPTH):
            raise fail("invalid YAML: lists or mappings nested too deeply", Source(name))
    try:
        data = with_stack_budget(YAML(typ="rt", pure=True).load, text)
    except MarkedYAMLError as exc:
        from .yamlwords import explain

        line, message = explain(exc, text)
        raise fail(f"invalid YAML: {message}", Source(name, line)) from None
    except RecursionError:
        raise fail("invalid YAML: lists or mappings nested too deeply", Source(name)) from None
    except (ValueError, KeyError) as exc:  # a date that does not exist (2024-13-45): YAML reads it as a date
        from .yamlunread import impossible_date, longest_number, unreadable_tag  # (only a file that fails)

        line, digits = longest_number(text)
        if digits > sys.get_int_max_str_digits():  # Python reads no longer number: said as a number, not a date
            raise fail(f"invalid YAML: a number of {digits:,} digits, more than the {sys.get_int_max_str_digits():,} "
                       "Python reads: put quotes round it to keep it as text", Source(name, line)) from None
        line, written = impossible_date(text)
        if line is None:  # "!!int abc", "!!bool maybe": the tag's own reading failed ("not a date", KeyError)
            line, tagged = unreadable_tag(text)
            if tagged is not None or isinstance(exc, KeyError):
                raise fail(f"invalid YAML: {tagged or 'a tagged value cannot be read'}: remove the tag to keep it as "
                           "text", Source(name, line)) from None
        raise fail(f"invalid YAML: {written} is not a date ({exc}): put quotes round it to keep it as text",
                   Source(name, line)) from None
    except ReaderError as exc:  # a character YAML refuses to read: named at its line, as one in a value is
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        character = exc.character if isinstance(exc.character, int) else ord(str(exc.character or "?")[0])
        raise fail(f"invalid YAML: the file holds U+{character:04X}, which YAML does not allow (a control "
                   "character?)", Source(name, line)) from None
    except YAMLError as exc:
        raise fail(f"invalid YAML: {' '.join(str(exc).split())}", Source(name)) from None
    _check_tags(data, name)
    return data


_CORE_TAG = "tag:yaml.org,2002:"
_READ_TAGS = frozenset(_CORE_TAG + kind for kind in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp"))


def _check_tags(data: Any, name: str) -> None:
    """A value with a tag cardgen does not read (``!custom 2``, ``!!python/object:...``,
    ``!!binary``) is refused at its line: kept, it would reach a card as something that is not
    its value, and be said wrongly later (``count must be a whole number, got "2"``) or printed
    as Python writes it (``b'...'``). ``!!str 5``, which ruamel keeps tagged, becomes the text "5"."""
    from ruamel.yaml.comments import TaggedScalar

    if _refused_tag(data) is not None:
        raise fail(_tag_message(_refused_tag(data), data), Source(name, line_of(data)))
    pending = [data] if isinstance(data, (dict, list)) else []
    seen: set[int] = set()  # an aliased container is walked once: aliases may expand it a billion times
    while pending:
        container = pending.pop()
        if id(container) in seen:
            continue
        seen.add(id(container))
        for key, value in list(container.items() if isinstance(container, dict) else enumerate(container)):
            if value.__class__ is str:
                continue
            refused = _refused_tag(value)
            if refused is not None:
                raise fail(_tag_message(refused, value), Source(name, line_of(container, key)))
            if isinstance(value, TaggedScalar):
                container[key] = str(value.value)
            elif isinstance(value, (dict, list)):
                pending.append(value)


def _refused_tag(value: Any) -> str | None:
    """The tag of ``value`` as written (``!custom``, ``!!binary``) if cardgen does not read it."""
    if isinstance(value, bytes):
        return "!!binary"
    if isinstance(value, AbstractSet):  # ruamel's CommentedSet keeps no tag: a mapping's keys, as Python says a set
        return "!!set"
    tag = getattr(getattr(value, "tag", None), "value", None)
    if tag is None or tag in _READ_TAGS:
        return None
    return "!!" + tag[len(_CORE_TAG):] if tag.startswith(_CORE_TAG) else tag


# Plain words YAML reads as keys of its own, not text: the tag was never written ("text: <<")
_KEY_WORDS = {("!!merge", "<<"): "merge key", ("!!value", "="): "value key"}


def _tag_message(tag: str, value: Any = None) -> str:
    word = _KEY_WORDS.get((tag, getattr(value, "value", None)))
    if word is not None:
        return (f'invalid YAML: {value.value} written without quotes is YAML\'s {word}, not text: put quotes round it '
                "to keep it as text")
    return (f'invalid YAML: a value tagged "{tag}": cardgen reads text, numbers, true and false, dates, lists and '
            "mappings: remove the tag")


class _Recursive(Exception):
    def __init__(self, container, key=None):
        self.container, self.key = container, key


class _Unprintable(_Recursive):
    """A string holding half of a UTF-16 pair (``"\\ud800"``): no file can encode it; or a
    control character (``"\\0"``), which no layout can print: card markup cannot carry it."""


_UNPRINTABLE = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_NOT_A_CHARACTER = re.compile("[\ud800-\udfff]")  # what no file can hold, whoever checks the rest


def _check_expansion(data: Any, name: str, refused: re.Pattern = _UNPRINTABLE) -> None:
    """Refuse a document whose aliases expand it far beyond what is written in it: ruamel
    shares an aliased value, but everything after loading (``plain``, templates) copies it.
    Refuse too a text value holding a character of ``refused``."""
    sizes: dict[int, int] = {}  # id of a container -> its values, aliases expanded
    written = 0  # values written in the file: each container once
    in_progress: set[int] = set()

    def size(value: Any) -> int:
        nonlocal written
        if not isinstance(value, (dict, list)):
            return 1
        key = id(value)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in in_progress:
            raise _Recursive(value)
        in_progress.add(key)
        children = list(value.values()) if isinstance(value, dict) else value
        written += 1 + len(children)
        total = 1
        for index, child in enumerate(children):
            if child.__class__ is not str:
                total += size(child)
                continue
            total += 1
            if refused.search(child):
                raise _Unprintable(value, list(value)[index] if isinstance(value, dict) else index)
        in_progress.discard(key)
        sizes[key] = total
        return total

    try:
        expanded = size(data)
    except _Unprintable as exc:
        character = refused.search(exc.container[exc.key]).group()
        kind = "half of a UTF-16 pair, which is not a character" if "\ud800" <= character <= "\udfff" else (
            "a control character" if character < " " or character == "\x7f" else "not a character")
        raise fail(f"the text holds U+{ord(character):04X}, {kind}",
                   Source(name, line_of(exc.container, exc.key))) from None
    except _Recursive as exc:
        raise fail("an alias refers to a value it is inside of (a recursive alias)",
                   Source(name, line_of(exc.container))) from None
    except RecursionError:
        raise fail("invalid YAML: lists or mappings nested too deeply", Source(name)) from None
    allowed = max(limit(YAML_EXPANSION) * written, YAML_EXPANSION_FLOOR)
    if expanded <= allowed:
        return
    where, total = data, 0  # the first entry at which the expansion passes the limit
    line = line_of(data)
    while isinstance(where, (dict, list)):
        keys = list(where) if isinstance(where, dict) else range(len(where))
        for key in keys:
            child = where[key]
            if total + 1 + sizes.get(id(child), 1) > allowed:
                line = line_of(where, key)
                where = child if _written_here(child, data) else None
                break
            total += sizes.get(id(child), 1)
        else:
            break
    raise fail(limit_message(YAML_EXPANSION, f"aliases expand this file to {expanded:,} values, "
                                             f"{written:,} written in it"), Source(name, line))


def _written_here(child: Any, data: Any) -> bool:
    """Whether to look inside ``child`` for the alias that expands: not when it carries an
    anchor (it may be an alias of a value written elsewhere, whose lines say nothing here)."""
    anchor = getattr(child, "anchor", None)
    return isinstance(child, (dict, list)) and getattr(anchor, "value", None) is None


def line_of(container: Any, key: Any = None) -> int | None:
    """1-based line of a mapping key / list index inside ``container`` (or of the container)."""
    lc = getattr(container, "lc", None)
    if lc is None or lc.line is None:  # a tagged scalar ("!x") has no line of its own
        return None
    if key is None:
        return lc.line + 1
    try:  # ruamel's CommentedMap and CommentedSeq (a dict and a list), or yamlkept's
        if isinstance(container, dict):
            return lc.key(key)[0] + 1
        if isinstance(container, list):
            return lc.item(key)[0] + 1
    except (KeyError, IndexError, TypeError):
        return lc.line + 1
    return lc.line + 1


def plain(value: Any) -> Any:
    """Convert ruamel's commented containers and scalars to plain Python values."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value
