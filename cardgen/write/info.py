"""The PDF's document information: Title, Author, Subject and dates, all fixed by the input.

Dates are real but never the clock's, so that a rebuild of the same input is byte-identical:
``date:`` in set.yaml when given, else ``SOURCE_DATE_EPOCH`` (the reproducible-builds
convention), else the newest modification time of the set's own files (``data/<set>/``).
"""
from __future__ import annotations

import datetime
import os
from dataclasses import dataclass

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
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
    # the set's files as the designer saved them: an editor's swap or backup file beside one is none
    newest = max((entry.stat().st_mtime for entry in card_set.directory.rglob("*")
                  if entry.is_file() and not editors_own(entry.name)), default=0)
    return datetime.datetime.fromtimestamp(int(newest), datetime.timezone.utc)


def apply(canvas, info: DocumentInfo) -> None:
    """Put ``info`` into a reportlab canvas's document (its dates included)."""
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    stamp = info.pdf_date
    canvas._doc.info._dateFormatter = lambda *_: stamp
