"""The two Prisoners sets: `prisoners` (rules 1.1, with Prisons) and `prisoners-warp` (the
earlier Star Disc edition). Counts come from the manifest and the PDF cardgen writes; texts are
compared with the seeds (copied into tests/fixtures/seeds, freeware with its notice kept).
"""
from __future__ import annotations

import csv
import functools
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import cardgen
from cardgen.write.manifest import load_manifest

from pdftext import face_texts, page_texts
from projects import run_cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "seeds"
SEEDS = {"prisoners": FIXTURES / "cosmic-encounter-prisoners-v1.1.txt",
         "prisoners-warp": FIXTURES / "cosmic-encounter-prisoners-warp-v1.0.txt"}
RULINGS = ["General Amnesty", "Jailbreak", "Prisoner Swap", "Take Prisoners", "Victory or Death",
           "Commando Raid", "Raid on Entebbe", "Prison Deaths"]
SHORT = ["Amnesty", "Jailbreak", "Swap", "Prisoners", "VoD", "Commando", "Entebbe", "Deaths"]
# The counts, per edition, in the order of RULINGS.
COUNTS = {"prisoners": [2, 2, 1, 2, 2, 1, 1, 1], "prisoners-warp": [2, 2, 1, 1, 1, 1, 1, 1]}
HOLDER = {"prisoners": "prison", "prisoners-warp": "star-disc"}
EDITIONS = list(COUNTS)


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def seed_text(name: str) -> str:
    return norm(SEEDS[name].read_text(encoding="utf-8"))


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def rule_line(edition: str, name: str) -> int:
    """The line of the rule named ``name`` in the edition's rules file (its "- rule:" line)."""
    lines = (ROOT / "data" / edition / "rules.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() in (f"name: {name}", f'name: "{name}"'))
    return next(i for i in range(at, -1, -1) if lines[i].lstrip().startswith("- rule:")) + 1


def powers_warning(edition: str) -> list[str]:
    """The one warning of `cardgen check prisoners`: no power cards ship (none in the Warp set)."""
    if edition != "prisoners":
        return []
    return [f'data/prisoners/rules.yaml:{rule_line("prisoners", "Prisoner Powers")}: warning: rule "Prisoner Powers": '
            'the set has 0 power cards: the Prisoner Powers are in the separate file "pr-powers" (ce-conv format), '
            "which does not ship; import it with `cardgen import ce-conv pr-powers --set prisoners`"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """Both editions copied into a temporary project and built there once, the cache on: the
    build is cold (the project has no cache yet) and writes nothing into the repository. The
    tests that edit an edition check a copy of this project (``_copy``), whose cache then holds
    the faces this same code drew: the check lays out only the faces an edit changed."""
    root = tmp_path_factory.mktemp("prisoners") / "proj"
    for edition in EDITIONS:
        shutil.copytree(ROOT / "data" / edition, root / "data" / edition)
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "fonts", root / "fonts")
    result = cardgen.build(EDITIONS, root=root, out=root / "output")
    assert [(s.name, s.reused) for s in result.sets] == [(name, 0) for name in EDITIONS]  # cold: every face laid out
    return root


@pytest.fixture(scope="module")
def built(project) -> dict[str, dict]:
    """Both sets as built: manifest, per-page text of the PDF, and the page sizes."""
    out = project / "output"
    books = {}
    for name in EDITIONS:
        manifest = load_manifest(out / f"{name}.json")
        pages = page_texts(out / f"{name}.pdf")
        faces = [norm(text) for text in face_texts(out / f"{name}.pdf", manifest["faces"])]
        books[name] = {"manifest": manifest, "pages": pages, "text": norm(" ".join(pages)),
                       "faces": list(zip(manifest["faces"], faces))}
    return books


def texts_of(book: dict, type_name: str) -> str:
    return " | ".join(text for face, text in book["faces"] if face["type"] == type_name and face["side"] == "front")


def fronts(book: dict, type_name: str) -> Counter:
    return Counter(f["card"] for f in book["manifest"]["faces"] if f["type"] == type_name and f["side"] == "front")


@pytest.mark.parametrize("edition", EDITIONS)
def test_ruling_counts_in_the_manifest(built, edition):
    book = built[edition]
    assert fronts(book, "ruling") == Counter(dict(zip(RULINGS, COUNTS[edition])))
    # Rulings are shuffled into the deck: every copy has the main deck's back.
    backs = Counter(f["card"] for f in book["manifest"]["faces"] if f["type"] == "ruling" and f["side"] == "back")
    assert backs == fronts(book, "ruling")
    copies = sorted(f["copy"] for f in book["manifest"]["faces"]
                    if f["card"] == "General Amnesty" and f["side"] == "front")
    assert copies == [1, 2]


@pytest.mark.parametrize("edition", EDITIONS)
def test_ruling_counts_in_the_pdf(built, edition):
    # The type line "PRISONER RULING" is printed once on every Ruling (the reference page says
    # "PRISONER RULINGS:", which the word boundary leaves out).
    text = built[edition]["text"]
    assert len(re.findall(r"PRISONER RULING\b(?!S)", text)) == sum(COUNTS[edition])
    for name, count in zip(RULINGS, COUNTS[edition]):
        assert len(re.findall(rf"\b{name.upper()}\b", text)) == count, name


def test_capture_cards_one_per_colour_and_one_wild(built):
    book = built["prisoners"]
    colours = [c["name"] for c in load_yaml(ROOT / "data/prisoners/set.yaml")["variables"]["colors"]]
    assert len(colours) == 6
    expected = Counter({f"Capture Challenge ({c})": 1 for c in colours})
    expected["Wild Capture Challenge"] = 1
    assert fronts(book, "capture") == expected
    backs = [f for f in book["manifest"]["faces"] if f["type"] == "capture" and f["side"] == "back"]
    assert len(backs) == 7
    for colour in colours:
        assert colour.upper() in book["text"]  # the colour is printed on its card
    assert "WILD" in book["text"]


def test_warp_capture_cards_one_per_player_without_colour(built):
    book = built["prisoners-warp"]
    players = [c["name"] for c in load_yaml(ROOT / "data/prisoners-warp/set.yaml")["variables"]["colors"]]
    assert fronts(book, "capture") == Counter({f"Capture Challenge ({p} player)": 1 for p in players})
    pages = {f["page"] for f in book["manifest"]["faces"] if f["type"] == "capture" and f["side"] == "front"}
    for page in pages:  # "a second card is then flipped to determine the destiny color"
        page_text = book["pages"][page - 1]
        assert "second card is then flipped" in norm(page_text)
        assert not any(p.upper() in page_text for p in players)


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_holder_per_colour_at_least_a_quarter_letter_page(built, edition):
    book = built[edition]
    colours = [c["name"] for c in load_yaml(ROOT / f"data/{edition}/set.yaml")["variables"]["colors"]]
    faces = [f for f in book["manifest"]["faces"] if f["type"] == HOLDER[edition]]
    assert sorted(f["card"].split("(")[1].rstrip(")") for f in faces) == sorted(colours)
    quarter_letter = 215.9 * 279.4 / 4
    for face in faces:
        area = face["w_mm"] * face["h_mm"] * (3.14159265 / 4 if face["shape"] == "circle" else 1)
        assert area >= quarter_letter


def test_wording_differs_between_editions(built):
    v11, warp = texts_of(built["prisoners"], "ruling"), texts_of(built["prisoners-warp"], "ruling")
    only_v11 = ["You may play Amnesty only between challenges.",
                "You may play Jailbreak only between challenges.",
                'Play "Prisoners" in any challenge anytime before cards are revealed.',
                'Play "VoD" in any capture challenge anytime before cards are revealed.',
                "All tokens in the losing main player's Prison that belong to the winning main player"]
    only_warp = ["You may play Amnesty only at the start of your own challenge, before you raise or rescue a token.",
                 "You may play Jailbreak only at the start of your own challenge, before you raise or rescue a token.",
                 'Play "Prisoners" in any challenge anytime before the outcome is determined.',
                 'Play "VoD" in any capture challenge anytime before the outcome is determined.',
                 "The winning player and each his allies receive all of their tokens held prisoner"]
    for phrase in only_v11:
        assert phrase in v11 and phrase not in warp, phrase
    for phrase in only_warp:
        assert phrase in warp and phrase not in v11, phrase


@pytest.mark.parametrize("edition", EDITIONS)
def test_rulings_say_they_are_not_edicts(built, edition):
    sentence = "but they are not Edicts"
    pages = {f["page"] for f in built[edition]["manifest"]["faces"] if f["type"] == "ruling" and f["side"] == "front"}
    for page in pages:
        assert sentence in norm(built[edition]["pages"][page - 1])


@functools.cache  # read once: a test asks for them once a text
def _printed_texts(edition: str) -> tuple[str, ...]:
    """Every card text of the edition's data, markup and layout breaks removed."""
    folder = ROOT / "data" / edition
    texts = []
    for row in load_yaml(folder / "rulings.yaml"):
        texts += [row["when"], row["effect"]]
    for row in load_yaml(folder / "destiny.yaml"):
        texts.append(row["text"])
    for row in load_yaml(folder / ("prisons.yaml" if edition == "prisoners" else "discs.yaml")):
        texts += [row["reminder"]] + ([row["note"].replace("**", "")] if "note" in row else [])
    for row in load_yaml(folder / "reference.yaml"):
        for paragraph in re.split(r"\n\s*\n|\n• |\n(?=\d )", row["text"]):
            paragraph = paragraph.replace("**", "")  # bold headings are the seed's own
            texts.append(paragraph.replace("\n• ", " ").lstrip("• "))
    with (folder / "clarifications.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            texts.append(f'{row["power"]} [{row["tag"]}] -- {row["text"]}')
    variables = load_yaml(folder / "set.yaml")["variables"]
    texts += [variables["ruling_note"], variables["ruling_play"], variables["notice"], variables["clarification_key"]]
    return tuple(norm(t) for t in texts if norm(t))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_text_is_word_for_word_from_its_own_seed(edition):
    seed = seed_text(edition)
    for text in _printed_texts(edition):
        assert text in seed, text


def test_edition_texts_do_not_leak_into_each_other():
    v11, warp = seed_text("prisoners"), seed_text("prisoners-warp")
    assert [t for t in _printed_texts("prisoners-warp") if t not in v11]  # the Warp wording exists
    for text in _printed_texts("prisoners-warp"):
        assert text in warp
        if text not in v11:
            assert text not in _printed_texts("prisoners")
    for text in _printed_texts("prisoners"):
        assert text in v11


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_clarification_of_the_seed_is_printed(built, edition):
    seed = seed_text(edition)
    start = seed.index("The following additional clarifications for Powers are made;")
    entries = re.findall(r"([A-Z][A-Z-]+) \[(E|M|EM)\] -- ", seed[start:])
    assert len(entries) == 62
    faces = fronts(built[edition], "clarification")
    kinds = ["Power"] * 34 + ["Flare"] * 28
    assert Counter(f"{kind}: {power} [{tag}]" for kind, (power, tag) in zip(kinds, entries)) == faces
    text = texts_of(built[edition], "clarification")
    assert "Tokens taken from Warp by Super Zombie are imprisoned in a capture challenge if the side" in text
    if edition == "prisoners-warp":  # the seed's last clarification breaks off: printed as it is
        assert "if the side loses" not in text
        assert "breaks off" not in built[edition]["text"]  # and no editor's note says so on a card


def test_the_warp_reference_has_none_of_the_v11_headings(built):
    """The Warp rules have no SETUP, DEALS ... headings: its pages set none in their text, and the
    page titles the layout needs are the editor's, marked `added` in the data."""
    text = texts_of(built["prisoners-warp"], "reference")
    for heading in ("SETUP:", "CAPTURE CHALLENGE:", "PRISONER EXCHANGE:", "DEALS:", "TREATMENT OF PRISONERS",
                    "RESCUING PRISONERS", "PRISONER RULINGS:", "PRISONS:"):
        assert heading not in text, heading
    v11 = texts_of(built["prisoners"], "reference")
    for heading in ("SETUP:", "CAPTURE CHALLENGE:", "PRISONER EXCHANGE:", "DEALS:", "TREATMENT OF PRISONERS:",
                    "RESCUING PRISONERS:", "PRISONER RULINGS --", "There's a total of eighteen powers"):
        assert heading in v11, heading
    pages = load_yaml(ROOT / "data/prisoners-warp/reference.yaml")
    assert [(page["name"], page.get("added")) for page in pages] == [
        ("The WARP Prisoners", None), ("Capture Challenge", ["name"]), ("Prisoner Exchange", ["name"]),
        ("Exchange Proposals", ["name"]), ("Deals and Prisoners", ["name"]), ("Prisoner Rulings", ["name"]),
        ("USE OF EXISTING POWERS AND FLARES WITH PRISONERS", None)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_shipped_sets_pass_their_check(edition):
    # every face laid out, whatever cache the repository holds
    assert [str(p) for p in cardgen.check([edition], root=ROOT, cache=False)] == powers_warning(edition)


def _copy(edition: str, tmp_path: Path, project: Path) -> Path:
    """The edition in a project of its own, with the faces the module's build drew (``project``)."""
    root = tmp_path / "proj"
    shutil.copytree(project / "data" / edition, root / "data" / edition)
    shutil.copytree(project / "templates", root / "templates")
    shutil.copytree(project / "fonts", root / "fonts")
    (root / ".cardgen-cache").mkdir()
    shutil.copy2(project / ".cardgen-cache" / f"faces-{edition}.bin", root / ".cardgen-cache")
    return root


def _messages(root: Path, edition: str) -> list[str]:
    return [str(p) for p in cardgen.check([edition], root=root)]


def _append(path: Path, rows: str) -> int:
    """Add YAML rows at the end of a card file; return the line the first one starts on."""
    start = len(path.read_text(encoding="utf-8").splitlines()) + 1
    with path.open("a", encoding="utf-8") as f:
        f.write(rows)
    return start


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_removed_ruling_fails_the_check(tmp_path, edition, project):
    root = _copy(edition, tmp_path, project)
    rulings = root / "data" / edition / "rulings.yaml"
    _edit(rulings, "- name: Jailbreak\n  short: Jailbreak\n  count: 2", "- name: Jailbreak\n  short: Jailbreak\n  count: 1")
    total = sum(COUNTS[edition])
    assert _messages(root, edition) == [
        f'data/{edition}/rules.yaml:{rule_line(edition, "Jailbreak copies")}: rule "Jailbreak copies": 1 card where type is ruling and name is Jailbreak, expected exactly 2',
        f'data/{edition}/rules.yaml:{rule_line(edition, "Prisoner Rulings")}: rule "Prisoner Rulings": {total - 1} cards where type is ruling, expected exactly {total}',
    ] + powers_warning(edition)


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_extra_ruling_fails_the_check(tmp_path, edition, project):
    root = _copy(edition, tmp_path, project)
    rulings = root / "data" / edition / "rulings.yaml"
    lines = rulings.read_text(encoding="utf-8").splitlines()
    deaths = next(i for i, l in enumerate(lines) if l == "- name: Prison Deaths") + 1
    _edit(rulings, "- name: Prison Deaths\n  short: Deaths\n  count: 1", "- name: Prison Deaths\n  short: Deaths\n  count: 2")
    total = sum(COUNTS[edition])
    assert _messages(root, edition) == [
        f'data/{edition}/rulings.yaml:{deaths}: card "Prison Deaths": rule "Prison Deaths copies": 2 cards where type is ruling and name is Prison Deaths, expected exactly 1',
        f'data/{edition}/rulings.yaml:{deaths}: card "Prison Deaths": rule "Prisoner Rulings": {total + 1} cards where type is ruling, expected exactly {total}',
    ] + powers_warning(edition)


def test_an_unknown_ruling_fails_with_its_line(tmp_path, project):
    root = _copy("prisoners", tmp_path, project)
    rulings = root / "data" / "prisoners" / "rulings.yaml"
    start = _append(rulings, "- name: Mass Pardon\n  short: Pardon\n  count: 1\n  when: unknown\n  effect: unknown\n")
    assert _messages(root, "prisoners") == [
        f'data/prisoners/rulings.yaml:{start}: card "Mass Pardon": rule "Prisoner Rulings": 13 cards where type is ruling, expected exactly 12',
        f'data/prisoners/rulings.yaml:{start}: card "Mass Pardon": rule "Prisoner Ruling names": name "Mass Pardon" is not one of {", ".join(RULINGS)}',
        f'data/prisoners/rulings.yaml:{start + 1}: card "Mass Pardon": rule "Prisoner Ruling short names": short "Pardon" is not one of {", ".join(SHORT)}',
    ] + powers_warning("prisoners")


def test_capture_cards_per_colour_and_wild_are_checked(tmp_path, project):
    root = _copy("prisoners", tmp_path, project)
    destiny = root / "data" / "prisoners" / "destiny.yaml"
    start = _append(destiny, "- name: Wild Capture Challenge\n  wild: true\n  title: Wild Capture Challenge\n  text: x\n"
                    "- name: Capture Challenge ({item})\n  each: colors\n  shows_color: true\n  title: Capture Challenge\n  text: x\n")
    messages = _messages(root, "prisoners")
    assert messages[0] == (f'data/prisoners/destiny.yaml:{start + 4}: card "Capture Challenge (Red)": rule "Capture Challenge '
                           'cards per colour": 2 cards where type is capture and item.name is Red, expected exactly 1')
    assert len([m for m in messages if "Capture Challenge cards per colour" in m]) == 6
    assert messages[-2:] == [(f'data/prisoners/destiny.yaml:{start}: card "Wild Capture Challenge": rule "Wild Capture Challenge '
                            'cards": 2 cards where type is capture and wild is true, expected at most 1')] + powers_warning("prisoners")


def test_a_missing_clarification_fails_the_check(tmp_path, project):
    root = _copy("prisoners-warp", tmp_path, project)
    table = root / "data" / "prisoners-warp" / "clarifications.csv"
    _edit(table, "Flare: LOSER [M],LOSER,M,Flare,\"When Wild Loser is used, each main player imprisons all tokens lost by the other side.\",name\n", "")
    assert _messages(root, "prisoners-warp") == [
        f'data/prisoners-warp/rules.yaml:{rule_line("prisoners-warp", "clarifications")}: rule "clarifications": no card where type is clarification has name "Flare: LOSER [M]"',
    ]


def test_fewer_players_means_fewer_warp_capture_cards(tmp_path, project):
    root = _copy("prisoners-warp", tmp_path, project)
    _edit(root / "data/prisoners-warp/set.yaml", '    - {name: Orange, print: "#f07d12"}\n', "")
    _edit(root / "data/prisoners-warp/set.yaml", '    - {name: Purple, print: "#7b3fa6"}\n', "")
    assert _messages(root, "prisoners-warp") == []
    card_set = cardgen.load_set("prisoners-warp", root=root)
    assert sum(c.count for c in card_set.cards if c.type == "capture") == 4
    assert sum(c.count for c in card_set.cards if c.type == "star-disc") == 4


def test_check_command_prints_every_failure_and_fails(tmp_path, project):
    # in this process: test_prohibition runs `cardgen check` in a real one, for its exit code
    root = _copy("prisoners", tmp_path, project)
    _edit(root / "data/prisoners/rulings.yaml", "- name: Take Prisoners\n  short: Prisoners\n  count: 2",
          "- name: Take Prisoners\n  short: Prisoners\n  count: 1")
    _edit(root / "data/prisoners/rulings.yaml", "- name: Prison Deaths\n  short: Deaths\n  count: 1",
          "- name: Prison Deaths\n  short: Deaths\n  count: 0")
    done = run_cli(root, "check", "prisoners")
    assert done.returncode == 1
    lines = [l for l in done.stderr.splitlines() if l.startswith("data/")]
    assert lines == [
        f'data/prisoners/rules.yaml:{rule_line("prisoners", "Take Prisoners copies")}: rule "Take Prisoners copies": 1 card where type is ruling and name is Take Prisoners, expected exactly 2',
        f'data/prisoners/rules.yaml:{rule_line("prisoners", "Prison Deaths copies")}: rule "Prison Deaths copies": 0 cards where type is ruling and name is Prison Deaths, expected exactly 1',
        f'data/prisoners/rules.yaml:{rule_line("prisoners", "Prisoner Rulings")}: rule "Prisoner Rulings": 10 cards where type is ruling, expected exactly 12',
    ] + powers_warning("prisoners")
