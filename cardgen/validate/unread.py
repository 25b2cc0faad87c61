"""A card's field that no layout of its type reads, spelt nearly like one that a layout does
read: a typo in a card file (``elemnt: fire`` in YAML, where the layout reads ``element``) or in
a default of set.yaml. Without this the layout printed the default (or failed on a name it
reads, far from the typo) and the check passed. Each is a warning at the field's line."""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..model import Card, CardSet

# columns cardgen itself reads: never a layout's
OWN_COLUMNS = frozenset({"name", "type", "count", "each", "added", "excerpt", "rebuilt"})


def misspelt_fields(card_set: CardSet, templates) -> list[Problem]:
    """A warning for each field (once per type and field name, at the first card giving it) and
    each default that the type's layouts (front and back, with what they extend or include) do
    not read, and that is spelt nearly like a name they read. Types whose layouts compute a
    template's name, or cannot be read, are left to the render, which says what is wrong."""
    firsts = _field_firsts(card_set)
    read_by_type = {type_name: _names_read(card_set, type_name, templates) for type_name in firsts}
    problems = []
    for type_name, fields in firsts.items():
        read = read_by_type[type_name]
        if read is None:
            continue
        names, template = read
        for field_name, card in fields.items():
            close = _lookalike(field_name, names)
            if close:
                problems.append(Problem(
                    f'field "{field_name}" is read by no layout of type "{type_name}" (did you mean '
                    f'"{close}", which templates/{template} reads?)',
                    card.source_of(field_name), card.name, severity="warning"))
    return problems + _misspelt_defaults(card_set, read_by_type)


def _field_firsts(card_set: CardSet) -> Mapping[str, Mapping[str, Card]]:
    """type -> field -> the first card giving it: gathered by the card files' check
    (load/cards.py), or here from a plain list of cards."""
    firsts = getattr(card_set.cards, "field_firsts", None)
    if firsts is not None and getattr(card_set.cards, "checked", False):
        return firsts
    from ..load.cards import _note_fields

    gathered: dict[str, dict[str, Card]] = {}
    for card in card_set.cards:
        card_type = card_set.types.get(card.type)
        _note_fields(gathered, card, card_type.defaults if card_type is not None else {})
    return gathered


def _lookalike(field_name: Any, names: frozenset[str]) -> str | None:
    if not isinstance(field_name, str) or field_name in names or field_name in OWN_COLUMNS:
        return None
    import difflib  # only for a field no layout reads: every build would import it otherwise

    close = difflib.get_close_matches(field_name, sorted(names), n=1, cutoff=0.8)
    return close[0] if close else None


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
            readers.setdefault((key, where), []).append(read)
    problems = []
    for (key, where), reads in readers.items():
        close = _lookalike(key, frozenset().union(*(names for names, _ in reads)))
        if close:
            template = next(template for names, template in reads if close in names)
            problems.append(Problem(f'default "{key}" is read by no layout (did you mean "{close}", which '
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
