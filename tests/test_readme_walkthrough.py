"""The README's walkthrough, run as written: its shell blocks are run in order by bash in an
empty folder, and each file block (```yaml file=PATH) is written where it says, at that point.
Then the 40 printed cards are read back from the PDF. The README's ce-conv example is the
format the importer reads."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.importers.ceconv import parse_ceconv
from cardgen.write.manifest import load_manifest
from projects import REPO
from pdftext import page_texts

README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\n", re.S | re.M)


def section(title: str) -> str:
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^##? |\Z)", README, re.S | re.M)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def walkthrough_script() -> str:
    """The walkthrough as one bash script: shell blocks as they are, file blocks as heredocs."""
    steps = ["set -euo pipefail"]
    for language, info, body in BLOCK.findall(section("Walkthrough: a 40-card game, printed")):
        target = re.search(r"\bfile=(\S+)", info)
        if target:
            assert "CARDGEN_README_EOF" not in body
            steps.append(f"cat > {target.group(1)} <<'CARDGEN_README_EOF'\n{body}CARDGEN_README_EOF")
        elif language == "sh":
            steps.append(body)
    return "\n".join(steps) + "\n"


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walkthrough")
    cardgen = shutil.which("cardgen", path=str(Path(sys.executable).parent))
    assert cardgen, "the cardgen command is installed beside this Python"
    env = {**os.environ, "PATH": f"{Path(cardgen).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", walkthrough_script()], cwd=folder, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "harbor", done


def test_the_walkthrough_runs_as_written(walked):
    project, done = walked
    lines = done.stdout.splitlines()
    assert lines[0] == 'made harbor/ with the set "harbor" (poker cards, a4 paper):'
    assert lines[-4:-2] == ["ok: no errors, 0 warnings", "ok: no errors, 0 warnings"]
    assert lines[-2].startswith("built 1 set, 40 cards, 10 pages in ")
    assert lines[-1].startswith("built 1 set, 14 cards, 4 pages in ")


def test_forty_cards_of_three_types_and_two_sizes_are_printed_on_a4(walked):
    project, _ = walked
    manifest = load_manifest(project / "output/harbor.json")
    fronts = [face for face in manifest["faces"] if face["side"] == "front"]
    assert len(fronts) == 40
    types = {}
    for face in fronts:
        types[face["type"]] = types.get(face["type"], 0) + 1
    assert types == {"action": 28, "captain": 4, "port": 8}
    reader = PdfReader(project / "output/harbor.pdf")
    assert len(reader.pages) == 10
    for page in reader.pages:
        assert sorted((round(float(page.mediabox.width)), round(float(page.mediabox.height)))) == [595, 842]
    text = " ".join(" ".join(page_texts(project / "output/harbor.pdf")).split())
    for name in ("Load Cargo", "Captain Ada", "Captain Dov", "Northwick", "Farpoint", "Storm"):
        assert name in text
    sizes = {face["type"]: (face["w_mm"], face["h_mm"]) for face in fronts}
    assert sizes == {"action": (63.5, 88.9), "captain": (63.5, 88.9), "port": (44.0, 68.0)}
    # each size on its own sheets: no page holds a port and a poker card
    pages = {}
    for face in fronts:
        pages.setdefault(face["page"], set()).add(face["type"] == "port")
    assert all(len(kinds) == 1 for kinds in pages.values())
    art = {face["card"]: face["data"]["art"] for face in fronts if face["type"] == "captain"}
    assert art == {"Captain Ada": "sea.svg", "Captain Bram": "mountain.svg", "Captain Cora": "forest.svg",
                   "Captain Dov": "castle.svg"}


def test_the_deck_list_prints_alone(walked):
    project, _ = walked
    manifest = load_manifest(project / "output/harbor.deck-first-game.json")
    fronts = [face for face in manifest["faces"] if face["side"] == "front"]
    assert len(fronts) == 14
    assert sum(1 for face in fronts if face["type"] == "captain") == 1


def test_the_copy_limit_message_is_the_one_the_readme_shows(walked, monkeypatch):
    project, _ = walked
    path = project / "data/harbor/actions.csv"
    original = path.read_text()
    path.write_text(original.replace("Storm,4,", "Storm,5,"))
    monkeypatch.chdir(project)
    try:
        done = CliRunner().invoke(main, ["check"], catch_exceptions=False)  # `cardgen check`, in this process
    finally:
        path.write_text(original)
    shown = re.search(r"```text\n(.*?)```", section("Walkthrough: a 40-card game, printed"), re.S).group(1)
    assert done.exit_code == 1
    assert done.stderr.splitlines()[:-1] == shown.splitlines()


def test_the_readme_ce_conv_example_is_read_by_the_importer(tmp_path):
    example = re.search(r"```text\n(.*?)```", section("The ce-conv format"), re.S).group(1)
    path = tmp_path / "powers.txt"
    path.write_text(example)
    (power,) = parse_ceconv(path)
    assert (power["name"], power["short"], power["use"], power["origin_name"], power["restrictions"]) == (
        "WARDEN", "GUARDS THE PRISON", "optional", "Prisoners", "P2")
    assert power["text"].endswith("A blank line inside a text starts a new paragraph.")
    assert "\n\n" in power["text"]
    assert (power["super"], power["wild1"]) == ("You may guard two Prisons.", None)


def test_the_first_steps_run_as_written(tmp_path):
    own = section("Your own game")
    first = BLOCK.search(own)
    assert first.group(1) == "sh"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + first.group(3)], cwd=tmp_path, capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("built 1 set, 10 cards, 4 pages in ")
    manifest = load_manifest(tmp_path / "mygame/output/mygame.json")
    kinds = [face["type"] for face in manifest["faces"] if face["side"] == "front"]
    assert (kinds.count("action"), kinds.count("character")) == (8, 2)  # as the README says
    for file in re.findall(r"^\| `([^`]+)` \|", own, re.M):
        assert (tmp_path / "mygame" / file).exists(), file


def new_project(folder: Path, monkeypatch, *args: str) -> Path:
    """`cardgen new mygame ARGS`, in this process, inside ``folder``; the working folder is then
    the project, as the README's steps leave it (`cd mygame`)."""
    monkeypatch.chdir(folder)
    made = CliRunner().invoke(main, ["new", "mygame", *args], catch_exceptions=False)
    assert made.exit_code == 0, made.output
    monkeypatch.chdir(folder / "mygame")
    return folder / "mygame"


