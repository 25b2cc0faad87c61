"""Hostile and extreme sets, made for real and built in a separate process under a memory limit:
each build ends with one ``file:line: message`` and exit 1, and leaves the earlier output as it
was, byte for byte. The timeout is a guard against a hang, not a speed test.

The builds are forked from a process that has loaded cardgen (forkserver.py); the good build the
others are held to runs in this process (another interpreter, another hash seed)."""
from __future__ import annotations

import io
import os
import shutil
import signal
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from forkserver import BUILD_IMPORTS, Forkserver
from projects import make_project, run_cli
from stopping import Held

MEMORY = 1536 * 1024 * 1024  # address space a build may take: ample for cardgen, far below a bomb
HANG_GUARD = 300  # seconds


def _environment(env: dict | None) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    environment.update(env or {})
    return environment


FORKS = Forkserver(preload=BUILD_IMPORTS)


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


def cardgen(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``cardgen --root ROOT ARGS`` in a new process under the memory limit, forked from one
    that has loaded cardgen already (forkserver.py)."""
    return FORKS.run(["--root", str(root), *args], _environment(env), MEMORY, HANG_GUARD)


def output_files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "output").iterdir())}


@pytest.fixture(scope="module")
def good_build(tmp_path_factory) -> Path:
    """The demo project with its good build in output/, built once for the module in this
    process (cache off: nothing else written)."""
    root = make_project(tmp_path_factory.mktemp("hostile"))
    result = run_cli(root, "build", "--no-cache", "demo")
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def built(good_build, tmp_path):
    """A copy of that project, its output included, for one test to break."""
    project = tmp_path / "proj"
    shutil.copytree(good_build, project, symlinks=True)
    return project, output_files(project)


def fails_with(built, lines: list[str], *args: str, env: dict | None = None) -> None:
    """The build fails with exactly ``lines`` then the count, exit 1, the earlier output intact."""
    root, before = built
    result = cardgen(root, "build", "--no-cache", "demo", *args, env=env)
    assert result.returncode == 1, result.stderr
    count = len(lines)
    assert result.stderr.splitlines() == lines + [f"cardgen: {count} error{'s' * (count != 1)}, 0 warnings"]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert output_files(root) == before


def write(root: Path, relative: str, text: str) -> None:
    (root / relative).write_text(text, encoding="utf-8")


def cards_yaml(*extra: str) -> str:
    return "- name: Quick Draw\n  type: action\n  text: Draw.\n" + "".join(extra)


def limit_text(detail: str, what: str, variable: str, value: int) -> str:
    return f"{detail}; limit: {what}, {variable}={value} (set that environment variable higher to raise it)"


# --- data --------------------------------------------------------------------------------------

def test_billion_laughs_is_refused_at_the_alias_that_expands_it(built):
    root, _ = built
    levels = ["  a: &a [x, x, x, x, x, x, x, x, x, x]\n"]
    for previous, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"  {name}: &{name} [" + ", ".join([f"*{previous}"] * 10) + "]\n")
    write(root, "data/demo/cards.yaml", cards_yaml(*levels))
    fails_with(built, ["data/demo/cards.yaml:8: " + limit_text(
        "aliases expand this file to 1,234,567,904 values, 114 written in it",
        "expansion of a YAML file by its aliases, in times the values written in it (at least 100,000 values)",
        "CARDGEN_MAX_YAML_EXPANSION", 10)])


def test_aliases_a_card_file_uses_for_shared_fields_are_fine(built):
    root, _ = built
    rows = "- &base {name: Card 0, type: action, text: Shared text.}\n" + "".join(
        f"- {{<<: *base, name: Card {n}}}\n" for n in range(1, 40))
    write(root, "data/demo/cards.yaml", rows)
    result = cardgen(root, "check", "demo")
    assert result.returncode == 0, result.stderr


def test_a_billion_copies_are_refused_at_the_count(built):
    root, _ = built
    write(root, "data/demo/cards.yaml", cards_yaml("  count: 1000000000\n"))
    fails_with(built, ['data/demo/cards.yaml:4: card "Quick Draw": ' + limit_text(
        "count 1000000000 is too many copies", "copies of one card", "CARDGEN_MAX_COPIES_PER_CARD", 10000)])
    root, _ = built
    assert sorted(p.name for p in (root / "output").iterdir()) == ["demo.json", "demo.pdf"]  # no debris


def test_copies_per_set_name_the_card_that_passes_them_and_can_be_raised(built):
    root, _ = built
    env = {"CARDGEN_MAX_COPIES_PER_SET": "5"}
    fails_with(built, ['data/demo/cards.yaml:12: card "Marker": ' + limit_text(
        "the set's cards come to more than 5 copies here", "card copies in one set or deck list",
        "CARDGEN_MAX_COPIES_PER_SET", 5)], env=env)
    raised = cardgen(root, "build", "--no-cache", "demo", env={"CARDGEN_MAX_COPIES_PER_SET": "8"})
    assert raised.returncode == 0, raised.stderr


def test_a_lone_surrogate_in_yaml_names_its_line(built):
    root, _ = built
    write(root, "data/demo/cards.yaml", cards_yaml('  flavor: "half \\ud800 of a pair"\n'))
    fails_with(built, ["data/demo/cards.yaml:4: the text holds U+D800, half of a UTF-16 pair, which is not a character"])


def test_yaml_nested_past_any_sense_is_an_error(built):
    root, _ = built
    # a bracket a line, as in test_bad_input: the same nesting without ruamel's cost of a long line
    write(root, "data/demo/cards.yaml", cards_yaml("  deep:\n" + "    [\n" * 50_000 + "    " + "]" * 50_000 + "\n"))
    fails_with(built, ["data/demo/cards.yaml: invalid YAML: lists or mappings nested too deeply"])


# --- templates ---------------------------------------------------------------------------------

STEPS = ("loop turns and calls in one template rendering", "CARDGEN_MAX_TEMPLATE_STEPS")
DEPTH = ("depth of templates and macros inside one another (include, extends, macro calls)",
         "CARDGEN_MAX_TEMPLATE_DEPTH")


def back(root: Path, body: str) -> None:
    write(root, "templates/demo/back.xml.j2", body)


@pytest.mark.parametrize("body, line, detail", [
    ('<card>\n{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}\n</card>\n', 2,
     "the template takes too many steps (loops inside loops, or a very long value)"),
    ('<card>\n<rect x="0" y="0" w="1" h="1" fill="{{ "x" * 1000000000 }}"/>\n</card>\n', 2,
     "the template takes too many steps (loops inside loops, or a very long value)"),
    ('<card>\n{{ 10 ** (10 ** 10) }}\n</card>\n', 2,
     "the template takes too many steps (loops inside loops, or a very long value)"),
    ('<card>\n{{ "x" | center(1000000000) }}\n</card>\n', 2,
     "the template takes too many steps (loops inside loops, or a very long value)"),
    ('<card>\n{% for i in range(99999) %}{{ range(99999) | sum }}{% endfor %}\n</card>\n', 2,
     "the template takes too many steps (loops inside loops, or a very long value)"),
    ('<card>\n{% set ns = namespace(s="ab") %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}\n'
     '</card>\n', 2, "the template takes too many steps (loops inside loops, or a very long value)"),
    ('{% macro twice(s, n) %}{% if n %}{{ twice(s + s, n - 1) }}{% endif %}{% endmacro %}\n'
     '<card>{{ twice("ab", 39) }}</card>\n', 1,
     "the template takes too many steps (loops inside loops, or a very long value)"),
])
def test_template_work_is_bounded(built, body, line, detail):
    root, _ = built
    back(root, body)
    fails_with(built, [f'templates/demo/back.xml.j2:{line}: card "Quick Draw": '
                       + limit_text(detail, *STEPS, 1_000_000)])


@pytest.mark.parametrize("body, line, detail", [
    ('<card>\n{% include "demo/back.xml.j2" %}\n</card>\n', 2,
     'templates include or extend one another too deeply (at "demo/back.xml.j2": one that includes itself?)'),
    ('{% extends "demo/back.xml.j2" %}\n', 1,
     'templates include or extend one another too deeply (at "demo/back.xml.j2": one that includes itself?)'),
    ('{% macro again(n) %}{{ again(n) }}{% endmacro %}\n<card>{{ again(1) }}</card>\n', 1,
     "macros call one another too deeply (a macro that calls itself?)"),
])
def test_templates_that_recurse_are_stopped_at_the_depth_limit(built, body, line, detail):
    root, _ = built
    back(root, body)
    fails_with(built, [f'templates/demo/back.xml.j2:{line}: card "Quick Draw": '
                       + limit_text(detail, *DEPTH, 40)])


def test_the_step_limit_can_be_raised(built):
    root, _ = built
    back(root, '<card>\n{% for i in range(60) %}{% for j in range(60) %}{% endfor %}{% endfor %}\n</card>\n')
    fails_with(built, ['templates/demo/back.xml.j2:2: card "Quick Draw": '
                       + limit_text("the template takes too many steps (loops inside loops, or a very long value)",
                                    *STEPS, 2000)],
               env={"CARDGEN_MAX_TEMPLATE_STEPS": "2000"})
    assert cardgen(root, "build", "--no-cache", "demo", env={"CARDGEN_MAX_TEMPLATE_STEPS": "10000"}).returncode == 0


# --- images ------------------------------------------------------------------------------------

def blank_png(width: int, height: int) -> bytes:
    """A black 1-bit PNG, compressed row by row as a bomb is made (Pillow would first make
    the whole image, 50 MB for 20,000 x 20,000 pixels, and take five times as long)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = bytes(1 + (width + 7) // 8)  # the filter type (none), then the pixels
    rows = zlib.compressobj(9)
    pixels = b"".join(rows.compress(row) for _ in range(height)) + rows.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))


