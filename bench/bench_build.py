"""Benchmark: ``cardgen build`` as a user runs it, a whole new process each time (issue 19).

    python bench/bench_build.py                       # both decks, every measure, 5 runs each
    python bench/bench_build.py --runs 7 --decks images --measures cold-1000,changed,unchanged
    python bench/bench_build.py --profile images cold-1000    # where the time goes, by stage
    python bench/bench_build.py --baseline /tmp/main-src      # against other code, run by run

Every figure is ``python -m cardgen build`` started from the shell in a project made by
synthetic.py (``plain``: the first deck, a glyph icon; ``images``: an image icon in every body
and a logo on the back), import and interpreter start included:

- ``cold-1000``, ``cold-10000``: the cache folder removed before each run;
- ``changed``: 1,000 cards, one card's text changed since the last build (the cache warm);
- ``unchanged``: 1,000 cards, nothing changed since the last build.

The measures take turns (one run of each, then the next round), so that a machine whose speed
drifts moves all of them alike; the median of ``--runs`` is reported, as wall seconds, CPU
seconds (user + system, the operating system's accounting of the child: the figure to trust on
a shared machine) and cards a second (by wall time). Python's bytecode is written and compiled
once before the runs, as an installed cardgen has it.

``--profile DECK MEASURE`` runs one build of that kind (after the same preparation) with a
timer on each stage of the pipeline, exclusive of the stages it calls: start (the interpreter),
import, load (set file and card rows), validate, render markup (the renderer's own work and
content hashes), templates (jinja), markup parse, lay out (its glue), rich text parse, measure
(word widths), fit (the size search), place lines, fonts, images, draw, record and prepare (a
worker's drawing of a face as parts, made ready to write), impose (sheets and marks), cache
(reading and writing .cardgen-cache, a worker's stored entries), write/compress (page
compression, the PDF and manifest streams), send/receive (the build's process reading the
workers' chunks), gc (the cycle collector), and other (the pipeline's own glue; in a worker,
skipping the other workers' cards and writing its messages). CPU seconds (process time), a
column for the build's process and one for each worker it forked (the hooks are in place
before the fork, so a worker times the same stages and writes its totals when it ends).
"""
from __future__ import annotations

import os
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
MEASURES = ("cold-1000", "cold-10000", "changed", "unchanged")
DECKS = ("plain", "images")
CHANGED_CARD = 500  # the row edited by the "changed" measure


def _environment() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's cardgen has its bytecode compiled
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def _cards_of(measure: str) -> int:
    return 10_000 if measure == "cold-10000" else 1_000


