"""The command line: exit codes, error lines, summaries."""
from __future__ import annotations

import subprocess
import sys

import pytest


def test_build_prints_a_summary_and_exits_0(project, cli):
    result = cli(project, "build")
    assert result.exit_code == 0, result.output
    # the action cards' sheet and its backs, the tokens' sheet and its blank back (printed duplex)
    assert result.stdout.startswith("built 1 set, 8 cards, 4 pages in ")
    assert (project / "output/demo.pdf").is_file()


def test_the_summary_of_one_card_on_one_page_says_one_of_each(project, cli):
    (project / "data/demo/cards.yaml").write_text("- {name: Lone, type: token, label: L}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cli(project, "build", "--per-card")  # a page for its one face (a token has no back)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("built 1 set, 1 card, 1 page in "), result.stdout  # was "1 cards, 1 pages"
    listed = cli(project, "list")
    assert listed.stdout.splitlines()[0] == "demo  Demo Deck (version 0.3): 1 card"


def test_check_writes_nothing(project, cli):
    result = cli(project, "check", "demo")
    assert result.exit_code == 0
    assert result.stdout == "ok: no errors, 0 warnings\n"
    assert not (project / "output").exists()


def test_bad_data_exits_1_with_file_line_messages(project, cli):
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Long Winded,1,", "Long Winded,two,"))
    for command in ("build", "check"):
        result = cli(project, command, "demo")
        assert result.exit_code == 1
        assert result.stderr.splitlines()[0] == 'data/demo/more.csv:3: card "Long Winded": count must be a whole number, got "two"'
        assert "Traceback" not in result.output


def test_unknown_set_is_bad_usage(project, cli):
    result = cli(project, "build", "nope")
    assert result.exit_code == 2
    assert 'unknown set "nope" (sets: demo)' in result.stderr


def test_bad_option_is_bad_usage(project, cli):
    assert cli(project, "build", "--paper", "tabloid").exit_code == 2


def test_list_shows_types_and_counts(project, cli):
    result = cli(project, "list")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "demo  Demo Deck (version 0.3): 8 cards",
        "  action               5  63.5 x 88.9 mm rect",
        "  token                3  20 x 20 mm circle",
    ]


def test_list_of_several_sets_reads_and_reports_each_as_check_does(project):
    """`list` of more than one set reads small set.yaml files through libyaml (ruamel's parser
    for one set alone): the same lines, and the same message for a broken set.yaml."""
    import shutil

    shutil.copytree(project / "data/demo", project / "data/zeta")
    second = project / "data/zeta/set.yaml"
    second.write_text(second.read_text().replace("name: demo", "name: zeta").replace("Demo Deck", "Zeta Deck"))

    def cardgen(*args):
        return subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), *args],
                              capture_output=True, text=True)

    done = cardgen("list")
    assert done.returncode == 0, done.stderr
    demo = ["Demo Deck (version 0.3): 8 cards", "  action               5  63.5 x 88.9 mm rect",
            "  token                3  20 x 20 mm circle"]
    assert done.stdout.splitlines() == [f"demo  {demo[0]}", *demo[1:], f"zeta  Zeta {demo[0][5:]}", *demo[1:]]
    second.write_text(second.read_text() + "title: Again\n")
    done, alone = cardgen("list"), cardgen("check", "zeta")
    assert done.returncode == alone.returncode == 1
    assert done.stderr.splitlines()[0] == alone.stderr.splitlines()[0]
    assert done.stderr.splitlines()[0].startswith("data/zeta/set.yaml:")
    assert "given twice" in done.stderr and "Traceback" not in done.stderr


def test_the_installed_command_runs_as_a_process(project):
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "build", "demo", "--paper", "a4"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    broken = project / "data/demo/cards.yaml"
    broken.write_text("- name: [unclosed\n")
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "build"], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0].startswith("data/demo/cards.yaml:")
    assert "Traceback" not in done.stderr


def test_custom_paper(project, cli):
    result = cli(project, "build", "demo", "--paper", "11x17in", "--per-card")
    assert result.exit_code == 0  # per-card ignores the paper; sheets below use it
    result = cli(project, "build", "demo", "--paper", "300x200")
    assert result.exit_code == 0, result.output
    from pypdf import PdfReader

    page = PdfReader(project / "output/demo.pdf").pages[0]
    sides = sorted((round(float(page.mediabox.width) * 25.4 / 72, 3), round(float(page.mediabox.height) * 25.4 / 72, 3)))
    assert sides == [200.0, 300.0]
    assert cli(project, "build", "demo", "--paper", "huge").exit_code == 2


def test_a_long_build_shows_a_progress_bar_on_a_terminal(project):
    import os
    import pty

    path = project / "data/demo/cards.yaml"
    path.write_text(path.read_text().replace("count: 2", "count: 120"))
    leader, follower = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "build", "demo"],
                          stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert done.returncode == 0
    assert b"building demo" in shown and b"100%" in shown
    assert done.stdout.startswith("built 1 set, 126 cards, ")


@pytest.mark.shipped_fonts
def test_an_internal_error_is_one_line_and_its_traceback_is_for_debug(project, cli, monkeypatch):
    import cardgen.pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(cardgen.pipeline, "build", broken)
    plain = cli(project, "build")
    assert plain.exit_code == 1 and "Traceback" not in plain.stderr
    assert plain.stderr.splitlines() == ["cardgen: internal error (run with --debug for the traceback)",
                                         "cardgen: internal error: RuntimeError('broken on purpose')"]
    debug = cli(project, "--debug", "build")
    assert debug.exit_code == 1
    assert debug.stderr.startswith("Traceback (most recent call last):\n")
    assert debug.stderr.splitlines()[-2:] == ["RuntimeError: broken on purpose",
                                              "cardgen: internal error: RuntimeError('broken on purpose')"]
