"""The death-mesa set: the 26 Dead Men's Deck cards and the player aid of BANG! Death Mesa.

Texts are compared with the seed itself; indices, colours and names are read from the PDF
that cardgen writes; the checks run through `cardgen check`.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from cardgen.write.manifest import load_manifest
from pdftext import page_chars
from projects import run_cli

ROOT = Path(__file__).resolve().parents[2]
SET = "death-mesa"
SEED = ROOT / "tests" / "fixtures" / "seeds" / "bang-death-mesa-player-aid.txt"
FIXTURES = ROOT / "tests" / "fixtures" / SET
MM_PER_PT = 25.4 / 72

# The cards the aid explains, as it titles them (the contract).
DMD_NAMES = [
    "Bad Moon Rising", "Blood Juice", "Cemetery", "Curse", "Death and Taxes", "Decay", "Desecrate Grave",
    "Dry Spell", "Ghost Stories", "Guilty Conscience", "Hidden Stash", "In Memoriam", "Last Testament",
    "Mirage", "Nightmare", "Poltergeist", "Possess", "Proper Burial", "Rob Grave", "Seance", "Spook!",
    "Syphon", "Terrify", "The East Wind", "Unfinished Business", "Warn",
]
# The only suits and ranks the aid gives (its duel example).
GIVEN = {"Spook!": ("K", "spades"), "Curse": ("8", "diamonds"), "Death and Taxes": ("5", "clubs"),
         "Syphon": ("7", "diamonds")}


def run_cardgen(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``cardgen ARGS`` in the project ``cwd`` (in this process: test_prohibition runs a real one)."""
    return run_cli(cwd, *args)


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def cards_data() -> list[dict]:
    return load_yaml(ROOT / "data" / SET / "cards.yaml")


def aid_data() -> list[dict]:
    return load_yaml(ROOT / "data" / SET / "aid.yaml")


def suits() -> dict:
    return load_yaml(ROOT / "data" / SET / "set.yaml")["variables"]["suits"]


def squash(text: str) -> str:
    return " ".join(text.split())


def plain_words(text: str) -> str:
    """Rich text as the words it prints: icons, bold and colour markers removed."""
    text = re.sub(r":(ghost|living):", "", text)
    text = re.sub(r"\[color=[^\]]*\]|\[/color\]", "", text).replace("**", "")
    return squash(text)


def seed_text() -> str:
    return squash(SEED.read_text(encoding="utf-8"))


# --- data against the seed ----------------------------------------------------------------

def test_the_26_cards_of_the_aid_in_its_order():
    assert [card["name"] for card in cards_data()] == DMD_NAMES


def test_card_texts_are_word_for_word_from_the_aid():
    seed = seed_text()
    for card in cards_data():
        explained = f'{card["name"]}{"" if card["name"].endswith("!") else "."} {plain_words(card["text"])}'
        if "optional" in card:
            explained += f' Optional: {plain_words(card["optional"])}'
        assert explained in seed, card["name"]
    with_variant = [card["name"] for card in cards_data() if "optional" in card]
    assert with_variant == ["Bad Moon Rising", "Hidden Stash", "Last Testament", "Unfinished Business"]


def test_icons_mark_every_ghost_and_living_player():
    """`:ghost:` right before every "ghost..." word and "dead players", `:living:` right before
    every "living player(s)", and nowhere else (the icon carries its own gap: no space)."""
    marked = {"ghost": r"\b(?:[Gg]host\w*|dead players)", "living": r"\b[Ll]iving players?"}
    total = {"ghost": 0, "living": 0}
    for card in cards_data():
        for field in ("text", "optional"):
            text = card.get(field, "")
            words = re.sub(r":(ghost|living):", lambda m: " " * len(m.group()), text)  # hide the icon names
            for icon, pattern in marked.items():
                for found in re.finditer(pattern, words):
                    start = found.start()
                    assert text[start - len(icon) - 2:start] == f":{icon}:", (card["name"], found.group())
                    total[icon] += 1
                # and no icon stands anywhere else
                assert len(re.findall(f":{icon}:(?={pattern[2:]})", text)) == text.count(f":{icon}:"), card["name"]
    assert total["ghost"] >= 8 and total["living"] >= 20