def test_blank_png_is_a_png_of_its_size():
    with Image.open(io.BytesIO(blank_png(300, 20))) as image:
        assert (image.format, image.mode, image.size) == ("PNG", "1", (300, 20))
        assert image.getextrema() == (0, 0)


def test_a_decompression_bomb_png_names_the_limit_without_paths_or_addresses(built):
    root, _ = built
    (root / "data/demo/icons/bomb.png").write_bytes(blank_png(20_000, 20_000))
    assert (root / "data/demo/icons/bomb.png").stat().st_size < 1_000_000
    back(root, '<card>\n<image x="0" y="0" w="20" h="20" src="icons/bomb.png"/>\n</card>\n')
    fails_with(built, ['templates/demo/back.xml.j2:2: card "Quick Draw": ' + limit_text(
        'image "data/demo/icons/bomb.png" has 20000 x 20000 = 400,000,000 pixels', "pixels in one image (width x height)",
        "CARDGEN_MAX_IMAGE_PIXELS", 150_000_000)])  # the back is one face, laid out once


def test_a_lowered_pixel_limit_is_said_alike_with_the_faces_cache_warm_or_cold(built):
    """Warm, the faces come from the cache and only their images are loaded again: the image
    over the limit is the same problem of the same cards, not an internal error."""
    root, _ = built
    Image.new("RGB", (400, 300), "navy").save(root / "data/demo/icons/art.png")
    action = root / "templates/demo/action.xml.j2"
    action.write_text(action.read_text(encoding="utf-8").replace(
        "{% endblock %}", '<image x="5" y="60" w="20" h="10" src="icons/art.png"/>\n{% endblock %}'), encoding="utf-8")
    assert cardgen(root, "build", "demo").returncode == 0  # the cache warm
    before = output_files(root)
    line = action.read_text(encoding="utf-8").splitlines().index(
        '<image x="5" y="60" w="20" h="10" src="icons/art.png"/>') + 1
    said = [f'templates/demo/action.xml.j2:{line}: card "Quick Draw": ' + limit_text(
                'image "data/demo/icons/art.png" has 400 x 300 = 120,000 pixels', "pixels in one image (width x height)",
                "CARDGEN_MAX_IMAGE_PIXELS", 1000) + " (and 3 more cards)",
            "cardgen: 1 error, 0 warnings"]
    for cache in ("--cache", "--no-cache"):
        result = cardgen(root, "build", cache, "demo", env={"CARDGEN_MAX_IMAGE_PIXELS": "1000"})
        assert (result.returncode, result.stderr.splitlines()) == (1, said), cache
        assert output_files(root) == before


