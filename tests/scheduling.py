"""How pytest-xdist shares the test files among its workers (``--dist loadfile``, pyproject.toml).

A file's tests stay on one worker, so its module fixtures build once. Two changes to xdist's
order: the files that use the browser go to one worker together (Chromium starts once, not once
a worker), and the longest files start first, so that no worker is left with one long file
while the other has finished (xdist orders files by their number of tests, not their time).
"""
from __future__ import annotations

import pytest

BROWSER = ("tests/serve/test_page.py", "tests/proof/test_gallery_browser.py")
# CPU seconds a file takes, longest first (measured in the whole run; README, "Tests").
LONGEST_FIRST = (
    "browser",
    "tests/test_workers.py",
    "tests/test_hostile.py",
    "tests/sets/test_prisoners.py",
    "tests/sets/test_sources.py",
    "tests/sets/test_gutter_fold.py",
    "tests/test_cache.py",
    "tests/sets/test_prohibition.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return "browser" if scope in BROWSER else scope

        def _assign_work_unit(self, node) -> None:
            for scope in reversed(LONGEST_FIRST):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)
