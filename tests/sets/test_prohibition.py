"""The prohibition set: the rulebook's two cards, a layout per card type, and the deck rules.

The deck rules are the real data/prohibition/rules.yaml, copied beside a card pool written for
the tests (tests/fixtures/validate/prohibition-pool): the rulebook shows only two cards, too few
for a deck. Each deck in tests/fixtures/validate/prohibition-decks breaks exactly one rule.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

import cardgen
from cardgen.cli import main
from cardgen.validate import check_deck, load_deck
from cardgen.write.manifest import load_manifest

from pdftext import face_texts, page_texts

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "tests" / "fixtures" / "seeds" / "prohibition-alpha-rules.txt"
FIXTURES = ROOT / "tests" / "fixtures" / "validate"
POOL = "prohibition-pool"

RULE_1 = "1: at most 1 copy of each Leader, Major Event, Advanced Tech and Building"
RULE_2 = "2: at most 3 copies of any other card"
RULE_3 = "3: exactly 3 Buildings"
RULE_4 = "4: exactly 43 cards including Buildings"
RULE_5 = "5: at least 5 different Leaders"
RULE_6_BENCH = "6: a bench of at most 15 cards"
RULE_6_BENCH_EXTRA = "6: a bench of at most 15 cards besides Buildings"
RULE_6_ONE = "6: bench and deck together: at most 1 copy of each Leader, Major Event and Advanced Tech"
RULE_6_THREE = "6: bench and deck together: at most 3 copies of any other card"
RULE_6A = "6a: every Building on the bench unique"
RULE_7 = "7: only factions of the deck's Buildings, General or Mercenaries"
RULE_7_BENCH = "7: bench cards only from factions of the player's Buildings, General or Mercenaries"

# Each deck (with the rules options the check turns on) and the one line `cardgen check` prints
# for it (file:line, card, rule, what is wrong).
BROKEN_DECKS = {
    "rule1-two-leaders.yaml":
        f'decks/rule1-two-leaders.yaml:6: card "Leader One": rule "{RULE_1}": 2 copies, expected at most 1',
    "rule2-four-copies.yaml":
        f'decks/rule2-four-copies.yaml:13: card "Personnel One": rule "{RULE_2}": 4 copies, expected at most 3',
    "rule3-four-buildings.yaml":
        f'decks/rule3-four-buildings.yaml:6: card "Claws Warehouse": rule "{RULE_3}": '
        "4 cards where type is Building, expected exactly 3",
    "rule4-42-cards.yaml": f'decks/rule4-42-cards.yaml:2: rule "{RULE_4}": 42 cards, expected exactly 43',
    "rule4-44-cards.yaml":
        f'decks/rule4-44-cards.yaml:24: card "Action Three": rule "{RULE_4}": 44 cards, expected exactly 43',
    "rule5-four-leaders.yaml":
        f'decks/rule5-four-leaders.yaml:2: rule "{RULE_5}": '
        "4 different names among cards where type is Leader, expected at least 5",
    "rule6-bench-16.yaml":
        f'decks/rule6-bench-16.yaml:32: card "Event Three": rule "{RULE_6_BENCH}": 17 cards, expected at most 15',
    "rule6-bench-16.yaml --rules-option bench-buildings-extra":
        f'decks/rule6-bench-16.yaml:32: card "Event Three": rule "{RULE_6_BENCH_EXTRA}": '
        "16 cards where type is not Building, expected at most 15",
    "rule6-bench-15-and-a-building.yaml":
        f'decks/rule6-bench-15-and-a-building.yaml:33: card "Event Three": rule "{RULE_6_BENCH}": '
        "16 cards, expected at most 15",
    "rule6-leader-across.yaml":
        f'decks/rule6-leader-across.yaml:31: card "Leader One": rule "{RULE_6_ONE}": '
        "2 copies in main and bench together (1 in main, 1 in bench), expected at most 1",
    "rule6-four-across.yaml":
        f'decks/rule6-four-across.yaml:31: card "Personnel One": rule "{RULE_6_THREE}": '
        "4 copies in main and bench together (3 in main, 1 in bench), expected at most 3",
    "rule6a-building-twice.yaml":
        f'decks/rule6a-building-twice.yaml:31: card "Blue Claws HQ": rule "{RULE_6A}": '
        "2 copies in main and bench together (1 in main, 1 in bench), expected at most 1",
    "rule7-faction.yaml":
        f'decks/rule7-faction.yaml:18: card "Lone Fixer": rule "{RULE_7}": faction "Lone Outfit" is not '
        "the faction of a card where type is Building, nor one of General, Mercenaries",
    "rule7-bench-faction.yaml --rules-option bench-factions":
        f'decks/rule7-bench-faction.yaml:31: card "Lone Fixer": rule "{RULE_7_BENCH}": faction "Lone Outfit" '
        "is not the faction of a card where type is Building in main or bench, nor one of General, Mercenaries",
}


@pytest.fixture(scope="module")
def pool(tmp_path_factory) -> Path:
    """A project with the test pool as a set, the real rules file, templates and fonts, and the decks."""
    root = tmp_path_factory.mktemp("prohibition") / "proj"
    shutil.copytree(FIXTURES / POOL, root / "data" / POOL)
    shutil.copy(ROOT / "data" / "prohibition" / "rules.yaml", root / "data" / POOL / "rules.yaml")
    shutil.copytree(ROOT / "templates" / "prohibition", root / "templates" / "prohibition")
    shutil.copytree(ROOT / "fonts", root / "fonts")
    shutil.copytree(FIXTURES / "prohibition-decks", root / "decks")
    return root


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)


def error_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if not line.startswith("cardgen:")]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def has_words(text: str, phrase: str) -> bool:
    """Every word of ``phrase`` in ``text`` (a name that wraps beside a number reads out of order)."""
    return all(word in text for word in phrase.split())


def face_text(pdf: Path, face: dict) -> str:
    """The text inside one face's trim box, whitespace removed (faces side by side interleave)."""
    return squash(face_texts(pdf, [face])[0])


