"""Narrow mutmut's per-function test selection to what a shared machine can run in time.

    python bench/mutation_narrow.py COPY SECONDS

mutmut 3 runs, for each mutant, every test that reached the mutated function in its first
(stats) run. On 2 shared cores the full selection of bench/mutation.sh takes hours for the
6,800 mutants of cardgen/sheets and cardgen/write. This keeps, for each function, the fastest
tests that reach it, adding them fastest first while their recorded durations sum to at most
SECONDS (every function keeps at least its fastest test), and rewrites
COPY/mutants/mutmut-stats.json. Stop the run (Ctrl-C: results so far are kept), narrow, and go
on with ``MUTATION_COPY=COPY bash bench/mutation.sh``. A mutant that survives the narrowed
selection may still be killed by a slower test: check survivors against all the tests of their
module before judging them (bench/mutation-survivors.md says how the last run was done).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def narrow(stats: dict, budget: float) -> dict:
    durations = stats["duration_by_test"]
    narrowed = {}
    for function, tests in stats["tests_by_mangled_function_name"].items():
        kept, total = [], 0.0
        for test in sorted(tests, key=lambda t: (durations.get(t, 0.0), t)):
            if kept and total + durations.get(test, 0.0) > budget:
                continue
            kept.append(test)
            total += durations.get(test, 0.0)
        narrowed[function] = kept
    return {**stats, "tests_by_mangled_function_name": narrowed}


def main() -> None:
    copy, budget = Path(sys.argv[1]), float(sys.argv[2])
    path = copy / "mutants" / "mutmut-stats.json"
    stats = json.loads(path.read_text())
    before = sum(len(t) for t in stats["tests_by_mangled_function_name"].values())
    stats = narrow(stats, budget)
    after = sum(len(t) for t in stats["tests_by_mangled_function_name"].values())
    path.write_text(json.dumps(stats))
    print(f"{path}: {before} -> {after} (function, test) pairs, at most {budget:g} s of tests a function")


if __name__ == "__main__":
    main()