def test_an_svg_holding_a_raster_image_is_refused_with_a_message(built):
    root, _ = built
    Image.new("RGB", (4, 4), "red").save(root / "data/demo/icons/red.png")
    write(root, "data/demo/icons/star.svg",
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
          '<image x="0" y="0" width="10" height="10" xlink:href="red.png"/></svg>\n')
    # the icon is set.yaml's: its line is named (issue 13), with the card that met it
    fails_with(built, ['data/demo/set.yaml:22: card "Escape Artist": icon "star": SVG "star.svg" holds a raster '
                       "<image>, which cardgen does not draw inside an SVG: give the picture its own <image> "
                       "element, or make the SVG all vector"])


SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'


def test_an_svg_whose_use_references_multiply_is_refused_before_it_is_drawn(built):
    root, _ = built
    groups = '<g id="u0"><rect width="1" height="1"/></g>' + "".join(
        f'<g id="u{n}">' + f'<use xlink:href="#u{n - 1}"/>' * 10 + "</g>" for n in range(1, 9))
    write(root, "data/demo/icons/star.svg", f'{SVG_HEAD}<defs>{groups}</defs><use xlink:href="#u8"/></svg>\n')
    fails_with(built, ['data/demo/set.yaml:22: card "Escape Artist": icon "star": ' + limit_text(
        'SVG "star.svg" draws more than 100,000 elements once its <use> references are expanded',
        "elements one SVG draws, <use> references expanded", "CARDGEN_MAX_SVG_ELEMENTS", 100000)])


