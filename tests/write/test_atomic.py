"""`staged` replaces its targets all together or not at all: a stop (Ctrl-C, SIGTERM) that
comes between two renames waits for the last one, and a rename that fails puts back the
targets already replaced."""
from __future__ import annotations

import os
import signal
import sys

import pytest

from cardgen import stops
from cardgen.write import atomic
from cardgen.write.atomic import staged


def stage(tmp_path, contents: dict[str, bytes]):
    targets = [tmp_path / name for name in contents]
    with staged(*targets) as temporaries:
        for temporary, data in zip(temporaries, contents.values()):
            temporary.write_bytes(data)
    return targets


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def renames_then(monkeypatch, after_first):
    """os.replace as atomic.py calls it, running ``after_first(source, target)`` once, before
    the second rename."""
    real, done, calls = os.replace, [], []

    def replace(source, target):
        calls.append(target)
        if len(calls) == 2:
            after_first(source, target)
        real(source, target)
        done.append(target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    return done


@pytest.fixture
def command_stops(monkeypatch):
    """SIGINT and SIGTERM taken as the `cardgen` command takes them (stops.unwind_on_stops)."""
    monkeypatch.setattr(stops, "_asked", [])
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    handlers = {signum: signal.getsignal(signum) for signum in stops.STOPS}
    stops.unwind_on_stops()
    yield
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def run_pending_handlers() -> None:
    for _ in range(1000):  # Python runs a signal's handler between two bytecodes of the main thread
        pass


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_between_two_renames_comes_after_the_last(tmp_path, monkeypatch, command_stops, stop):
    (tmp_path / "set.pdf").write_bytes(b"old pdf")
    (tmp_path / "set.json").write_bytes(b"old json")
    done = renames_then(monkeypatch, lambda *renaming: os.kill(os.getpid(), stop))
    with pytest.raises(KeyboardInterrupt):
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json"})
    assert [p.name for p in done] == ["set.pdf", "set.json"]
    assert files(tmp_path) == {"set.json": b"new json", "set.pdf": b"new pdf"}
    # the handlers are the ones from before: a later stop is not held back
    assert signal.getsignal(stop) is stops._unwind


def test_a_stop_while_the_body_writes_leaves_the_targets_as_they_were(tmp_path):
    (tmp_path / "set.pdf").write_bytes(b"old pdf")
    with pytest.raises(KeyboardInterrupt):
        with staged(tmp_path / "set.pdf", tmp_path / "set.json") as (pdf, json):
            pdf.write_bytes(b"new pdf")
            os.kill(os.getpid(), signal.SIGINT)
            run_pending_handlers()
            json.write_bytes(b"new json")  # pragma: no cover (stopped before)
    assert files(tmp_path) == {"set.pdf": b"old pdf"}


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_rename_that_fails_puts_back_the_targets_already_replaced(tmp_path, monkeypatch, links):
    (tmp_path / "set.pdf").write_bytes(b"old pdf")
    (tmp_path / "set.json").write_bytes(b"old json")
    if not links:  # a file system without them (FAT, some network shares): a copy is kept instead
        def refused(*args, **kwargs):
            raise PermissionError(1, "Operation not permitted")

        monkeypatch.setattr(atomic.os, "link", refused)

    def full(source, target):  # as os.replace says it: naming the file renamed
        raise OSError(28, "No space left on device", str(source), None, str(target))

    renames_then(monkeypatch, full)
    with pytest.raises(OSError) as failure:
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json", "set.png": b"new png"})
    assert failure.value.cardgen_writing == tmp_path / "set.json"
    # the PDF replaced first is the old one again; the PNG that was not there is not there
    assert files(tmp_path) == {"set.json": b"old json", "set.pdf": b"old pdf"}


def test_a_target_that_was_not_there_is_removed_again(tmp_path, monkeypatch):
    def full(source, target):  # as os.replace says it: naming the file renamed
        raise OSError(28, "No space left on device", str(source), None, str(target))

    renames_then(monkeypatch, full)
    with pytest.raises(OSError):
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json"})
    assert files(tmp_path) == {}


def test_a_commit_that_succeeds_leaves_no_copy_of_the_old_files(tmp_path):
    (tmp_path / "set.pdf").write_bytes(b"old pdf")
    os.link(tmp_path / "set.pdf", tmp_path / "elsewhere.pdf")  # the old file lives on under another name
    stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json"})
    assert files(tmp_path) == {"elsewhere.pdf": b"old pdf", "set.json": b"new json", "set.pdf": b"new pdf"}
    assert os.stat(tmp_path / "elsewhere.pdf").st_nlink == 1


def test_a_stop_lost_in_a_finaliser_still_keeps_the_targets_as_they_were(tmp_path, command_stops):
    """Python drops an exception raised in ``__del__``: a stop whose handler ran there is lost to
    the body, which goes on; the commit sees that a stop was asked for and replaces nothing."""
    (tmp_path / "set.pdf").write_bytes(b"old pdf")

    class Finalised:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)
            run_pending_handlers()

    went_on = []
    with pytest.raises(KeyboardInterrupt):
        with staged(tmp_path / "set.pdf", tmp_path / "set.json") as (pdf, json):
            pdf.write_bytes(b"new pdf")
            Finalised()  # made and dropped at once
            json.write_bytes(b"new json")
            went_on.append(True)
    assert went_on == [True]
    assert stops.asked() == (signal.SIGTERM,)
    assert files(tmp_path) == {"set.pdf": b"old pdf"}


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_target_that_is_a_link_is_put_back_as_the_same_link(tmp_path, monkeypatch, links):
    """An output kept elsewhere and linked into the output folder: a commit that fails puts the
    link back, not a plain file with the old content (the link would be lost to the next build)."""
    if not links:
        def refused(*args, **kwargs):
            raise PermissionError(1, "Operation not permitted")

        monkeypatch.setattr(atomic.os, "link", refused)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "set.pdf").write_bytes(b"old pdf")
    (tmp_path / "set.pdf").symlink_to(tmp_path / "shared" / "set.pdf")

    def full(source, target):
        raise OSError(28, "No space left on device", str(source), None, str(target))

    renames_then(monkeypatch, full)
    with pytest.raises(OSError):
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json"})
    assert (tmp_path / "set.pdf").is_symlink()
    assert os.readlink(tmp_path / "set.pdf") == str(tmp_path / "shared" / "set.pdf")
    assert files(tmp_path / "shared") == {"set.pdf": b"old pdf"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.pdf", "shared"]


@pytest.mark.parametrize("depth", [0, 1, 2], ids=["the folder", "its parent", "its grandparent"])
def test_a_file_where_a_folder_of_the_target_should_be_is_the_one_named(tmp_path, monkeypatch, depth):
    """`--out` naming a file, or a folder below one: the message names the file that is in the
    way, however deep below it the target lies."""
    from cardgen.errors import os_reason

    monkeypatch.chdir(tmp_path)
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "set.pdf").write_bytes(b"a file, not a folder")
    folder = tmp_path.joinpath("output", "set.pdf", *["sub"] * depth)
    with pytest.raises(OSError) as failure:
        stage(tmp_path, {os.path.join(folder, "set.pdf"): b"new pdf"})
    assert os_reason(failure.value) == "output/set.pdf is a file, not a folder"
    assert failure.value.cardgen_writing == folder / "set.pdf"
    assert files(tmp_path / "output") == {"set.pdf": b"a file, not a folder"}


