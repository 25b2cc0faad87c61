"""The fast makers of the dataclasses a build makes by the thousand (model.py, load/tables.py):
each makes what the class's own constructor makes, frozen as it is."""
from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from cardgen.errors import Source
from cardgen.load.tables import Row, new_row
from cardgen.model import Card, new_card, new_source


def _same(made, constructed) -> None:
    assert made == constructed and type(made) is type(constructed)
    for field in dataclasses.fields(constructed):
        assert getattr(made, field.name) is getattr(constructed, field.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, dataclasses.fields(made)[0].name, None)


def test_new_source_makes_a_source():
    _same(new_source("data/x/cards.csv", 7), Source("data/x/cards.csv", 7))
    _same(new_source("set.yaml", None), Source("set.yaml"))


def test_new_row_makes_a_row():
    values, source, sources = {"name": "A"}, Source("cards.csv", 2), {"name": Source("cards.csv", 3)}
    _same(new_row(values, source, sources), Row(values, source, sources))


def test_new_card_makes_a_card():
    fields, source, sources = MappingProxyType({"name": "A", "count": 2}), Source("cards.csv", 2), MappingProxyType({})
    card = new_card("A", "action", 2, fields, source, sources)
    _same(card, Card("A", "action", 2, fields, source, sources))
    assert card.source_of("text") is source
