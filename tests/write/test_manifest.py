"""The manifest writer, face by face, as pages are written."""
from __future__ import annotations

import io
import json
from types import MappingProxyType

import pytest

import cardgen
from cardgen.errors import Source
from cardgen.model import Card, CardSize, CardType, Face, Placement, Slot
from cardgen.write.manifest import ManifestWriter, expand

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

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
    faces = expand(json.loads(out.getvalue()))["faces"]
    assert [f["card"] for f in faces] == [f"Card {number}" for number in range(2000)]
    assert all(f["data"] == {"name": f["card"]} for f in faces)


def test_the_compact_manifest_keeps_what_faces_share_once_and_reads_back_in_full(project):
    """Format 2: a face is a line of six values; a card's name, type and data, a slot's geometry
    and a content hash each stand once in their table, and ``expand`` gives every field back."""
    from cardgen.write.manifest import FACE_FIELDS, load_manifest

    (result,) = cardgen.build(["demo"], project).sets
    text = result.manifest.read_text(encoding="utf-8")
    raw = json.loads(text)
    assert list(raw) == ["set", "version", "title", "format", "face_fields", "faces", "slots", "hashes", "cards",
                         "pages"]
    assert (raw["set"], raw["version"], raw["format"], raw["face_fields"]) == ("demo", "0.3", 2, list(FACE_FIELDS))
    assert text.startswith('{"set": "demo", "version": "0.3", "title": ')
    assert f'"faces": [\n{json.dumps(raw["faces"][0])},\n{json.dumps(raw["faces"][1])},\n' in text  # a face a line
    assert raw["faces"][0] == [0, 1, "front", 1, 0, 0]  # Quick Draw, its first copy, in the first slot
    assert raw["faces"][1][:2] == [0, 2] and raw["faces"][1][4:] == [1, 0]  # its second copy: one card, one hash
    assert raw["cards"][0]["card"] == "Quick Draw" and raw["cards"][0]["type"] == "action"
    assert raw["cards"][0]["data"]["text"].startswith("Draw **two** cards")
    assert raw["slots"][0] == {"x_mm": 12.7, "y_mm": 184.15, "w_mm": 63.5, "h_mm": 88.9, "shape": "rect",
                               "rotation": 0}
    names = [raw["cards"][card]["card"] for card, *_ in raw["faces"]]
    assert len(raw["cards"]) == len(set(names)) == 5  # each card once, however many faces and copies
    backs = {raw["hashes"][face[5]] for face in raw["faces"] if raw["cards"][face[0]]["type"] == "action"
             and face[2] == "back"}
    assert len(backs) == 1 and len(raw["hashes"]) == len(set(raw["hashes"]))  # the shared back: one hash
    full = load_manifest(result.manifest)
    assert list(full) == ["set", "version", "title", "faces", "pages"]
    assert len(full["faces"]) == len(raw["faces"]) and full["pages"] == raw["pages"] == result.pages
    first = full["faces"][0]
    assert list(first) == ["card", "type", "copy", "side", "page", "x_mm", "y_mm", "w_mm", "h_mm", "shape",
                           "rotation", "hash", "data"]
    assert first == {"card": "Quick Draw", "type": "action", "copy": 1, "side": "front", "page": 1,
                     **raw["slots"][0], "hash": raw["hashes"][0], "data": raw["cards"][0]["data"]}


def test_a_format_1_manifest_is_read_as_it_is_and_an_unknown_format_is_refused(tmp_path):
    from cardgen.write.manifest import expand, load_manifest

    old = {"set": "demo", "version": "0.2", "title": "Demo", "faces": [
        {"card": "A", "type": "action", "copy": 1, "side": "front", "page": 1, "x_mm": 1.0, "y_mm": 2.0,
         "w_mm": 63.5, "h_mm": 88.9, "shape": "rect", "rotation": 0, "hash": "ab", "data": {"name": "A"}}],
        "pages": 1}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert load_manifest(path) == old
    try:
        expand({**old, "format": 3})
    except ValueError as error:
        assert str(error) == "manifest format 3 (this cardgen reads 1 and 2)"
    else:
        raise AssertionError("format 3 was read")