# --- the shipped cards -----------------------------------------------------------------------

def test_shipped_cards_are_the_rulebooks_two():
    card_set = cardgen.load_set("prohibition", root=ROOT)
    assert [(c.name, c.type, c.count) for c in card_set.cards] == [
        ("Blue Claws HQ", "Building", 1), ("Falsified Ledger", "Advanced Tech", 1)]
    hq, ledger = (dict(c.fields) for c in card_set.cards)
    assert {k: hq[k] for k in ("defense", "loyalty", "effect", "faction", "subtype", "flavour")} == {
        "defense": 10, "loyalty": 10, "effect": "All blueclaws you have get +2 health", "faction": "Blue Claws",
        "subtype": "Headquarters", "flavour": "The headquarters of the dumbest criminal organization in the USA"}
    assert {k: ledger[k] for k in ("cost", "effect", "faction", "subtype", "flavour")} == {
        "cost": 8, "effect": "Action: Reduce loyalty of a building to 0; discard this Tech.", "faction": "unknown",
        "subtype": "Espionage", "flavour": "\"it's funny how fast people leave you once you're money is gone\""}
    assert "sell" not in ledger  # the card shows no sell price
    assert set(card_set.types) == {"Building", "Leader", "Personnel", "Action", "Event", "Major Event", "Tech",
                                   "Advanced Tech"}


def test_shipped_texts_come_from_the_seed():
    seed = SEED.read_text(encoding="utf-8")
    # The seed is text extracted from a PDF: letters split by tabs ("Clav\tvs" is "Claws",
    # "crin\tninal" is "criminal", "Oarfisi\tn" is "Oarfish"). Undo exactly those splits.
    mended = seed.replace("Clav\tvs", "Claws").replace("crin\tninal", "criminal").replace("Oarfisi\tn", "Oarfish")
    whole = squash(mended)
    rows = YAML(typ="safe").load((ROOT / "data" / "prohibition" / "cards.yaml").read_text(encoding="utf-8"))
    for row in rows:
        for key in ("name", "effect", "faction", "subtype", "flavour", "edition", "strip_note", "corner_note"):
            value = str(row.get(key, ""))
            if value in ("", "unknown") or (row["name"], key) == ("Falsified Ledger", "effect"):
                continue
            assert squash(value) in whole, (row["name"], key, value)
    # The Ledger's effect was cut in three by the extraction ("Reduce Tech.\tloyalty ... discar\td this"):
    # the same characters, in the card's order.
    line = next(l for l in seed.splitlines() if l.startswith("Action: Reduce"))
    effect = next(r["effect"] for r in rows if r["name"] == "Falsified Ledger")
    assert sorted(squash(line)) == sorted(squash(effect))


