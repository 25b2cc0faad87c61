"""cardgen proof: cards whose fronts are alike (the same face under two names, as the Warp's six
Capture Challenge cards) each show on the contact sheet. The sheet kept one place per key, the
last card's, so the others' places stayed white."""
from __future__ import annotations

import json

from PIL import Image, ImageChops

from cardgen.proof import proof
from cardgen.proof.contact import layout
from projects import make_project


def test_every_card_with_an_alike_front_has_its_thumbnail(tmp_path):
    project = make_project(tmp_path, fonts=False)
    cards = project / "data/demo/cards.yaml"
    # the demo's token prints only its label: a second token with the same label looks the same
    cards.write_text(cards.read_text(encoding="utf-8") + "- name: Spare Marker\n  type: token\n  label: M\n",
                     encoding="utf-8")
    (result,), _ = proof(["demo"], project)
    assert_every_front_shown(result)
    # again with no face to rasterise: the sheet is made from the thumbnails kept in the folder
    (result.folder / "contact.png").unlink()
    (again,), _ = proof(["demo"], project)
    assert again.rasterised == 0
    assert_every_front_shown(again)


def assert_every_front_shown(result) -> None:
    faces = json.loads((result.folder / "proof.json").read_text())["faces"]
    firsts = [f for f in faces if f["side"] == "front" and f["copy"] == 1]
    markers = [f for f in firsts if f["type"] == "token"]
    assert [f["card"] for f in markers] == ["Marker", "Spare Marker"] and markers[0]["key"] == markers[1]["key"]
    shown = firsts + [next(f for f in faces if f["side"] == "back")]  # the demo's cards share one back
    thumbs = []
    for face in shown:
        with Image.open(result.folder / face["file"]) as image:
            thumbs.append(image.reduce(4))
    positions, size = layout([t.size for t in thumbs])
    with Image.open(result.folder / "contact.png") as sheet:
        assert sheet.size == size
        for face, thumb, (x, y) in zip(shown, thumbs, positions):
            placed = sheet.crop((x, y, x + thumb.width, y + thumb.height))
            assert ImageChops.difference(placed.convert("RGB"), thumb.convert("RGB")).getbbox() is None, face["card"]