def test_the_tables_hold_each_entry_once_however_far_apart_its_faces(project):
    """A card met again long after (its entry no longer among the latest) is written to its
    table again, and a new card alike a recent one is found by what is written: either way
    the faces read back as themselves."""
    from cardgen.write.manifest import expand

    out = io.StringIO()
    writer = ManifestWriter(out, cardgen.load_set("demo", project))
    kept = [_placement(f"Card {number}") for number in range(1500)]
    writer.add(kept)
    writer.add(kept[:3])  # the first cards again, 1,500 cards later
    writer.add([_placement("Card 1400")])  # another card object, alike a recent one
    writer.close(2, {"note": "x"})
    raw = json.loads(out.getvalue())
    assert len(raw["slots"]) == 1 and raw["hashes"] == ["h"] and raw["note"] == "x"
    assert [face[0] for face in raw["faces"][1499:]] == [1499, 1500, 1501, 1502, 1400]
    assert len(raw["cards"]) == 1503
    faces = expand(raw)["faces"]
    assert [f["card"] for f in faces] == [f"Card {number}" for number in range(1500)] + [
        "Card 0", "Card 1", "Card 2", "Card 1400"]
    assert all(f["hash"] == "h" and f["x_mm"] == 10.0 and f["data"] == {"name": f["card"]} for f in faces)


def _set(title: str):
    from pathlib import Path

    from cardgen.model import CardSet

    return CardSet("demo", title, "0.3", Path("."), Path("data/demo"), {"action": POKER}, {}, ())


def test_values_json_cannot_hold_are_written_as_text_and_titles_as_themselves(tmp_path):
    import datetime

    card = Card("Été", "action", 1, MappingProxyType({"name": "Été", "when": datetime.date(2025, 4, 1),
                                                        "n": 2, "tags": ("a", 1)}), Source("cards.yaml", 2))
    out = io.StringIO()
    writer = ManifestWriter(out, _set("Fête"))
    writer.add([Placement(Face(card, POKER, 1, "front", "k", "h"), Slot(1, 10.0, 10.0, 63.5, 88.9))])
    writer.close(1)
    assert '"title": "Fête"' in out.getvalue() and '"card": "Été"' in out.getvalue()  # UTF-8, not escaped
    (face,) = expand(json.loads(out.getvalue()))["faces"]
    assert face["data"] == {"name": "Été", "when": "2025-04-01", "n": 2, "tags": ["a", 1]}


def test_tables_past_their_memory_go_to_a_file_beside_the_manifest_and_come_back_whole(tmp_path, monkeypatch):
    from cardgen.write import manifest

    monkeypatch.setattr(manifest, "_SPOOLED", 16)  # every table spills at once
    spilled = []
    spool = manifest.tempfile.SpooledTemporaryFile

    def watched(*args, **kwargs):
        spilled.append(kwargs.get("dir"))
        return spool(*args, **kwargs)

    monkeypatch.setattr(manifest.tempfile, "SpooledTemporaryFile", watched)
    path = tmp_path / "out" / "demo.json"
    path.parent.mkdir()
    names = [f"Carte {n} é" for n in range(50)]
    with open(path, "w", encoding="utf-8") as out:
        writer = ManifestWriter(out, _set("Fête"))
        for name in names:
            writer.add([_placement(name)])
        writer.close(1)
    assert spilled == [str(path.parent)] * 3
    assert [face["card"] for face in manifest.load_manifest(path)["faces"]] == names
    out = io.StringIO()  # no file: the tables spill to the system's temporary folder
    writer = ManifestWriter(out, _set("Fête"))
    writer.add([_placement(names[0])])
    writer.close(1)
    assert spilled[3:] == [None] * 3 and expand(json.loads(out.getvalue()))["faces"][0]["card"] == names[0]


