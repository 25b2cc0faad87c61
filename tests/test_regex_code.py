"""The regular expressions kept between runs (cardgen/regex_code.py): a pattern made from kept code
is the pattern ``re`` compiles, a changed pattern is compiled afresh, errors and warnings are
``re``'s own, and a file from another Python or a damaged one is ignored."""
from __future__ import annotations

import marshal
import re
import sys
import warnings

import pytest

from cardgen import regex_code
from cardgen.regex_code import KeptPatterns

PATTERNS = [  # (pattern, flags): groups, names, classes, bytes, flags, a long alternation
    (r"(?P<key>[\w-]+)\s*:\s*(?P<value>.*?)\s*(?:#.*)?$", 0),
    (r"[^\t\n\r -~\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", 0),
    (rb"\w\w\w\w", 0),
    (r"^ \s* (\d+) (?: \. (\d*) )? $", re.VERBOSE | re.IGNORECASE | re.MULTILINE),
    ("|".join(f"word{n}" for n in range(300)), 0),
    (r"(a)(b)?(?(2)c|d)\1", re.ASCII),
]
TEXTS = ["name: value # note", "a\x07b", "word299", " 12.5 ", "abca", "abda", "\ufffe", "x" * 20]


def _compile_all(kept: KeptPatterns) -> list:
    return [kept.compile(pattern, flags) for pattern, flags in PATTERNS]


def _two_runs(folder) -> None:
    """Two runs that compile PATTERNS: the first notes them as met, the second keeps them."""
    for _ in range(2):
        run = KeptPatterns(str(folder))
        _compile_all(run)
        run.save()


def _check_same_as_re(made: list) -> None:
    for pattern, (source, flags) in zip(made, PATTERNS):
        fresh = re._compiler.compile(source, flags) if regex_code._ORIGINAL is None else regex_code._ORIGINAL(source, flags)
        assert pattern == fresh and pattern.flags == fresh.flags and pattern.pattern == source
        assert pattern.groups == fresh.groups and pattern.groupindex == fresh.groupindex
        for text in TEXTS:
            subject = text.encode("utf-8") if isinstance(source, bytes) else text
            found, expected = pattern.search(subject), fresh.search(subject)
            assert (found and (found.span(), found.groups(), found.lastgroup)) == \
                (expected and (expected.span(), expected.groups(), expected.lastgroup))


@pytest.fixture
def no_bytecode_flag(monkeypatch):
    """Bytecode written, and the threads the test runner keeps (pytest-xdist's) not counted:
    keeping is refused while other threads run, and a test's own thread must still count."""
    import threading

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    runner_threads = threading.active_count() - 1
    counted = threading.active_count
    monkeypatch.setattr(threading, "active_count", lambda: counted() - runner_threads)


def _path(folder) -> str:
    return folder / f"regex-code.{sys.implementation.cache_tag}.marshal"


def test_kept_code_makes_the_same_pattern_without_compiling(tmp_path, no_bytecode_flag):
    first = KeptPatterns(str(tmp_path))
    _check_same_as_re(_compile_all(first))
    assert first.compiled == len(PATTERNS)
    first.save()
    assert not _path(tmp_path).exists()  # met once: noted, not kept

    second = KeptPatterns(str(tmp_path))  # the next run
    _check_same_as_re(_compile_all(second))
    assert second.compiled == len(PATTERNS)
    second.save()
    assert _path(tmp_path).is_file()

    third = KeptPatterns(str(tmp_path))
    _check_same_as_re(_compile_all(third))
    assert third.compiled == 0


def test_a_pattern_made_anew_in_each_run_is_never_kept(tmp_path, no_bytecode_flag):
    """reportlab joins a set of names into a pattern, in the set's order, which changes from one
    process to the next: kept, each run would add one."""
    _two_runs(tmp_path)
    kept_file = _path(tmp_path).read_bytes()
    for run_number in range(3):
        run = KeptPatterns(str(tmp_path))
        assert run.compile("|".join(f"name{(n + run_number) % 5}" for n in range(5)), 0).match("name3")
        _compile_all(run)
        run.save()
        assert run.compiled == 1
    assert _path(tmp_path).read_bytes() == kept_file


