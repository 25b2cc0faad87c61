"""A `cardgen` command stopped at one moment of its work by a signal (SIGTERM, Ctrl-C, SIGKILL).

The command (HELD) waits at the moment asked for until a stop comes, and says through a named
pipe that it is there: the test stops it then, however fast or busy the machine, on a set of a
few cards, where a command that ran on would have to be long enough for a poll to catch it.
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forkserver import Forkserver

STOP_SIGNALS = [pytest.param(signal.SIGTERM, 143, id="SIGTERM"),
                pytest.param(signal.SIGINT, 1, id="Ctrl-C")]  # click's status for Ctrl-C ("Aborted!")
HANG_GUARD = 120  # seconds: only a command that never reaches its moment, or never ends, waits it out

# The `cardgen` command, waiting at one moment until a stop comes. HOLD is the moment:
#   "staged NAME"     at a stops.check (a page written, a cache file about to be put in place)
#                     while the PDF NAME.pdf is staged (a set's, a proof's)
#   "cached NAME"     the same, once the set NAME's face cache is being written too (the cache on)
#   "committed NAME"  just after NAME.pdf and the files that go with it are renamed into place
#   "drawn NAME"      as the art of the tuck box NAME.pdf is drawn, that PDF staged
#   "proof"           at a stops.check of a proof's build, the proof's temporary folder made
# HOLD_OUT is the project's output folder. Once it waits, the command writes the temporary folder
# it uses (TMPDIR, as the command reads it) and a new line into the named pipe HOLD_FIFO.
HELD = """
import os, signal, sys, tempfile, time
from pathlib import Path
from cardgen import cli, stops
from cardgen.write import atomic

# Ctrl-C as a terminal gives it, even to a test run started in the background (whose children
# inherit it ignored, and cardgen then leaves it ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
when, _, name = os.environ["HOLD"].partition(" ")
out = Path(os.environ["HOLD_OUT"])
check, commit = stops.check, atomic._commit

def held():
    # until a stop comes, handled as it would have been here (raised, or deferred by a commit)
    came, previous = [], {signum: signal.getsignal(signum) for signum in stops.STOPS}

    def noted(signum, frame):
        came.append(signum)
        previous[signum](signum, frame)
    for signum in previous:
        signal.signal(signum, noted)
    with open(os.environ["HOLD_FIFO"], "w") as fifo:  # the test stops it from now on
        fifo.write(tempfile.gettempdir() + "\\n")
    try:
        while not came:
            time.sleep(0.05)  # cut short by a stop that raises
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

def staged():
    return any(p.name.startswith(f".{name}.pdf.cardgen-") for p in out.iterdir())

def cached():
    cache = out.parent / ".cardgen-cache"
    return cache.is_dir() and any(p.name.startswith(f".faces-{name}.bin.cardgen-") for p in cache.iterdir())

def check_held():
    if (when == "staged" and staged() or when == "cached" and staged() and cached()
            or when == "proof" and any(p.name.startswith("cardgen-proof-") for p in Path(tempfile.gettempdir()).iterdir())):
        held()
    check()

def commit_held(temporaries, targets):
    commit(temporaries, targets)
    if when == "committed" and any(target.name == f"{name}.pdf" for target in targets):
        held()

stops.check, atomic._commit = check_held, commit_held
if when == "drawn":
    from cardgen.components import boxes
    draw = boxes.draw_face

    def draw_held(*args, **kwargs):
        if staged():
            held()
        return draw(*args, **kwargs)
    boxes.draw_face = draw_held
sys.argv[0] = "cardgen"
cli.run()
"""


class Held:
    """``cardgen --root ROOT COMMAND``, run until the moment ``hold`` (see HELD) and held there:
    in a process forked from ``forks``, or (None) in a new interpreter, whose TMPDIR is ``temp``
    (its environment: ``env``, or this process's). A context: a command the test did not stop
    is killed as the block ends."""

    def __init__(self, root: Path, temp: Path, hold: str, *command: str, forks: Forkserver | None = None,
                 env: dict[str, str] | None = None, code: str = HELD, session: bool = False):
        temp.mkdir(exist_ok=True)
        self.fifo_path = temp.parent / f"held-{os.getpid()}.fifo"  # not in TMPDIR: the test looks there
        if not self.fifo_path.exists():
            os.mkfifo(self.fifo_path)
        # read and written here: never at its end, so only what the command writes wakes a wait
        self.fifo = os.open(self.fifo_path, os.O_RDWR | os.O_NONBLOCK)
        env = dict(os.environ if env is None else env, TMPDIR=str(temp), HOLD=hold, HOLD_OUT=str(root / "output"),
                   HOLD_FIFO=str(self.fifo_path))
        args = ["--root", str(root), *command]
        self.session = session
        if forks is not None:
            self.process = forks.start(args, env, code=code, session=session)
        else:
            self.process = subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, start_new_session=session)

    def reached(self) -> str:
        """Wait until the command is held at its moment; the temporary folder it uses."""
        deadline = time.monotonic() + HANG_GUARD
        said = b""
        while not said.endswith(b"\n"):
            if select.select([self.fifo], [], [], 0.2)[0]:  # woken by the command, at once
                said += os.read(self.fifo, 4096)
                continue
            assert self.process.poll() is None, f"it ended before its moment: {self.process.communicate()}"
            assert time.monotonic() < deadline, "it never reached its moment"
        return said.decode().strip()

    def stop(self, signum: int) -> tuple[int, str]:
        """Stop it with ``signum``; its exit status and stderr."""
        self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=HANG_GUARD)
        return self.process.returncode, err

    def __enter__(self) -> "Held":
        return self

    def __exit__(self, *exception) -> None:
        try:
            if self.process.poll() is None:
                if self.session:  # its workers too
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.send_signal(signal.SIGKILL)
                self.process.communicate(timeout=HANG_GUARD)
            if self.session:
                for pid in alive_in_group(self.process.pid):  # what a hung command left
                    os.kill(pid, signal.SIGKILL)
        finally:
            os.close(self.fifo)


def alive_in_group(group: int) -> list[int]:
    """The processes of the process group ``group`` that are still running (not ended, waiting
    to be reaped), read from /proc (Linux)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()  # after "pid (command name)"
        except OSError:  # it ended meanwhile
            continue
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state not in ("Z", "X"):
            alive.append(int(stat.parent.name))
    return sorted(alive)


def ours(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if "cardgen" in p.name)
