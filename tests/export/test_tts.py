"""cardgen export --tts: sheet geometry, the hidden card slot, how many sheets for N cards."""
from __future__ import annotations

import json
import math

import pytest
from PIL import Image, ImageChops

from cardgen.export import export
from cardgen.export.tts import PER_SHEET, sheet_count


def decks_of(project):
    return json.loads((project / "output/tts/demo/tts.json").read_text())["decks"]


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("cards, sheets", [(1, 1), (69, 1), (70, 2), (138, 2), (139, 3), (690, 10)])
def test_sheet_count(cards, sheets):
    assert PER_SHEET == 69  # 10 x 7 slots, the 70th holds the hidden card
    assert sheet_count(cards) == sheets == math.ceil(cards / 69)


def test_demo_sheets_geometry_and_hidden_card(project):
    (line,) = export("demo", project, tts=True)
    folder = project / "output/tts/demo"
    assert line == f"Tabletop Simulator: 2 deck sheets in {folder}"
    poker, tokens = decks_of(project)
    # poker cards: 300 dpi would make a 7500 px sheet; 163 dpi keeps 10 x 2.5 in within 4096 px
    assert poker["card_px"] == [round(2.5 * 163), round(88.9 / 25.4 * 163)] == [408, 571]
    assert (poker["columns"], poker["rows"], poker["cards"]) == (10, 7, 5)
    assert poker["names"] == ["Quick Draw", "Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded"]
    # the 20 mm tokens are small enough for 300 dpi; they have no back, so no back image
    assert tokens["card_px"] == [round(20 / 25.4 * 300)] * 2 and tokens["back"] is None and tokens["cards"] == 3
    with Image.open(folder / poker["sheet"]) as sheet, Image.open(folder / poker["back"]) as back:
        w, h = poker["card_px"]
        assert sheet.size == (10 * w, 7 * h) and max(sheet.size) <= 4096
        assert back.size == (w, h)
        hidden = sheet.crop((9 * w, 6 * h, 10 * w, 7 * h))
        assert same(hidden, back)  # the 70th slot is the back
        first, second = (sheet.crop((i * w, 0, (i + 1) * w, h)) for i in (0, 1))
        assert same(first, second)  # two copies of Quick Draw
        assert not same(first, back)
        empty = sheet.crop((5 * w, 0, 6 * w, h))  # slot 6: no card
        assert empty.getextrema() == ((255, 255), (255, 255), (255, 255))
    with Image.open(folder / tokens["sheet"]) as sheet:
        assert sheet.size == (10 * 236, 7 * 236)


def test_many_cards_fill_several_sheets_in_order(project):
    csv = project / "data/demo/more.csv"
    csv.write_text("name,count,text\n" + "".join(f"Card {n:03},1,Text {n}\n" for n in range(1, 146)))
    export("demo", project, tts=True)
    decks = [d for d in decks_of(project) if d["card_px"] == [408, 571]]
    total = 2 + 1 + 145  # Quick Draw x2, Escape Artist, the CSV cards
    assert [d["cards"] for d in decks] == [69, 69, total - 138] and len(decks) == sheet_count(total)
    assert decks[1]["names"][0] == f"Card {69 - 3 + 1:03}"  # sheet 2 goes on where sheet 1 stopped
    assert [n for d in decks for n in d["names"]][-1] == "Card 145"
    files = sorted(p.name for p in (project / "output/tts/demo").glob("deck-*.png"))
    assert len(files) == 3 * 2 + 1  # 3 poker sheets with their back images, 1 token sheet without
    assert "deck-4-back.png" not in files


def test_same_input_same_sheet_bytes(project, tmp_path):
    export("demo", project, out=tmp_path / "a", tts=True)
    export("demo", project, out=tmp_path / "b", tts=True)
    for path in sorted((tmp_path / "a/demo").iterdir()):
        assert path.read_bytes() == (tmp_path / "b/demo" / path.name).read_bytes(), path.name
