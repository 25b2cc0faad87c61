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