def cardgen_here(*args: str):
    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return done


def test_the_sheet_template_example_is_used_as_the_readme_says(tmp_path, monkeypatch):
    project = new_project(tmp_path, monkeypatch)
    example = re.search(r"- A set can bring its own sheet template.*?```yaml\n(.*?)```", README, re.S).group(1)
    (project / "data/mygame/sheets").mkdir()
    (project / "data/mygame/sheets/sprue.yaml").write_text(example)
    # named from the working folder on the command line
    done = cardgen_here("build", "--no-cache", "--sheet", "data/mygame/sheets/sprue.yaml")
    assert done.exit_code == 0, done.output
    on_the_command_line = load_manifest(project / "output/mygame.json")["faces"]
    slots = {(face["x_mm"], face["w_mm"], face["h_mm"]) for face in on_the_command_line if face["side"] == "front"}
    assert slots == {(10.0, 63.5, 88.9)}  # the one rectangular slot of the example, 10 mm from the left
    # named from the set's folder in set.yaml
    set_yaml = project / "data/mygame/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("sheet:\n", "sheet:\n  template: sheets/sprue.yaml\n"))
    done = cardgen_here("build", "--no-cache")
    assert done.exit_code == 0, done.output
    assert load_manifest(project / "output/mygame.json")["faces"] == on_the_command_line
    # a bare name is no file of the set: the README says so
    set_yaml.write_text(set_yaml.read_text().replace("template: sheets/sprue.yaml", "template: sprue"))
    done = cardgen_here("build", "--no-cache")
    assert done.exit_code == 1 and 'unknown sheet template "sprue"' in done.stderr


