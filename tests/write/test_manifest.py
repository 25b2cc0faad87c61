"""The manifest writer, face by face, as pages are written."""
from __future__ import annotations

import io
import json
from types import MappingProxyType

import cardgen
from cardgen.errors import Source
from cardgen.model import Card, CardSize, CardType, Face, Placement, Slot
from cardgen.write.manifest import ManifestWriter

POKER = CardType("action", "demo/action.xml.j2", None, CardSize(63.5, 88.9), 3.0, 3.0)


def _placement(name: str) -> Placement:
    card = Card(name, "action", 1, MappingProxyType({"name": name}), Source("cards.csv", 2))
    return Placement(Face(card, POKER, 1, "front", "k", "h"), Slot(1, 10.0, 10.0, 63.5, 88.9))


def test_cards_streaming_past_are_each_written_as_themselves(project):
    """Cards stream past and are let go, and Python gives new cards the addresses (``id``) of
    cards already written: the writer must not take a new card for an old one."""
    out = io.StringIO()
    writer = ManifestWriter(out, cardgen.load_set("demo", project))
    for number in range(2000):
        writer.add([_placement(f"Card {number}")])  # the only reference, gone once written
    writer.close(1)
    faces = json.loads(out.getvalue())["faces"]
    assert [f["card"] for f in faces] == [f"Card {number}" for number in range(2000)]
    assert all(f["data"] == {"name": f["card"]} for f in faces)
