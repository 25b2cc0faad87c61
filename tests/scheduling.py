"""How pytest-xdist shares the test files among its workers (``--dist loadfile``, pyproject.toml).

A file's tests stay on one worker, so its module fixtures build once. Two changes to xdist's
order: the files that use the browser go to one worker together (Chromium starts once, not once
a worker), and the longest files start first, so that no worker is left with one long file
while the other has finished (xdist orders files by their number of tests, not their time).

How long a file takes is what the last run that ran it measured (kept in pytest's cache,
``.pytest_cache/``, by the run's controller): the files change, and a list of costs written by
hand went stale within a day. A file no run has timed yet (a fresh clone, ``-p no:cacheprovider``)
takes its place from LONGEST_FIRST.
"""
from __future__ import annotations

import pytest

BROWSER = ("tests/serve/test_page.py", "tests/proof/test_gallery_browser.py")
# The files of more than about 1.2 s, longest first: seconds of a quiet 2-worker run, estimated
# from three full runs on a busy machine (23 November 2026, scaled to 170 s of tests; files that
# mostly wait, the browser's and test_sigterm, are longer than this when the machine is quiet).
# Only the order is used, and only for files the cache has not timed.
LONGEST_FIRST = (
    "browser",  # 9 (20 quiet)
    "tests/test_workers.py",  # 13
    "tests/test_sigterm.py",  # 10 (18 quiet)
    "tests/sets/test_prisoners.py",  # 10
    "tests/test_cache.py",  # 10
    "tests/sets/test_sources.py",  # 9
    "tests/test_hostile.py",  # 8
    "tests/text/test_font_sources.py",  # 5
    "tests/test_unicode_property.py",  # 4
    "tests/test_kept_pages.py",  # 4
    "tests/sheets/test_percard_and_errors.py",  # 4
    "tests/preflight/test_preflight.py",  # 4
    "tests/test_readme_walkthrough.py",  # 4
    "tests/sets/test_gutter_fold.py",  # 4
    "tests/sets/test_prohibition.py",  # 3
    "tests/test_set_commit.py",  # 3
    "tests/serve/test_http.py",  # 3
    "tests/proof/test_proof.py",  # 3
    "tests/proof/test_workers.py",  # 3
    "tests/test_no_absolute_paths.py",  # 3
    "tests/test_cache_code.py",  # 2
    "tests/test_bad_input.py",  # 2
    "tests/sheets/test_home_printing.py",  # 2
    "tests/importers/test_ceconv.py",  # 2
    "tests/test_cli.py",  # 2
    "tests/export/test_tts.py",  # 2
    "tests/test_cli_startup.py",  # 2
    "tests/validate/test_properties.py",  # 2
    "tests/test_pipeline.py",  # 2
    "tests/test_new.py",  # 2
    "tests/test_confinement.py",  # 2
    "tests/test_unchanged.py",  # 2
    "tests/render/test_errors.py",  # 1.5
    "tests/load/test_yaml_stream.py",  # 1.4
    "tests/draw/test_paths_gradients_groups.py",  # 1.4
    "tests/sheets/test_marks_pdf.py",  # 1.3
    "tests/sheets/test_marks.py",  # 1.3
    "tests/sets/test_death_mesa.py",  # 1.3
    "tests/load/test_data_sources.py",  # 1.2
)
CACHE_KEY = "cardgen/file-seconds"


def scope_of(path: str) -> str:
    """The unit a worker takes whole: a test file, or "browser" for the files that share Chromium."""
    return "browser" if path in BROWSER else path


def longest_first(scopes, measured: dict[str, float]) -> list[str]:
    """``scopes`` in the order workers should take them: the measured ones by their seconds, the
    others at their place in LONGEST_FIRST (after the measured ones that are longer than the
    one before them there), the rest at the end in the order given."""
    scopes = list(scopes)
    listed = {scope: place for place, scope in enumerate(LONGEST_FIRST)}
    fallback: dict[str, float] = {}
    for place, scope in enumerate(LONGEST_FIRST):  # a listed file no run has timed: between its neighbours
        known = [measured[s] for s in LONGEST_FIRST[place + 1:] if s in measured]
        fallback[scope] = max(known, default=0.0) + 1e-9 * (len(LONGEST_FIRST) - place)

    def seconds(scope: str) -> float:
        if scope in measured:
            return measured[scope]
        return fallback.get(scope, -1.0)  # unlisted and untimed: last, in the order given

    return sorted(scopes, key=lambda scope: (-seconds(scope), listed.get(scope, len(listed))))


class FileSeconds:
    """In the run's controller: each file's seconds in this run (setup, call and teardown of its
    tests, as the workers report them), kept in pytest's cache for the next run's order. A file
    this run did not run keeps the seconds it had."""

    def __init__(self, config):
        self.config = config
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report):
        scope = scope_of(report.nodeid.split("::", 1)[0])
        self.seconds[scope] = self.seconds.get(scope, 0.0) + report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        cache = getattr(self.config, "cache", None)
        if cache is None or not self.seconds or exitstatus not in (0, 1):  # interrupted: partial times
            return
        kept = cache.get(CACHE_KEY, {})
        kept = kept if isinstance(kept, dict) else {}
        kept.update({scope: round(value, 2) for scope, value in self.seconds.items()})
        cache.set(CACHE_KEY, kept)


def measured_seconds(config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    kept = cache.get(CACHE_KEY, {}) if cache is not None else {}
    if not isinstance(kept, dict):
        return {}
    return {str(scope): float(value) for scope, value in kept.items() if isinstance(value, (int, float))}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    measured = measured_seconds(config)

    class LongestFirst(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(super()._split_scope(nodeid))

        def _assign_work_unit(self, node) -> None:
            for scope in reversed(longest_first(self.workqueue, measured)):
                self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
