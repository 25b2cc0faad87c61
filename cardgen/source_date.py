"""``SOURCE_DATE_EPOCH`` (https://reproducible-builds.org/specs/source-date-epoch/): the date
every PDF is given when set.yaml gives none, read once here for cardgen and checked.

A value that is no whole number of seconds (``1.5``, ``1700000000s``, ``-``) was ignored by
cardgen, whose PDFs then took the newest file time, which changes, while the person who set it
believed the date fixed; and reportlab, which reads the variable itself for every PDF it
starts, failed with an internal error. A value past the year 9999 failed both. The
specification asks a build to stop on a malformed value: cardgen names the variable.
"""
from __future__ import annotations

import datetime
import os
import re

from .errors import UsageError

NAME = "SOURCE_DATE_EPOCH"
_WHOLE = re.compile(r"-?[0-9]+")
_FIRST = datetime.datetime(1000, 1, 1, tzinfo=datetime.timezone.utc)  # a PDF date has a 4-digit year
_LAST = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.timezone.utc)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def source_date() -> datetime.datetime | None:
    """The moment ``SOURCE_DATE_EPOCH`` gives (UTC), None when it is unset or empty; a
    malformed value raises UsageError naming the variable."""
    value = os.environ.get(NAME, "").strip()
    if not value:
        return None
    if not _WHOLE.fullmatch(value):
        raise UsageError(f"{NAME} must be a whole number of seconds since 1970-01-01 UTC (such as "
                         f"1700000000, `date +%s`), got {value!r}; unset it for the files' own date")
    seconds = int(value)
    if not (_FIRST - _EPOCH).total_seconds() <= seconds <= (_LAST - _EPOCH).total_seconds():
        raise UsageError(f"{NAME} must be a date from the year 1000 to 9999 ("
                         f"{int((_FIRST - _EPOCH).total_seconds())} to {int((_LAST - _EPOCH).total_seconds())}), "
                         f"got {value!r}")
    return _EPOCH + datetime.timedelta(seconds=seconds)


def check_source_date() -> None:
    """Raise UsageError when ``SOURCE_DATE_EPOCH`` is malformed (before any PDF is started:
    reportlab reads it too)."""
    source_date()
