"""`cardgen import ce-conv FILE --set NAME` writes the set's powers and builds them."""
from __future__ import annotations

import shutil
from pathlib import Path

from pdftext import page_texts

REPO = Path(__file__).resolve().parents[2]
POWERS = REPO / "tests/fixtures/cosmic/test-powers.txt"


def copy_repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    for folder in ("data", "templates", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    return root


def test_import_then_build(tmp_path, cli):
    root = copy_repo(tmp_path)
    result = cli(root, "import", "ce-conv", str(POWERS), "--set", "prisoners")
    assert result.exit_code == 0, result.output
    assert (root / "data/prisoners/powers.yaml").is_file()
    assert cli(root, "build", "prisoners").exit_code == 0
    text = " ".join(" ".join(page_texts(root / "output/prisoners.pdf")).split())
    assert "You have the power to" in text


def test_import_errors(tmp_path, cli):
    root = copy_repo(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("; a comment\nBROKEN LINE\n")
    result = cli(root, "import", "ce-conv", str(bad), "--set", "prisoners")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].endswith("bad.txt:2: text outside a power: a power starts with a header "
                                                  "line NAME [T:Origin:Restrictions] SHORT DESCRIPTION")
    assert not (root / "data/prisoners/powers.yaml").exists()
    assert cli(root, "import", "ce-conv", str(POWERS), "--set", "nope").exit_code == 2


def test_a_powers_file_written_by_hand_is_not_replaced_and_an_imported_one_is(tmp_path, cli):
    """The import replaced any data/<set>/powers.yaml without a word: a designer's own file of
    that name was lost. One an earlier import wrote (its first line says so) is replaced."""
    import os

    root = copy_repo(tmp_path)
    target = root / "data/prisoners/powers.yaml"
    assert cli(root, "import", "ce-conv", str(POWERS), "--set", "prisoners").exit_code == 0
    imported = target.read_bytes()
    target.write_bytes(imported.replace(b"You have the power to", b"YOU HAVE THE POWER TO", 1))
    assert cli(root, "import", "ce-conv", str(POWERS), "--set", "prisoners").exit_code == 0
    assert target.read_bytes() == imported  # an import's own file: replaced, as its first line says

    target.write_text("- name: Mine\n  text: written by hand\n", encoding="utf-8")
    result = cli(root, "import", "ce-conv", str(POWERS), "--set", "prisoners")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        1, "data/prisoners/powers.yaml:1: this file was not written by `cardgen import ce-conv` (its first line is "
           "not the import's), and the import would replace it: move it away or rename it first")
    assert target.read_text(encoding="utf-8") == "- name: Mine\n  text: written by hand\n"

    target.unlink()
    os.mkfifo(target)
    result = cli(root, "import", "ce-conv", str(POWERS), "--set", "prisoners")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        1, "data/prisoners/powers.yaml: is a named pipe (FIFO), not a file: the import writes the powers here")


def test_a_set_yaml_that_is_no_mapping_is_said_as_every_command_says_it(tmp_path, cli):
    """The import read set.yaml with its own code: an empty file, a list or a word was an internal
    error (None.get), and `types: power` (text) passed as the type "power"."""
    (tmp_path / "data/prisoners").mkdir(parents=True)
    set_yaml = tmp_path / "data/prisoners/set.yaml"
    for text, message in [("", "data/prisoners/set.yaml:1: set.yaml must be a mapping"),
                          ("- power\n", "data/prisoners/set.yaml:1: set.yaml must be a mapping"),
                          ("name: prisoners\ntypes: power\ncards: [powers.yaml]\n",
                           "data/prisoners/set.yaml:2: `types` must be a mapping of name: value")]:
        set_yaml.write_text(text)
        result = cli(tmp_path, "import", "ce-conv", str(POWERS), "--set", "prisoners")
        assert (result.exit_code, result.stderr.splitlines()) == (1, [message, "cardgen: 1 error, 0 warnings"])
        assert set_yaml.read_text() == text and not (tmp_path / "data/prisoners/powers.yaml").exists()
