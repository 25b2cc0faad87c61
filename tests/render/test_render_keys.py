"""What decides a face's rendering: the values its template reads, found without making the
whole template context for every face (render/faces.py)."""
from __future__ import annotations

from types import MappingProxyType

import pytest

import cardgen
from cardgen.render.faces import _CARD_FREE, _context_value, set_view, template_context

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

# the context's own names, names a card may also have as fields, and names it may lack
NAMES = ("card", "copy", "w", "h", "bleed", "safe", "set", "item", "name", "text", "missing")


FIELDS = [
    {"name": "Quick Draw", "text": "Draw 2."},
    {"name": "Odd", "w": 99, "card": "mine", "set": "own", "copy": 7, "item": ["a", 1]},  # fields the context overrides
    MappingProxyType({"name": "Frozen", "safe": None, "item": None}),
]


@pytest.mark.parametrize("fields", FIELDS)
@pytest.mark.parametrize("copy", [1, 3])
def test_each_value_a_template_reads_is_the_contexts(project, fields, copy):
    card_set = cardgen.load_set("demo", root=project)
    set_values = set_view(card_set)
    for card_type in card_set.types.values():
        context = template_context(set_values, card_type, fields, copy)
        for name in NAMES:
            value = _context_value(name, set_values, card_type, fields, copy)
            assert repr(value) == repr(context.get(name)), (card_type.name, name)
            assert type(value) is type(context.get(name)), (card_type.name, name)


@pytest.mark.parametrize("name", sorted(_CARD_FREE))
def test_a_name_the_card_type_alone_decides_is_the_same_for_every_card(project, name):
    """A template that reads only such names (a back) has its values made once per card type,
    not per card (FaceRenderer._face): whatever the card's fields and copy, they are the same."""
    card_set = cardgen.load_set("demo", root=project)
    set_values = set_view(card_set)
    for card_type in card_set.types.values():
        seen = {repr(_context_value(name, set_values, card_type, fields, copy)) for fields in FIELDS for copy in (1, 3)}
        assert len(seen) == 1, (card_type.name, name, seen)
