"""Where a command finds its project and which set a name means: run from a subfolder or from a
folder that is no project, a set named as a path or in another case, hidden and backup copies of
a set folder, names that look alike on disk and in the data."""
from __future__ import annotations

import shutil
import unicodedata

from click.testing import CliRunner

from cardgen.cli import main


def _here(folder, *args):
    """``cardgen ARGS`` run in ``folder`` without --root, as a designer types it there."""
    import os

    before = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)


def test_a_command_run_in_a_subfolder_names_the_project_it_is_in(project):
    result = _here(project / "data/demo", "build")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: {project}/data/demo is not a project folder (it has no data/ folder holding <set>/set.yaml); "
        f"it is inside the project {project}: run cardgen there (cd {project}) or give --root {project}")


def test_list_in_a_folder_that_is_no_project_says_what_to_do_and_proof_writes_nothing_there(tmp_path):
    listed = _here(tmp_path, "list")
    assert (listed.exit_code, listed.stdout) == (2, "")
    assert listed.stderr.splitlines()[-1] == (
        f"Error: {tmp_path} is not a project folder (it has no data/ folder holding <set>/set.yaml): run cardgen "
        "in your project's folder or give it with --root DIR (`cardgen new DIR` makes a new project)")
    assert _here(tmp_path, "proof").exit_code == 2
    assert list(tmp_path.iterdir()) == []  # proof made .cardgen-cache/ before it looked for sets


def test_a_set_named_as_a_path_or_in_another_case_is_named_as_meant(project, cli):
    as_path = cli(project, "check", "data/demo/")
    assert as_path.exit_code == 2
    assert as_path.stderr.splitlines()[-1] == (
        'Error: unknown set "data/demo/" (sets: demo): a set is named by its folder in data/, as "demo"')
    other_case = cli(project, "check", "Demo")
    assert other_case.stderr.splitlines()[-1] == 'Error: unknown set "Demo" (sets: demo): "demo" differs in case'
    assert cli(project, "check", "").stderr.splitlines()[-1] == 'Error: unknown set "" (sets: demo)'


def test_hidden_and_backup_copies_of_a_set_folder_are_no_sets(project, cli):
    """A copy kept aside (``.old``, ``demo~``) says ``name: demo`` in its set.yaml: it failed the
    build of every set with 'set name "demo" differs from its folder ".old"'."""
    shutil.copytree(project / "data/demo", project / "data/.old")
    shutil.copytree(project / "data/demo", project / "data/demo~")
    result = cli(project, "list")
    assert (result.exit_code, result.stdout.splitlines()[0]) == (0, "demo  Demo Deck (version 0.3): 8 cards")
    named = cli(project, "check", ".old")
    assert (named.exit_code, named.stderr.splitlines()[-1]) == (2, (
        'Error: unknown set ".old" (sets: demo): a folder of data/ whose name starts with "." or "#", or ends with '
        '"~", is kept aside, not built'))


def test_a_card_file_named_in_another_case_is_said_to_be_there_in_that_case(project, cli):
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("{file: more.csv,", "{file: More.csv,"))
    result = cli(project, "list")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1, (
        'data/demo/set.yaml:25: card file "More.csv" not found (its folder holds the file "more.csv", which differs '
        'in case)'))


def test_a_set_name_and_its_folder_composed_otherwise_say_so(project, cli):
    """macOS writes a folder's name decomposed (NFD); set.yaml typed composed (NFC) printed two
    names that look the same."""
    composed = "caf\u00e9"
    folder = project / "data" / unicodedata.normalize("NFD", composed)
    (project / "data/demo").rename(folder)
    set_file = folder / "set.yaml"
    set_file.write_text(set_file.read_text().replace("name: demo", f"name: {composed}"))
    result = cli(project, "list")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1, (
        f'data/{folder.name}/set.yaml:1: set name "{composed}" differs from its folder "{folder.name}" (in how its '
        "accents are stored: Unicode NFC against NFD, the same letters in other bytes)"))


def test_two_sets_that_would_write_one_output_file_are_refused(project, cli):
    """``base.deck-starter`` is the name of the files ``cardgen build base --deck starter.yaml``
    writes; ``Demo`` beside ``demo`` writes the same file as it where case does not count."""
    for folder, name in (("demo.deck-x", "demo.deck-x"), ("Demo", "Demo")):
        shutil.copytree(project / "data/demo", project / "data" / folder)
        set_file = project / "data" / folder / "set.yaml"
        set_file.write_text(set_file.read_text().replace("name: demo", f"name: {name}"))
    result = cli(project, "check")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1, (
        'data/demo: set "demo" and set "Demo", which differs in case, write output files that are one file on macOS '
        "and Windows, whose names ignore that difference: rename one of the two folders"))
    shutil.rmtree(project / "data/Demo")
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1, (
        'data/demo.deck-x: set "demo.deck-x" writes output/demo.deck-x.pdf, a name set "demo" gives to its own deck, '
        "reprint or box files: rename the folder"))


def test_a_set_yaml_linking_to_no_file_is_said_not_left_out(project, cli):
    """A build of every set left such a set out without a word ("no sets found" when alone)."""
    set_file = project / "data/demo/set.yaml"
    set_file.rename(project / "data/demo/real.yaml")
    set_file.symlink_to("gone.yaml")
    result = cli(project, "check")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        1, 'data/demo: set.yaml is a link to "gone.yaml", which does not exist')


def test_a_deck_typed_from_the_project_folder_but_run_from_elsewhere_is_pointed_to(project, tmp_path, monkeypatch):
    """Paths typed on the command line are read from the working folder; with --root from
    elsewhere, "data/demo/decks/d.yaml" was said not to exist, and it was there in the project."""
    (project / "data/demo/decks").mkdir()
    (project / "data/demo/decks/d.yaml").write_text("main:\n  Quick Draw: 1\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["--root", "../proj", "check", "demo", "--deck", "data/demo/decks/d.yaml"])
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, (
        "Error: Invalid value for '--deck': File 'data/demo/decks/d.yaml' does not exist here; it is in the project "
        "folder: give it as ../proj/data/demo/decks/d.yaml"))


DELETED_FOLDER = """
import os, sys
os.chdir(sys.argv[1]); os.rmdir(sys.argv[1])
sys.argv[1:] = sys.argv[2:]
from cardgen.console import run
run()
"""


def test_a_command_run_in_a_folder_since_deleted_says_so(tmp_path):
    """A shell left in a folder that was deleted: `check` and `new /abs/path` ended in a
    FileNotFoundError traceback, `build` and `list` in "cardgen: no such file or directory"."""
    import subprocess
    import sys

    for args in (["check"], ["build"], ["new", str(tmp_path / "game")], ["--root", str(tmp_path), "list"]):
        gone = tmp_path / "gone"
        gone.mkdir()
        ran = subprocess.run([sys.executable, "-c", DELETED_FOLDER, str(gone), *args], capture_output=True, text=True,
                             cwd=tmp_path)
        assert (ran.returncode, ran.stdout, ran.stderr) == (1, "", (
            "cardgen: the folder this command runs in no longer exists (deleted or moved?): cd into the project folder "
            "again\n")), args
    assert sorted(p.name for p in tmp_path.iterdir()) == []
