"""scheduling.py names test files by path: a file moved or renamed would silently lose its place."""
from __future__ import annotations

from projects import REPO
from scheduling import BROWSER, LONGEST_FIRST, longest_first, scope_of


def test_every_file_the_schedule_names_exists():
    named = [*BROWSER, *(scope for scope in LONGEST_FIRST if scope != "browser")]
    assert [name for name in named if not (REPO / name).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)


def test_files_start_longest_first_by_the_seconds_a_run_measured():
    listed = [scope for scope in LONGEST_FIRST[:3]]
    unlisted = ["tests/a_test.py", "tests/b_test.py", "tests/c_test.py"]
    scopes = [*unlisted, *reversed(listed)]
    # nothing measured: the listed files in their order, then the others as given
    assert longest_first(scopes, {}) == [*listed, *unlisted]
    # measured seconds win over the list, whatever the list says
    measured = {listed[0]: 1.0, listed[1]: 3.0, listed[2]: 2.0, "tests/b_test.py": 5.0, "tests/c_test.py": 0.5}
    assert longest_first(scopes, measured) == ["tests/b_test.py", listed[1], listed[2], listed[0],
                                               "tests/c_test.py", "tests/a_test.py"]
    # a listed file no run has timed goes just before the longest measured file listed after it
    assert longest_first(scopes, {listed[1]: 3.0, listed[2]: 2.0, "tests/b_test.py": 5.0}) == [
        "tests/b_test.py", listed[0], listed[1], listed[2], "tests/a_test.py", "tests/c_test.py"]


def test_the_browser_files_are_one_unit():
    assert {scope_of(path) for path in BROWSER} == {"browser"}
    assert scope_of("tests/test_docs.py") == "tests/test_docs.py"
