"""Builds on worker processes for the tests (test_workers.py, test_early_start.py, load/test_yaml_marks.py): a build in a
new process forked from one that has loaded cardgen, its chunks made small so that a few dozen
cards make many of them."""
from __future__ import annotations

import json
import os
import subprocess

import cardgen
from cardgen import workers
from forkserver import BUILD_IMPORTS, Forkserver

WORDS = "draw discard attack ally planet colony ship warp cone reward moon base".split()

# A build forks workers only in a process with no other thread (forking one is not safe), and
# this suite's process has some (the preview server's tests): builds on workers run in a new
# process, a chunk every CHUNK cards whatever the set's size (workers.chunk_size keeps a CHUNK
# below 32 as it is), so that a few dozen cards make many chunks, several for each worker.
CHUNK = 4
BUILD = """
import json, sys
import cardgen
from cardgen import workers
workers.CHUNK, workers.MIN_CARDS = CHUNK_SIZE, 1
{prelude}
root, out, jobs, options = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
result = cardgen.build(SETS, root, out, cardgen.BuildOptions(jobs=jobs, **options)).sets[0]
print(json.dumps({{"workers": workers.last_build, "laid_out": result.laid_out, "reused": result.reused,
                  "cards": result.cards, "pages": result.pages, "warnings": [str(w) for w in result.warnings]}}))
""".replace("CHUNK_SIZE", str(CHUNK))


FORKS = Forkserver(preload=BUILD_IMPORTS)


def on_workers(code: str, *args: str) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` in a new process forked from one that has loaded cardgen
    (forkserver.py), for a build on workers. The one-process builds they are held to run in this
    process: each comparison is between two interpreters, two hash seeds."""
    return FORKS.run(list(args), dict(os.environ), code=code)


def build_in(root, out, jobs, prelude="", sets=("demo",), **options) -> dict:
    """Build the sets (the first one's figures are told) into ``root/out``, on ``jobs`` workers
    in a new process, or (one job) in this one; what the build did."""
    if jobs == 1:
        assert not prelude, "a prelude changes the code of a process of its own"
        result = cardgen.build(list(sets), root, root / out, cardgen.BuildOptions(jobs=1, **options)).sets[0]
        return {"workers": dict(workers.last_build), "laid_out": result.laid_out, "reused": result.reused,
                "cards": result.cards, "pages": result.pages, "warnings": [str(w) for w in result.warnings]}
    done = on_workers(build_code(prelude, sets), str(root), str(root / out), json.dumps(jobs), json.dumps(options))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def build_code(prelude="", sets=("demo",)) -> str:
    return BUILD.format(prelude=prelude).replace("SETS", json.dumps(list(sets)))


def same_output(root, *outs) -> bool:
    return all((root / outs[0] / name).read_bytes() == (root / out / name).read_bytes()
               for out in outs[1:] for name in ("demo.pdf", "demo.json"))



CLI = """
import json, sys
from click.testing import CliRunner
from cardgen import workers
from cardgen.cli import main
workers.CHUNK, workers.MIN_CARDS = CHUNK_SIZE, 1
result = CliRunner().invoke(main, sys.argv[1:])
print(json.dumps({"code": result.exit_code, "out": result.stdout, "err": result.stderr, "workers": workers.last_build}))
""".replace("CHUNK_SIZE", str(CHUNK))

LARGE_SET = """
from cardgen.load import cards
cards.KEPT_CARDS, cards.MARK_EVERY = 0, 3  # the cards read from their files again, a mark every 3
"""


def assert_each_worker_makes_only_its_chunks(cards, every: list, monkeypatch) -> None:
    """Each of two workers' cursors over ``cards`` (a checked CardFiles whose cards are ``every``)
    gives its chunks' cards exactly, and makes cards of its own chunks' rows alone."""
    from cardgen.load import cards as cards_module

    made_from = []
    cards_from_row = cards_module._cards_from_row
    monkeypatch.setattr(cards_module, "_cards_from_row",
                        lambda row, *rest: made_from.append(str(row.source)) or cards_from_row(row, *rest))
    chunk, jobs = 8, 2
    for index in range(jobs):
        del made_from[:]
        cursor, rows = cards.cursor(), []
        for number in range(index, len(every) // chunk + 1, jobs):
            taken = cursor.take(number * chunk, chunk)
            assert taken == every[number * chunk:(number + 1) * chunk]
            rows += dict.fromkeys(str(card.source) for card in taken)  # (a row of `each` cut by a chunk: in both)
        assert made_from == rows and 0 < len(rows) < len(every) / 2
