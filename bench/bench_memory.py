"""Benchmark: peak memory of whole `cardgen build` processes at 10,000 and 100,000 cards, and the
bytes a card of what a build leaves (the PDF, the manifest, the cache).

    python bench/bench_memory.py                         # plain and images decks, 10,000 and 100,000 cards
    python bench/bench_memory.py --sizes 10000 --runs 1  # quicker

Each build is a new `python -m cardgen build` process in the deck's folder, its cache and output
removed first (cold); its peak memory is ru_maxrss as os.wait4 gives it, which is the largest of
the process and of the worker processes it waited for (a build on two cores, workers.py), not
their sum; its CPU time is user + system of all of them. The build also reports (through a small
wrapper, below) the peak of its own process and of its largest worker apart: ``sum`` is the
build's process plus --jobs times its largest worker, an upper bound (a worker is forked from the
build's process, and the pages they share are counted in both). This process stays small (the decks are written by a child of their own): Linux
counts a parent's memory at the fork in its child's ru_maxrss. Each is run ``--runs`` times (default 3), alternating sizes, and the median is
shown. After the cold runs, one more build keeps the cache (a rebuild with nothing changed):
its peak memory includes the index of the last build's cache file.
Goals (issue 19, point 4): peak memory at 100,000 cards <= 1.2 x that at 10,000; the manifest and
the cache together no larger a card than the PDF.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import REPO  # noqa: E402


WORKERS = len(os.sched_getaffinity(0))  # the workers a build starts (cardgen's default --jobs: every usable core)


def build(folder: Path, cold: bool = True) -> dict:
    """One `cardgen build` process: its peak memory (MB), CPU seconds and output sizes."""
    if cold:
        shutil.rmtree(folder / ".cardgen-cache", ignore_errors=True)
        shutil.rmtree(folder / "output", ignore_errors=True)
    peaks = folder.parent / f"{folder.name}-peaks.txt"  # beside the project: not one of its files
    peaks.unlink(missing_ok=True)
    environment = {**os.environ, "PYTHONPATH": str(REPO), "BENCH_PEAKS": str(peaks)}
    process = subprocess.Popen([sys.executable, "-c", _REPORTING, "build"], cwd=folder, env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode:
        raise SystemExit(f"cardgen build failed in {folder}:\n{errors}")
    own, worker = (int(kb) / 1024 for kb in peaks.read_text().split())
    return {"peak_mb": usage.ru_maxrss / 1024, "own_mb": own, "worker_mb": worker,
            "cpu": usage.ru_utime + usage.ru_stime,
            "pdf": (folder / "output/bench.pdf").stat().st_size,
            "manifest": (folder / "output/bench.json").stat().st_size,
            "cache": (folder / ".cardgen-cache/faces-bench.bin").stat().st_size}


# `cardgen build` as the command runs it (cli.run), which ends with os._exit: just before, the
# build's process writes its own peak and its largest worker's (the children it waited for), in kB
_REPORTING = """
import os, resource, sys
from cardgen import cli
main_pid, real_exit = os.getpid(), os._exit
def reporting_exit(code):
    if os.getpid() == main_pid:
        with open(os.environ["BENCH_PEAKS"], "w") as out:
            out.write(f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} "
                      f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
    real_exit(code)
os._exit = reporting_exit
sys.argv[0] = "cardgen"
cli.run()
"""


def make_in_child(folder: Path, cards: int, deck: str) -> Path:
    """The deck, made by another process: a child started from this one counts this one's
    memory at its start in its own peak (Linux keeps the high-water mark across exec), so this
    one holds no card."""
    code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); from synthetic import make_project; "
            "make_project(Path(sys.argv[2]), int(sys.argv[3]), deck=sys.argv[4])")
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve().parent), str(folder), str(cards), deck],
                   check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--decks", nargs="+", default=["plain", "images"], choices=["plain", "images"])
    parser.add_argument("--runs", type=int, default=3, help="cold builds per measurement (the median is shown)")
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    print(f"{'deck':<7} {'cards':>7} {'peak MB':>8} {'own MB':>7} {'worker':>7} {'sum':>6} {'CPU s':>7} "
          f"{'rebuild MB':>11} {'PDF B/card':>11} "
          f"{'manifest':>9} {'cache':>7} {'(m+c)/pdf':>10}")
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-memory-") as temporary:
        for deck in args.decks:
            folders = {cards: make_in_child(Path(temporary) / f"{deck}-{cards}", cards, deck) for cards in sizes}
            runs: dict[int, list[dict]] = {cards: [] for cards in sizes}
            for _ in range(args.runs):
                for cards in sizes:  # alternating: a change in the machine's load touches every size
                    runs[cards].append(build(folders[cards]))
            peaks, owns = {}, {}
            for cards in sizes:
                last = runs[cards][-1]
                rebuild = build(folders[cards], cold=False)
                peaks[cards] = statistics.median(r["peak_mb"] for r in runs[cards])
                cpu = statistics.median(r["cpu"] for r in runs[cards])
                own = owns[cards] = statistics.median(r["own_mb"] for r in runs[cards])
                worker = statistics.median(r["worker_mb"] for r in runs[cards])
                total = own + (WORKERS * worker if worker else 0)
                pdf, manifest, cache = (last[k] / cards for k in ("pdf", "manifest", "cache"))
                print(f"{deck:<7} {cards:>7} {peaks[cards]:>8.1f} {own:>7.1f} {worker:>7.1f} {total:>6.1f} {cpu:>7.2f} "
                      f"{rebuild['peak_mb']:>11.1f} "
                      f"{pdf:>11.0f} {manifest:>9.0f} {cache:>7.0f} {(manifest + cache) / pdf:>10.2f}")
                shutil.rmtree(folders[cards] / "output", ignore_errors=True)
            if len(sizes) > 1:
                print(f"{deck:<7} peak memory {sizes[-1]} / {sizes[0]} cards: {peaks[sizes[-1]] / peaks[sizes[0]]:.2f} "
                      f"(the build's own process: {owns[sizes[-1]] / owns[sizes[0]]:.2f})")
    print(f"own MB: the build's process; worker: its largest worker; sum: own + {WORKERS} x worker (an upper bound)")
    print("B/card: whole files (fonts and images included) over the cards; manifest and cache: output/bench.json and")
    print(".cardgen-cache/faces-bench.bin after a cold build; rebuild MB: a build with the cache of the one before")


if __name__ == "__main__":
    main()