def test_check_of_the_shipped_set_warns_about_the_unknown_faction():
    result = run(ROOT, "check", "prohibition")
    assert result.exit_code == 0
    lines = (ROOT / "data" / "prohibition" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    ledger = lines.index("- name: Falsified Ledger")
    faction = next(i for i in range(ledger, len(lines)) if lines[i].startswith("  faction:")) + 1
    assert error_lines(result) == [
        f'data/prohibition/cards.yaml:{faction}: warning: card "Falsified Ledger": rule "every faction has a Building": '
        "faction is unknown"]
    assert result.stdout.strip() == "ok: no errors, 1 warning"


def test_the_shipped_set_prints_its_texts_and_an_empty_faction_frame(tmp_path):
    result = cardgen.build(["prohibition"], ROOT, tmp_path, cardgen.BuildOptions(cache=False))
    (built,) = result.sets
    manifest = load_manifest(built.manifest)
    assert Counter((f["card"], f["side"]) for f in manifest["faces"]) == {
        ("Blue Claws HQ", "front"): 1, ("Blue Claws HQ", "back"): 1,
        ("Falsified Ledger", "front"): 1, ("Falsified Ledger", "back"): 1}
    faces = {(f["card"], f["side"]): f for f in manifest["faces"]}
    texts = {key: face_text(built.pdf, face) for key, face in faces.items()}
    expected = {
        # the name takes two lines beside the badges: its lines are read apart
        "Blue Claws HQ": ["Blue Claws", "HQ", "BUILDING", "10", "DEFENSE", "LOYALTY", "All blueclaws you have get +2 health",
                          "none", "Blue Claws - Headquarters",
                          "The headquarters of the dumbest criminal organization in the USA",
                          "Alpha 1 © Purple Oarfish Games, LLC", "???"],
        "Falsified Ledger": ["Falsified Ledger", "8", "COST", "ADVANCED TECH", "Espionage -",
                             "Action: Reduce loyalty of a building to 0; discard this Tech.",
                             "\"it's funny how fast people leave you once you're money is gone\"", "alpha 1"],
    }
    for card, pieces in expected.items():
        for piece in pieces:
            assert squash(piece) in texts[(card, "front")], (card, piece)
        assert "unknown" not in texts[(card, "front")].lower()  # an unknown value is an empty frame
        assert texts[(card, "back")] == squash("PROHIBITION © Purple Oarfish Games, LLC")
    # the faction strip of the Ledger ends after its subtype: the faction frame is empty
    assert re.search(r"Espionage-(\"|Action)", texts[("Falsified Ledger", "front")])


def test_a_deck_of_the_two_shipped_cards_is_far_from_legal(tmp_path):
    deck = tmp_path / "two.yaml"
    deck.write_text("main:\n  Blue Claws HQ: 1\n  Falsified Ledger: 1\n", encoding="utf-8")
    card_set = cardgen.load_set("prohibition", root=ROOT)
    name = deck.as_posix()
    assert [str(p) for p in check_deck(card_set, load_deck(card_set, deck))] == [
        f'{name}:1: rule "{RULE_3}": 1 card where type is Building, expected exactly 3',
        f'{name}:1: rule "{RULE_4}": 2 cards, expected exactly 43',
        f'{name}:1: rule "{RULE_5}": 0 different names among cards where type is Leader, expected at least 5',
        f'{name}:3: warning: card "Falsified Ledger": rule "{RULE_7}": faction is unknown',
    ]


# --- deck rules, through the command line ----------------------------------------------------

def test_the_valid_deck_passes(pool):
    result = run(pool, "check", POOL, "--deck", str(pool / "decks" / "valid.yaml"))
    assert (result.exit_code, error_lines(result), result.stdout.strip()) == (0, [], "ok: no errors, 0 warnings")


@pytest.mark.parametrize("deck", sorted(BROKEN_DECKS))
def test_each_broken_rule_gets_exactly_its_message(pool, deck):
    file, *options = deck.split()
    result = run(pool, "check", POOL, "--deck", str(pool / "decks" / file), *options)
    assert result.exit_code == 1
    assert error_lines(result) == [BROKEN_DECKS[deck]]
    assert "cardgen: 1 error, 0 warnings" in result.stderr


@pytest.mark.parametrize("deck,option", [("rule6-bench-15-and-a-building.yaml", "bench-buildings-extra"),
                                          ("rule7-bench-faction.yaml", None)])
def test_the_plain_and_the_optional_reading_of_the_bench_rules(pool, deck, option):
    """A bench of 15 cards and a Building passes only when 6a lifts the cap for Buildings; a bench
    card of a faction without a Building passes unless rule 7 is applied to the bench."""
    options = ["--rules-option", option] if option else []
    result = run(pool, "check", POOL, "--deck", str(pool / "decks" / deck), *options)
    assert (result.exit_code, error_lines(result), result.stdout.strip()) == (0, [], "ok: no errors, 0 warnings")


def test_an_unknown_rules_option_is_refused(pool):
    result = run(pool, "check", POOL, "--rules-option", "bench-sideways")
    assert result.exit_code == 1
    assert error_lines(result) == [
        'data/prohibition-pool/set.yaml:1: unknown rules option "bench-sideways" '
        "(the rules of prohibition-pool offer: bench-buildings-extra, bench-factions)"]


def test_every_rule_of_the_rules_file_is_broken_by_some_deck():
    rules = YAML(typ="safe").load((ROOT / "data" / "prohibition" / "rules.yaml").read_text(encoding="utf-8"))
    deck_rules = {r["name"] for r in rules["rules"] if r.get("scope") != "set"}
    broken = {re.search(r'rule "([^"]+)"', line).group(1) for line in BROKEN_DECKS.values()}
    assert broken == deck_rules


def test_all_violations_at_once_in_the_order_of_the_rules_file(pool):
    deck = pool / "decks" / "many.yaml"
    text = (pool / "decks" / "rule1-two-leaders.yaml").read_text(encoding="utf-8")
    text = text.replace("Personnel One: 3", "Personnel One: 4") + "  Leader One: 1\n"
    deck.write_text(text, encoding="utf-8")
    result = run(pool, "check", POOL, "--deck", str(deck))
    assert result.exit_code == 1
    assert error_lines(result) == [
        f'decks/many.yaml:6: card "Leader One": rule "{RULE_1}": 2 copies, expected at most 1',
        f'decks/many.yaml:13: card "Personnel One": rule "{RULE_2}": 4 copies, expected at most 3',
        f'decks/many.yaml:23: card "Tech One": rule "{RULE_4}": 44 cards, expected exactly 43',
        f'decks/many.yaml:31: card "Leader One": rule "{RULE_6_ONE}": 3 copies in main and bench together '
        "(2 in main, 1 in bench), expected at most 1",
    ]
    assert "cardgen: 4 errors, 0 warnings" in result.stderr


def test_unknown_card_and_malformed_deck(pool):
    unknown = run(pool, "check", POOL, "--deck", str(pool / "decks" / "unknown-card.yaml"))
    assert unknown.exit_code == 1
    assert error_lines(unknown) == ['decks/unknown-card.yaml:10: unknown card "Leader Seven" (did you mean "Leader Five"?)']
    broken = run(pool, "check", POOL, "--deck", str(pool / "decks" / "malformed.yaml"))
    assert broken.exit_code == 1
    assert error_lines(broken) == [
        'decks/malformed.yaml:3: card "Leader One": copies must be a whole number of at least 1, got "one"',
        'decks/malformed.yaml:4: card "Leader Two": copies must be a whole number of at least 1, got "0"',
        'decks/malformed.yaml:5: "bench" must map card names to copies, such as "Blue Claws HQ: 1"',
    ]


def test_the_set_check_runs_only_the_set_rules(pool):
    # The pool has a card of a faction with no Building; the deck rules do not apply to a set.
    result = run(pool, "check", POOL)
    assert result.exit_code == 1
    assert error_lines(result) == [
        'data/prohibition-pool/cards.yaml:21: card "Lone Fixer": rule "every faction has a Building": '
        'faction "Lone Outfit" is not the faction of a card where type is Building, nor one of General, Mercenaries']


def test_check_exit_code_in_a_real_process(pool):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "cardgen", "check", POOL, "--deck", "decks/rule2-four-copies.yaml"],
                            cwd=pool, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == BROKEN_DECKS["rule2-four-copies.yaml"]


