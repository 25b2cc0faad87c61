"""Benchmark: distinct faces rasterised a second by ``cardgen proof`` and ``cardgen export --shop
tgc``, as whole processes, on the images deck (bench/synthetic.py: an image icon in every body, a
logo on the shared back).

    python bench/bench_raster.py                      # 1,000 cards, 5 runs of each command
    python bench/bench_raster.py --cards 200 --runs 5 --jobs 1
    python bench/bench_raster.py --stages             # also: CPU seconds by stage, one process

Goal (issue 19, point 5): >= 150 distinct faces rasterised a second on two cores. A deck of N
cards has N + 1 distinct faces (every front differs; the back is shared): a proof writes 2N
PNGs, the back's N copies from one rasterisation; a tgc export writes N + 1. The figure is the
distinct faces the command says it rasterised over the whole process's wall time, from start
(import included) to exit, output folder and build cache cleared before every run; the commands
run in turn (proof, export, proof...) and each figure is the median of ``--runs``. CPU is user
+ system seconds of the command and its worker processes: on a machine others share, compare
CPU, which their load does not inflate.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import make_project  # noqa: E402

# Python caches compiled modules (.pyc) unless told not to; a user's installation does, so
# every process here does too, whatever this shell's PYTHONDONTWRITEBYTECODE says.
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
DISTINCT = re.compile(r"(\d+) (?:distinct faces? )?rasterised")  # (the second: before the count was distinct)


def run_once(command: list[str], folder: Path, out: Path) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(folder / ".cardgen-cache", ignore_errors=True)
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=ENVIRONMENT, cwd=REPO)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    found = DISTINCT.findall(done.stdout)
    return {"wall": wall, "distinct": int(found[-1]),
            "cpu": (after.children_user - before.children_user) + (after.children_system - before.children_system),
            "last": done.stdout.splitlines()[-1]}


def report(name: str, runs: list[dict], cards: int) -> None:
    wall = statistics.median(r["wall"] for r in runs)
    cpu = statistics.median(r["cpu"] for r in runs)
    distinct = runs[0]["distinct"]
    rate = statistics.median(r["distinct"] / r["wall"] for r in runs)
    print(f"{name:28s} {cards} cards, {distinct} distinct faces: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
          f"{rate:6.1f} distinct faces/s (goal >= 150; {'met' if rate >= 150 else 'NOT met'}; "
          f"runs {', '.join(format(r['wall'], '.2f') for r in runs)} s)")
    print(f"{'':28s} its own last line: {runs[len(runs) // 2]['last']}")


def stages(folder: Path, jobs: int | None) -> None:
    """CPU seconds by stage of one proof in this process (workers' CPU counted as they exit)."""
    sys.path.insert(0, str(REPO))
    shutil.rmtree(folder / ".cardgen-cache", ignore_errors=True)
    clock = time.process_time
    started = clock()
    from cardgen import pipeline
    from cardgen.proof import (CONTACT, _contact_keys, _contact_sheet, _entries, _thumb, _write_faces,
                               png_bytes)
    from cardgen.proof.store import ProofFolder
    from cardgen.proof.workers import default_jobs
    from cardgen.write.manifest import load_manifest

    marks = [("import cardgen", clock() - started)]
    jobs = jobs or default_jobs()
    with tempfile.TemporaryDirectory() as temporary:
        session = pipeline.Session(folder)
        start = clock()
        built = pipeline.build_set("bench", session, Path(temporary), pipeline.BuildOptions(layout="per-card"))
        marks.append(("build the per-card PDF", clock() - start))
        start = clock()
        out = ProofFolder(Path(temporary) / "proofs" / "bench")
        entries = _entries(load_manifest(built.manifest)["faces"], False, 300)
        contact = _contact_keys(entries)
        sheet = _contact_sheet(built.pdf, entries, contact, 300)
        marks.append(("lay out the contact sheet", clock() - start))
        start, children = clock(), os.times().children_user + os.times().children_system
        wall = time.perf_counter()
        rasterised, pasted = _write_faces(out, built.pdf, entries, 300, jobs, sheet)
        wall = time.perf_counter() - wall
        workers = os.times().children_user + os.times().children_system - children
        marks.append((f"rasterise + PNG, this process ({rasterised} faces)", clock() - start))
        marks.append(("rasterise + PNG, worker processes", workers))
        start = clock()
        for key, file in contact:
            if key not in pasted:
                sheet[0].paste(sheet[1][key], _thumb(out, key, file))
        out.write(CONTACT, png_bytes(sheet[0].image, 75))
        marks.append(("write the contact sheet", clock() - start))
    total = sum(seconds for _, seconds in marks)
    print(f"proof by stage, CPU seconds ({jobs} process{'es' * (jobs != 1)} rasterising; "
          f"that stage took {wall:.2f} s wall):")
    for name, seconds in marks:
        print(f"  {name:44s} {seconds:6.2f} s  {100 * seconds / total:5.1f}%")
    print(f"  {'per distinct face (rasterise + PNG)':44s} {1000 * (marks[4][1] + marks[3][1]) / rasterised:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="passed to the commands (default: theirs)")
    parser.add_argument("--stages", action="store_true", help="also CPU by stage of one proof")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    with tempfile.TemporaryDirectory() as temporary:
        folder = make_project(Path(temporary) / "project", args.cards, deck="images")
        base = [sys.executable, "-m", "cardgen", "--root", str(folder)]
        commands = {
            "cardgen proof": (base + ["proof", "--out", str(folder / "proofs")] + jobs, folder / "proofs"),
            "cardgen export --shop tgc": (base + ["export", "bench", "--shop", "tgc", "--out", str(folder / "tgc")]
                                          + jobs, folder / "tgc"),
        }
        for command, out in commands.values():  # .pyc files; fonts in the page cache
            run_once(command, folder, out)
        runs: dict[str, list[dict]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (command, out) in commands.items():
                runs[name].append(run_once(command, folder, out))
        for name in commands:
            report(name, runs[name], args.cards)
        if args.stages:
            stages(folder, args.jobs)


if __name__ == "__main__":
    main()
