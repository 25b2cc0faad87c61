"""A `cardgen` stopped by SIGTERM (a service manager, `timeout`, `kill`) unwinds as Ctrl-C does:
its temporary folders and staged files are removed, and each set's PDF and manifest are both the
earlier build's or both the new one's. The exit status is 143, as a shell reports a process ended
by SIGTERM (Ctrl-C: 1, click's "Aborted!")."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projects import make_project

CARDS = 60


def big_project(tmp_path: Path, cards: int = CARDS) -> Path:
    """The demo project with CARDS more cards, each of its own text, so that a proof or a build
    runs long enough to be stopped half-way."""
    root = make_project(tmp_path)
    rows = ["name,count,text"] + [f"Card {n},1,Card number {n} reads this text. :spade: {n * 7}" for n in range(cards)]
    (root / "data" / "demo" / "more.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def start(root: Path, temp: Path, *command: str, preexec_fn=None, hold: str = "") -> subprocess.Popen:
    """``cardgen ...`` in a new interpreter; with ``hold`` (see HELD), one that waits at that
    moment of its build until it is stopped."""
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(temp), HOLD=hold, HOLD_OUT=str(root / "output"))
    program = ["-c", HELD] if hold else ["-m", "cardgen"]
    return subprocess.Popen([sys.executable, *program, "--root", str(root), *command], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)


# The `cardgen` command, waiting at one moment of its build until a stop comes (HOLD: "staged
# NAME", at a page written while NAME's PDF is staged; "committed NAME", just after NAME's files
# are renamed into place): the moment is reached however fast or busy the machine, with a set
# of a few pages, where a build that runs on would have to be long enough for a poll to see it.
HELD = """
import os, signal, sys, time
from pathlib import Path
from cardgen import cli, stops
from cardgen.write import atomic

when, name = os.environ["HOLD"].split()
check, commit = stops.check, atomic._commit

def held():
    # until a stop comes, handled as it would have been here (raised, or deferred by a commit)
    came, previous = [], {signum: signal.getsignal(signum) for signum in stops.STOPS}

    def noted(signum, frame):
        came.append(signum)
        previous[signum](signum, frame)
    for signum in previous:
        signal.signal(signum, noted)
    Path(os.environ["HOLD_OUT"] + ".held").touch()  # the test stops it from now on
    try:
        while not came:
            time.sleep(0.005)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

def check_held():
    if when == "staged" and any(p.name.startswith(f".{name}.pdf.cardgen-") for p in Path(os.environ["HOLD_OUT"]).iterdir()):
        held()
    check()

def commit_held(temporaries, targets):
    commit(temporaries, targets)
    if when == "committed" and any(target.name == f"{name}.pdf" for target in targets):
        held()

stops.check, atomic._commit = check_held, commit_held
sys.argv[0] = "cardgen"
cli.run()
"""


def _ctrl_c_unwinds() -> None:
    """In the child: Ctrl-C as a terminal gives it, even if this run ignores it (started in the
    background by a shell), which the child would inherit, and Python then leaves it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_when(process: subprocess.Popen, seen, stop: int = signal.SIGTERM) -> tuple[int, str]:
    """``stop`` as soon as ``seen()`` holds (the command is half-way); its exit status and stderr."""
    deadline = time.monotonic() + 120
    while not seen():
        assert process.poll() is None, f"it ended before it could be stopped: {process.communicate()}"
        assert time.monotonic() < deadline, "it never got half-way"
        time.sleep(0.005)
    process.send_signal(stop)
    _, err = process.communicate(timeout=120)
    return process.returncode, err


def ours(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if "cardgen" in p.name)


def test_a_proof_stopped_half_way_leaves_no_temporary_folder(tmp_path):
    root = big_project(tmp_path)
    temp = tmp_path / "tmp"
    proof = start(root, temp, "proof", "demo", "--jobs", "1")
    code, err = stop_when(proof, lambda: any(p.name.startswith("cardgen-proof-") for p in temp.iterdir()))
    assert code == 143, err
    assert "Traceback" not in err
    assert ours(temp) == []
    assert [p.name for p in (root / "output").rglob("*.tmp")] == []


# --- a build stopped at any moment: each set's PDF and manifest both old or both new -----------

