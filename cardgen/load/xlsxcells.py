"""XLSX cells read as the designer sees them in the spreadsheet, or a message naming the cell.

- A formula saved without its value (a file written by a program that does not calculate) is
  an error naming the cell (``cards.xlsx:Sheet1!F3``): its value is not in the file.
- A cell merged over several rows of one column gives its value to every row it covers; cells
  merged across columns are an error (which column would the value belong to?).
- Dates and times print as their number format shows them (``d/m/yyyy`` gives ``4/3/2024``);
  numbers in the General format stay numbers (``0.1 + 0.2`` is 0.3, as shown), numbers with a
  format of their own (``0.00``, ``0%``, ``#,##0``) are the text the format shows. A format
  cardgen cannot read is an error naming the cell.
"""
from __future__ import annotations

import datetime
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterator

from openpyxl.utils.cell import get_column_letter, range_boundaries


class CellError(ValueError):
    """A cell that cannot be read as shown: ``cell`` is its name (``F3``)."""

    def __init__(self, cell: str, message: str):
        super().__init__(message)
        self.cell = cell


def merged_ranges(sheet) -> Iterator[str]:
    """The merged ranges (``A2:A4``) of a read-only worksheet, read from its XML as it streams."""
    from openpyxl.xml.functions import iterparse  # openpyxl's guarded XML parser

    source = sheet._get_source()
    try:
        for _event, element in iterparse(source):
            if element.tag.endswith("}mergeCell"):
                yield element.get("ref")
            element.clear()
    finally:
        source.close()


class Merges:
    """Fills the rows a vertical merge covers with the value of its first cell."""

    def __init__(self, ranges: Iterator[str]):
        self.columns: list[tuple[int, int, int]] = []  # (column, first row, last row)
        self.across: list[str] = []
        for ref in ranges:
            if not ref:
                continue
            min_col, min_row, max_col, max_row = range_boundaries(ref)
            if min_col != max_col:
                self.across.append(ref)
            elif max_row > min_row:
                self.columns.append((min_col, min_row, max_row))
        self.tops: dict[tuple[int, int], Any] = {}

    def check_across(self, first_data_row: int) -> None:
        for ref in self.across:
            min_col, min_row, max_col, max_row = range_boundaries(ref)
            if max_row >= first_data_row:
                raise CellError(ref, f"cells {ref} are merged across columns: cardgen cannot tell which column "
                                     f"the value belongs to (unmerge them, or repeat the value)")

    def fill(self, row: int, values: list[Any]) -> None:
        for column, first, last in self.columns:
            index = column - 1
            if row == first and index < len(values):
                self.tops[(column, first)] = values[index]
            elif first < row <= last:
                while len(values) <= index:
                    values.append(None)
                if values[index] in (None, ""):
                    values[index] = self.tops.get((column, first))


def cell_name(row: int, column: int) -> str:
    return f"{get_column_letter(column)}{row}"


def shown(cell, formula: Any, row: int, column: int) -> Any:
    """The value of a read-only cell (values workbook) as the spreadsheet shows it; ``formula``
    is the same cell in the workbook read with formulas."""
    value = cell.value
    if value is None:
        if isinstance(formula, str) and formula.startswith("="):
            raise CellError(cell_name(row, column), f"the formula {formula} was saved without its value (the "
                                                    f"program that wrote the file does not calculate: open the "
                                                    f"file in a spreadsheet program and save it)")
        return None
    if getattr(cell, "data_type", None) == "e":  # printed, "#DIV/0!" would be the card's text
        raise CellError(cell_name(row, column), f"the cell shows the error {value} (a formula that failed, or a "
                                                f"date or number the spreadsheet cannot hold): correct it in the "
                                                f"spreadsheet and save it")
    number_format = getattr(cell, "number_format", "General") or "General"
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return _date(value, number_format, cell_name(row, column))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    general = _general(value)
    if number_format in ("General", "@") or not _has_digits_format(number_format):
        return general
    text = _number(value, number_format, cell_name(row, column))
    return general if text == str(general) else text  # "2" with format "0" stays the number 2


def _general(value: int | float) -> int | float:
    """A number as the General format shows it: 0.1 + 0.2 is 0.3, 7.0 is 7."""
    if isinstance(value, float):
        value = float(f"{value:.15g}")
        return int(value) if value.is_integer() else value
    return value


_BRACKETS = re.compile(r"\[[^\]]*\]")
_QUOTED = re.compile(r'"([^"]*)"|\\(.)|_.|\*.')


def _has_digits_format(number_format: str) -> bool:
    return any(c in _BRACKETS.sub("", number_format) for c in "0#")


def _literal(match: re.Match) -> str:
    if match.group(1) is not None:
        return match.group(1)
    if match.group(2) is not None:
        return match.group(2)
    return ""  # _x (a space as wide as x) and *x (fill): nothing printed


