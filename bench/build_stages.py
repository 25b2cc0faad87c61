"""The by-stage timer of ``bench_build.py --profile``: run as a child process in the project
to build, it hooks a CPU clock onto each stage of the pipeline (in the build's process, and in
each worker it forks, the hooks being in place before the fork), builds as `cardgen build` does,
and writes each process's totals, in CPU seconds exclusive of the stages a stage calls, to
``REPORT`` (a worker's to ``REPORT.worker-N``).

    python bench/build_stages.py REPORT      # from the project's folder; bench_build.py runs it
"""
from __future__ import annotations

import os
import sys
import time

STAGES = ("start", "import", "load", "validate", "render markup", "templates (jinja)", "markup parse", "lay out",
          "rich text parse", "measure", "fit (size search)", "place lines", "fonts", "images", "draw",
          "record (worker)", "prepare (worker)", "impose", "cache", "write/compress", "send/receive", "gc", "other")


class _Clock:
    """Exclusive CPU time by stage: entering a stage pauses the one it was called from."""

    def __init__(self):
        self.totals: dict[str, float] = {}
        self.stack = ["other"]
        self.mark = time.process_time()

    def enter(self, stage: str) -> None:
        now = time.process_time()
        top = self.stack[-1]
        self.totals[top] = self.totals.get(top, 0.0) + now - self.mark
        self.stack.append(stage)
        self.mark = now

    def leave(self) -> None:
        now = time.process_time()
        top = self.stack.pop()
        self.totals[top] = self.totals.get(top, 0.0) + now - self.mark
        self.mark = now


def _timed(clock: _Clock, stage: str, function):
    import functools
    import inspect

    if inspect.isgeneratorfunction(function):
        @functools.wraps(function)
        def generator(*args, **kwargs):
            items = function(*args, **kwargs)
            while True:
                clock.enter(stage)
                try:
                    item = next(items)
                except StopIteration:
                    return
                finally:
                    clock.leave()
                yield item
        return generator

    @functools.wraps(function)
    def timed(*args, **kwargs):
        clock.enter(stage)
        try:
            return function(*args, **kwargs)
        finally:
            clock.leave()
    return timed


# stage -> (module, attribute path) of the functions that do its work; hooked before the
# workers fork, so the workers time the same stages
_STAGE_HOOKS = {
    "load": [("cardgen.pipeline", "load_set"), ("cardgen.load.cards", "CardFiles.__iter__"),
             ("cardgen.load.cursor", "Cursor.take")],  # (a worker's cards)
    "validate": [("cardgen.pipeline", "check_problems")],
    "render markup": [("cardgen.render.faces", "FaceRenderer._face"), ("cardgen.render.faces", "FaceRenderer.markup")],
    "templates (jinja)": [("cardgen.render.environment", "Templates.render")],
    "markup parse": [("cardgen.render.faces", "parse_markup")],
    "lay out": [("cardgen.rendered", "lay_out")],
    "rich text parse": [("cardgen.layout", "parse")],
    "measure": [("cardgen.layout", "measure")],
    "fit (size search)": [("cardgen.layout", "fit")],
    "place lines": [("cardgen.text.fit", "_place")],
    "record (worker)": [("cardgen.worker_process", "record_face")],
    "prepare (worker)": [("cardgen.worker_process", "_prepared")],
    "send/receive": [("cardgen.workers", "_Feed._receive")],
    "fonts": [("cardgen.text.fonts", "FontBook.face"), ("cardgen.text.fonts", "FontBook.__init__"),
              ("cardgen.text.fonts", "FontBook.face_named")],
    "images": [("cardgen.layout", "Resources.image"), ("cardgen.layout", "Resources.find_image"),
               ("cardgen.assets", "Fingerprints.file")],
    "draw": [("cardgen.write.pdf", "_FaceDrawer.draw"), ("cardgen.rendered", "Rendered.drawing")],
    "impose": [("cardgen.sheets", "impose_groups"), ("cardgen.sheets", "draw_marks")],
    "cache": [("cardgen.worker_process", "_stored"),
              ("cardgen.cache", "FaceCache.recall"), ("cardgen.cache", "FaceCache._write"),
              ("cardgen.cache", "FaceCache.save"), ("cardgen.cache_file", "LastBuild.__init__")],
    "write/compress": [("cardgen.write.pdf", "_compress_last_page"), ("cardgen.write.stream", "PageStream.page_done"),
                       ("cardgen.write.stream", "PageStream.form_done"), ("cardgen.write.stream", "PageStream.finish"),
                       ("cardgen.write.manifest", "ManifestWriter.add"),
                       ("cardgen.write.manifest", "ManifestWriter.close"),
                       ("reportlab.pdfgen.canvas", "Canvas.showPage")],
}


def _hook(clock: _Clock) -> None:
    """Wrap each stage's functions where the pipeline finds them (a name missing in this
    version of cardgen is left alone: its time shows as its caller's)."""
    import importlib
    import inspect

    for stage, places in _STAGE_HOOKS.items():
        for module_name, path in places:
            try:
                owner = importlib.import_module(module_name)
            except ImportError:
                continue
            *outer, name = path.split(".")
            for part in outer:
                owner = getattr(owner, part, None)
            if owner is None or not hasattr(owner, name):
                continue
            wrapped = _timed(clock, stage, getattr(owner, name))
            if isinstance(inspect.getattr_static(owner, name), staticmethod):
                wrapped = staticmethod(wrapped)
            setattr(owner, name, wrapped)


def _hook_workers(clock: _Clock, report: str) -> None:
    """A worker (forked with the hooks in place) times its own stages from nothing and writes
    them to ``<report>.worker-<index>`` before it exits. What a worker does outside the hooked
    stages (skipping other workers' cards, encoding and writing its messages) is its other."""
    import json

    try:
        import cardgen.workers as workers
    except ImportError:
        return
    serve = getattr(workers, "_serve", None)
    if serve is None:
        return

    def timed_serve(index, *args, **kwargs):
        clock.totals = {}
        clock.stack = ["other"]
        clock.mark = time.process_time()
        try:
            return serve(index, *args, **kwargs)
        finally:
            clock.leave()
            with open(f"{report}.worker-{index}", "w", encoding="utf-8") as handle:
                json.dump(clock.totals, handle)

    workers._serve = timed_serve


def stages_child(report: str) -> None:
    """In the build's own process: import, hook the stages, build, write the totals."""
    import gc

    start = time.process_time()  # the interpreter's start, until this line
    clock = _Clock()
    clock.totals["start"] = start
    clock.stack = ["import"]
    import cardgen.cli  # noqa: F401 - what `python -m cardgen build` imports
    import cardgen.pipeline  # noqa: F401

    clock.enter("other")
    _hook(clock)
    _hook_workers(clock, report)
    clock.totals["other"] = 0.0  # the hooking is the benchmark's, not the build's

    def collecting(phase, info):
        if phase == "start":
            clock.enter("gc")
        else:
            clock.leave()

    gc.callbacks.append(collecting)
    gc.freeze()  # as cardgen's own entry point does
    try:
        cardgen.cli.main(args=["build"], prog_name="cardgen", standalone_mode=False)
    finally:
        gc.callbacks.remove(collecting)
        clock.leave()
    import json

    clock.totals["import"] = clock.totals.get("import", 0.0)
    with open(report, "w", encoding="utf-8") as handle:
        json.dump(clock.totals, handle)
    os._exit(0)


if __name__ == "__main__":
    stages_child(sys.argv[1])
