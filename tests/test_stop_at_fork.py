"""A stop that reaches a worker between its fork and its own signal handlers (a process group's
SIGTERM or Ctrl-C a moment after the fork): the worker ends, quietly. It used to run the
command's handler, inherited at the fork, and unwind the command's own code in the worker:
"Aborted!" printed once by each worker while the build went on, and a proof's worker removed
the command's temporary folder ("cannot write .../<set>.json: no such file or directory")."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.proof.workers import can_fork
from projects import make_project

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked (Linux)")

STOPPED_AT_FORK = """
import os, signal, sys
from cardgen import workers
workers.CHUNK, workers.MIN_CARDS = 4, 1  # workers for a set of a few cards
fork = os.fork

def fork_then_stopped():
    pid = fork()
    if pid == 0:  # the worker, before anything of its own: as a group's stop lands
        os.kill(os.getpid(), signal.SIGTERM)
    return pid

os.fork = fork_then_stopped
from cardgen.cli import run
sys.argv = ["cardgen", "--root", sys.argv[1], *sys.argv[2:]]
run()
"""


@pytest.mark.parametrize("command, said", [
    (("build", "demo"), r"built 1 set, \d+ cards, \d+ pages in [\d.]+ s"),
    (("proof", "demo", "--jobs", "2"), r"proofed 1 set, \d+ faces in [\d.]+ s: .*"),
], ids=["build", "proof"])
def test_a_stop_between_a_workers_fork_and_its_handlers_ends_the_worker_alone(tmp_path, command, said):
    import re

    root = make_project(tmp_path, fonts=False)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent.parent),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", STOPPED_AT_FORK, str(root), *command], capture_output=True,
                          text=True, timeout=120, env=env)
    assert "Aborted!" not in done.stdout + done.stderr
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(said, done.stdout.splitlines()[-1]), done.stdout