class Project:
    """One benchmark project of ``cards`` cards of ``deck``; ``prepare(measure)`` puts it in the
    state the measure starts from, untimed."""

    def __init__(self, folder, deck: str, cards: int, source: str | None = None):
        from pathlib import Path

        sys.path.insert(0, BENCH)
        from synthetic import make_project

        self.folder = Path(folder)
        self.deck, self.cards = deck, cards
        make_project(self.folder, cards, deck=deck)
        self.cards_csv = self.folder / "data/bench/cards.csv"
        self.original = self.cards_csv.read_text(encoding="utf-8")
        self.edits = 0
        self.source = source  # another cardgen source tree to run (--baseline), else the installed one

    def command(self) -> list[str]:
        return [sys.executable, "-m", "cardgen", "build"]

    def run(self) -> tuple[float, float]:
        """(wall, cpu) seconds of one build in a new process."""
        import subprocess

        started = time.perf_counter()
        env = _environment()
        if self.source is not None:
            env["PYTHONPATH"] = self.source
        child = subprocess.Popen(self.command(), cwd=self.folder, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        problems = child.stderr.read().decode() if child.stderr else ""
        child.stderr.close()
        if child.returncode:
            raise SystemExit(f"build failed in {self.folder}:\n{problems}")
        return wall, usage.ru_utime + usage.ru_stime

    def prepare(self, measure: str) -> None:
        import shutil

        cache = self.folder / ".cardgen-cache"
        if measure.startswith("cold"):
            shutil.rmtree(cache, ignore_errors=True)
            return
        if not cache.is_dir():  # the cache of a build of these very cards
            self.run()
        if measure == "changed":  # one card's text differs from the last build's: never the same edit twice
            self.edits += 1
            lines = self.original.split("\n")
            lines[CHANGED_CARD] = lines[CHANGED_CARD].replace("Card ", f"Card edit{self.edits} ", 1)
            self.cards_csv.write_text("\n".join(lines), encoding="utf-8")


def _median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _projects(tmp, decks, measures, sources) -> dict:
    """One project per deck, size and cardgen source: the 1,000-card one serves cold, changed
    and unchanged builds (each prepared before its run). Two sources never share a project:
    each one's cache is its own."""
    projects = {}
    for which, source in enumerate(sources):
        for deck in decks:
            for cards in sorted({_cards_of(m) for m in measures}):
                projects[which, deck, cards] = Project(os.path.join(tmp, f"{which}-{deck}-{cards}"), deck, cards,
                                                       source)
    return projects


def _compile_bytecode(source: str | None = None) -> None:
    import subprocess

    env = _environment()
    if source is not None:
        env["PYTHONPATH"] = source
    subprocess.run([sys.executable, "-c", "import cardgen.cli, cardgen.pipeline"], env=env, check=True)


def benchmark(runs: int, decks, measures, baseline: str | None = None) -> list[dict]:
    """Every measure of every deck, in turns; with ``baseline`` (another cardgen source tree),
    each run of this cardgen is followed by the same run of the baseline's."""
    import tempfile

    sources = [None] + ([os.path.abspath(baseline)] if baseline else [])
    for source in sources:
        _compile_bytecode(source)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-build-") as tmp:
        projects = _projects(tmp, decks, measures, sources)
        order = [(which, deck, measure) for deck in decks for measure in measures for which in range(len(sources))]
        times: dict[tuple, list] = {key: [] for key in order}
        for key in order:  # a warm-up of each (not counted): the file cache, the bytecode
            which, deck, measure = key
            project = projects[which, deck, _cards_of(measure)]
            project.prepare(measure)
            project.run()
        for run in range(runs):
            # which code goes first alternates run by run: a run pays for what the run before it
            # left (a baseline's changed build writes a megabyte just before this code's
            # unchanged one), so neither code always follows the other
            for key in (order if run % 2 == 0 else _swapped(order)):
                which, deck, measure = key
                project = projects[which, deck, _cards_of(measure)]
                project.prepare(measure)
                times[key].append(project.run())
        for which, deck, measure in order:
            walls = [wall for wall, _ in times[which, deck, measure]]
            cpus = [cpu for _, cpu in times[which, deck, measure]]
            cards = _cards_of(measure)
            row = {"deck": deck, "measure": measure, "cards": cards, "wall": _median(walls),
                   "cpu": _median(cpus), "cards_per_s": cards / _median(walls),
                   "wall_range": (min(walls), max(walls)), "runs": len(walls),
                   "code": "baseline" if which else "this"}
            if which:  # the ratio run by run: a drifting machine moves both runs of a pair alike
                mine = times[0, deck, measure]
                row["cpu_ratio"] = _median([a[1] / b[1] for a, b in zip(mine, times[which, deck, measure])])
                row["wall_ratio"] = _median([a[0] / b[0] for a, b in zip(mine, times[which, deck, measure])])
            rows.append(row)
    return rows


def _swapped(order):
    """``order`` with each measure's runs of this code and the baseline's the other way round."""
    return [(len({which for which, _, _ in order}) - 1 - which, deck, measure) for which, deck, measure in order]


def _print_rows(rows) -> None:
    print(f"{'deck':8} {'measure':11} {'code':9} {'wall s':>7} {'cpu s':>7} {'cards/s':>8}  wall min-max  "
          f"this/baseline cpu, wall")
    for row in rows:
        low, high = row["wall_range"]
        ratio = f"  {row['cpu_ratio']:.3f}, {row['wall_ratio']:.3f}" if "cpu_ratio" in row else ""
        print(f"{row['deck']:8} {row['measure']:11} {row['code']:9} {row['wall']:7.3f} {row['cpu']:7.3f} "
              f"{row['cards_per_s']:8,.0f}  {low:.3f}-{high:.3f}{ratio}")
    print(f"(medians of {rows[0]['runs']} alternating runs; load average now: {os.getloadavg()[0]:.2f})")


# --- the profile by stage ---------------------------------------------------------------

def profile(deck: str, measure: str) -> None:
    """Prepare a project as the measure does and run one build in a new process that times
    its stages."""
    import json
    import subprocess
    import tempfile

    _compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-build-") as tmp:
        project = Project(os.path.join(tmp, deck), deck, _cards_of(measure))
        project.prepare(measure)
        report = os.path.join(tmp, "stages.json")
        child = subprocess.run([sys.executable, os.path.join(BENCH, "build_stages.py"), report],
                               cwd=project.folder, env=_environment(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        if child.returncode:
            raise SystemExit(child.stderr)
        with open(report, encoding="utf-8") as handle:
            totals = json.load(handle)
        workers = []
        for index in range(64):  # each worker's totals, if the build ran on worker processes
            name = f"{report}.worker-{index}"
            if os.path.exists(name):
                with open(name, encoding="utf-8") as handle:
                    workers.append(json.load(handle))
    processes = [totals] + workers
    whole = sum(sum(t.values()) for t in processes)
    print(f"{deck} deck, {measure}: {whole:.3f} s CPU in {len(processes)} process(es) "
          f"(load {os.getloadavg()[0]:.2f}); stages exclusive of the stages they call")
    heads = ["build's process"] + [f"worker {i}" for i in range(len(workers))]
    print(f"  {'stage':18}" + "".join(f"{h:>17}" for h in heads) + f"{'all':>9}  share")
    from build_stages import STAGES

    for stage in STAGES + tuple(sorted({k for t in processes for k in t} - set(STAGES))):
        each = [t.get(stage, 0.0) for t in processes]
        if not any(each):
            continue
        print(f"  {stage:18}" + "".join(f"{seconds:15.3f} s" for seconds in each)
              + f"{sum(each):7.3f} s {100 * sum(each) / whole:5.1f}%")
    print(f"  {'whole':18}" + "".join(f"{sum(t.values()):15.3f} s" for t in processes) + f"{whole:7.3f} s")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--decks", default=",".join(DECKS))
    parser.add_argument("--measures", default=",".join(MEASURES))
    parser.add_argument("--profile", nargs=2, metavar=("DECK", "MEASURE"))
    parser.add_argument("--baseline", metavar="SRC", help="another cardgen source tree (a folder holding cardgen/): "
                        "each run is followed by the same run of that code, and CPU and wall ratios are printed")
    args = parser.parse_args()
    if args.profile:
        deck, measure = args.profile
        if deck not in DECKS or measure not in MEASURES:
            parser.error(f"--profile DECK MEASURE: DECK one of {DECKS}, MEASURE one of {MEASURES}")
        return profile(deck, measure)
    decks = [d for d in args.decks.split(",") if d]
    measures = [m for m in args.measures.split(",") if m]
    for name, known in ((decks, DECKS), (measures, MEASURES)):
        for value in name:
            if value not in known:
                parser.error(f"{value!r}: one of {', '.join(known)}")
    _print_rows(benchmark(args.runs, decks, measures, args.baseline))


if __name__ == "__main__":
    main()