def _three_old_files(folder):
    for name in ("set.pdf", "set.json", "set.png"):
        (folder / name).write_bytes(b"old " + name.encode())


def test_a_failure_at_the_third_rename_puts_back_both_replaced_before(tmp_path, monkeypatch):
    """Exports stage more than two files (print-shop files, converted sets): every target
    replaced before the failing one goes back, not only the first."""
    _three_old_files(tmp_path)
    real = os.replace

    def replace(source, target):
        if str(target).endswith("set.png"):
            raise OSError(28, "No space left on device", str(source), None, str(target))
        real(source, target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(OSError) as failure:
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json", "set.png": b"new png"})
    assert failure.value.cardgen_writing == tmp_path / "set.png"
    assert files(tmp_path) == {"set.json": b"old set.json", "set.pdf": b"old set.pdf", "set.png": b"old set.png"}


def test_a_target_that_cannot_be_put_back_does_not_keep_the_others_from_going_back(tmp_path, monkeypatch):
    _three_old_files(tmp_path)
    real, renamed = os.replace, []

    def replace(source, target):
        name = os.path.basename(target)
        if name == "set.png":
            raise OSError(28, "No space left on device", str(source), None, str(target))
        if name in renamed:  # the second time: putting the old file back
            if name == "set.json":
                raise OSError(5, "Input/output error", str(source), None, str(target))
        renamed.append(name)
        real(source, target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(OSError) as failure:
        stage(tmp_path, {"set.pdf": b"new pdf", "set.json": b"new json", "set.png": b"new png"})
    assert failure.value.errno == 28  # the failure that stopped the commit is the one told
    assert files(tmp_path) == {"set.json": b"new json", "set.pdf": b"old set.pdf", "set.png": b"old set.png"}
