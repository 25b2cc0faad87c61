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


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The demo exported once for Tabletop Simulator, for the tests that only read the export:
    the project, and what the command said."""
    from projects import make_project

    project = make_project(tmp_path_factory.mktemp("tts"))
    return project, export("demo", project, tts=True)


def test_demo_sheets_geometry_and_hidden_card(exported):
    project, (line,) = exported
    folder = project / "output/tts/demo"
    assert line == f"Tabletop Simulator: 2 deck sheets in {folder}"
    poker, tokens = decks_of(project)
    # poker cards: 300 dpi would make a 7500 px sheet; 163 dpi keeps 10 x 2.5 in within 4096 px
    assert poker["card_px"] == [round(2.5 * 163), round(88.9 / 25.4 * 163)] == [408, 571]
    assert (poker["columns"], poker["rows"], poker["cards"]) == (10, 7, 5)
    assert poker["names"] == ["Quick Draw", "Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded"]
    # the 20 mm tokens are small enough for 300 dpi; they have no back, so a plain white one
    assert tokens["card_px"] == [round(20 / 25.4 * 300)] * 2 and tokens["plain_back"] and tokens["cards"] == 3
    with Image.open(folder / tokens["back"]) as back:
        assert back.getcolors() == [(236 * 236, (255, 255, 255))]
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
    assert len(files) == 4 * 2  # 3 poker sheets and 1 token sheet, each with its back image


def test_same_input_same_sheet_bytes(exported, tmp_path):
    project, _ = exported
    export("demo", project, out=tmp_path / "b", tts=True)
    first = project / "output/tts"
    assert sorted(p.name for p in (first / "demo").iterdir()) == sorted(p.name for p in (tmp_path / "b/demo").iterdir())
    for path in sorted((first / "demo").iterdir()):
        other = (tmp_path / "b/demo" / path.name).read_bytes()
        if path.name.endswith(".saved-object.json"):  # names its own folder
            other = other.replace((tmp_path / "b").resolve().as_uri().encode(), first.resolve().as_uri().encode())
        assert path.read_bytes() == other, path.name


def test_saved_object_loads_as_decks(exported):
    project, _ = exported
    folder = project / "output/tts/demo"
    saved = json.loads((folder / "demo.saved-object.json").read_text())
    poker, tokens = saved["ObjectStates"]
    assert poker["Name"] == "DeckCustom" and poker["Nickname"] == "Demo Deck (408 x 571 px)"
    assert poker["DeckIDs"] == [100, 101, 102, 103, 104]
    assert poker["CustomDeck"] == {"1": {
        "FaceURL": folder.resolve().as_uri() + "/deck-1.png", "BackURL": folder.resolve().as_uri() + "/deck-1-back.png",
        "NumWidth": 10, "NumHeight": 7, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    assert [c["Nickname"] for c in poker["ContainedObjects"]] == [
        "Quick Draw", "Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded"]
    assert [c["CardID"] for c in poker["ContainedObjects"]] == poker["DeckIDs"]
    assert tokens["DeckIDs"] == [200, 201, 202] and list(tokens["CustomDeck"]) == ["2"]
    assert tokens["CustomDeck"]["2"]["BackURL"].endswith("/deck-2-back.png")


def test_a_blocked_tts_folder_fails_the_export_before_the_shops_files_are_written(project, cli, monkeypatch):
    monkeypatch.chdir(project)
    (project / "output").mkdir()
    (project / "output/tts").write_text("not a folder")
    result = cli(project, "export", "demo", "--shop", "drivethru", "--tts")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["cardgen: cannot write output/tts/demo: output/tts is a file, not a folder"]
    assert not (project / "output/drivethru").exists()  # written, then the export failed


def test_a_card_too_large_for_a_deck_sheet_is_refused_at_its_type(project):
    """A 20 m card fell to 0 dpi and 0 pixels on a 4096-pixel sheet: "internal error: 1 bytes
    are not 0 PNG rows of 0 RGB pixels"."""
    from cardgen import CardgenError

    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    assert "    template: demo/action.xml.j2\n" in text
    set_yaml.write_text(text.replace("    template: demo/action.xml.j2\n",
                                     "    template: demo/action.xml.j2\n    size: {w: 20000, h: 20000}\n"))
    with pytest.raises(CardgenError) as error:
        export("demo", project, tts=True)
    assert str(error.value) == ('data/demo/set.yaml:8: card "Quick Draw": a 20000 x 20000 mm card cannot go on a '
                                'Tabletop Simulator deck sheet: 10 x 7 of them fit 4096 pixels a side only below 1 dpi')
    assert not (project / "output/tts").exists()
