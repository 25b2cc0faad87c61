"""Which temporaries a build (or `cardgen clean`) removes: only those of processes no longer
running, never its own nor another running process's, whoever owns it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from cardgen.write.temporary import stale_temporaries


def test_only_the_temporaries_of_finished_processes_are_stale(tmp_path):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
    dead = int(finished.stdout)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        names = {"mine": os.getpid(), "running": alive.pid, "finished": dead, "init": 1}
        for what, pid in names.items():
            (tmp_path / f".{what}.pdf.cardgen-{pid}-0123abcd.tmp").write_bytes(b"")
        # pid 1 is always running (and may belong to another user: still alive)
        assert stale_temporaries(tmp_path) == [tmp_path / f".finished.pdf.cardgen-{dead}-0123abcd.tmp"]
        assert alive.poll() is None  # asked whether it runs, not sent a signal
    finally:
        alive.terminate()
        # a signal sent by the check (a hang-up, say) is pending before this one, and lower
        # signals are delivered first: the process ends by ours alone only if it got no other
        assert alive.wait() == -signal.SIGTERM


def test_a_process_we_may_not_signal_is_running(tmp_path, monkeypatch):
    """Another user's process: os.kill(pid, 0) is refused, which means it exists."""
    def refused(pid, signal):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("cardgen.write.temporary.os.kill", refused)
    (tmp_path / ".a.pdf.cardgen-999999-0123abcd.tmp").write_bytes(b"")
    assert stale_temporaries(tmp_path) == []


def _dead_pid() -> int:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
    return int(finished.stdout)


def test_a_temporary_name_says_whose_it_is_and_is_known_as_one(tmp_path):
    from cardgen.write.temporary import is_temporary, temporary_path

    path = temporary_path(tmp_path / "demo.pdf")
    assert path.parent == tmp_path and is_temporary(path)
    head, tail = path.name.split(f".cardgen-{os.getpid()}-")
    assert head == ".demo.pdf" and len(tail) == len("0123abcd.tmp") and tail.endswith(".tmp")
    assert not is_temporary(tmp_path / "demo.pdf") and not is_temporary(tmp_path / ".demo.pdf.cardgen-1-xyz.tmp")


def test_remove_stale_removes_a_dead_builds_temporaries_in_each_folder_and_below_if_asked(tmp_path):
    from cardgen.write.temporary import remove_stale

    dead = _dead_pid()
    top, other = tmp_path / "top", tmp_path / "other"
    (top / "sub" / "deeper").mkdir(parents=True)
    other.mkdir()
    name = f".x.pdf.cardgen-{dead}-0123abcd.tmp"
    made = [top / name, top / "sub" / name, top / "sub" / "deeper" / name, other / name]
    for path in made:
        path.write_bytes(b"half")
    for n in range(10):  # files of other names, before and after ours in any order
        (top / f"notes-{n}.txt").write_text("keep")
    (top / f".link.pdf.cardgen-{dead}-0123abcd.tmp").symlink_to(top / "notes-0.txt")  # not a file of ours
    assert remove_stale(top, other) == [top / name, other / name]
    assert [p.exists() for p in made] == [False, True, True, False]
    assert remove_stale(top, below=True) == [top / "sub" / name, top / "sub" / "deeper" / name]
    assert sorted(p.name for p in top.iterdir()) == sorted(
        [f".link.pdf.cardgen-{dead}-0123abcd.tmp", "sub", *(f"notes-{n}.txt" for n in range(10))])


def test_a_temporary_that_cannot_be_removed_does_not_stop_the_others(tmp_path, monkeypatch):
    from pathlib import Path

    from cardgen.write.temporary import remove_stale

    dead = _dead_pid()
    paths = [tmp_path / f".{n}.pdf.cardgen-{dead}-0123abcd.tmp" for n in "abcd"]
    for path in paths:
        path.write_bytes(b"half")
    unlink = Path.unlink

    def refusing(path, *args, **kwargs):
        if path.name.startswith(".a."):
            unlink(path)  # another build removed it first
            raise FileNotFoundError(2, "No such file or directory", str(path))
        if path.name.startswith(".b."):
            raise PermissionError(13, "Permission denied", str(path))
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refusing)
    assert remove_stale(tmp_path) == paths[2:]
    assert [p.exists() for p in paths] == [False, True, False, False]


def test_remove_stale_below_stops_at_the_depth_cardgen_writes(tmp_path):
    from cardgen.write.temporary import remove_stale

    name = f".x.pdf.cardgen-{_dead_pid()}-0123abcd.tmp"  # `clean --out /` walked the whole file system
    deepest, deeper = tmp_path / "tgc/set/size", tmp_path / "tgc/set/size/further"
    deeper.mkdir(parents=True)
    for folder in (deepest, deeper):
        (folder / name).write_bytes(b"half")
    assert remove_stale(tmp_path, below=True) == [deepest / name]
    assert (deeper / name).exists()


def test_a_temporary_beside_a_long_name_fits_in_a_file_name(tmp_path):
    """An output whose name fits (a set named in 250 characters: 254 bytes with ".pdf") had a
    temporary 30 bytes longer, and the build said "file name too long" for a name that fits."""
    from cardgen.write.temporary import is_temporary, temporary_path

    target = tmp_path / ("s" * 250 + ".pdf")
    temporary = temporary_path(target)
    temporary.write_bytes(b"written")
    assert (len(os.fsencode(temporary.name)), is_temporary(temporary)) == (255, True)
    assert temporary.name.startswith("." + "s" * 200)