def test_how_to_add_a_card_as_written(tmp_path, monkeypatch):
    project = new_project(tmp_path, monkeypatch)
    row = re.search(r"```csv\n(.*?)```", section("How to add a card"), re.S).group(1)
    with open(project / "data/mygame/actions.csv", "a", encoding="utf-8") as cards:
        cards.write(row)
    checked = cardgen_here("check", "mygame")
    assert (checked.exit_code, checked.stdout) == (0, "ok: no errors, 0 warnings\n"), checked.output
    built = cardgen_here("build", "mygame", "--no-cache")
    assert built.exit_code == 0 and built.stdout.startswith("built 1 set, 12 cards, "), built.output
    assert "Scout" in {face["card"] for face in load_manifest(project / "output/mygame.json")["faces"]}


def test_the_python_example_runs_as_written(tmp_path, monkeypatch):
    """The README's Python lines, run in a copy of the two shipped sets they name, with the deck
    list they read from the working folder: the Rules section's example."""
    for folder in ("data/death-mesa", "data/prohibition", "templates/death-mesa", "templates/prohibition"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    rules = section("Rules: `data/<set>/rules.yaml`")
    deck_list = re.search(r"A deck list is YAML.*?```yaml\n(.*?)```", rules, re.S).group(1)
    (tmp_path / "my-deck.yaml").write_text(deck_list.replace("  Some Other Card: 2\n", "  Falsified Ledger: 1\n"))
    example = re.search(r"The same from Python:\n\n```python\n(.*?)```", README, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    exec(compile(example, "README.md", "exec"), names)
    assert len(names["card_set"].cards) == 35
    (built,) = names["result"].sets
    assert (built.name, built.pdf, built.pages) == ("death-mesa", tmp_path / "output/death-mesa.pdf", 8)
    assert [problem.severity for problem in names["problems"]] == ["warning"]
    assert any("exactly 3 Buildings" in problem.message for problem in names["deck"])  # a deck of 3 cards


RULES_SET = """name: mygame
title: Rules
version: "1"
size: poker
defaults: {suit: spades, rank: "1", faction: General}
variables:
  colors: [{name: Red}, {name: Blue}]
types:
  ruling: {template: mygame/back.xml.j2}
  capture: {template: mygame/back.xml.j2}
  Leader: {template: mygame/back.xml.j2}
  Building: {template: mygame/back.xml.j2}
cards: [cards.yaml]
rules: [rules.yaml]
"""
RULES_CARDS = """- {name: General Amnesty, type: ruling, count: 2, suit: hearts}
- {name: Capture, type: capture, each: colors, rank: "3"}
- {name: Bad Moon Rising, type: Leader, rank: "4"}
- {name: Warn, type: Leader, rank: "5"}
- {name: Third, type: Leader, rank: "6"}
- {name: Fourth, type: Leader, rank: "7"}
- {name: Fifth, type: Leader, rank: "8"}
- {name: Blue Claws HQ, type: Building, suit: clubs, faction: Blue Claws}
"""


def test_the_rules_example_is_a_rules_file_cardgen_reads(tmp_path, monkeypatch):
    """Every rule of the README's rules.yaml, on a set with the types and fields it names: the
    one rule these cards break is `unique`: the two copies of General Amnesty share a suit and rank,
    as the cards an `each` row makes do."""
    project = new_project(tmp_path, monkeypatch)
    folder = project / "data/mygame"
    for name in ("actions.csv", "characters.yaml", "decks/starter.yaml"):
        (folder / name).unlink()
    (folder / "set.yaml").write_text(RULES_SET)
    (folder / "cards.yaml").write_text(RULES_CARDS)
    example = re.search(r"```yaml\n(.*?)```", section("Rules: `data/<set>/rules.yaml`"), re.S).group(1)
    (folder / "rules.yaml").write_text(example)
    done = cardgen_here("check", "--no-cache")
    assert done.exit_code == 1
    assert done.stderr.splitlines() == [
        'data/mygame/cards.yaml:1: card "General Amnesty": rule "unique at data/mygame/rules.yaml:18": '
        "2 copies share suit, rank (hearts, 1)",
        'data/mygame/cards.yaml:2: card "Capture (Blue)": rule "unique at data/mygame/rules.yaml:18": '
        'suit, rank (spades, 3) already on card "Capture (Red)" (data/mygame/cards.yaml:2)',
        "cardgen: 2 errors, 0 warnings"]


def test_how_to_add_a_card_type_as_written(tmp_path, monkeypatch):
    """The README's event type, merged into the new project's set.yaml as it says (its colour
    beside the others, its type beside the others), and its card appended to characters.yaml."""
    import yaml

    project = new_project(tmp_path, monkeypatch)
    addition, card = (body for language, _, body in BLOCK.findall(section("How to add a card type")))
    added = yaml.safe_load(addition)
    set_yaml = project / "data/mygame/set.yaml"
    text = set_yaml.read_text()
    for name, colour in added["variables"]["colors"].items():
        if f"    {name}:" not in text:
            text = text.replace("  colors:\n", f'  colors:\n    {name}: "{colour}"\n', 1)
    lines = "".join(f"  {line}\n" for line in yaml.safe_dump(added["types"], sort_keys=False).splitlines())
    text = text.replace("types:", "types:\n" + lines.rstrip("\n"), 1)
    set_yaml.write_text(text)
    with open(project / "data/mygame/characters.yaml", "a", encoding="utf-8") as cards:
        cards.write(card)
    done = cardgen_here("build", "--no-cache")
    assert done.exit_code == 0 and done.stdout.startswith("built 1 set, 11 cards, "), done.output
    faces = load_manifest(project / "output/mygame.json")["faces"]
    assert [face["type"] for face in faces if face["card"] == "Festival"] == ["event", "event"]  # front and back


def test_the_print_shop_files_of_a_new_project_are_named_as_the_readme_says(tmp_path, monkeypatch):
    """tgc: one PNG per distinct front, named after the card; the new project's backs take the
    colour of the card's type, so each front has its own `<card>-back.png` (a shared back would be
    back.png); upload.csv pairs them, and export.json sits beside the product folder."""
    project = new_project(tmp_path, monkeypatch)
    done = cardgen_here("export", "mygame", "--shop", "tgc", "--jobs", "1")
    assert done.exit_code == 0, done.output
    product = project / "output/tgc/mygame/poker-standard"
    rows = (product / "upload.csv").read_text().splitlines()
    assert rows[:2] == ["front,back,copies,card", "gather.png,gather-back.png,3,Gather"]
    assert "old-tomas.png,old-tomas-back.png,1,Old Tomas" in rows
    assert (project / "output/tgc/mygame/export.json").is_file()
    row = re.search(r"^\| `cardgen export .*$", README, re.M).group(0)
    assert "`back.png` when every card of the product shares one, else `<card>-back.png`" in row


def test_the_card_markup_example_draws_a_card(tmp_path, monkeypatch):
    """Layouts: the card markup example, as a new project's action layout, with an
    icons/logo.svg in the set's folder: it builds, and prints each card's name and text."""
    project = new_project(tmp_path, monkeypatch)
    markup = re.search(r"```xml\n(.*?)```", section("Card markup"), re.S).group(1)
    (project / "templates/mygame/card.xml.j2").write_text(markup)
    (project / "data/mygame/icons").mkdir()
    shutil.copy(project / "data/mygame/images/coin.svg", project / "data/mygame/icons/logo.svg")
    done = cardgen_here("build", "--no-cache")
    assert done.exit_code == 0, done.output
    text = " ".join(" ".join(page_texts(project / "output/mygame.pdf")).split())
    assert "Gather Gain 2 ." in text and "Old Tomas" in text


def test_the_rules_section_s_failure_line_is_the_one_check_prints(tmp_path, monkeypatch):
    """Rules: the failure line the README quotes, file and line included, is the one `cardgen
    check` prints when a copy of the shipped prisoners set has a third Jailbreak (the README said
    line 7, the Jailbreak row is at line 12)."""
    quoted = re.search(r"Each failure is one line, all at once:\s+`([^`]*)\.\.\.`",
                       section("Rules: `data/<set>/rules.yaml`")).group(1)
    for folder in ("data/prisoners", "templates/cosmic"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    rulings = tmp_path / "data/prisoners/rulings.yaml"
    text = rulings.read_text(encoding="utf-8")
    row = "- name: Jailbreak\n  short: Jailbreak\n  count: 2\n"
    assert row in text
    rulings.write_text(text.replace(row, row.replace("count: 2", "count: 3")), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = cardgen_here("check", "prisoners", "--no-cache")
    assert done.exit_code == 1
    assert any(line.startswith(quoted) for line in done.stderr.splitlines()), (quoted, done.stderr)


def test_the_first_build_prints_what_the_readme_says(tmp_path, monkeypatch):
    """The README's first command builds every shipped set: the warnings line and the summary it
    quotes are the ones `cardgen build` prints (but for the time)."""
    intro = " ".join(README.split("\n## ", 1)[0].split())  # the quotes wrap across lines
    warned = re.search(r"such as ``([^`]*`[^`]*`[^`]*)``", intro).group(1)
    summary = re.search(r"a summary such as `(built [^`]* in )[\d.]+ s`", intro).group(1)
    for folder in ("data", "templates"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    done = cardgen_here("build", "--no-cache")
    assert done.exit_code == 0, done.output
    assert warned in done.stderr.splitlines()
    assert done.stdout.splitlines()[-1].startswith(summary), (summary, done.stdout)


def test_prisoners_sheets_grouped_and_mixed_are_as_many_as_the_readme_says(tmp_path, monkeypatch):
    """Home printing: the figures of "Backs grouped by deck" are the shipped prisoners set's."""
    text = " ".join(section("Home printing").split())
    found = re.search(r"Prisoners' (\d+) poker fronts \((\d+) Capture Challenges with the Destiny back, (\d+) "
                      r"Rulings with the Cosmic back, (\d+) Clarifications with none\) take (\d+) sheets grouped, "
                      r"(\d+) mixed", text)
    fronts, captures, rulings, clarifications, grouped, mixed = map(int, found.groups())
    for folder in ("data/prisoners", "templates/cosmic"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    pages = {}
    for name, args in (("grouped", []), ("mixed", ["--mix-backs"])):
        done = cardgen_here("build", "prisoners", "--no-cache", "--jobs", "1", "--out", name, *args)
        assert done.exit_code == 0, done.output
        faces = [face for face in load_manifest(tmp_path / name / "prisoners.json")["faces"]
                 if face["side"] == "front" and (face["w_mm"], face["h_mm"]) == (63.5, 88.9)]
        kinds = [face["type"] for face in faces]
        assert (len(faces), kinds.count("capture"), kinds.count("ruling"), kinds.count("clarification")) == (
            fronts, captures, rulings, clarifications)
        pages[name] = len({face["page"] for face in faces})
    assert pages == {"grouped": grouped, "mixed": mixed}


def test_every_file_a_new_project_holds_has_its_row_in_the_readme(tmp_path, monkeypatch):
    """Your own game: the table of what the project holds covers every file `cardgen new` makes
    (a row names the file or a folder holding it), as well as naming only files it makes."""
    project = new_project(tmp_path, monkeypatch)
    rows = re.findall(r"^\| `([^`]+)` \|", section("Your own game"), re.M)
    made = [path.relative_to(project).as_posix() for path in project.rglob("*") if path.is_file()]
    made += [path.relative_to(project).as_posix() + "/" for path in project.rglob("*")
             if path.is_dir() and not any(path.iterdir())]
    for name in made:
        assert any(name == row or (row.endswith("/") and name.startswith(row)) for row in rows), name
