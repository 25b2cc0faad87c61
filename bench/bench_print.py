"""Benchmark: a CMYK build against the RGB build, and preflight of every shipped set.

    python bench/bench_print.py               # 1,000 synthetic cards, 3 runs each
    python bench/bench_print.py --cards 2000 --runs 5

Goals (issue 14): a CMYK build (``cardgen build --color cmyk``) takes at most 1.2 times the RGB
build of the same set; ``cardgen preflight`` of all shipped sets takes under a second beyond the
build (measured in one process, after importing cardgen, for --shop home and --shop drivethru).
Builds run as a user runs them, ``python -m cardgen build --no-cache`` in a fresh process, RGB and
CMYK alternating; every figure is the median of ``--runs`` runs.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_proof import ENVIRONMENT  # noqa: E402
from synthetic import make_project  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_seconds(folder: Path, color: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one build in a new process. On a shared machine the CPU time is
    the steadier figure: other processes stretch the wall time, not the work."""
    started, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-m", "cardgen", "--root", str(folder), "build", "--no-cache", "--color", color,
                    "--out", str(folder / f"out-{color}")], check=True, capture_output=True, env=ENVIRONMENT)
    return time.perf_counter() - started, _children_cpu() - cpu


def bench_cmyk(cards: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = make_project(Path(temporary), cards)
        times = {"rgb": [], "cmyk": []}
        build_seconds(folder, "rgb")  # warm the file cache and compiled modules
        for _ in range(runs):
            for color in ("rgb", "cmyk"):
                times[color].append(build_seconds(folder, color))
        for index, kind in ((0, "wall"), (1, "CPU")):
            rgb = statistics.median(t[index] for t in times["rgb"])
            cmyk = statistics.median(t[index] for t in times["cmyk"])
            print(f"{cards} cards, {kind}: RGB build {rgb:.2f} s, CMYK build {cmyk:.2f} s: {cmyk / rgb:.2f}x "
                  "(goal <= 1.2x)")


def bench_preflight(runs: int) -> None:
    import cardgen
    from cardgen.preflight import preflight

    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        for name in ("data", "templates", "fonts"):
            shutil.copytree(REPO / name, root / name)
        started, cpu = time.perf_counter(), time.process_time()
        cardgen.build(None, root, root / "output", cardgen.BuildOptions(cache=False))
        build, build_cpu = time.perf_counter() - started, time.process_time() - cpu
        for shop in ("home", "drivethru"):
            seconds, cpus = [], []
            for _ in range(runs):
                started, cpu = time.perf_counter(), time.process_time()
                reports = preflight(None, root, shop)
                seconds.append(time.perf_counter() - started)
                cpus.append(time.process_time() - cpu)
            errors = sum(r.errors for r in reports)
            print(f"preflight --shop {shop}, all {len(reports)} shipped sets: {statistics.median(seconds):.2f} s wall, "
                  f"{statistics.median(cpus):.2f} s CPU beyond the build ({build:.2f} s wall, {build_cpu:.2f} s CPU), "
                  f"{errors} errors (goal < 1 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bench_preflight(args.runs)
    bench_cmyk(args.cards, args.runs)


if __name__ == "__main__":
    main()
