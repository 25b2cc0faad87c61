"""`cardgen --help` and `cardgen list` start without the build stack: a command's module is
imported when that command runs, and the help lists the commands from plain data that says
exactly what their own help says."""
from __future__ import annotations

import subprocess
import sys

import click
import click.testing
import pytest

from cardgen.cli import main
from cardgen.commands import COMMAND_MODULES, SUMMARIES, LazyCommands, LazyGroup, _load

from projects import FIXTURES

HEAVY = ("reportlab", "jinja2", "PIL")

# Runs the command line in a fresh interpreter, then tells which heavy packages it imported.
RUN_AND_TELL = """
import sys
from cardgen.cli import main
try:
    main(sys.argv[1:], prog_name="cardgen")
except SystemExit as exit:
    assert not exit.code, exit.code
loaded = sorted({name.split(".")[0] for name in sys.modules} & {%s})
print("imported:", ", ".join(loaded + sorted(n for n in ("cardgen.pipeline",) if n in sys.modules)) or "none")
""" % ", ".join(repr(name) for name in HEAVY)


def _run(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", RUN_AND_TELL, *args], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_help_imports_no_build_stack():
    lines = _run("--help")
    assert lines[0] == "Usage: cardgen [OPTIONS] COMMAND [ARGS]..."
    assert [line.split()[0] for line in lines[lines.index("Commands:") + 1:-1]] == sorted(main.commands)
    assert lines[-1] == "imported: none"


def test_list_imports_no_build_stack():
    lines = _run("--root", str(FIXTURES / "project"), "list")
    assert lines == ["demo  Demo Deck (version 0.3): 8 cards",
                     "  action               5  63.5 x 88.9 mm rect",
                     "  token                3  20 x 20 mm circle",
                     "imported: none"]


def test_every_command_module_has_its_summary_and_it_is_the_commands_own():
    assert sorted(SUMMARIES) == sorted(module for module, _ in COMMAND_MODULES), \
        "give each module of COMMAND_MODULES its entry in SUMMARIES (cardgen/commands/__init__.py)"
    for module, attribute in COMMAND_MODULES:
        name, summary = SUMMARIES[module]
        command = _load(module, attribute)
        assert command.name == name
        stand_in = click.Command(name, help=summary)
        for limit in (10, 30, 45, 60, 74, 120, 1000):
            assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), (name, limit)


@pytest.mark.parametrize("width", [50, 80, 200])
def test_the_help_lists_the_commands_as_click_does_with_every_command_imported(width):
    own = {name: main.commands[name] for name in ("build", "check", "list")}
    lazy = LazyGroup("cardgen", commands=own)

    def commands_text(format_commands) -> str:
        formatter = click.HelpFormatter(width=width)
        format_commands(lazy, click.Context(lazy), formatter)
        return formatter.getvalue()

    from_summaries = commands_text(LazyGroup.format_commands)
    imported = commands_text(click.Group.format_commands)  # asks each command itself
    assert from_summaries == imported
    assert sorted(lazy.commands) == sorted(main.commands)


def test_every_command_still_answers_its_own_help():
    runner = click.testing.CliRunner()
    for name, command in main.commands.items():
        result = runner.invoke(main, [name, "--help"], prog_name="cardgen")
        assert result.exit_code == 0, name
        assert result.output.startswith(f"Usage: cardgen {name} ")
        for param in command.params:
            for option in param.opts:
                if option.startswith("--"):
                    assert option in result.output, (name, option)


def test_a_command_module_without_a_summary_is_still_a_command(monkeypatch):
    monkeypatch.delitem(SUMMARIES, "clean")
    commands = LazyCommands((("clean", "clean"), ("new", "new")))
    assert commands.summary("new") == SUMMARIES["new"][1]
    assert list(commands) == ["clean", "new"]  # imported to learn its name
    assert commands["clean"].name == "clean" and "clean" in commands and len(commands) == 2


