"""A `cardgen` stopped by SIGTERM (a service manager, `timeout`, `kill`) unwinds as Ctrl-C does:
its temporary folders and staged files are removed. The exit status is 143, as a shell reports a process ended by SIGTERM."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from projects import make_project

CARDS = 60


def big_project(tmp_path: Path, cards: int = CARDS) -> Path:
    """The demo project with CARDS more cards, each of its own text, so that a proof or a build
    runs long enough to be stopped half-way."""
    root = make_project(tmp_path)
    rows = ["name,count,text"] + [f"Card {n},1,Card number {n} reads this text. :spade: {n * 7}" for n in range(cards)]
    (root / "data" / "demo" / "more.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def start(root: Path, temp: Path, *command: str) -> subprocess.Popen:
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(temp))
    return subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(root), *command], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop_when(process: subprocess.Popen, seen) -> tuple[int, str]:
    """SIGTERM as soon as ``seen()`` holds (the command is half-way); its exit status and stderr."""
    deadline = time.monotonic() + 120
    while not seen():
        assert process.poll() is None, f"it ended before it could be stopped: {process.communicate()}"
        assert time.monotonic() < deadline, "it never got half-way"
        time.sleep(0.005)
    process.send_signal(signal.SIGTERM)
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
