"""Deck lists: a YAML file naming cards of a set with their copies, for the main deck and bench.

```yaml
main:
  Blue Claws HQ: 1
  Falsified Ledger: 1
bench:
  Some Card: 2
```
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from ..errors import CardgenError, Problem, Source
from ..limits import COPIES_PER_CARD, COPIES_PER_SET, limit, limit_message
from ..load.yamlfile import line_of, read_yaml, relative_name
from ..model import Card, CardSet
from ..spelled import spelled
from .fields import as_text

PARTS = ("main", "bench")


@dataclass(frozen=True)
class DeckEntry:
    card: Card
    copies: int
    source: Source  # the entry's line in the deck file


@dataclass(frozen=True)
class Deck:
    path: Path
    main: tuple[DeckEntry, ...]
    bench: tuple[DeckEntry, ...]
    source: Source  # the deck file (line 1)
    main_source: Source | None = None  # the `main:` key: where a short main deck is reported
    bench_source: Source | None = None  # the `bench:` key (None when the file has no bench)


def load_deck(card_set: CardSet, path: Path) -> Deck:
    """Read a deck file; an unknown card, a bad number of copies or broken YAML is a CardgenError."""
    path = Path(path)
    file = relative_name(path, card_set.root)
    data = read_yaml(path, card_set.root)
    problems: list[Problem] = []
    if not isinstance(data, Mapping) or "main" not in data:
        raise CardgenError(Problem('a deck file is a mapping with "main:" (and optionally "bench:"), '
                                   "each naming cards with their copies", Source(file, 1)))
    for key in data:
        if key not in PARTS:
            problems.append(Problem(f'unknown key "{key}" (a deck file has "main:" and "bench:")',
                                    Source(file, line_of(data, key))))
    by_name = _cards_by_name(card_set)
    parts = {part: _read_part(data, part, file, by_name, problems) for part in PARTS}
    if problems:
        raise CardgenError(problems)
    return Deck(
        path=path,
        main=parts["main"],
        bench=parts["bench"],
        source=Source(file, 1),
        main_source=Source(file, line_of(data, "main")),
        bench_source=Source(file, line_of(data, "bench")) if "bench" in data else None,
    )


def _cards_by_name(card_set: CardSet) -> dict[str, list[Card]]:
    by_name: dict[str, list[Card]] = {}
    for card in card_set.cards:
        by_name.setdefault(card.name, []).append(card)
    return by_name


def _read_part(data: Mapping, part: str, file: str, by_name: Mapping[str, list[Card]],
               problems: list[Problem]) -> tuple[DeckEntry, ...]:
    entries = data.get(part)
    if entries is None:  # `bench:` with nothing under it, or no bench at all
        return ()
    if not isinstance(entries, Mapping):
        problems.append(Problem(f'"{part}" must map card names to copies, such as "Blue Claws HQ: 1"',
                                Source(file, line_of(data, part))))
        return ()
    result = []
    total = 0
    for name, copies in entries.items():
        source = Source(file, line_of(entries, name))
        name = str(name)
        cards = by_name.get(name)
        if not cards:
            problems.append(Problem(f'unknown card "{name}"{_suggestion(name, by_name)}', source))
            continue
        if len(cards) > 1:
            rows = ", ".join(str(c.source) for c in cards)
            problems.append(Problem(f"the set has several cards of this name ({rows})", source, name))
            continue
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            shown = ("nothing" if copies is None else spelled(copies) if isinstance(copies, (dict, list))
                     else f'"{as_text(copies)}"')
            problems.append(Problem(f"copies must be a whole number of at least 1, got {shown}", source, name))
            continue
        if copies > limit(COPIES_PER_CARD):
            problems.append(Problem(limit_message(COPIES_PER_CARD, f"{copies} is too many copies"), source, name))
            continue
        total += copies
        if total > limit(COPIES_PER_SET):
            problems.append(Problem(limit_message(COPIES_PER_SET, f"the deck's {part} comes to more than "
                                                                  f"{limit(COPIES_PER_SET)} copies here"),
                                    source, name))
            break
        result.append(DeckEntry(cards[0], int(copies), source))
    return tuple(result)


def _suggestion(name: str, by_name: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(name, list(by_name), n=1, cutoff=0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""


def deck_cards(deck: Deck) -> tuple[Card, ...]:
    """The deck's cards, main then bench, each with ``count`` set to its copies in the deck."""
    cards = []
    for entry in deck.main + deck.bench:
        fields = dict(entry.card.fields)
        fields["count"] = entry.copies
        cards.append(replace(entry.card, count=entry.copies, fields=MappingProxyType(fields)))
    return tuple(cards)
