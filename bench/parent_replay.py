"""The build's own process alone, without its workers (issue 19, point 2): what it costs to read
the workers' chunks, draw, impose and write, measured on its own.

On two cores the three processes of a large build all run at once, and a figure for one of them
moves with what the others do (and with the rest of the machine). So one real build records every
message each worker sends (as its pipe gives it), and each replay then runs the build's process
again in a new process, fed those messages from files, no worker forked: the same work, the same
output (checked byte for byte against the real build's), its CPU alone.

    python bench/parent_replay.py                       # images deck, 10,000 cards, 5 replays
    python bench/parent_replay.py --deck plain --cards 1000 --runs 9
    python bench/parent_replay.py --profile parent.prof  # and a cProfile of one more replay

It prints each replay's CPU seconds (user + system, the whole `cardgen build` but the import) and
their minimum and median. A change to what the workers send needs a new recording: every run of
this script records anew, with the code it is run with.
"""
from __future__ import annotations

import argparse
import filecmp
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def _record(folder: Path) -> None:
    """In the project's folder: a real build, each worker's messages written to ``worker-N.bin``."""
    from cardgen import worker_feed
    from cardgen.worker_process import _LENGTH
    import marshal

    read, files = worker_feed._read, {}

    def recording(worker):
        message = read(worker)
        if message is not None:
            out = files.get(worker.fd) or files.setdefault(worker.fd, open(folder / f"worker-{len(files)}.bin", "wb"))
            body = marshal.dumps(message)
            out.write(_LENGTH.pack(len(body)) + body)
            out.flush()
        return message

    worker_feed._read = recording
    _build()


def _replay(folder: Path, profile: str | None) -> None:
    """In the project's folder: the build's process fed the recorded messages; prints its CPU."""
    import cardgen.cli  # noqa: F401 - imported before the clock starts
    import cardgen.pipeline  # noqa: F401
    from cardgen import worker_feed, workers
    from cardgen.worker_faces import ReplayingRenderer

    def start(rendered, sequence, jobs, chunk=None, cursor=None):  # workers.start, less the forks
        fed = [worker_feed._Worker(0, os.open(folder / f"worker-{index}.bin", os.O_RDONLY)) for index in range(jobs)]
        thawed = not gc.get_freeze_count()
        gc.freeze()
        feed = worker_feed._Feed(fed, chunk or workers.CHUNK, rendered.cache, thawed)
        return worker_feed.ParallelRendered(ReplayingRenderer(rendered.renderer, feed), rendered.resources,
                                            rendered.cache, rendered.laid_out, feed=feed)

    workers.start = start
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    began = time.process_time()
    _build()
    spent = time.process_time() - began
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    print(f"{spent:.4f}")


def _build() -> None:
    import cardgen.cli

    try:
        cardgen.cli.main(["build"], prog_name="cardgen", standalone_mode=False)
    except SystemExit:
        pass


def _run(project: Path, mode: str, *extra: str) -> str:
    for folder in (".cardgen-cache", "output"):  # a cold build each time
        shutil.rmtree(project / folder, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    child = subprocess.run([sys.executable, __file__, mode, str(project), *extra], cwd=project, env=env,
                           capture_output=True, text=True)
    if child.returncode:
        raise SystemExit(child.stderr)
    return child.stdout


def _same(project: Path, kept: Path) -> bool:
    return all(filecmp.cmp(kept / name, project / "output" / name, shallow=False) for name in os.listdir(kept))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] in ("record", "replay"):
        folder = Path(sys.argv[2])
        return _record(folder) if sys.argv[1] == "record" else _replay(folder, (sys.argv[3:] or [None])[0])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deck", default="images", choices=("images", "plain"))
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", metavar="FILE")
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from synthetic import make_project

    with tempfile.TemporaryDirectory(prefix="cardgen-parent-replay-") as tmp:
        project = make_project(Path(tmp) / "project", args.cards, deck=args.deck)
        _run(project, "record")
        if not list(project.glob("worker-*.bin")):
            raise SystemExit("the build forked no worker: nothing to replay (a larger set, or more cores)")
        kept = Path(tmp) / "built"
        (project / "output").rename(kept)
        spent = []
        for _ in range(args.runs):
            spent.append(float(_run(project, "replay").split()[-1]))  # (after what the build prints)
            if not _same(project, kept):
                raise SystemExit("a replay wrote other bytes than the real build")
        print(f"{args.deck} deck, {args.cards} cards: the build's process alone, CPU s (user + system) "
              f"{' '.join(f'{s:.3f}' for s in spent)}; min {min(spent):.3f}, median {statistics.median(spent):.3f} "
              f"(load {os.getloadavg()[0]:.2f}); output the real build's bytes")
        if args.profile:
            _run(project, "replay", str(Path(args.profile).resolve()))
            print(f"profile of one replay: {args.profile}")


if __name__ == "__main__":
    main()
