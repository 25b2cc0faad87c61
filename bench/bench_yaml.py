"""Benchmark: the same cards as a YAML card file and as a CSV file, built by whole processes.

    python bench/bench_yaml.py                        # 10,000 cards, plain deck, 5 runs each
    python bench/bench_yaml.py --deck images --runs 7

Each run is ``python -m cardgen build --no-cache`` in a new process, import included; CSV and
YAML runs alternate (CSV, YAML, CSV, ...) after one warm-up each, so that the machine's drift
falls on both. A run's time is its CPU time (user + system) and wall time, its memory its peak
resident size (ru_maxrss of that child alone, from wait4). Reported: the median of each, and the
median of the run-by-run ratios YAML / CSV. The two builds' PDF and manifest must be the same
bytes (their files given the same times, since a PDF's date is its set folder's newest file's):
a YAML card file is only another way to write the same cards.
Goal (issue 19, point 3): YAML within 1.2x of CSV in time and memory at 10,000 cards.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import REPO, make_project  # noqa: E402

FORMATS = ("csv", "yaml")


def build(project: Path, out: Path) -> dict:
    """One whole-process build; its wall and CPU seconds and peak memory (MB)."""
    command = [sys.executable, "-m", "cardgen", "--root", str(project), "build", "--no-cache", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    error = child.stderr.read().decode()
    child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"build of {project} failed:\n{error}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--deck", choices=("plain", "images"), default="plain")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-yaml-") as temporary:
        folder = Path(temporary)
        projects = {fmt: make_project(folder / fmt, args.cards, deck=args.deck, data_format=fmt) for fmt in FORMATS}
        written = time.time()  # the PDF's date is the set folder's newest file's: the same for both
        for project in projects.values():
            for path in (project / "data").rglob("*"):
                os.utime(path, (written, written))
        sizes = {fmt: (projects[fmt] / f"data/bench/cards.{fmt}").stat().st_size for fmt in FORMATS}
        runs: dict[str, list[dict]] = {fmt: [] for fmt in FORMATS}
        for turn in range(args.runs + 1):  # the first turn warms the disk cache and is not counted
            for fmt in FORMATS:
                result = build(projects[fmt], folder / f"out-{fmt}")
                if turn:
                    runs[fmt].append(result)
        outputs = {fmt: [(folder / f"out-{fmt}" / f"bench.{kind}").read_bytes() for kind in ("pdf", "json")]
                   for fmt in FORMATS}
    same = outputs["csv"] == outputs["yaml"]
    print(f"{args.cards:,} cards, {args.deck} deck, {args.runs} alternating runs each, cache off "
          f"(card file: CSV {sizes['csv'] / 1e6:.1f} MB, YAML {sizes['yaml'] / 1e6:.1f} MB)")
    print(f"{'':6} {'cpu s':>8} {'wall s':>8} {'cards/s':>9} {'peak MB':>8}")
    medians = {}
    for fmt in FORMATS:
        medians[fmt] = {key: statistics.median(run[key] for run in runs[fmt]) for key in ("cpu", "wall", "peak_mb")}
        m = medians[fmt]
        print(f"{fmt:6} {m['cpu']:8.2f} {m['wall']:8.2f} {args.cards / m['wall']:9,.0f} {m['peak_mb']:8.1f}")
    for key, what in (("cpu", "CPU time"), ("wall", "wall time"), ("peak_mb", "peak memory")):
        ratio = statistics.median(y[key] / c[key] for c, y in zip(runs["csv"], runs["yaml"]))
        print(f"YAML / CSV {what}: {ratio:.2f} (goal <= 1.2)")
    print("PDF and manifest: " + ("the same bytes" if same else "DIFFERENT"))
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