# --- printing a deck -------------------------------------------------------------------------

def deck_counts(path: Path) -> Counter:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    counts: Counter = Counter()
    for part in ("main", "bench"):
        counts.update(data.get(part) or {})
    return counts


def test_build_deck_prints_exactly_the_decks_cards_fronts_and_backs(pool, tmp_path):
    deck = pool / "decks" / "valid.yaml"
    result = run(pool, "build", POOL, "--deck", str(deck), "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert not (tmp_path / f"{POOL}.json").exists()  # a deck never writes over the full build's files
    manifest = load_manifest(tmp_path / f"{POOL}.deck-valid.json")
    fronts = Counter(f["card"] for f in manifest["faces"] if f["side"] == "front")
    backs = Counter(f["card"] for f in manifest["faces"] if f["side"] == "back")
    expected = deck_counts(deck)
    assert sum(expected.values()) == 54  # 43 in the deck, 11 on the bench
    assert fronts == expected and backs == expected
    copies = {(f["card"], f["copy"]) for f in manifest["faces"] if f["side"] == "front"}
    assert copies == {(name, n) for name, count in expected.items() for n in range(1, count + 1)}
    pages = [squash(text) for text in page_texts(tmp_path / f"{POOL}.deck-valid.pdf")]
    assert len(pages) == manifest["pages"]
    for face in manifest["faces"]:
        if face["side"] == "front":
            assert has_words(pages[face["page"] - 1], face["card"]), face
    printed = squash("".join(pages))
    assert "LoneFixer" not in printed and "LeaderSix" in printed  # only the deck's cards


def test_build_refuses_a_deck_that_breaks_a_rule(pool, tmp_path):
    result = run(pool, "build", POOL, "--deck", str(pool / "decks" / "rule5-four-leaders.yaml"), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert error_lines(result) == [BROKEN_DECKS["rule5-four-leaders.yaml"]]
    assert not (tmp_path / f"{POOL}.pdf").exists()
    assert not (tmp_path / f"{POOL}.deck-rule5-four-leaders.pdf").exists()


# --- every card type has its layout ----------------------------------------------------------

def test_every_card_type_prints_its_legend(pool, tmp_path):
    deck = pool / "decks" / "valid.yaml"
    run(pool, "build", POOL, "--deck", str(deck), "--out", str(tmp_path))
    manifest = load_manifest(tmp_path / f"{POOL}.deck-valid.json")
    first = {}
    for face in manifest["faces"]:
        if face["side"] == "front":
            first.setdefault(face["type"], face)
    assert set(first) == {"Building", "Leader", "Personnel", "Action", "Event", "Major Event", "Tech", "Advanced Tech"}
    for type_name, face in first.items():
        words = face_text(tmp_path / f"{POOL}.deck-valid.pdf", face)
        data = face["data"]
        assert has_words(words, data["name"]) and squash(type_name.upper()) in words, type_name
        assert squash(str(data["effect"])) in words and squash(data["faction"]) in words
        assert squash(data["subtype"]) in words
        if type_name == "Building":
            assert "DEFENSE" in words and "LOYALTY" in words
            assert str(data["defense"]) in words and str(data["loyalty"]) in words
        else:
            assert "COST" in words and str(data["cost"]) in words
        if type_name in ("Leader", "Personnel"):
            assert "HEALTH" in words and str(data["health"]) in words
        if type_name == "Tech":
            assert "SELLPRICE" in words and str(data["sell"]) in words
        if type_name == "Major Event":
            assert "ONCEPERGAME" in words
