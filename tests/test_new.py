"""``cardgen new``: a new project, anywhere, that `cardgen build` and `cardgen check` take as it
is (run as a user would, inside the folder), for every card size and paper."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import cardgen
from cardgen.cli import main
from cardgen.sheets.sizes import CARD_SIZES

from pdftext import page_texts

PROJECT_FILES = [
    "README.md", "data/mygame/actions.csv", "data/mygame/characters.yaml", "data/mygame/decks/starter.yaml",
    "data/mygame/images/castle.svg", "data/mygame/images/coin.svg", "data/mygame/images/forest.svg",
    "data/mygame/images/mountain.svg", "data/mygame/images/sea.svg", "data/mygame/rules.yaml",
    "data/mygame/set.yaml", ".gitignore", "templates/mygame/back.xml.j2", "templates/mygame/card.xml.j2"]


def cardgen_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """The ``cardgen`` command, run inside ``folder`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=folder, capture_output=True, text=True)


def cardgen_here(folder: Path, monkeypatch, *args: str) -> subprocess.CompletedProcess:
    """The ``cardgen`` command inside ``folder``, in this process (click's runner), reported as
    ``cardgen_in`` reports a process."""
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return subprocess.CompletedProcess(["cardgen", *args], result.exit_code, result.stdout, result.stderr)


def test_a_new_project_builds_and_checks_at_once(tmp_path, monkeypatch):
    # `new` in a real process, as a user starts; the steps after it in this one
    made = cardgen_in(tmp_path, "new", "mygame")
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[0] == 'made mygame/ with the set "mygame" (poker cards, letter paper):'
    assert [line.strip() for line in made.stdout.splitlines()[1:-2]] == PROJECT_FILES
    assert made.stdout.splitlines()[-2] == "  fonts/   (empty: your own fonts, optional)"
    project = tmp_path / "mygame"
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()) == sorted(PROJECT_FILES)
    # the folder the project's README (and cardgen's) tells to put one's own fonts in is there
    assert "| `fonts/` |" in (project / "README.md").read_text()
    assert (project / "fonts").is_dir() and not any((project / "fonts").iterdir())

    built = cardgen_here(project, monkeypatch, "build")
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith("built 1 set, 10 cards, 4 pages in ")
    checked = cardgen_here(project, monkeypatch, "check")
    assert (checked.returncode, checked.stdout) == (0, "ok: no errors, 0 warnings\n")
    deck = cardgen_here(project, monkeypatch, "check", "mygame", "--deck", "data/mygame/decks/starter.yaml")
    assert (deck.returncode, deck.stdout) == (0, "ok: no errors, 0 warnings\n")

    pdf = project / "output/mygame.pdf"
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        assert (round(page.width, 1), round(page.height, 1)) == (612.0, 792.0)  # letter, portrait: 9-up
        words = page.extract_text()
        assert "Gather" in words and "Gain 2" in words and "ACTION" in words
        assert len(page.images) + len(page.objects.get("rect", [])) > 0
        assert "Mira the Scout" in words  # eight actions and the first character fill the 3 x 3 sheet
    # the other pages' words only: pdfium reads them, without pdfplumber's layout
    texts = page_texts(pdf)
    assert texts[1].count("Mygame") == 9
    assert "Old Tomas" in texts[2]
    assert texts[3].count("Mygame") == 1
    # the inline :coin: icon and the pictures are drawn: each Gather face places the forest
    # picture and a coin as form XObjects
    reader = PdfReader(pdf)
    xobjects = reader.pages[0]["/Resources"].get_object()["/XObject"]
    assert len(xobjects) >= 3


def test_every_size_and_paper_builds(tmp_path):
    runner = CliRunner()
    for index, size in enumerate(CARD_SIZES):
        for paper in [("letter", "a4")[index % 2]]:  # each size once, the papers in turn
            folder = tmp_path / f"{size}-{paper}"
            result = runner.invoke(main, ["new", str(folder), "--size", size, "--paper", paper])
            assert result.exit_code == 0, result.output
            name = folder.name
            built = cardgen.build([name], folder, folder / "output", cardgen.BuildOptions(cache=False)).sets[0]
            assert built.cards == 10
            box = PdfReader(built.pdf).pages[0].mediabox
            assert sorted((round(float(box.width)), round(float(box.height)))) == (
                [612, 792] if paper == "letter" else [595, 842]), (size, paper)
            faces = cardgen.load_set(name, folder).types["action"].size
            assert (faces.w, faces.h) == (CARD_SIZES[size].w, CARD_SIZES[size].h)
            # what `new` lays out passes cardgen's own preflight: no error for any shop, and at
            # home not a warning (a shop's only warnings are about its sizes: see the next test)
            for shop in ("home", "drivethru", "tgc", "mpc"):
                measured = runner.invoke(main, ["--root", str(folder), "preflight", "--shop", shop, "--json"])
                findings = json.loads(measured.stdout)["sets"][0]["findings"]
                assert measured.exit_code == 0, (size, shop, findings)
                assert [f for f in findings if f["severity"] == "error" or shop == "home"] == [], (size, shop)
                assert {f["check"] for f in findings} <= {"size"}, (size, shop, findings)


def test_a_new_poker_project_passes_every_shops_preflight_without_a_warning(tmp_path):
    # the type line was 6.67 pt of light text on the type's colour (under the 7 pt minimum), and
    # the picture's backdrop a 25% opacity that a PDF/X-1a export has to pre-mix
    runner = CliRunner()
    folder = tmp_path / "game"
    assert runner.invoke(main, ["new", str(folder)]).exit_code == 0
    assert runner.invoke(main, ["--root", str(folder), "build"]).exit_code == 0
    for shop in ("home", "drivethru", "tgc", "mpc"):
        measured = runner.invoke(main, ["--root", str(folder), "preflight", "--shop", shop])
        assert (measured.exit_code, measured.stdout) == (0, f"game: preflight for {shop}: 0 errors, 0 warnings\n")


def test_the_title_and_the_set_name_come_from_the_folder(tmp_path):
    result = CliRunner().invoke(main, ["new", str(tmp_path / "My Big Game!"), "--title", 'The "Big" Game'])
    assert result.exit_code == 0, result.output
    card_set = cardgen.load_set("my-big-game", tmp_path / "My Big Game!")
    assert card_set.title == "The 'Big' Game"


def test_a_folder_that_is_not_empty_is_refused(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken/notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["new", str(tmp_path / "taken")])
    assert result.exit_code == 2
    assert f"Error: {tmp_path / 'taken'} already exists and is not an empty folder: choose a new one" in result.output
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("args, message", [
    (["--size", "huge"], "Invalid value for '--size': 'huge' is not one of"),
    (["--paper", "a3"], "Invalid value for '--paper': 'a3' is not one of 'letter', 'a4'."),
])
def test_bad_options_are_usage_errors(tmp_path, args, message):
    result = CliRunner().invoke(main, ["new", str(tmp_path / "x"), *args])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "x").exists()


def test_version():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"cardgen {cardgen.__version__}\n"
    import tomllib

    from projects import REPO

    assert cardgen.__version__ == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def test_the_sets_paper_is_the_default_and_the_option_wins(tmp_path):
    assert CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--paper", "a4"]).exit_code == 0
    root = tmp_path / "game"

    def page_size(**options) -> list[int]:
        result = cardgen.build(["game"], root, root / "out", cardgen.BuildOptions(cache=False, **options)).sets[0]
        box = PdfReader(result.pdf).pages[0].mediabox
        return sorted((round(float(box.width)), round(float(box.height))))

    assert page_size() == [595, 842]
    assert page_size(paper="letter") == [612, 792]
    set_yaml = root / "data/game/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("paper: a4", "paper: {w: 300, h: 200}"))
    assert page_size() == [567, 850]
    set_yaml.write_text(set_yaml.read_text().replace("paper: {w: 300, h: 200}", "paper: b5"))
    line = next(n for n, text in enumerate(set_yaml.read_text().splitlines(), 1) if "paper: b5" in text)
    with pytest.raises(cardgen.CardgenError) as excinfo:
        page_size()
    assert [str(p) for p in excinfo.value.problems] == [
        f'data/game/set.yaml:{line}: unknown paper "b5" (choose letter, a4, a3 or give (w, h) in mm)']


def test_a_project_that_cannot_be_written_is_named_and_nothing_is_left(tmp_path, monkeypatch):
    import errno
    from contextlib import contextmanager

    import cardgen.scaffolding as scaffolding

    real, calls = scaffolding.staged, []

    @contextmanager
    def disk_fills_up(target):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        with real(target) as temporaries:
            yield temporaries

    monkeypatch.setattr(scaffolding, "staged", disk_fills_up)
    result = CliRunner().invoke(main, ["new", str(tmp_path / "game")])
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"{tmp_path / 'game'}: cannot write the new project: no space left on device",
                                          "cardgen: 1 error, 0 warnings"]
    assert not (tmp_path / "game").exists()
    (tmp_path / "empty").mkdir()  # a folder that was there stays, empty
    calls.clear()
    assert CliRunner().invoke(main, ["new", str(tmp_path / "empty")]).exit_code == 1
    assert [p for p in (tmp_path / "empty").rglob("*") if p.is_file()] == []


@pytest.mark.parametrize("folder, held", [("ünï", '"ü", "ï"'), ("Café Game", '"é"'), ("cafe\u0301", "U+0301"),
                                          ("ゲーム", '"ゲ", "ー", "ム"')])
def test_a_folder_name_with_letters_a_set_name_cannot_hold_is_refused_not_cut(tmp_path, folder, held):
    """``cardgen new ünï`` made a set named "n": the letters outside a-z were dropped without a word."""
    result = CliRunner().invoke(main, ["new", str(tmp_path / folder)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f'Error: the set is named after the folder "{folder}", and a set\'s name holds only the letters a-z, the '
        f"digits 0-9 and hyphens, not {held}: name the folder with those")
    assert not (tmp_path / folder).exists()


@pytest.mark.parametrize("folder, held", [("a\nb", "U+000A"), ("tab\there", "U+0009"), ("x\x7f\x1b", "U+007F, U+001B")])
def test_a_folder_name_with_a_control_character_is_refused(tmp_path, folder, held):
    """``cardgen new $'a\\nb'`` made a folder whose name holds a newline (its set named "a-b")."""
    result = CliRunner().invoke(main, ["new", str(tmp_path / folder)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: the folder name {folder!r} holds a control character ({held}): name the folder with letters, "
        "digits and hyphens")
    assert not (tmp_path / folder).exists()


def test_a_new_project_inside_a_projects_data_folder_is_refused(tmp_path, monkeypatch):
    """Typed in a project to add a set, `cardgen new data/second` made a whole project inside
    data/: a set folder without set.yaml, whose cards no build read."""
    from cardgen.scaffolding import new_project

    new_project(tmp_path / "game")
    result = cardgen_here(tmp_path / "game", monkeypatch, "new", "data/second")
    assert (result.returncode, result.stderr.splitlines()[-1]) == (2, (
        f"Error: data/second is inside the data/ folder of the project {tmp_path}/game: `cardgen new` lays out a "
        "whole project; a new set of this one is a folder data/<set>/ with its own set.yaml and card files (copy a "
        "set's folder, and give set.yaml its new name)"))
    assert not (tmp_path / "game/data/second").exists()


def test_the_next_step_it_prints_runs_in_a_shell_for_a_folder_name_with_spaces(tmp_path):
    """`cardgen new "My Game"` ends with the command to run next; pasted into a shell it builds
    the new project (it printed `cd My Game && ...`, which cd refuses)."""
    made = cardgen_in(tmp_path, "new", "My Game")
    assert made.returncode == 0, made.stderr
    next_line = made.stdout.splitlines()[-1]
    assert next_line == "next: cd 'My Game' && cardgen build   (then open output/my-game.pdf)"
    command = next_line.removeprefix("next: ").split("   (")[0]
    bin_folder = Path(sys.executable).parent
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "My Game/output/my-game.pdf").is_file()


@pytest.mark.parametrize("folder, size, paper", [("mygame", "poker", "letter"), ("g", "mini-euro", "a4"),
                                                  ("a-rather-long-game-name", "tarot", "a4")])
def test_the_comments_of_set_yaml_stay_in_their_columns(tmp_path, folder, size, paper):
    """The new set.yaml's comments line up as the scaffold's do, whatever the name, size and paper
    put before them (`size: poker                  # card size` stood 3 columns left of the rest)."""
    from cardgen.scaffolding import SCAFFOLD

    made = CliRunner().invoke(main, ["new", str(tmp_path / folder), "--size", size, "--paper", paper])
    assert made.exit_code == 0, made.output
    scaffold = (SCAFFOLD / "data/__SET__/set.yaml").read_text(encoding="utf-8").splitlines()
    written = (tmp_path / folder / f"data/{folder}/set.yaml").read_text(encoding="utf-8").splitlines()
    assert len(scaffold) == len(written)
    for before, after in zip(scaffold, written):
        if " # " in before and not before.startswith("#"):
            key = before.split(" #")[0].rstrip()
            column = before.index(" # ") if len(after.split(" #")[0].rstrip()) < before.index(" # ") else None
            if column is not None:
                assert after.index(" # ") == column, (before, after)
            assert after.split(" #")[0].rstrip() == key.replace("__SET__", folder).replace("__SIZE__", size).replace(
                "__PAPER__", paper)
    # the section the first line names is one of the README's
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    named = re.search(r'README \("([^"]+)"\)', written[0]).group(1)
    assert f"\n## {named}\n" in readme


