"""No file of the package or of the tests names a path outside the repository.

A test that reads `/somewhere/seeds/x.txt` passes on the machine it was written on and fails on
every fresh clone; code that names one reads outside the project. The scan reads every text file
under cardgen/ and tests/ (fixtures included) and looks for what an absolute path looks like in
source or data: a POSIX path starting at one of the standard top-level directories, a Windows
drive path, a home-relative `~/` path, and the literal locations of this clone, the home folder
and the temporary folder of the machine running the tests.
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("cardgen", "tests")

# Top-level folders of Linux (FHS), macOS and the shared machine this project is developed on.
TOP_LEVEL = ("bin", "boot", "dev", "etc", "home", "lib", "lib64", "media", "mnt", "opt", "proc", "root",
             "run", "sbin", "srv", "sys", "tmp", "usr", "var", "work", "Users", "Volumes", "private",
             "Applications", "Library")
# The slash must start the path (not continue a relative path, a URL, or a closing tag such as
# </var>), and the folder name must end there: a PDF name such as /Type or /Root is no path.
BEFORE = r"(?<![\w.~/:<>-])"
AFTER = r"(?=/|\\|[\"'`\s),;]|$)"
POSIX = re.compile(BEFORE + "/(?:" + "|".join(TOP_LEVEL) + ")" + AFTER)
WINDOWS = re.compile(r"(?<![\w])[A-Za-z]:(?:\\\\|\\|/)(?=\w)")
HOME_RELATIVE = re.compile(r"(?<![\w.~/])~/(?=\w)")


def machine_paths() -> list[str]:
    """This clone's location, the home folder and the temp folder, as the running machine has them."""
    found = {str(ROOT), os.path.realpath(ROOT), str(Path.home()), tempfile.gettempdir(),
             os.path.realpath(tempfile.gettempdir())}
    return sorted(p for p in found if len(p.strip("/\\")) > 1)


def absolute_paths_in(text: str) -> list[str]:
    """Every absolute path the text names, as the matched text."""
    hits = [m.group(0) for pattern in (POSIX, WINDOWS, HOME_RELATIVE) for m in pattern.finditer(text)]
    for place in machine_paths():
        hits += [m.group(0) for m in re.finditer(BEFORE + re.escape(place) + AFTER, text)]
    return hits


def scanned_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files.append(path)
    return files


def read_text(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None  # fonts, images: binary data names no path
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# The kernel's process table, which every Linux machine has at that place: the stop tests list a
# stopped command's process group from it (no file of this machine is read).
ALLOWED = {("tests/stopping.py", "/" + "proc")}  # (written in two parts: this line is scanned too)


def test_no_file_under_cardgen_or_tests_names_an_absolute_path():
    offenders = []
    for path in scanned_files():
        text = read_text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for hit in absolute_paths_in(line):
                if (path.relative_to(ROOT).as_posix(), hit) in ALLOWED:
                    continue
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {hit!r}")
    assert offenders == []


def test_the_scan_reads_the_fixtures_and_the_sources():
    names = {p.relative_to(ROOT).as_posix() for p in scanned_files() if read_text(p) is not None}
    assert {"cardgen/cache.py", "tests/conftest.py",
            "tests/fixtures/seeds/bang-death-mesa-player-aid.txt"} <= names


# Written in pieces so that this file does not name the paths it checks the detector with.
SLASH = "/"


@pytest.mark.parametrize("line", [
    f'SEED = Path("{SLASH}work/shared/seeds/prohibition-alpha-rules.txt")',
    f"open('{SLASH}home/designer/cards.yaml')",
    f'out = "{SLASH}tmp"',
    f"cache = {SLASH}root/.cache/cardgen",
    f"PATH={SLASH}usr/local/bin:{SLASH}usr/bin",
    f'fonts: "{SLASH}Users/me/Library/Fonts/x.ttf"',
    'r"C:' + "\\" + 'Users' + "\\" + 'me"',
    "'D:" + SLASH + "cards'",
    f"'~{SLASH}cards/set.yaml'",
])
def test_the_detector_finds_absolute_paths(line):
    assert absolute_paths_in(line) != []


def test_the_detector_finds_this_clones_own_location():
    assert absolute_paths_in(f'ROOT = "{ROOT}"') != []


@pytest.mark.parametrize("line", [
    "/Type /Page /MediaBox [0 0 612 792] /Root 1 0 R",
    "/F1 12 Tf",
    "<var>x</var> <sub>2</sub>",
    "https://example.org/home/tmp/index.html",
    "data/tmp/cards.yaml and/or tests/fixtures/var/x",
    "a 1/2 in circle",
    '"/tmpl" "/variables" "/etc."',
    "../work/cards",
])
def test_the_detector_passes_relative_paths_and_pdf_names(line):
    assert absolute_paths_in(line) == []
