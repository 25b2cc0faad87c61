"""The card files a set.yaml lists under ``cards:`` (files of the set's folder, or addresses read
into local copies), and the tables of the folder it leaves out."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import Problem, Source, fail
from ..spelled import quoted, spelled
from ..paths import OutsideProject, confined, not_a_file
from .setvalues import text, unknown_keys
from .tables import CARD_FILE_SUFFIXES, unknown_card_file_type
from .yamlfile import relative_name


CARD_FILE_KEYS = {"file", "type", "url", "delimiter", "timeout"}


UNLISTED_SUFFIXES = (".csv", ".tsv", ".xlsx", ".ods")  # tables: never a rules file, a deck list or notes


def unlisted_tables(directory: Path, files: list, root: Path) -> list[Problem]:
    """A warning for each table in the set's folder that ``cards:`` does not list: a designer adds
    new.csv and forgets set.yaml, and the build printed every card but its rows without a word."""
    from ..paths import editors_own

    listed = {Path(path).resolve() for path, *_ in files}
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    return [Problem("set.yaml does not list this card file under `cards:`: its rows are not printed",
                    Source(relative_name(Path(entry.path), root)), severity="warning")
            for entry in entries
            if entry.name.lower().endswith(UNLISTED_SUFFIXES) and not editors_own(entry.name)
            and not entry.name.startswith("~$")  # the lock file Excel keeps beside an open workbook
            and entry.is_file() and Path(entry.path).resolve() not in listed]


def card_files(data: Any, directory: Path, root: Path, at, types=None) -> tuple[list, dict, list]:
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
            unknown_keys(entry, CARD_FILE_KEYS, where.file, "card file")
        if isinstance(entry, dict):  # a list or true/false for a name: "must be text", not "['a.csv']" not found
            text(entry, "file", at, "card file: file")
            text(entry, "url", at, "card file: url")
        elif not isinstance(entry, str):
            raise fail("each entry of `cards` is a file name, an address, or {file:, url:, type:, delimiter:}, "
                       f"got {spelled(entry)}", where)
        url, name = spec.get("url"), spec.get("file")
        if url is not None and not is_url(url):
            raise fail(f'url: "{url}" is not an http:// or https:// address', where)
        if not name and not url:
            raise fail("each entry of `cards` is a file name, an address, or {file:, url:, type:, delimiter:}", where)
        relative = str(name) if name else f"downloads/{copy_name(str(url))}"
        try:
            card_path = confined(root, directory, relative, "card file")
        except OutsideProject as exc:
            raise fail(str(exc), where) from None
        if url is not None and not card_path.is_relative_to(directory):  # a download never lands elsewhere
            raise fail(f'card file "{relative}" is outside the set\'s folder', where)
        if url is not None:
            try:
                timeout = float(spec.get("timeout", TIMEOUT))
            except (TypeError, ValueError):
                timeout = -1.0
            if not 0 < timeout <= 600:
                raise fail(f'timeout must be a number of seconds from 0 to 600, got {quoted(spec.get("timeout"))}', where)
            warning = fetch_copy(str(url).strip(), card_path, relative_name(card_path, root), where, timeout)
            if warning is not None:
                warnings.append(warning)
        elif not card_path.is_file():
            raise fail(f'card file "{name}" {not_a_file(card_path)}', where)
        elif card_path.suffix.lower() not in CARD_FILE_SUFFIXES:  # said here, where set.yaml names it
            raise fail(f'card file "{name}": {unknown_card_file_type(card_path)}', where)
        if spec.get("delimiter") is not None:
            delimiter = named_delimiter(spec["delimiter"])
            if delimiter is None:
                raise fail(f'delimiter must be one character or comma, semicolon, tab; got {quoted(spec["delimiter"])}',
                           where)
            delimiters[card_path] = delimiter
        forced_type = spec.get("type")
        if forced_type is not None and types is not None and str(forced_type) not in types:
            raise fail(f'card file "{name or url}": unknown card type "{forced_type}" (the set has: '
                       f'{", ".join(sorted(types))})', where)
        listed = (card_path, str(forced_type) if forced_type is not None else None)
        if listed in files:  # its cards would be built, counted and checked twice, without a word
            first = at(data["cards"], files.index(listed)).line if isinstance(data["cards"], list) else None
            raise fail(f'card file "{name or url}" is listed twice in `cards`' + (
                f" (first at line {first})" if first is not None else ""), where)
        files.append(listed)
    return files, delimiters, warnings
