"""Benchmark: how long `cardgen --help` and `cardgen list` take as whole processes.

    python bench/bench_startup.py             # 11 runs of each, in this repository
    python bench/bench_startup.py --runs 21

Each run is a new ``python -m cardgen`` process, interpreter start included; the commands
alternate, after one warm-up run each. Reported: the median wall and CPU time (user + system,
from wait4) and peak memory, and the modules that give the time away if imported.
Goal (issue 19, point 6): both under 0.15 s; neither imports reportlab, jinja2 or Pillow.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = {"--help": ["--help"], "list": ["--root", str(REPO), "list"]}
HEAVY = ("reportlab", "jinja2", "PIL", "cardgen.pipeline")


def run(args: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "cardgen", *args], stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"cardgen {' '.join(args)} failed")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def imported(args: list[str]) -> list[str]:
    """The heavy modules the command imports (run once more, in a process that tells)."""
    code = ("import sys\nfrom cardgen.cli import main\ntry:\n    main(sys.argv[1:], prog_name='cardgen')\n"
            "except SystemExit:\n    pass\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    return done.stdout.splitlines()[-1].split() if done.stdout.strip() else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {name: [] for name in COMMANDS}
    for turn in range(args.runs + 1):
        for name, command in COMMANDS.items():
            result = run(command)
            if turn:  # the first turn warms the disk cache
                runs[name].append(result)
    print(f"whole processes, median of {args.runs} alternating runs")
    print(f"{'':18} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}  heavy modules imported")
    for name, command in COMMANDS.items():
        median = {key: statistics.median(r[key] for r in runs[name]) for key in ("wall", "cpu", "peak_mb")}
        heavy = ", ".join(imported(command)) or "none"
        print(f"{'cardgen ' + name:18} {median['wall']:7.3f} {median['cpu']:7.3f} {median['peak_mb']:8.1f}  {heavy}")
    print("goal: each under 0.15 s")


if __name__ == "__main__":
    main()
