"""Benchmark: `cardgen build` on one process against two (issue 19, point 2), on the images
deck (bench/synthetic.py): whole processes from the shell, import included, the cache cleared
before each run, runs of --jobs 1 and --jobs 2 alternating.

    python bench/bench_workers.py                      # 1,000 and 10,000 cards, 5 runs each
    python bench/bench_workers.py --cards 1000 --runs 7
    python bench/bench_workers.py --cards 150 300 600 --runs 5    # where two processes start to pay
    python bench/bench_workers.py --cards 10000 --runs 1 --split   # where the time goes, process by process

For each size and job count it prints the median wall time and cards/s, the median CPU time
(user + system of the build and its workers: on a busy machine the honest figure, since wall
time then depends on what else runs) and the machine's load (`uptime`); then whether the two
builds wrote the same bytes (PDF and manifest). Goals: 1,000 cards in <= 0.4 s, 10,000 cards
at >= 4,000 cards/s.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import make_project  # noqa: E402

CARDGEN = Path(sys.executable).with_name("cardgen")


def run_once(root: Path, jobs: int) -> tuple[float, float]:
    """(wall, user + system) seconds of one `cardgen build --jobs N`, cache cleared."""
    shutil.rmtree(root / ".cardgen-cache", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([str(CARDGEN), "build", "--jobs", str(jobs), "--out", f"out-{jobs}"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def same_output(root: Path, jobs: list[int]) -> bool:
    first = root / f"out-{jobs[0]}"
    return all(filecmp.cmp(first / name, root / f"out-{j}" / name, shallow=False)
               for j in jobs[1:] for name in ("bench.pdf", "bench.json"))


STAGES = (  # (stage, where its code lives), first match wins: the build's process by stage
    ("waiting for the workers", ("BufferedReader",)),
    ("page compression (zlib)", ("zlib",)),
    ("receiving chunks (workers.py, marshal)", ("workers.py", "marshal.loads")),
    ("reading cards", ("/load/",)),
    ("rendering templates", ("/render/", "jinja2", ".j2")),
    ("laying out (text fitting, images read)", ("/text/", "layout.py", "assets.py", "PIL", "images.py _load", "raster.py load_raster")),
    ("imposing", ("/sheets/",)),
    ("manifest", ("manifest.py", "json/")),
    ("drawing faces (text, images, forms)", ("/draw/", "rendered.py", "write/face.py", "write/pdf.py")),
    ("pages and fonts into the file (write, reportlab)", ("/write/", "reportlab")),
)


def _stage(file: str, function: str) -> str:
    where = f"{file} {function}"
    return next((name for name, marks in STAGES if any(mark in where for mark in marks)), "other")


def split(root: Path, jobs: int) -> None:
    """One build in this process: the CPU of the build's process and of its workers, and the
    build's process by stage (cProfile, own time of each function, grouped by its module)."""
    import cProfile
    import pstats

    import cardgen

    shutil.rmtree(root / ".cardgen-cache", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_SELF)
    cardgen.build(None, root, root / "out-split", cardgen.BuildOptions(jobs=jobs))
    after = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    workers = children.ru_utime + children.ru_stime
    print(f"  --jobs {jobs}, one build in one process after import: build's process {own:.3f} s CPU, "
          f"its workers {workers:.3f} s CPU")
    shutil.rmtree(root / ".cardgen-cache", ignore_errors=True)
    profile = cProfile.Profile()
    profile.enable()
    cardgen.build(None, root, root / "out-split", cardgen.BuildOptions(jobs=jobs))
    profile.disable()
    stages: dict[str, float] = {}
    for (file, _, function), (_, _, own_time, _, callers) in pstats.Stats(profile).stats.items():
        stage = _stage(file, function)
        if file == "~" and stage == "other" and callers:  # a built-in: its callers' stages, by their share
            shares = {caller: timing[2] for caller, timing in callers.items()}
            whole = sum(shares.values()) or 1.0
            for (caller_file, _, caller_function), share in shares.items():
                caller_stage = _stage(caller_file, caller_function)
                stages[caller_stage] = stages.get(caller_stage, 0.0) + own_time * share / whole
            continue
        stages[stage] = stages.get(stage, 0.0) + own_time
    waiting = stages.pop("waiting for the workers", 0.0)
    total = sum(stages.values())
    print(f"  the build's process under cProfile, by stage ({total:.2f} s profiled, besides {waiting:.2f} s "
          "waiting for the workers, which the profiler slows too):")
    for stage, seconds in sorted(stages.items(), key=lambda item: -item[1]):
        print(f"    {100 * seconds / total:5.1f}%  {stage}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--split", action="store_true",
                        help="also profile one build of the largest size: the build's process by stage, and its workers")
    parser.add_argument("--split-root", type=Path, help=argparse.SUPPRESS)  # the profiled build, in a process of its own
    args = parser.parse_args()
    if args.split_root is not None:
        split(args.split_root, args.jobs[-1])
        return
    print(f"usable cores: {len(os.sched_getaffinity(0))}; load: {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-workers-") as folder:
        for cards in args.cards:
            root = make_project(Path(folder) / f"deck{cards}", cards, deck="images")
            for jobs in args.jobs:  # a warm-up of each: the files in the disk cache, the code compiled
                run_once(root, jobs)
            times: dict[int, list[tuple[float, float]]] = {jobs: [] for jobs in args.jobs}
            for _ in range(args.runs):
                for jobs in args.jobs:
                    times[jobs].append(run_once(root, jobs))
            load = os.getloadavg()[0]
            for jobs in args.jobs:
                wall = statistics.median(t[0] for t in times[jobs])
                cpu = statistics.median(t[1] for t in times[jobs])
                print(f"{cards:>6} cards, --jobs {jobs}: wall {wall:.3f} s = {cards / wall:,.0f} cards/s; "
                      f"CPU (user+sys) {cpu:.3f} s = {cards / cpu:,.0f} cards per CPU-second "
                      f"(median of {args.runs}; walls {' '.join(f'{t[0]:.2f}' for t in times[jobs])})")
            base = statistics.median(t[0] for t in times[args.jobs[0]])
            for jobs in args.jobs[1:]:
                ratio = statistics.median(a[0] / b[0] for a, b in zip(times[jobs], times[args.jobs[0]]))
                print(f"{cards:>6} cards: --jobs {jobs} / --jobs {args.jobs[0]} wall, pair by pair: {ratio:.2f} "
                      f"(medians {statistics.median(t[0] for t in times[jobs]):.3f} / {base:.3f} s)")
            print(f"{cards:>6} cards: same PDF and manifest for every --jobs: {same_output(root, args.jobs)}; "
                  f"load average {load:.2f}")
            if args.split and cards == max(args.cards):
                for jobs in args.jobs:
                    subprocess.run([sys.executable, __file__, "--split-root", str(root), "--jobs", str(jobs)],
                                   check=True)


if __name__ == "__main__":
    main()
