"""The PDF's document information: Title, Author, Subject and dates, all fixed by the input.

Dates are real but never the clock's, so that a rebuild of the same input is byte-identical:
``date:`` in set.yaml when given, else ``SOURCE_DATE_EPOCH`` (the reproducible-builds
convention), else the newest modification time of the set's own files (``data/<set>/``, hidden folders
and editors' files left out).
"""
from __future__ import annotations

import datetime
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..model import CardSet
from ..paths import editors_own


@dataclass(frozen=True)
class DocumentInfo:
    """The PDF's document information: title, author, subject and date."""

    title: str
    author: str
    subject: str
    date: datetime.datetime  # UTC

    @property
    def pdf_date(self) -> str:
        return self.date.strftime("D:%Y%m%d%H%M%S+00'00'")


def document_info(card_set: CardSet, subject: str | None = None) -> DocumentInfo:
    meta = card_set.meta
    version = f" v{card_set.version}" if card_set.version else ""
    return DocumentInfo(title=f"{card_set.title}{version}", author=meta.get("author", card_set.title),
                        subject=meta.get("subject") or subject or f"{card_set.title}: cards printed by cardgen",
                        date=input_date(card_set))


def input_date(card_set: CardSet) -> datetime.datetime:
    given = card_set.meta.get("date")
    if given:
        if len(given) <= 10:
            day = datetime.date.fromisoformat(given)
            return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.timezone.utc)
        moment = datetime.datetime.fromisoformat(given)
        return (moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)).astimezone(
            datetime.timezone.utc)
    from ..source_date import source_date

    epoch = source_date()  # raises UsageError on a malformed value
    if epoch is not None:
        return epoch
    return datetime.datetime.fromtimestamp(int(newest_time(card_set.directory)), datetime.timezone.utc)


def newest_time(folder: Path) -> float:  # 0 (1970-01-01) for a folder without files
    """The newest modification time of the files in ``folder`` as the designer saved them: an
    editor's swap or backup file beside one is none, and nor is a hidden folder's (``.git/``,
    ``.idea/``, a system's own), which the build never reads; links to folders are not followed.
    A set kept in its own repository took the time of git's last write in .git/ (a fetch, a
    status that refreshed the index)."""
    newest = None  # (a file may be older than 1970: its time is negative)
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not editors_own(name)]
        for name in files:
            if editors_own(name):
                continue
            try:
                info = os.stat(os.path.join(top, name))
            except (OSError, ValueError):  # gone since the listing, or a link to nothing
                continue
            if stat.S_ISREG(info.st_mode) and (newest is None or info.st_mtime > newest):
                newest = info.st_mtime
    return 0.0 if newest is None else newest


def apply(canvas, info: DocumentInfo) -> None:
    """Put ``info`` into a reportlab canvas's document (its dates included)."""
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    stamp = info.pdf_date
    canvas._doc.info._dateFormatter = lambda *_: stamp
