"""Findings, each reported once: the element's template line, the cards it hits and a count."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Source, readable

SHOWN_CARDS = 3  # card names printed before "and N more"


@dataclass
class Finding:
    check: str  # text-size, line-width, image-dpi, safe-margin, bleed, ink, transparency, size, back, file
    severity: str  # error | warning | note
    message: str
    source: Source | None
    cards: list[str] = field(default_factory=list)

    def add(self, card: str | None) -> None:
        if card is not None and card not in self.cards:
            self.cards.append(card)

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        text = f"{where}{self.severity}: {self.message}"
        if self.cards:
            shown = ", ".join(self.cards[:SHOWN_CARDS])
            more = len(self.cards) - SHOWN_CARDS
            count = len(self.cards)
            text += f" ({count} card{'s' * (count != 1)}: {shown}{f' and {more} more' if more > 0 else ''})"
        return readable(text)  # as every problem's line: a long quoted value by its start and end

    def as_json(self) -> dict:
        return {"check": self.check, "severity": self.severity, "message": self.message,
                "file": self.source.file if self.source else None, "line": self.source.line if self.source else None,
                "cards": list(self.cards), "count": len(self.cards)}


class Findings:
    """Findings keyed by what they are and where: a second card with the same finding joins it.
    ``worst`` keeps the extreme measured value of a kind in the message."""

    def __init__(self):
        self._by_key: dict[tuple, Finding] = {}
        self._worst: dict[tuple, float] = {}
        self._recording: list | None = None

    def record(self) -> None:
        """Start noting which findings are added: a face's, to be repeated for its copies."""
        self._recording = []

    def recorded(self) -> list:
        keys, self._recording = self._recording or [], None
        return keys

    def repeat(self, keys: list, card: str) -> None:
        """The findings of a face met again (a copy, a shared back) hit ``card`` too."""
        for key in keys:
            self._by_key[key].add(card)

    def add(self, check: str, severity: str, key: tuple, card: str | None, source: Source | None,
            message, value: float | None = None, lower_is_worse: bool = True) -> None:
        """``message`` is a string, or ``message(worst value)`` when ``value`` is given."""
        full = (check, severity, source, key)
        if self._recording is not None:
            self._recording.append(full)
        finding = self._by_key.get(full)
        if value is not None:
            old = self._worst.get(full)
            if old is None or (value < old if lower_is_worse else value > old):
                self._worst[full] = value
            text = message(self._worst[full])
        else:
            text = message
        if finding is None:
            finding = self._by_key[full] = Finding(check, severity, text, source)
        else:
            finding.message = text
        finding.add(card)

    def all(self) -> list[Finding]:
        order = {"error": 0, "warning": 1, "note": 2}
        return sorted(self._by_key.values(), key=lambda f: (order[f.severity], str(f.source or ""), f.check))
