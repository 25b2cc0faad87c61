"""Card rows from YAML, CSV (comma, semicolon or tab), TSV, XLSX and ODS files, each value with the
line (or row) it came from."""
from __future__ import annotations

import csv
import re
import io
import warnings
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..errors import CardgenError, Source, fail, os_reason
from ..model import new_source
from .delimiters import detect_delimiter
from .header import header as _header
from .yamlfile import UTF16, first_bad_utf8, line_of, plain, read_yaml, relative_name, utf16_without_mark

SAMPLE = 65536  # characters read to find a CSV file's delimiter


@dataclass(frozen=True, slots=True)  # one per card row
class Row:
    """A row of a card file: its values, and where the row and each value were read."""

    values: Mapping[str, Any]
    source: Source
    sources: Mapping[str, Source]  # per field, where it differs from the row's (YAML); else empty


_ROW_FIELDS = (Row.values.__set__, Row.source.__set__, Row.sources.__set__)


def new_row(values: Mapping[str, Any], source: Source, sources: Mapping[str, Source]) -> Row:
    """``Row(values, source, sources)``, made faster (a large set's rows are read again and again)."""
    row = object.__new__(Row)
    fields = _ROW_FIELDS
    fields[0](row, values), fields[1](row, source), fields[2](row, sources)
    return row


CSV_SUFFIXES = (".csv", ".tsv", ".txt")  # read as CSV: their rows can be sent a line (see _csv_rows)
YAML_SUFFIXES = (".yaml", ".yml")


def read_rows(path: Path, root: Path, delimiter: str | None = None, told: dict | None = None) -> Iterator[Row]:
    """The rows of a card file. ``delimiter``: a CSV file's, as set.yaml names it (else found
    from the file's first lines; a .tsv file's is the tab). ``told``: of a YAML file, what a
    reading of it tells the next, and whether its rows may be read from their lines (see
    yamlstream.card_entries)."""
    suffix = path.suffix.lower()
    if suffix in YAML_SUFFIXES:
        return _yaml_rows(path, root, told)
    if suffix in CSV_SUFFIXES:
        return _csv_rows(path, root, delimiter or ("\t" if suffix == ".tsv" else None))
    if suffix == ".xlsx":
        return _xlsx_rows(path, root)
    if suffix == ".ods":
        return _ods_rows(path, root)
    raise fail(unknown_card_file_type(path), Source(relative_name(path, root)))


CARD_FILE_SUFFIXES = frozenset({".yaml", ".yml", ".csv", ".tsv", ".txt", ".xlsx", ".ods"})


def unknown_card_file_type(path: Path) -> str:
    return f"unknown card file type {path.suffix.lower()!r} (use .yaml, .csv, .tsv, .xlsx or .ods)"


def _yaml_rows(path: Path, root: Path, told: dict | None = None) -> Iterator[Row]:
    """A card at a time through libyaml (yamlstream.py), or, where that reader is unsure, as
    read_yaml reads the whole file, from the card it stopped at."""
    from .yamlstream import Unsure, card_entries

    name = relative_name(path, root)
    done = 0
    try:
        for values, line, lines in card_entries(path, told):
            yield Row(values, Source(name, line), {key: Source(name, at) for key, at in lines.items()})
            done += 1
        return
    except Unsure:
        pass
    yield from _whole_yaml_rows(path, root)[done:]


def yaml_rows_from(path: Path, root: Path, offset: int, line: int) -> Iterator[Row]:
    """The rows of a YAML card file read whole through libyaml, from the card whose list item
    starts line ``line`` at byte ``offset`` (see yamlmarks.py); a file changed since it was so
    read may end in an exception of any kind."""
    from .yamlstream import card_entries_from

    name = relative_name(path, root)
    for values, at, lines in card_entries_from(path, offset, line):
        yield Row(values, Source(name, at), {key: Source(name, where) for key, where in lines.items()})


