"""Named pipes (FIFOs, left by another tool) where cardgen looks for a file or folder: each is
said to be one, at the line that names it, and never read (reading one waits for a writer for
ever); a failing build keeps the earlier output."""
from __future__ import annotations

import os

import pytest

from demobuild import built, demo_build, edit, refused  # noqa: F401 (built, demo_build: fixtures)

ONE = "cardgen: 1 error, 0 warnings"
PIPE = "is a named pipe (FIFO), not a file"


@pytest.mark.parametrize("pipe, said", [
    ("data/demo/icons/star.svg", f'data/demo/set.yaml:22: icon "star": image "icons/star.svg" {PIPE}'),
    ("data/demo/more.csv", f'data/demo/set.yaml:25: card file "more.csv" {PIPE}'),
    ("data/demo/set.yaml", f"data/demo: set.yaml {PIPE}"),
    ("templates/demo/frame.xml.j2", f'templates/demo/action.xml.j2:1: card "Quick Draw": template '
                                    f'"templates/demo/frame.xml.j2" {PIPE} (and 3 more cards)'),
    ("fonts/fonts.yaml", "fonts/fonts.yaml: it is a named pipe (FIFO), not a file"),
], ids=["icon", "card-file", "set-yaml", "template", "fonts-yaml"])
def test_a_pipe_where_a_file_goes_is_said_to_be_one_and_never_read(built, cli, pipe, said):
    """A FIFO (a named pipe left by another tool) hung every build when it was read, waiting for
    a writer that never came; where a file was looked for it was "not found", and the designer
    looked for a missing file that was there; fonts/fonts.yaml as one was passed over, the folder
    scanned instead."""
    project, _ = built
    (project / pipe).unlink()
    os.mkfifo(project / pipe)
    refused(cli, built, said, ONE, args=("build", "demo"))


def test_a_set_whose_set_yaml_is_a_pipe_is_not_left_out_of_a_build_of_every_set(built, cli):
    """``cardgen build`` (every set) passed over it without a word."""
    project, _ = built
    (project / "data/demo/set.yaml").unlink()
    os.mkfifo(project / "data/demo/set.yaml")
    refused(cli, built, f"data/demo: set.yaml {PIPE}", ONE, args=("build",))


def test_a_pipe_named_as_a_font_or_an_image_is_said_to_be_one(built, cli):
    """In a fonts folder without fonts.yaml, a pipe named Broken.ttf was skipped without a word;
    an image a layout names was "not found in demo/ or templates/"."""
    project, _ = built
    os.mkfifo(project / "data/demo/icons/pipe.png")
    edit(project / "templates/demo/token.xml.j2", "</card>", '<image x="0" y="0" w="5" h="5" src="icons/pipe.png"/></card>')
    refused(cli, built, 'templates/demo/token.xml.j2:4: card "Marker": image "data/demo/icons/pipe.png" is a named pipe '
                        "(FIFO), not a file", ONE)
    (project / "fonts/fonts.yaml").unlink()
    os.mkfifo(project / "fonts/Broken.ttf")
    refused(cli, built, "fonts/Broken.ttf: it is a named pipe (FIFO), not a font file", ONE)


def test_a_pipe_given_as_a_deck_list_is_refused_not_waited_on(built, cli):
    """``--deck`` naming a FIFO waited for ever for a writer."""
    project, _ = built
    os.mkfifo(project / "deck.yaml")
    result = cli(project, "check", "demo", "--deck", "deck.yaml")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2, """Error: Invalid value for '--deck': "deck.yaml" is a named pipe (FIFO), not a file""")
