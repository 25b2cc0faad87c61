"""How pytest-xdist shares the test files among its workers (``--dist loadfile``, pyproject.toml).

A file's tests stay on one worker, so its module fixtures build once. Two changes to xdist's
order: the files that use the browser go to one worker together (Chromium starts once, not once
a worker), and the longest files start first, so that no worker is left with one long file
while the other has finished (xdist orders files by their number of tests, not their time).
"""
from __future__ import annotations

import pytest

BROWSER = ("tests/serve/test_page.py", "tests/proof/test_gallery_browser.py")
# The files of more than about 2 CPU seconds, longest first (each file alone, its pytest start
# left out, on a busy machine, 23 November 2026: a file of few tests can be long, and xdist would
# start it last). The rest follow, in xdist's order. A file that grows long belongs here.
LONGEST_FIRST = (
    "browser",  # 19 s
    "tests/test_sigterm.py",  # 12: three tests, two of them long
    "tests/test_workers.py",  # 10
    "tests/sets/test_sources.py",  # 9
    "tests/sets/test_prisoners.py",  # 7
    "tests/test_cache.py",  # 7
    "tests/draw/test_paths_gradients_groups.py",  # 7
    "tests/test_hostile.py",  # 7
    "tests/serve/test_http.py",  # 5
    "tests/test_unicode_property.py",  # 5: two tests
    "tests/sets/test_gutter_fold.py",  # 5: four tests
    "tests/proof/test_workers.py",  # 4
    "tests/test_kept_pages.py",  # 4
    "tests/sheets/test_percard_and_errors.py",  # 4
    "tests/importers/test_ceconv.py",  # 4
    "tests/preflight/test_preflight.py",  # 4
    "tests/test_bad_input.py",  # 3
    "tests/sets/test_prohibition.py",  # 3
    "tests/sheets/test_home_printing.py",  # 3
    "tests/test_new.py",  # 3
    "tests/test_pipeline.py",  # 3
    "tests/test_readme_walkthrough.py",  # 3
    "tests/export/test_tts.py",  # 3
    "tests/proof/test_proof.py",  # 3
    "tests/test_cache_code.py",  # 3
    "tests/test_confinement.py",  # 3
    "tests/test_cli.py",  # 2
    "tests/sheets/test_marks_pdf.py",  # 2
    "tests/draw/test_image_once.py",  # 2: two tests
    "tests/components/test_tuckbox.py",  # 2
    "tests/export/test_shops.py",  # 2
    "tests/sheets/test_calibrate.py",  # 2
    "tests/test_reprint.py",  # 2
    "tests/importers/test_import_command.py",  # 2: two tests
    "tests/color/test_cmyk.py",  # 2
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