def _whole_yaml_rows(path: Path, root: Path) -> list[Row]:
    name = relative_name(path, root)
    data = read_yaml(path, root, card_file=True)
    if isinstance(data, dict) and "cards" in data:
        data = data["cards"]
    if data is None:
        return []
    if not isinstance(data, list):
        raise fail("expected a list of cards (or a mapping with a `cards` list)",
                   Source(name, line_of(data) or _first_written_line(path)))
    rows = []
    for index, entry in enumerate(data):
        line = line_of(data, index)
        if not isinstance(entry, dict):
            raise fail("each card must be a mapping of field: value", Source(name, line))
        sources = {str(k): Source(name, line_of(entry, k)) for k in entry}
        rows.append(Row(plain(entry), Source(name, line), sources))
    return rows


def _csv_rows(path: Path, root: Path, delimiter: str | None = None) -> Iterator[Row]:
    """The rows of a CSV file. Sent a line (``rows.send(line)``), the generator passes over the
    lines up to it without reading them into cells, and gives the row that starts on it: a
    build's worker process goes from its chunk of cards to its next one so (see cursor.py)."""
    name = relative_name(path, root)
    header: list[str] | None = None
    line = last_line = 0
    passed = 0  # lines passed over, which the reader's count leaves out
    last_cell = ""
    reader = None
    try:
        # read as it goes (only \n and \r end a row, not U+2028): a large file is never held whole
        with open(path, "rb") as handle:
            if utf16_without_mark(handle.read(4096)):
                raise fail(UTF16, Source(name, 1))
        if delimiter is None:
            with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
                delimiter = detect_delimiter(handle.read(SAMPLE))  # a bad byte is reported below
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            for cells in reader:
                # a quoted cell may span lines: name the first
                line, last_line = last_line + 1, passed + reader.line_num
                last_cell = cells[-1] if cells else ""
                if header is None:
                    if not any(c.strip() for c in cells):
                        continue
                    header = _header(cells, Source(name, line))
                    continue
                if not any(map(str.strip, cells)):
                    continue
                if len(cells) > len(header):
                    if any(map(str.strip, cells[len(header):])):
                        raise fail(f"row has {len(cells)} cells but the header has {len(header)} columns",
                                   Source(name, line))
                    del cells[len(header):]
                if len(cells) < len(header):
                    cells += [""] * (len(header) - len(cells))
                values = dict(zip(header, cells))
                to = yield new_row(values, new_source(name, line), {})  # every cell is on the row's line
                if to is not None:  # the line a row starts on, given by an earlier reading of the file
                    if to <= last_line:
                        raise ValueError(f"line {to} is behind line {last_line}")
                    over = sum(1 for _ in islice(handle, to - 1 - last_line))
                    passed += over
                    last_line += over
        # a quote left open takes the rest of the file into the last cell: many lines, or the end of
        # the one it opened on (its line break, or the file's end with none)
        if line and (last_line > line or last_cell.endswith(("\n", "\r")) or not _ends_with_line_break(path)) \
                and _ends_inside_quotes(path, line, delimiter):
            raise fail(_NEVER_CLOSED, Source(name, line))
    except UnicodeDecodeError:
        raise first_bad_utf8(path, name) from None
    except OSError as exc:  # gone or unreadable since the set was loaded
        raise fail(f"cannot read the file: {os_reason(exc)}", Source(name)) from None
    except csv.Error as exc:
        if reader is not None and str(exc).startswith("field larger than field limit") \
                and _ends_inside_quotes(path, last_line + 1, delimiter):
            # a quote left open: its cell took the rest of the file, and Python's reader stopped where
            # it passed 128 KB, far below ("line 1173: invalid CSV: field larger than field limit")
            raise fail(_NEVER_CLOSED, Source(name, last_line + 1)) from None
        raise fail(f"invalid CSV: {exc}", Source(name, passed + reader.line_num if reader else None)) from None


