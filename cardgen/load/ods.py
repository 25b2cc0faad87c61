"""Card rows from a LibreOffice (OpenDocument) spreadsheet: the first sheet's cells, read from
its XML as it streams (a sheet's thousands of repeated empty rows are counted, never made)."""
from __future__ import annotations

import datetime
import zipfile
from pathlib import Path
from typing import Any, Iterator

from lxml import etree

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
T, O, X = f"{{{TABLE}}}", f"{{{OFFICE}}}", f"{{{TEXT}}}"
CELLS = (f"{T}table-cell", f"{T}covered-table-cell")
MAX_REPEAT = 10_000  # an empty cell repeated to the sheet's edge is not a column
MAX_COLUMNS = 16_384  # LibreOffice's own widest sheet: a wider row is made up, not saved


class OdsError(ValueError):
    pass


def ods_rows(path: Path) -> Iterator[tuple[int, list[Any]]]:
    """(row number, cell values) of the first sheet; numbers that are whole become ints, dates
    ISO text, empty cells ""."""
    try:  # an OSError (gone, no permission) is left to the caller, which names it as such
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise OdsError(f"not an OpenDocument spreadsheet ({exc})") from None
    try:
        handle = archive.open("content.xml")
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        archive.close()
        raise OdsError(f"not an OpenDocument spreadsheet ({exc})") from None
    number = 0
    try:
        context = etree.iterparse(handle, events=("start", "end"), tag=(f"{T}table", f"{T}table-row"),
                                  resolve_entities=False, no_network=True, huge_tree=False)
        depth = 0
        for event, element in context:
            if element.tag == f"{T}table":
                if event == "start":
                    depth += 1
                    continue
                return  # the first sheet only
            if event != "end" or depth != 1:
                continue
            repeat = int(element.get(f"{T}number-rows-repeated", "1"))
            if repeat < 1:  # the row would vanish without a word
                raise ValueError(f"a row repeated {repeat} times")
            cells = _cells(element)
            element.clear()
            while element.getprevious() is not None:  # rows read are let go
                del element.getparent()[0]
            if not any(v != "" for v in cells):
                number += repeat
                continue
            for _ in range(min(repeat, MAX_REPEAT)):
                number += 1
                yield number, list(cells)
            number += max(0, repeat - MAX_REPEAT)
    except etree.XMLSyntaxError as exc:
        raise OdsError(f"broken spreadsheet XML ({exc})") from None
    except (ValueError, zipfile.BadZipFile, OSError) as exc:  # a bad repeat count or number, a damaged member
        raise OdsError(f"broken spreadsheet ({exc})") from None
    finally:
        handle.close()
        archive.close()


def _cells(row) -> list[Any]:
    values: list[Any] = []
    for cell in row:
        if cell.tag not in CELLS:
            continue
        repeat = int(cell.get(f"{T}number-columns-repeated", "1"))
        value = _value(cell)
        if value == "" and repeat > 1:
            values.extend([""] * min(repeat, MAX_REPEAT))
        else:
            values.extend([value] * min(repeat, MAX_REPEAT))
        if len(values) > MAX_COLUMNS:
            raise ValueError(f"a row of more than {MAX_COLUMNS} columns")
    while values and values[-1] == "":
        values.pop()
    return values


def _value(cell) -> Any:
    kind = cell.get(f"{O}value-type")
    if kind in ("float", "percentage", "currency"):
        number = float(cell.get(f"{O}value", "0"))
        return int(number) if number.is_integer() else number
    if kind == "boolean":
        return cell.get(f"{O}boolean-value") == "true"
    if kind == "date":
        text = cell.get(f"{O}date-value", "")
        try:
            moment = datetime.datetime.fromisoformat(text)
            return moment.date().isoformat() if len(text) <= 10 else moment.isoformat()
        except ValueError:
            return text
    paragraphs = [_text(p) for p in cell if p.tag == f"{X}p"]
    return "\n".join(paragraphs)


def _text(element) -> str:
    """A paragraph's text: spans, links, runs of spaces (``text:s``), tabs and line breaks."""
    parts = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == f"{X}s":
            parts.append(" " * int(child.get(f"{X}c", "1")))
        elif tag == f"{X}tab":
            parts.append("\t")
        elif tag == f"{X}line-break":
            parts.append("\n")
        elif tag in (f"{O}annotation", f"{O}annotation-end"):
            pass  # a comment on the cell, not its value
        elif tag is etree.Entity:  # kept unexpanded by the parser: it would be the card's text, "&a;"
            raise ValueError(f"a cell refers to the entity {child.text}, which a DOCTYPE declares: cardgen never "
                             "expands one")
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)
