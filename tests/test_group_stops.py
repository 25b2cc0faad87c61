"""A proof, a shop export or a build on workers stopped at any moment, by SIGTERM or Ctrl-C sent
to the command's process alone (`kill`) or to its whole process group, workers included (Ctrl-C
in a terminal, a service manager's SIGTERM): the command ends (a hang is the failure), with the
status and message of a stopped run, leaves no temporary file or folder and no worker running,
and every file of the earlier output is the earlier one or a whole new one."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cardgen.export import export_report
from cardgen.proof import proof
from cardgen.proof.workers import can_fork
from forkserver import BUILD_IMPORTS, Forkserver
from projects import make_project
from cardgen.write.temporary import is_temporary
from stopping import Held, alive_in_group, ours

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked (Linux)")

FORKS = Forkserver(preload=BUILD_IMPORTS + ("cardgen.proof", "cardgen.export", "cardgen.commands.proof",
                                            "cardgen.commands.export"))
# seconds from the stop to the command's end: a stopped run ends in a tenth of a second, a few
# under load; multiprocessing.Pool, used before, waited 10 s for its workers, or for ever
STOP_BOUND = 8.0
STOPPED = {signal.SIGTERM: 143, signal.SIGINT: 1}  # as a shell reports SIGTERM; click's status for Ctrl-C
KILLED = -signal.SIGKILL  # the status of a process SIGKILL ended
MESSAGE = "\nAborted!\n"  # click's, for a stopped command

# The `cardgen` command of stopping.HELD, held at one of these moments (HOLD) until a stop comes:
#   "raster"  in a worker, rasterising its first face: the command waits for its first result
#   "result"  in the command's process, the first chunk's result taken, the workers' still out
#   "contact" in the command's process, the contact sheet's temporary half-written
#   "chunk"   in a build's worker, laying out its first chunk of cards (a build on workers)
# What is held writes "<its process id>" into the named pipe HOLD_FIFO.
GROUP_HELD = """
import os, signal, sys, time
from pathlib import Path
from cardgen import cli, stops

signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal gives it (see stopping.HELD)
when, command = os.environ["HOLD"], os.getpid()

def held():
    # until a stop comes, handled as it would have been here: raised, ignored, or the end
    came, previous = [], {signum: signal.getsignal(signum) for signum in stops.STOPS}

    def noted(signum, frame):
        handler = previous[signum]
        if handler is signal.SIG_IGN:
            return
        came.append(signum)
        if callable(handler):
            handler(signum, frame)
        else:  # SIG_DFL: the end of the process
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
    for signum in previous:
        signal.signal(signum, noted)
    fifo = os.open(os.environ["HOLD_FIFO"], os.O_WRONLY)
    os.write(fifo, f"{os.getpid()}\\n".encode())
    os.close(fifo)
    try:
        while not came:
            time.sleep(0.05)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

if when == "raster":
    from cardgen.proof.raster import Rasteriser
    rows, first = Rasteriser.rows, []

    def rows_held(self, *args, **kwargs):
        if os.getpid() != command and not first:
            first.append(True)
            held()
        return rows(self, *args, **kwargs)
    Rasteriser.rows = rows_held
elif when == "result":
    import cardgen.proof, cardgen.export.shop_files
    mapping = cardgen.proof.ordered_map

    def ordered_map_held(*args):
        results = mapping(*args)
        try:
            for number, result in enumerate(results):
                yield result
                if number == 0:
                    held()
        finally:
            results.close()
    cardgen.proof.ordered_map = cardgen.export.shop_files.ordered_map = ordered_map_held