def test_suits_and_ranks_only_where_the_aid_gives_them():
    for card in cards_data():
        rank, suit = GIVEN.get(card["name"], ("unknown", "unknown"))
        assert (str(card["rank"]), card["suit"]) == (rank, suit), card["name"]


def test_aid_cards_are_word_for_word_and_cover_the_rules():
    seed = seed_text()
    paragraphs = []
    for card in aid_data():
        for line in card["text"].split("\n"):
            if line.strip():
                paragraphs.append(plain_words(line))
    for paragraph in paragraphs:
        assert paragraph in seed, paragraph
    joined = " ".join(paragraphs)
    for heading in ("Preparation.", "When a Player is Eliminated.", "All ghosts have a card limit of 2.",
                    "Living players may discard cards from ghosts’ hands", "Playing Dead Men’s Deck Cards.",
                    "Example. Ghost A plays a Spook! (K♠)", "he may gain a bonus", "Extra Playing Conditions.",
                    "Modified Victory Conditions.", "1. Vengeance Victory.", "2. Scofflaw Victory.",
                    "Inow eliminate.", "Optional: If players find it too difficult"):
        assert heading in joined, heading


# --- the build ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("death-mesa-out")
    result = run_cardgen("build", SET, "--out", str(out), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = load_manifest(out / f"{SET}.json")
    return manifest, page_chars(out / f"{SET}.pdf")


def fronts(manifest: dict, kind: str) -> list[dict]:
    return [f for f in manifest["faces"] if f["type"] == kind and f["side"] == "front"]


def chars_in(face: dict, pages: list[dict]) -> list[dict]:
    """The PDF characters whose centre lies inside the face's trim box, with their position in mm
    from the face's top-left corner."""
    page = pages[face["page"] - 1]
    page_h = page["height"] * MM_PER_PT
    left, top = face["x_mm"], page_h - face["y_mm"] - face["h_mm"]
    found = []
    for char in page["chars"]:
        x = (char["x0"] + char["x1"]) / 2 * MM_PER_PT - left
        y = (char["top"] + char["bottom"]) / 2 * MM_PER_PT - top
        if 0 <= x <= face["w_mm"] and 0 <= y <= face["h_mm"]:
            found.append({**char, "fx": x, "fy": y})
    return found


def test_manifest_and_pdf_hold_the_26_cards_bridge_size(built):
    manifest, pages = built
    faces = fronts(manifest, "dmd")
    assert sorted(f["card"] for f in faces) == sorted(DMD_NAMES)
    for face in faces:
        assert abs(face["w_mm"] - 57.15) < 1e-6 and abs(face["h_mm"] - 88.9) < 1e-6
        printed = "".join(c["text"] for c in chars_in(face, pages) if c["text"].strip())
        assert face["card"].replace(" ", "") in printed, face["card"]
    backs = [f for f in manifest["faces"] if f["type"] == "dmd" and f["side"] == "back"]
    assert len(backs) == 26


def test_aid_cards_printed(built):
    manifest, pages = built
    faces = fronts(manifest, "aid")
    assert [f["card"] for f in faces] == [card["name"] for card in aid_data()]
    printed = "".join(c["text"] for f in faces for c in chars_in(f, pages) if c["text"].strip())
    assert "Inoweliminate." in printed and "Ghostshavenolifepoints" in printed


def test_index_glyphs_in_two_corners_in_the_suit_colour(built):
    manifest, pages = built
    table = suits()
    symbols = {info["symbol"] for info in table.values()}
    for face in fronts(manifest, "dmd"):
        chars = chars_in(face, pages)
        glyphs = [c for c in chars if c["text"] in symbols]
        if face["card"] not in GIVEN:
            assert glyphs == [], face["card"]  # an empty frame, to fill in by pen
            continue
        rank, suit = GIVEN[face["card"]]
        symbol, colour = table[suit]["symbol"], table[suit]["color"]
        assert [g["text"] for g in glyphs] == [symbol, symbol], face["card"]
        top_left, bottom_right = sorted(glyphs, key=lambda g: (g["fx"], g["fy"]))
        assert top_left["fx"] < 12 and top_left["fy"] < 17, face["card"]
        assert bottom_right["fx"] > face["w_mm"] - 12 and bottom_right["fy"] > face["h_mm"] - 17, face["card"]
        # the second index is turned half round, as on a playing card
        assert tuple(top_left["matrix"][:4]) == (1, 0, 0, 1), face["card"]
        assert tuple(bottom_right["matrix"][:4]) == (-1, 0, 0, -1), face["card"]
        ranks = [c for c in chars if c["text"] == rank and (c["fy"] < 17 or c["fy"] > face["h_mm"] - 17)]
        assert len(ranks) == 2, face["card"]
        expected = tuple(int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4))
        for char in glyphs + ranks:
            got = tuple(char["non_stroking_color"])
            got = got * 3 if len(got) == 1 else got
            assert all(abs(a - b) < 0.01 for a, b in zip(got, expected)), (face["card"], char["text"], got)