def test_the_manifest_text_exactly_for_values_of_every_kind_and_a_path_shaped_slot(tmp_path):
    """The writer's own formatting (cards' values without an encoder, slots rounded to 0.1 µm,
    a path shape by its kind alone) reads back as json.dumps would have written it."""
    card = Card('Say "hi"', "action", 1, MappingProxyType({"name": 'Say "hi"', "n": 3, "f": 1.5, "yes": True,
                                                           "none": None, "é": "\\ü"}), Source("cards.yaml", 2))
    plain = Card("Plain", "action", 1, MappingProxyType({"text": "a\nb", "n": -7, "gone": None}),
                 Source("cards.yaml", 3))
    out = io.StringIO()
    writer = ManifestWriter(out, _set("Fête"))
    slot = Slot(2, 10.123456, 20.00004, 63.512345, 88.900049, shape="path:M 0 0 L 1 1 Z", rotation=180)
    writer.add([Placement(Face(card, POKER, 1, "front", "k", "h1"), slot),
                Placement(Face(plain, POKER, 2, "back", "k2", "h2"), Slot(3, 1.0, 2.0, 3.0, 4.0))])
    writer.add([Placement(Face(card, POKER, 3, "front", "k", "h1"), slot)])
    writer.close(3, {"changelog": ["é"]})
    assert out.getvalue() == (
        '{"set": "demo", "version": "0.3", "title": "Fête", "format": 2, '
        '"face_fields": ["card", "copy", "side", "page", "slot", "hash"], "faces": [\n'
        '[0, 1, "front", 2, 0, 0],\n[1, 2, "back", 3, 1, 1],\n[0, 3, "front", 2, 0, 0]\n], "slots": [\n'
        '{"x_mm": 10.1235, "y_mm": 20.0, "w_mm": 63.5123, "h_mm": 88.9, "shape": "path", "rotation": 180},\n'
        '{"x_mm": 1.0, "y_mm": 2.0, "w_mm": 3.0, "h_mm": 4.0, "shape": "rect", "rotation": 0}\n], "hashes": [\n'
        '"h1",\n"h2"\n], "cards": [\n'
        '{"card": "Say \\"hi\\"", "type": "action", "data": {"name": "Say \\"hi\\"", "n": 3, "f": 1.5, '
        '"yes": true, "none": null, "é": "\\\\ü"}},\n'
        '{"card": "Plain", "type": "action", "data": {"text": "a\\nb", "n": -7, "gone": null}}\n'
        '], "pages": 3, "changelog": ["é"]}\n')
    raw = json.loads(out.getvalue())
    assert raw["cards"][0]["data"] == dict(card.fields) and raw["cards"][1]["data"] == dict(plain.fields)


def test_a_build_that_fails_while_its_manifest_is_written_leaves_none_of_its_files_open(project, monkeypatch):
    """`cardgen watch` and `serve` build again and again in one process: a failed build's
    manifest tables (spilled to files here) are closed, not left to the garbage collector."""
    from cardgen.write import manifest

    monkeypatch.setattr(manifest, "_SPOOLED", 16)  # every table spills to a file at once
    monkeypatch.setattr(manifest.ManifestWriter, "PAGES_PENDING", 1)  # with each page's lines
    tables = []
    spool = manifest.tempfile.SpooledTemporaryFile

    def watched(*args, **kwargs):
        tables.append(spool(*args, **kwargs))
        return tables[-1]

    def disk_full(self, pages, extra=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(manifest.tempfile, "SpooledTemporaryFile", watched)
    monkeypatch.setattr(manifest.ManifestWriter, "close", disk_full)
    with pytest.raises(OSError) as failed:
        cardgen.build(["demo"], project, project / "out", cardgen.BuildOptions(cache=False))
    assert failed.value.errno == 28  # the traceback it holds keeps the build's objects alive
    assert len(tables) == 3 and all(table._rolled for table in tables)  # real files, each
    assert [table.closed for table in tables] == [True] * 3
    assert not (project / "out").exists() or sorted(p.name for p in (project / "out").iterdir()) == []


@pytest.mark.parametrize("pending", [1, 3, 1000])
def test_lines_written_a_few_pages_at_a_time_are_the_lines_of_each_page_in_turn(tmp_path, monkeypatch, pending):
    """The writer holds the lines of a few pages before it writes them (PAGES_PENDING): the
    manifest is the same, and whatever is held when it closes is written, before the tables."""
    monkeypatch.setattr(ManifestWriter, "PAGES_PENDING", pending)
    out = io.StringIO()
    writer = ManifestWriter(out, _set("Fête"))
    for page in range(7):
        writer.add([_placement(f"Card {page}"), _placement(f"Card {page}b")])
    writer.close(7)
    document = json.loads(out.getvalue())
    assert len(document["faces"]) == 14 and len(document["cards"]) == 14 and document["pages"] == 7
    assert [f["card"] for f in expand(document)["faces"]] == [f"Card {p}{b}" for p in range(7) for b in ("", "b")]
    if pending == 1:
        return
    monkeypatch.setattr(ManifestWriter, "PAGES_PENDING", 1)
    page_by_page = io.StringIO()
    writer = ManifestWriter(page_by_page, _set("Fête"))
    for page in range(7):
        writer.add([_placement(f"Card {page}"), _placement(f"Card {page}b")])
    writer.close(7)
    assert out.getvalue() == page_by_page.getvalue()
