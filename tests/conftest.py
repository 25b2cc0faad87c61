"""Shared fixtures: a throw-away project folder built from tests/fixtures/project."""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from cardgen.cli import main

from projects import REPO, make_project
from livepage import chromium, page  # noqa: F401 (browser fixtures, shared: one Chromium a session)
from untouched import build_outputs, changes
from scheduling import pytest_xdist_make_scheduler  # noqa: F401 (the browser files on one worker, longest first)

# Hypothesis keeps no example database: it would be written into the repository (.hypothesis/).
settings.register_profile("cardgen", database=None)
settings.load_profile("cardgen")
_HYPOTHESIS_HOME: list[str] = []
_OUTPUTS_BEFORE = pytest.StashKey[dict]()


def pytest_configure(config):
    """Hypothesis's other files go to a folder of this user's in the temporary folder, kept
    between runs: the constants it reads from the code at collection, in every xdist worker,
    stored by the digest of each source file (0.85 CPU s a worker to parse them all anew, 0.1 s
    to read them back), and its Unicode table (0.1 s a process that draws text).

    The cardgen processes the tests start write their bytecode as an installed cardgen does:
    with PYTHONDONTWRITEBYTECODE set in the shell, each of them compiled the package from its
    source again (a fifth of a second a process, a tenth of the suite's CPU)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # A run started in the background (`pytest ... &`) inherits SIGINT ignored, and so would every
    # cardgen it starts: Python then sets no KeyboardInterrupt handler, and the tests that press
    # Ctrl-C on a build see it ignored. A handler here is reset to the default in each child.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    set_hypothesis_home_dir(_hypothesis_home())


def _hypothesis_home() -> Path:
    """The kept folder, or, when another user holds that name, a new one removed at the end."""
    kept = Path(tempfile.gettempdir()) / f"cardgen-hypothesis-{os.getuid()}"
    try:
        kept.mkdir(mode=0o700, exist_ok=True)
        if kept.is_dir() and not kept.is_symlink() and kept.stat().st_uid == os.getuid():
            return kept
    except OSError:
        pass
    _HYPOTHESIS_HOME.append(tempfile.mkdtemp(prefix="cardgen-hypothesis-"))
    return Path(_HYPOTHESIS_HOME[-1])


def pytest_unconfigure(config):
    while _HYPOTHESIS_HOME:
        shutil.rmtree(_HYPOTHESIS_HOME.pop(), ignore_errors=True)


def _runs_tests_itself(config) -> bool:
    """False in a pytest-xdist worker: the run's controller (or a run without xdist) watches the
    repository, once, from before the first test starts until the last one has finished."""
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session):
    if _runs_tests_itself(session.config):
        session.config.stash[_OUTPUTS_BEFORE] = build_outputs(REPO)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """The run fails if it leaves a build output or a cache in the repository: shipped sets are
    built in a temporary folder or with the cache off."""
    before = session.config.stash.get(_OUTPUTS_BEFORE, None)
    if before is None:
        return
    left = changes(before, build_outputs(REPO))
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_sep("=", "the tests wrote into the repository", red=True, bold=True)
            for line in left:
                reporter.write_line(line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def project(request, tmp_path: Path) -> Path:
    """A copy of tests/fixtures/project; with the fonts copied into its fonts/, unless the test
    or its module is marked ``shipped_fonts`` (then it uses cardgen's own, see make_project)."""
    return make_project(tmp_path, fonts=request.node.get_closest_marker("shipped_fonts") is None)


@pytest.fixture
def cli():
    """Run the command line in-process: cli(root, "build", "demo") -> click Result."""
    runner = CliRunner()

    def run(root: Path, *args: str):
        return runner.invoke(main, ["--root", str(root), *args], catch_exceptions=False)

    return run
