"""A card's field that no layout of its type reads, spelt nearly like one that a layout does
read: a typo in a card file (``elemnt: fire`` in YAML, where the layout reads ``element``).
Without this the layout printed the set's default for ``element`` and the check passed. Each is
a warning at the field's line."""
from __future__ import annotations

import difflib
from typing import Iterable

from ..errors import Problem
from ..model import Card, CardSet

# columns cardgen itself reads: never a layout's
OWN_COLUMNS = frozenset({"name", "type", "count", "each", "added", "excerpt", "rebuilt"})


def misspelt_fields(card_set: CardSet, cards: Iterable[Card], templates) -> list[Problem]:
    """A warning for each card field (once per type and field name, at its first card) that the
    type's layouts (front and back, with what they extend or include) do not read, and that is
    spelt nearly like a name they read. Types whose layouts compute a template's name, or cannot
    be read, are left to the render, which says what is wrong with them."""
    read_by_type: dict[str, tuple[frozenset[str], str] | None] = {}
    said: set[tuple[str, str]] = set()
    problems = []
    for card in cards:
        if card.type not in read_by_type:
            read_by_type[card.type] = _names_read(card_set, card.type, templates)
        read = read_by_type[card.type]
        if read is None:
            continue
        names, template = read
        defaults = card_set.types[card.type].defaults
        for field_name in card.fields:
            if (field_name in names or field_name in OWN_COLUMNS or (card.type, field_name) in said
                    or not isinstance(field_name, str)):
                continue
            if field_name in defaults and card.fields[field_name] is defaults[field_name]:
                continue  # the default itself: said once, at its line of set.yaml (below)
            close = difflib.get_close_matches(field_name, sorted(names), n=1, cutoff=0.8)
            if close:
                said.add((card.type, field_name))
                problems.append(Problem(
                    f'field "{field_name}" is read by no layout of type "{card.type}" (did you mean '
                    f'"{close[0]}", which templates/{template} reads?)',
                    card.source_of(field_name), card.name, severity="warning"))
    return problems + _misspelt_defaults(card_set, read_by_type)


def _misspelt_defaults(card_set: CardSet, read_by_type) -> list[Problem]:
    """A default (the set's, or a card type's) that no layout of the types it applies to (those
    with cards) reads, spelt nearly like a name one of them reads: a warning at its line."""
    readers: dict[tuple, list[tuple[frozenset[str], str]]] = {}
    for type_name, read in read_by_type.items():
        card_type = card_set.types.get(type_name)
        if read is None or card_type is None:
            continue
        for key in card_type.defaults:
            where = card_type.default_sources.get(key, card_type.source)
            readers.setdefault((str(key), where), []).append(read)
    problems = []
    for (key, where), reads in readers.items():
        names = frozenset().union(*(names for names, _ in reads))
        if key in names or key in OWN_COLUMNS:
            continue
        close = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.8)
        if close:
            template = next(template for names, template in reads if close[0] in names)
            problems.append(Problem(f'default "{key}" is read by no layout (did you mean "{close[0]}", which '
                                    f'templates/{template} reads?)', where, severity="warning"))
    return problems


def _names_read(card_set: CardSet, type_name: str, templates) -> tuple[frozenset[str], str] | None:
    card_type = card_set.types.get(type_name)
    if card_type is None:
        return None
    names = templates.names_used(card_type.template)
    if names is None:
        return None
    back = card_set.backs.get(card_type.back) if card_type.back else None
    if back is not None:
        back_names = templates.names_used(back.template)
        if back_names is None:
            return None
        names |= back_names
    return names, card_type.template