SET_CARDS = 40  # a few pages: the build waits at each moment (HELD)
STOP_SIGNALS = [pytest.param(signal.SIGTERM, 143, id="SIGTERM"),
              pytest.param(signal.SIGINT, 1, id="Ctrl-C")]  # click's status for Ctrl-C ("Aborted!")


def two_set_project(tmp_path: Path) -> Path:
    """The demo set, big, and a copy of it named zeta: a build writes demo, then zeta."""
    root = big_project(tmp_path, SET_CARDS)
    shutil.copytree(root / "data" / "demo", root / "data" / "zeta")
    set_file = root / "data" / "zeta" / "set.yaml"
    set_file.write_text(set_file.read_text(encoding="utf-8").replace("name: demo", "name: zeta", 1), encoding="utf-8")
    return root


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def set_outputs(everything: dict[str, bytes], name: str) -> dict[str, bytes]:
    return {n: data for n, data in everything.items() if n.startswith(name + ".")}


def build(root: Path, *options: str) -> None:
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(root), "build", "--no-cache", *options],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def staged_pdf(out: Path, name: str) -> Path | None:
    return next((p for p in out.iterdir() if p.name.startswith(f".{name}.pdf.cardgen-")), None)


def _moments(out: Path, old: dict[str, bytes]):
    """When to stop the build, each a function that waits for its moment in ``out``, and what
    each set must then hold: "old", "new", or either (None)."""
    def pdf_staged(name):
        return lambda: staged_pdf(out, name) is not None

    def pdf_committed(name):  # renamed into place: no temporary, a PDF other than the earlier one
        return lambda: staged_pdf(out, name) is None and (out / f"{name}.pdf").read_bytes() != old[f"{name}.pdf"]

    return [
        ("staged demo", pdf_staged("demo"), {"demo": "old", "zeta": "old"}),
        ("committed demo", pdf_committed("demo"), {"demo": "new", "zeta": None}),
        ("staged zeta", pdf_staged("zeta"), {"demo": "new", "zeta": "old"}),
        ("committed zeta", pdf_committed("zeta"), {"demo": "new", "zeta": "new"}),
    ]


@pytest.fixture(scope="module")
def old_and_new(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The two-set project built, then its cards changed; the outputs of the earlier input (in
    its output folder) and of the changed one. Built once for the module: each test stops its
    builds in a copy."""
    tmp_path = tmp_path_factory.mktemp("old-and-new")
    root = two_set_project(tmp_path)
    build(root)
    old = outputs(root / "output")
    for name in ("demo", "zeta"):
        csv = root / "data" / name / "more.csv"
        csv.write_text(csv.read_text(encoding="utf-8").replace("reads this text", "reads another text"), encoding="utf-8")
    build(root, "--out", str(tmp_path / "fresh"))
    return root, old, outputs(tmp_path / "fresh")


@pytest.mark.parametrize("stop, status", STOP_SIGNALS)
def test_a_build_stopped_at_any_moment_leaves_each_set_old_or_new_never_mixed(old_and_new, tmp_path, stop, status):
    built, old, new = old_and_new
    root = tmp_path / "proj"
    shutil.copytree(built, root, symlinks=True)
    out = root / "output"
    assert outputs(out) == old
    assert sorted(old) == sorted(new) == ["demo.json", "demo.pdf", "zeta.json", "zeta.pdf"]
    for name in ("demo", "zeta"):
        assert set_outputs(old, name) != set_outputs(new, name)
    temp = tmp_path / "tmp"
    waiting = Path(f"{out}.held")  # the build waits at the moment (HELD)
    for moment, reached, expected in _moments(out, old):
        waiting.unlink(missing_ok=True)
        for name, data in old.items():  # every run starts from the earlier build's outputs
            (out / name).write_bytes(data)
        process = start(root, temp, "build", "--no-cache", "--jobs", "1", preexec_fn=_ctrl_c_unwinds, hold=moment)
        code, err = stop_when(process, lambda: waiting.exists() and reached(), stop)
        left = outputs(out)
        for name, must in expected.items():
            held = set_outputs(left, name)
            state = "old" if held == set_outputs(old, name) else "new" if held == set_outputs(new, name) else "mixed"
            assert state in ((must,) if must else ("old", "new")), f"stopped when {moment}: {name} is {state}"
        assert code == status, (moment, code, err)  # stopped at the moment: not a finished build (0)
        assert "Traceback" not in err
        assert sorted(left) == sorted(old)  # no temporary left in the output folder
        assert ours(temp) == []
