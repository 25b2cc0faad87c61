"""YAML with line numbers: every mapping value and list item knows the line it is on."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ..errors import Source, fail, os_reason
from .yamlwords import explain


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
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise fail("file not found", Source(name)) from None
    except OSError as exc:
        raise fail(f"cannot read the file: {os_reason(exc)}", Source(name)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(data, exc, name) from None


def not_utf8(data: bytes, exc: UnicodeDecodeError, name: str, line_offset: int = 0, byte_offset: int = 0):
    """The error for bytes that are not UTF-8: the line, and the byte offset in the file."""
    start = exc.start
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


def read_yaml(path: Path, root: Path | None = None) -> Any:
    """Parse a YAML file (round-trip loader, so ``line_of`` works); errors name file and line."""
    name = relative_name(path, root)
    text = read_text(path, name)
    try:
        return YAML(typ="rt", pure=True).load(text)
    except MarkedYAMLError as exc:
        line, message = explain(exc, text)
        raise fail(f"invalid YAML: {message}", Source(name, line)) from None
    except YAMLError as exc:
        raise fail(f"invalid YAML: {exc}", Source(name)) from None
    except RecursionError:
        raise fail("invalid YAML: brackets or lists nested too deeply", Source(name)) from None


def line_of(container: Any, key: Any = None) -> int | None:
    """1-based line of a mapping key / list index inside ``container`` (or of the container)."""
    lc = getattr(container, "lc", None)
    if lc is None:
        return None
    if key is None:
        return lc.line + 1
    try:
        if isinstance(container, CommentedMap):
            return lc.key(key)[0] + 1
        if isinstance(container, CommentedSeq):
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