def test_red_suits_print_red_and_black_suits_black():
    table = suits()
    assert {name for name, info in table.items() if info["color"] == "#000000"} == {"spades", "clubs"}
    reds = {name for name, info in table.items() if info["color"] != "#000000"}
    assert reds == {"hearts", "diamonds"} and len({table[s]["color"] for s in reds}) == 1
    red = table["hearts"]["color"].lstrip("#")
    assert int(red[0:2], 16) > 2 * max(int(red[2:4], 16), int(red[4:6], 16))


# --- cardgen check ------------------------------------------------------------------------

def copy_project(tmp_path: Path) -> Path:
    for folder in (f"data/{SET}", f"templates/{SET}", "fonts"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def card_line(path: Path, name: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line == f'- name: "{name}"')


def field_line(path: Path, name: str, field: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = card_line(path, name)
    return next(i for i, line in enumerate(lines[start:], start=start + 1) if line.startswith(f"  {field}:"))


def test_check_warns_about_unknown_suits_and_ranks_and_passes():
    result = run_cardgen("check", SET)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    cards = ROOT / "data" / SET / "cards.yaml"
    for name in DMD_NAMES:
        suit = (f'data/{SET}/cards.yaml:{field_line(cards, name, "suit")}: warning: card "{name}": '
                f'rule "suits": suit is unknown')
        rank = (f'data/{SET}/cards.yaml:{field_line(cards, name, "rank")}: warning: card "{name}": '
                f'rule "ranks": rank is unknown')
        assert (suit in output) == (name not in GIVEN), name
        assert (rank in output) == (name not in GIVEN), name
    assert output.count("warning:") == 2 * (26 - len(GIVEN))


def test_duplicated_suit_and_rank_fails_the_check_with_the_unique_indexes_option(tmp_path):
    """The aid never says that two DMD cards cannot share an index: only the named reading
    `unique-indexes` of the rules file checks it."""
    root = copy_project(tmp_path)
    cards = root / "data" / SET / "cards.yaml"
    original = cards.read_text(encoding="utf-8")
    old = '- name: "Curse"\n  suit: diamonds\n  rank: "8"\n'
    assert old in original
    cards.write_text(original.replace(old, '- name: "Curse"\n  suit: spades\n  rank: "K"\n'), encoding="utf-8")
    plain = run_cardgen("check", SET, cwd=root)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "one card per suit and rank" not in plain.stdout + plain.stderr
    result = run_cardgen("check", SET, "--rules-option", "unique-indexes", cwd=root)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    expected = (f'data/{SET}/cards.yaml:{card_line(cards, "Spook!")}: card "Spook!": rule "one card per suit and '
                f'rank": suit, rank (spades, K) already on card "Curse" (data/{SET}/cards.yaml:{card_line(cards, "Curse")})')
    assert expected in output
    assert "Traceback" not in output


def test_suits_and_ranks_outside_a_deck_of_cards_fail(tmp_path):
    root = copy_project(tmp_path)
    cards = root / "data" / SET / "cards.yaml"
    shutil.copy(FIXTURES / "cards-bad-index.yaml", cards)
    result = run_cardgen("check", SET, cwd=root)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert (f'data/{SET}/cards.yaml:{field_line(cards, "Curse", "suit")}: card "Curse": rule "suits": '
            'suit "swords" is not one of spades, hearts, diamonds, clubs') in output
    assert (f'data/{SET}/cards.yaml:{field_line(cards, "Syphon", "rank")}: card "Syphon": rule "ranks": '
            'rank "11" is not one of A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K') in output
    assert ('rule "every card the aid explains": no card where type is dmd has name "Warn"') in output