def _number(value: float, number_format: str, cell: str) -> str:
    sections = number_format.split(";")
    section = sections[0]
    sign = ""
    if value < 0:
        if len(sections) > 1 and sections[1]:
            section, value = sections[1], -value
        else:
            sign, value = "-", -value
    pieces: list[str] = []
    core = None
    section = _BRACKETS.sub("", section)
    for match in re.finditer(r'"[^"]*"|\\.|_.|\*.|[#0,.%]+|.', section):
        token = match.group()
        if re.fullmatch(r"[#0,.%]+", token) and any(c in token for c in "#0"):
            if core is not None:
                raise CellError(cell, f'the number format "{number_format}" is not one cardgen can show '
                                      f"(format the column as text)")
            core = token
            pieces.append("\0")
        elif token[0] in '"\\_*':
            pieces.append(_literal(_QUOTED.match(token)))
        elif token.isalpha() or token in "?/":
            raise CellError(cell, f'the number format "{number_format}" is not one cardgen can show '
                                  f"(format the column as text)")
        else:
            pieces.append(token)
    if core is None:
        return "".join(pieces)
    percent = core.count("%")
    digits = core.replace("%", "")
    amount = Decimal(repr(float(value)))  # decimal from here: 0.285 is 28.5% exactly
    if percent:
        amount *= 100 ** percent
    scale_commas = len(digits) - len(digits.rstrip(","))  # trailing commas divide by 1,000 each
    digits = digits.rstrip(",")
    amount /= 1000 ** scale_commas
    grouped = "," in digits
    whole, _dot, fraction = digits.replace(",", "").partition(".")
    places = len(fraction)
    minimum_fraction = fraction.count("0")
    # rounded half away from zero, as spreadsheets do (Python's own rounding goes to even)
    rounded = amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = f"{rounded:,f}" if grouped else f"{rounded:f}"
    if places > minimum_fraction:  # '#' places: trailing zeros dropped
        head, _, tail = text.partition(".")
        tail = tail.rstrip("0")
        tail = tail + "0" * max(0, minimum_fraction - len(tail))
        text = f"{head}.{tail}" if tail else head
    minimum_whole = whole.count("0")
    head, dot, tail = text.partition(".")
    if minimum_whole == 0 and head in ("0", "-0"):
        head = ""
    digits_only = head.replace(",", "")
    if len(digits_only) < minimum_whole:
        head = "0" * (minimum_whole - len(digits_only)) + head
    text = head + dot + tail
    return sign + "".join(pieces).replace("\0", text + "%" * percent)


_DATE_TOKENS = re.compile(r'yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM/PM|am/pm|A/P|"[^"]*"|\\.|\.0+|.',
                          re.IGNORECASE)


def _date(value, number_format: str, cell: str) -> str:
    if number_format in ("General", "@"):
        number_format = "yyyy-mm-dd" if not isinstance(value, datetime.time) else "hh:mm:ss"
        if isinstance(value, datetime.datetime) and value.time() != datetime.time():
            number_format = "yyyy-mm-dd hh:mm:ss"
    section = _BRACKETS.sub("", number_format.split(";")[0])
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        value = datetime.datetime.combine(value, datetime.time())
    elif isinstance(value, datetime.time):
        value = datetime.datetime.combine(datetime.date(1900, 1, 1), value)
    twelve = re.search(r"AM/PM|A/P", section, re.IGNORECASE) is not None
    tokens = _DATE_TOKENS.findall(section)
    out: list[str] = []
    for index, token in enumerate(tokens):
        lower = token.lower()
        if lower.startswith("m") and lower in ("m", "mm"):
            previous = next((t.lower() for t in reversed(tokens[:index]) if t[0].isalpha()), "")
            following = next((t.lower() for t in tokens[index + 1:] if t[0].isalpha()), "")
            minutes = previous.startswith("h") or following.startswith("s")
            number = value.minute if minutes else value.month
            out.append(f"{number:02d}" if lower == "mm" else str(number))
        elif lower == "yyyy":
            out.append(f"{value.year:04d}")
        elif lower == "yy":
            out.append(f"{value.year % 100:02d}")
        elif lower == "mmmmm":
            out.append(value.strftime("%B")[0])
        elif lower == "mmmm":
            out.append(value.strftime("%B"))
        elif lower == "mmm":
            out.append(value.strftime("%b"))
        elif lower == "dddd":
            out.append(value.strftime("%A"))
        elif lower == "ddd":
            out.append(value.strftime("%a"))
        elif lower in ("dd", "d"):
            out.append(f"{value.day:02d}" if lower == "dd" else str(value.day))
        elif lower in ("hh", "h"):
            hour = value.hour % 12 or 12 if twelve else value.hour
            out.append(f"{hour:02d}" if lower == "hh" else str(hour))
        elif lower in ("ss", "s"):
            out.append(f"{value.second:02d}" if lower == "ss" else str(value.second))
        elif lower in ("am/pm", "a/p"):
            am = value.hour < 12
            out.append(("AM" if am else "PM") if lower == "am/pm" else ("A" if am else "P"))
        elif token.startswith('"'):
            out.append(token[1:-1])
        elif token.startswith("\\"):
            out.append(token[1:])
        elif token.startswith("."):
            out.append("." + f"{value.microsecond:06d}"[:len(token) - 1])
        elif token.isalpha():
            raise CellError(cell, f'the date format "{number_format}" is not one cardgen can show '
                                  f"(format the column as text)")
        else:
            out.append(token)
    return "".join(out)