_NEVER_CLOSED = ("a quoted cell on this row is never closed: the file ends inside it (the rows after it were read "
                 "as its text)")


def _first_written_line(path: Path) -> int:
    """The line of a YAML file's first value (a lone value carries no line of its own)."""
    with open(path, encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip() and not line.lstrip().startswith(("#", "---", "%")):
                return number
    return 1


def _ends_with_line_break(path: Path) -> bool:
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        if handle.tell() == 0:
            return True
        handle.seek(-1, 2)
        return handle.read(1) in b"\n\r"


def _ends_inside_quotes(path: Path, line: int, delimiter: str) -> bool:
    """Whether the row starting on ``line`` (the last, spanning lines) opens a quote that the
    file never closes: Python's reader takes the rest of the file into that cell without a word.
    Only that row is read again, strictly."""
    with open(path, encoding="utf-8-sig", newline="") as handle:
        tail = "".join(islice(handle, line - 1, None))
    most = csv.field_size_limit(len(tail) + 1)  # the open cell takes all of it (the limit is the process's)
    try:
        for _ in csv.reader(io.StringIO(tail, newline=""), delimiter=delimiter, strict=True):
            pass
    except csv.Error as exc:
        return "unexpected end of data" in str(exc)
    finally:
        csv.field_size_limit(most)
    return False


def _xlsx_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _xlsx_rows(path: Path, root: Path) -> Iterator[Row]:
    """The first sheet's rows, each cell as the spreadsheet shows it (see xlsxcells.py); a
    cell that cannot be is an error naming it (``cards.xlsx:Sheet1!F3``)."""
    from openpyxl import load_workbook  # imported here: only XLSX users pay for it

    # openpyxl printed its warnings (a date out of range, a missing stylesheet) as Python writes
    # them, with its own file's path; what they warn of is said by cell (an error value) or harmless
    warnings.filterwarnings("ignore", module="openpyxl")

    from .xlsxcells import CellError, Merges, merged_ranges, shown

    name = relative_name(path, root)
    try:  # the values as last calculated, and the formulas (to tell an empty cell from an uncalculated one)
        workbook = load_workbook(path, read_only=True, data_only=True)
        formulas = load_workbook(path, read_only=True, data_only=False)
    except OSError as exc:
        raise fail(f"cannot read the file: {os_reason(exc)}", Source(name)) from None
    except Exception as exc:  # openpyxl raises many types for a broken file
        raise fail(f"cannot read the workbook: {_workbook_reason(path, exc)}", Source(name)) from None
    sheet = workbook.worksheets[0] if workbook.worksheets else None
    # the row being read or handled: openpyxl reads the sheet's XML a row at a time, a cell's style when asked
    at = [1]
    try:
        if sheet is None:  # Excel saves at least one: its sheet's part is missing
            raise fail("cannot read the workbook: it holds no worksheet (a damaged file?)", Source(name))
        merges = Merges(merged_ranges(sheet))
        header: list[str] | None = None
        rows = zip(sheet.iter_rows(), formulas.worksheets[0].iter_rows(values_only=True))
        for number, (cells, formula_cells) in _counted(rows, at):
            values = [shown(cell, formula_cells[i] if i < len(formula_cells) else None, number, i + 1)
                      for i, cell in enumerate(cells)]
            merges.fill(number, values)
            if header is None:
                if not any(c not in (None, "") for c in values):
                    continue
                header = _header(list(values), Source(name, number))
                merges.check_across(number + 1)
                continue
            values = [_xlsx_value(c) for c in values]
            if not any(str(v).strip() for v in values):
                continue
            extra = [v for v in values[len(header):] if str(v).strip()]
            if extra:
                raise fail(f"row has cells beyond the {len(header)} named columns", Source(name, number))
            record = {h: (values[i] if i < len(values) else "") for i, h in enumerate(header)}
            source = Source(name, number)
            yield Row(record, source, {})  # every cell is on the row's line
    except CellError as error:
        raise fail(str(error), Source(f"{name}:{sheet.title}!{error.cell}")) from None
    except CardgenError:
        raise
    except Exception as exc:  # openpyxl reading the row after the last one read: damaged XML or cell data
        if type(exc).__name__ in ("ParseError", "XMLSyntaxError"):  # read in pieces: no row to name
            raise fail(f"cannot read the workbook: {_workbook_reason(path, exc)}", Source(name)) from None
        raise fail(f"cannot read the workbook: damaged cell data ({_cell_data_reason(exc)})",
                   Source(name, at[0])) from None
    finally:
        workbook.close()
        formulas.close()


def _counted(rows: Iterator, at: list[int]) -> Iterator:
    """``enumerate(rows, start=1)``, keeping in ``at`` the number of the row read or handled."""
    for number, row in enumerate(rows, start=1):
        at[0] = number
        yield number, row
        at[0] = number + 1


_NOT_A_NUMBER = re.compile(r"(?:invalid literal for int\(\) with base 10|could not convert string to float): (.*)",
                           re.DOTALL)


def _cell_data_reason(exc: Exception) -> str:
    """openpyxl's own words for a damaged cell, but Python's, which name the int() it called
    rather than the cell: said as what the workbook holds."""
    not_a_number = _NOT_A_NUMBER.fullmatch(str(exc)) if isinstance(exc, ValueError) else None
    if not_a_number:
        return f"a number cell holds {not_a_number.group(1)[:40]}, which is not a number"
    if isinstance(exc, IndexError):
        return "a cell refers to a style or number format the workbook does not hold"
    if isinstance(exc, (TypeError, AttributeError, KeyError)):
        return "a cell or merged range that cannot be read"
    return str(exc)


def _workbook_reason(path: Path, exc: Exception) -> str:
    """Why openpyxl could not open a file, as what the file is: its own words ("File is not a
    zip file") say nothing of the empty file, the old .xls or the CSV renamed that it was."""
    import zipfile

    if isinstance(exc, zipfile.BadZipFile):
        try:
            with path.open("rb") as handle:
                start = handle.read(8)
        except OSError as error:
            return os_reason(error)
        if not start:
            return "the file is empty"
        if start == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":  # an OLE2 compound file
            return ("it is an old Excel .xls file or a password-protected workbook, not an .xlsx "
                    "(save it as .xlsx without a password)")
        if start.startswith(b"PK"):
            return "the file is cut short or damaged (its zip archive is incomplete)"
        return "not an Excel workbook (.xlsx): the file is not a zip archive (another kind of file renamed .xlsx?)"
    if isinstance(exc, KeyError):
        return f"a zip archive, but not an Excel workbook (.xlsx): {exc.args[0] if exc.args else exc}"
    if type(exc).__name__ in ("ParseError", "XMLSyntaxError"):
        return f"damaged XML inside the workbook ({exc})"
    return str(exc) or type(exc).__name__


def _ods_rows(path: Path, root: Path) -> Iterator[Row]:
    from .ods import OdsError, ods_rows

    name = relative_name(path, root)
    header: list[str] | None = None
    try:
        for number, values in ods_rows(path):
            if header is None:
                header = _header(values, Source(name, number))
                continue
            if len(values) > len(header):
                raise fail(f"row has cells beyond the {len(header)} named columns", Source(name, number))
            record = {h: (values[i] if i < len(values) else "") for i, h in enumerate(header)}
            yield Row(record, Source(name, number), {})  # every cell is on the row's line
    except OdsError as exc:
        raise fail(f"cannot read the spreadsheet: {exc}", Source(name)) from None
    except OSError as exc:  # gone or unreadable since the set was loaded
        raise fail(f"cannot read the file: {os_reason(exc)}", Source(name)) from None