elif when == "contact":
    write_bytes = Path.write_bytes

    def write_bytes_held(self, data):
        if not self.name.startswith(".contact.png.cardgen-"):
            return write_bytes(self, data)
        with self.open("wb") as file:
            file.write(data[:len(data) // 2])
            file.flush()
            held()
            file.write(data[len(data) // 2:])
    Path.write_bytes = write_bytes_held
elif when == "chunk":
    from cardgen import worker_process, workers
    workers.CHUNK, workers.MIN_CARDS = 4, 1  # workers for a set of a few cards
    chunk = worker_process._chunk

    def chunk_held(*args):
        held()
        return chunk(*args)
    worker_process._chunk = chunk_held
sys.argv[0] = "cardgen"
cli.run()
"""


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


def temporaries(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.rglob("*") if is_temporary(path))


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def stopped(root: Path, temp: Path, moment: str, signum: int, group: bool, *command: str) -> tuple[int, str]:
    """Run ``command``, stop it at ``moment`` with ``signum`` (to its process group, or to its
    process alone), and check it ends within STOP_BOUND seconds, leaving no process of its group
    running and no temporary folder; its status and stderr."""
    with Held(root, temp, moment, *command, forks=FORKS, code=GROUP_HELD, session=True) as process:
        where = int(process.reached().split()[0])
        members = alive_in_group(process.process.pid)
        assert (where != process.process.pid) == (moment in ("raster", "chunk")), moment
        if moment != "contact":  # (the workers have ended before the contact sheet is made)
            assert len(members) > 1, f"no worker at {moment}"
        if group:
            os.killpg(process.process.pid, signum)
        else:
            process.process.send_signal(signum)
        sent = time.monotonic()
        try:
            _, err = process.process.communicate(timeout=STOP_BOUND)
        except subprocess.TimeoutExpired:
            err = None
        if err is None:
            pytest.fail(f"stopped at {moment}: still running {STOP_BOUND:g} s later "
                        f"(processes {alive_in_group(process.process.pid)} of {members})", pytrace=False)
        took = time.monotonic() - sent
        code = process.process.returncode
        for _ in range(100):  # an orphan the system has not reaped yet: a moment
            left = alive_in_group(process.process.pid)
            if not left:
                break
            time.sleep(0.05)
        assert left == [], f"stopped at {moment}: processes {left} of {members} still running"
    if signum != signal.SIGKILL:  # (a killed command removes nothing itself)
        assert ours(temp) == []  # the proof's build folder removed
    assert took < STOP_BOUND
    return code, err


def neither(now: dict[str, bytes], old: dict[str, bytes], new: dict[str, bytes], index: str) -> list[str]:
    """The files of ``now`` that are neither the earlier run's nor a whole run's of the new input
    (but the ``index``, which a run changes as it starts: its files are checked apart)."""
    return [name for name, data in now.items() if data not in (old.get(name), new.get(name)) and name != index]


def misnamed(now: dict[str, bytes], old: dict[str, bytes], new: dict[str, bytes], index: str) -> list[str]:
    """The files that the ``index`` of ``now`` says hold a content they do not hold: each must be
    the file of the earlier run or of the new one whose index names the same content."""
    folder = index.rpartition("/")[0] + "/" if "/" in index else ""
    wrong = []
    for face in json.loads(now[index])["faces"]:
        name = folder + face["file"]
        held = [files[name] for files in (old, new) if {"file": face["file"], "key": face["key"]} in
                [{"file": f["file"], "key": f["key"]} for f in json.loads(files[index])["faces"]]]
        if now[name] not in held:
            wrong.append(name)
    return wrong


# --- a proof ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def proofed(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The demo project proofed (into output/proofs/demo), and the files of a proof with the
    overlay on (every face different), made in full elsewhere: the stopped runs ask for that."""
    tmp_path = tmp_path_factory.mktemp("proofed")
    root = make_project(tmp_path, fonts=False)
    ((earlier,), _) = proof(["demo"], root, root / "output" / "proofs", jobs=1)
    ((overlaid,), _) = proof(["demo"], root, tmp_path / "overlaid", overlay=True, jobs=1)
    return root, files_of(earlier.folder), files_of(overlaid.folder)


PROOF_STOPS = [  # (moment, signal, to the whole group)
    ("raster", signal.SIGTERM, True), ("raster", signal.SIGINT, True), ("raster", signal.SIGINT, False),
    ("result", signal.SIGTERM, True), ("result", signal.SIGINT, True), ("result", signal.SIGTERM, False),
    ("contact", signal.SIGTERM, True), ("contact", signal.SIGINT, False),
]


@pytest.mark.parametrize("moment, signum, group", PROOF_STOPS,
                         ids=[f"{m}-{s.name}-{'group' if g else 'alone'}" for m, s, g in PROOF_STOPS])
def test_a_stopped_proof_ends_at_once_and_keeps_the_earlier_files(proofed, tmp_path, moment, signum, group):
    built, old, new = proofed
    root = tmp_path / "proj"
    shutil.copytree(built, root, symlinks=True)
    code, err = stopped(root, tmp_path / "tmp", moment, signum, group, "proof", "demo", "--overlay", "--jobs", "2")
    assert (code, err) == (STOPPED[signum], MESSAGE)
    now = files_of(root / "output" / "proofs" / "demo")
    assert temporaries(root / "output") == []  # no temporary
    assert set(old) <= set(now) <= set(old) | set(new)
    assert neither(now, old, new, "proof.json") == []
    if moment == "contact":
        assert now["contact.png"] == old["contact.png"]
    assert misnamed(now, old, new, "proof.json") == []


def test_a_proof_killed_leaves_no_worker_running(proofed, tmp_path):
    """SIGKILL to the command alone (the out-of-memory killer, a service manager's last word):
    its workers, rasterising, are stopped by the system and unwind as from any stop."""
    built, old, new = proofed
    root = tmp_path / "proj"
    shutil.copytree(built, root, symlinks=True)
    code, err = stopped(root, tmp_path / "tmp", "raster", signal.SIGKILL, False, "proof", "demo", "--overlay",
                        "--jobs", "2")
    assert (code, err) == (KILLED, "")
    now = files_of(root / "output" / "proofs" / "demo")
    assert temporaries(root / "output") == []
    assert set(old) <= set(now) <= set(old) | set(new)
    assert neither(now, old, new, "proof.json") == []
    assert misnamed(now, old, new, "proof.json") == []


# --- a print shop's export --------------------------------------------------------------------

@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The demo project exported for The Game Crafter (into output/tgc), then its cards' text
    changed; and the files of an export of the changed cards, made in full elsewhere."""
    tmp_path = tmp_path_factory.mktemp("exported")
    root = make_project(tmp_path, fonts=False)
    export_report("demo", root, root / "output" / "tgc", shop="tgc", jobs=1)
    for name, before, after in (("cards.yaml", "Draw **two**", "Draw **three**"),
                                ("cards.yaml", "up to three", "up to four"),
                                ("more.csv", ",Attack <12>", ",Attack <13>"),
                                ("more.csv", "goes on and on.", "goes on.")):
        cards = root / "data" / "demo" / name
        cards.write_text(cards.read_text(encoding="utf-8").replace(before, after), encoding="utf-8")
    export_report("demo", root, tmp_path / "changed", shop="tgc", jobs=1)
    return root, files_of(root / "output" / "tgc"), files_of(tmp_path / "changed")


@pytest.mark.parametrize("moment, signum", [("raster", signal.SIGTERM), ("result", signal.SIGINT)],
                         ids=["raster-SIGTERM-group", "result-SIGINT-group"])
def test_a_stopped_export_ends_at_once_and_keeps_the_earlier_files(exported, tmp_path, moment, signum):
    built, old, new = exported
    assert len(neither(new, old, {}, "demo/export.json")) == 4  # the changed cards' fronts are rasterised again
    root = tmp_path / "proj"
    shutil.copytree(built, root, symlinks=True)
    code, err = stopped(root, tmp_path / "tmp", moment, signum, True, "export", "demo", "--shop", "tgc", "--jobs", "2")
    assert (code, err) == (STOPPED[signum], MESSAGE)
    now = files_of(root / "output" / "tgc")
    assert temporaries(root / "output") == []
    assert sorted(now) == sorted(old) and neither(now, old, new, "demo/export.json") == []
    assert misnamed(now, old, new, "demo/export.json") == []


# --- a build on workers -----------------------------------------------------------------------

@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_build_on_workers_stopped_with_its_group_ends_at_once_and_keeps_the_earlier_files(tmp_path, signum):
    root = make_project(tmp_path, fonts=False)
    (root / "output").mkdir()
    (root / "output" / "demo.pdf").write_bytes(b"earlier")
    code, err = stopped(root, tmp_path / "tmp", "chunk", signum, True, "build", "demo", "--no-cache", "--jobs", "2")
    assert (code, err) == (STOPPED[signum], MESSAGE)
    assert files_of(root / "output") == {"demo.pdf": b"earlier"}
