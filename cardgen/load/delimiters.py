"""Which character separates a CSV file's cells: comma, semicolon (the CSV of Excel and
LibreOffice in much of Europe) or tab, found from the file's first lines, or named in set.yaml."""
from __future__ import annotations

import csv
import io

CANDIDATES = (",", ";", "\t")
NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", "pipe": "|"}
SAMPLE_LINES = 50


def named_delimiter(value: object) -> str | None:
    """The delimiter a set.yaml entry names (``;``, ``tab``...), or None if it names none well."""
    text = str(value)
    if text.lower() in NAMES:
        return NAMES[text.lower()]
    if len(text) == 1 and text not in "\"\r\n" and not text.isalnum():
        return text
    return None


def detect_delimiter(sample: str) -> str:
    """The candidate under which the header and the rows after it have the same number of cells
    most often (the most cells breaking a tie; the comma when nothing splits the header)."""
    lines = sample.splitlines(keepends=True)[:SAMPLE_LINES + 1]
    if len(lines) > SAMPLE_LINES:
        lines = lines[:SAMPLE_LINES]  # the last line of a sample may be cut short
    text = "".join(lines)
    best, best_score = ",", (0, 0)
    for delimiter in CANDIDATES:
        try:
            rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in row)]
        except csv.Error:
            continue
        if not rows or len(rows[0]) < 2:
            continue
        width = len(rows[0])
        score = (sum(1 for row in rows[1:] if len(row) == width), width)
        if score > best_score:
            best, best_score = delimiter, score
    return best