def test_a_changed_pattern_or_flag_is_compiled_afresh(tmp_path, no_bytecode_flag):
    _two_runs(tmp_path)
    second = KeptPatterns(str(tmp_path))
    assert second.compile(r"(?P<key>[\w-]+)\s*=", 0).groupindex == {"key": 1}
    assert second.compile(rb"\w\w\w\w", re.IGNORECASE).flags & re.IGNORECASE
    assert second.compile(r"\w\w\w\w", 0).pattern == r"\w\w\w\w"  # text, not the kept bytes
    assert second.compiled == 3


def test_errors_and_warnings_are_res_own(tmp_path, no_bytecode_flag):
    kept = KeptPatterns(str(tmp_path))
    with pytest.raises(re.error, match="missing \\), unterminated subpattern at position 0"):
        kept.compile("(a", 0)
    for _ in range(2):  # a pattern that warns is not kept: it warns each time
        with pytest.warns(FutureWarning, match="Possible nested set"):
            assert kept.compile("[[a]", 0).match("[")
    kept.save()
    again = KeptPatterns(str(tmp_path))
    with pytest.warns(FutureWarning, match="Possible nested set"):
        again.compile("[[a]", 0)
    assert again.compiled == 1


def test_another_pythons_or_a_damaged_file_is_ignored(tmp_path, no_bytecode_flag):
    _two_runs(tmp_path)
    path = _path(tmp_path)
    signature, codes = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((("another Python",) + signature[1:], codes)))
    other = KeptPatterns(str(tmp_path))
    _check_same_as_re(_compile_all(other))
    assert other.compiled == len(PATTERNS)

    path.write_bytes(path.read_bytes()[:100])  # truncated
    damaged = KeptPatterns(str(tmp_path))
    _check_same_as_re(_compile_all(damaged))
    assert damaged.compiled == len(PATTERNS)

    path.write_bytes(marshal.dumps((signature, {key: (0, b"\x01\x02", 0, {}, ()) for key in codes})))
    wrong = KeptPatterns(str(tmp_path))  # entries that _sre refuses
    _check_same_as_re(_compile_all(wrong))
    assert wrong.compiled == len(PATTERNS)


def test_nothing_is_written_when_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    kept = KeptPatterns(str(tmp_path))
    _compile_all(kept)
    kept.save()
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_folder_is_no_error_and_no_more_work(tmp_path, no_bytecode_flag, monkeypatch):
    """A read-only install compiles each pattern once a run, as without this module: its codes
    are made again (to be kept) only where they can be kept."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(regex_code, "_arguments", lambda *args: pytest.fail("codes made that cannot be kept"))
    for _ in range(2):
        kept = KeptPatterns(str(blocker / "__pycache__"))
        _check_same_as_re(_compile_all(kept))
        kept.save()
        assert kept.compiled == len(PATTERNS)
    assert blocker.read_text() == "not a folder"


def test_re_compiles_through_the_kept_codes_only_while_cardgen_imports_or_runs(tmp_path, monkeypatch):
    import cardgen

    monkeypatch.setattr(regex_code, "KEPT", KeptPatterns(str(tmp_path)))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    original = re._compiler.compile
    with cardgen.collector_paused():
        with cardgen.collector_paused():
            assert re._compiler.compile == regex_code.KEPT.compile
        assert re.compile("kept(?P<n>[0-9]+)").groupindex == {"n": 1}
        assert regex_code.KEPT.compiled == 1
    assert re._compiler.compile is original
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert re.compile("kept(?P<n>[0-9]+)x").match("kept12x")


def test_a_pattern_compiled_while_other_threads_run_is_not_kept(tmp_path, no_bytecode_flag):
    """Keeping asks whether parsing warned, with the process's own warning filters: never while
    another thread (`cardgen serve`) could warn meanwhile."""
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        for _ in range(2):
            run = KeptPatterns(str(tmp_path))
            _check_same_as_re(_compile_all(run))
            run.save()
        assert not _path(tmp_path).exists()
    finally:
        release.set()
        other.join()