def test_the_new_project_s_own_readme_runs_as_written(tmp_path):
    """The README `cardgen new` writes into the project: its commands run in the project as
    written, each exits 0, and every file its table and comments name is there afterwards."""
    made = cardgen_in(tmp_path, "new", "mygame")
    assert made.returncode == 0, made.stderr
    project = tmp_path / "mygame"
    readme = (project / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1)
    bin_folder = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    for line in block.splitlines():
        command = line.split("#")[0].strip()
        done = subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True, env=env)
        assert done.returncode == 0, (command, done.stderr)
    for name in re.findall(r"`((?:data|templates|output)/[^`\s]+)`", readme + block):
        assert (project / name).exists(), name
    assert (project / "output/proofs/mygame/index.html").is_file()
    deck = re.search(r"`(cardgen check mygame --deck [^`]+)`", readme).group(1)
    done = subprocess.run(["bash", "-c", deck], cwd=project, capture_output=True, text=True, env=env)
    assert (done.returncode, done.stdout) == (0, "ok: no errors, 0 warnings\n"), done.stderr


@pytest.mark.parametrize("title", ["A\\B", "Line\\nx", "Games\\Board\\", 'The \\"Big\\" Game'])
def test_a_title_with_backslashes_is_the_set_s_title_as_typed(tmp_path, title):
    """set.yaml keeps the title between double quotes, where a backslash starts an escape:
    `--title 'A\\B'` made a project whose set.yaml YAML refused, and "Line\\nx" a title of two lines."""
    made = CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--title", title])
    assert made.exit_code == 0, made.output
    assert cardgen.load_set("game", tmp_path / "game").title == title.replace('"', "'")
    assert (tmp_path / "game/README.md").read_text(encoding="utf-8").splitlines()[0] == "# " + title.replace('"', "'")


@pytest.mark.parametrize("title, held", [("Two\nlines", "U+000A"), ("Tab\there", "U+0009")])
def test_a_title_with_a_control_character_is_refused(tmp_path, title, held):
    """A newline in --title broke set.yaml's first line, a comment, into a line of YAML."""
    made = CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--title", title])
    assert made.exit_code == 2
    assert made.output.splitlines()[-1] == (
        f"Error: the title {title!r} holds a control character ({held}): give it on one line, without tabs")
    assert not (tmp_path / "game").exists()


@pytest.mark.parametrize("title", [" ", "\u3000", "\u00a0 "])
def test_a_blank_title_is_refused(tmp_path, title):
    """--title " " made a project whose every back printed an empty title, without a word."""
    made = CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--title", title])
    assert made.exit_code == 2
    assert made.output.splitlines()[-1] == (
        "Error: the title is blank: give the game's title, or leave --title out for the folder's name")
    assert not (tmp_path / "game").exists()