def test_an_svg_that_uses_itself_is_refused(built):
    root, _ = built
    write(root, "data/demo/icons/star.svg", f'{SVG_HEAD}<g id="a"><use xlink:href="#a"/></g></svg>\n')
    fails_with(built, ['data/demo/set.yaml:22: card "Escape Artist": icon "star": '
                       'SVG "star.svg": a <use> refers to an element it is inside of'])


# --- debris ------------------------------------------------------------------------------------

WRITING = {".demo.json", ".demo.pdf", ".faces-demo.bin"}  # the temporaries of a build half-way


def test_a_build_killed_half_way_leaves_temporaries_that_the_next_build_and_clean_remove(built, tmp_path):
    root, before = built
    # the cache on: it writes temporaries too (see stopping.py)
    with Held(root, tmp_path / "tmp", "cached demo", "build", "demo", forks=FORKS, env=_environment(None)) as build:
        build.reached()
        code, _ = build.stop(signal.SIGKILL)  # nothing of cardgen's runs after it
    assert code == -signal.SIGKILL
    stale = sorted(p.name for folder in ("output", ".cardgen-cache") for p in (root / folder).iterdir()
                   if p.name.endswith(".tmp"))
    assert WRITING <= {name.split(".cardgen-")[0] for name in stale}  # and perhaps a font cache's
    assert all(f".cardgen-{build.process.pid}-" in name for name in stale)
    assert output_files(root) == {**before, **{n: (root / "output" / n).read_bytes() for n in stale if
                                               (root / "output" / n).exists()}}
    # not ours, or still running: left alone
    keep = [root / "output/.notes.tmp", root / "output/.demo.pdf.cardgen-x.tmp",
            root / f"output/.demo.pdf.cardgen-{os.getpid()}-0123abcd.tmp"]
    for path in keep:
        path.write_text("keep me")
    result = cardgen(root, "clean")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"{len(stale)} stale temporary files removed"
    left = sorted(p.name for folder in ("output", ".cardgen-cache") for p in (root / folder).iterdir()
                  if p.name.endswith(".tmp"))
    assert left == sorted(p.name for p in keep)
    assert output_files(root) == {**before, **{p.name: b"keep me" for p in keep}}


def test_the_next_build_removes_a_dead_builds_temporaries(built):
    root, before = built
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = root / f"output/.demo.pdf.cardgen-{int(dead.stdout)}-0123abcd.tmp"
    stale.write_bytes(b"%PDF half")
    result = cardgen(root, "build", "--no-cache", "demo")
    assert result.returncode == 0, result.stderr
    assert not stale.exists()
    assert output_files(root) == before  # same input, same bytes


# --- sheets and decks ----------------------------------------------------------------------------

def test_a_sheet_template_of_a_trillion_slots_is_refused_at_its_line(built):
    root, _ = built
    (root / "data/demo/sheets").mkdir()
    write(root, "data/demo/sheets/huge.yaml",
          "name: Huge\ngrid:\n  shape: circle\n  d: 0.001\n  nx: 1000000\n  ny: 1000000\n  x0: 1\n  y0: 1\n")
    fails_with(built, ["data/demo/sheets/huge.yaml:6: " + limit_text(
        "the grid has 1000000 x 1000000 = 1,000,000,000,000 slots", "slots on one sheet template (nx x ny)",
        "CARDGEN_MAX_SHEET_SLOTS", 10000)], "--sheet", "sheets/huge.yaml")


def test_a_deck_list_asking_a_billion_copies_is_refused_at_its_line(built):
    root, _ = built
    write(root, "deck.yaml", "main:\n  Quick Draw: 1\n  Escape Artist: 1000000000\n")
    fails_with(built, ['deck.yaml:3: card "Escape Artist": ' + limit_text(
        "1000000000 is too many copies", "copies of one card", "CARDGEN_MAX_COPIES_PER_CARD", 10000)],
        "--deck", str(root / "deck.yaml"))