def test_a_rebuild_from_the_cache_runs_none_of_the_modules_it_does_not_use(tmp_path):
    """reportlab imports PIL.Image; `cardgen build` runs it only when an image is decoded: in
    a cold build of a back with a PNG logo (and a PNG icon), not in the rebuild after a card's
    text changed (the images' PDF streams come from the cache), which prints what a build
    without the cache prints. Nor the other modules the libraries import that a build does not
    use (cardgen/deferred.py)."""
    from PIL import Image

    from cardgen.deferred import UNUSED_BY_BUILDS
    from projects import make_project

    project = make_project(tmp_path / "project", fonts=False)
    Image.new("RGB", (40, 30), (39, 64, 139)).save(project / "data/demo/logo.png")
    Image.new("RGB", (16, 16), (192, 128, 0)).save(project / "data/demo/icons/star.png")
    set_file = project / "data/demo/set.yaml"  # an SVG icon's drawing (svglib) uses Pillow itself
    set_file.write_text(set_file.read_text().replace("icons/star.svg", "icons/star.png"))
    back = project / "templates/demo/back.xml.j2"
    back.write_text(back.read_text().replace("</card>", '  <image x="5" y="5" w="20" h="15" src="logo.png"/>\n</card>'))
    tell = RUN_AND_TELL.replace('"imported:"', '"unrun:", *(n for n in %r if "__getattr__" in vars(sys.modules[n])), '
                                                '"imported:"' % (UNUSED_BY_BUILDS,))

    def build(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", tell, "--root", str(project), "build", *args],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[-1]

    assert build().startswith("unrun: shutil pprint textwrap traceback imported: PIL")  # an image decoded, so PIL.Image run
    cards = project / "data/demo/more.csv"
    cards.write_text(cards.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    assert build().startswith(f"unrun: {' '.join(UNUSED_BY_BUILDS)} imported: PIL")  # named, never used
    assert build("--no-cache", "--out", str(tmp_path / "fresh")).startswith("unrun: shutil pprint textwrap traceback imported:")
    for name in ("demo.pdf", "demo.json"):
        assert (project / "output" / name).read_bytes() == (tmp_path / "fresh" / name).read_bytes()


def test_an_unchanged_rebuild_imports_no_build_stack(tmp_path):
    """`cardgen build` looks for unchanged sets before it imports the build stack: a set as its
    last build left it is reported without jinja2, reportlab or the pipeline; a changed one is
    built with them."""
    from projects import make_project

    project = make_project(tmp_path / "project")
    built = "imported: PIL, jinja2, reportlab, cardgen.pipeline"
    first = _run("--root", str(project), "build")
    assert first[0].startswith("built 1 set, 8 cards, 4 pages in ") and first[-1] == built
    again = _run("--root", str(project), "build")
    assert again[0].startswith("built 1 set, 8 cards, 4 pages in ") and again[-1] == "imported: none"
    cards = project / "data/demo/more.csv"
    cards.write_text(cards.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    assert _run("--root", str(project), "build")[-1] == built


# Runs `cardgen build` as the command runs it (cli.run), then tells whether the cycle collector
# still scans the build stack's objects: the pipeline module's namespace and a jinja2 class.
RUN_THE_COMMAND_AND_TELL = """
import gc, os, sys
exit_now = os._exit
def tell(code):
    import cardgen.pipeline, jinja2
    scanned = {id(o) for o in gc.get_objects()}
    print("exit", code, "scanned:", id(vars(cardgen.pipeline)) in scanned, id(jinja2.Environment) in scanned)
    sys.stdout.flush()
    exit_now(code)
os._exit = tell
from cardgen.cli import run
sys.argv = ["cardgen", *sys.argv[1:]]
run()
"""


@pytest.mark.parametrize("command", ["build", "check"])
def test_the_command_leaves_the_build_stack_out_of_the_collectors_scans(tmp_path, command):
    """The `cardgen` command freezes what it imported before it started (cli.run): the build
    stack it imports for a build or a check is frozen too, so the collector never goes through it."""
    from projects import make_project

    project = make_project(tmp_path / "project")
    done = subprocess.run([sys.executable, "-c", RUN_THE_COMMAND_AND_TELL, "--root", str(project), command],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.splitlines()[-1] == "exit 0 scanned: False False", done.stderr


def test_a_command_run_inside_a_program_freezes_nothing(tmp_path):
    """Run by another program (here, the tests), a build leaves the program's collector as it
    was: nothing frozen that the program did not freeze."""
    import gc

    from projects import make_project

    project = make_project(tmp_path / "project")
    gc.unfreeze()  # as a program that never froze anything
    result = click.testing.CliRunner().invoke(main, ["--root", str(project), "build", "--jobs", "1"],
                                              prog_name="cardgen")
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == 0
