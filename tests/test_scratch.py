"""cardgen.scratch: a temporary folder that a stop never leaves behind."""
from __future__ import annotations

import shutil
import signal
import tempfile

import pytest

from cardgen.scratch import scratch_folder


@pytest.fixture
def system_temporary(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def stop_after(monkeypatch, module, name):
    """``module.name`` asks for a stop (Ctrl-C) as soon as it has done its work."""
    real = getattr(module, name)

    def then_stopped(*args, **kwargs):
        done = real(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return done
    monkeypatch.setattr(module, name, then_stopped)


def test_the_folder_is_there_in_the_block_and_gone_after(system_temporary):
    with scratch_folder("cardgen-test-") as folder:
        (folder / "inside").mkdir()
        (folder / "inside" / "file").write_text("x")
        assert folder.parent == system_temporary and folder.name.startswith("cardgen-test-")
    assert list(system_temporary.iterdir()) == []


def test_a_stop_just_after_the_folder_is_made_leaves_nothing(system_temporary, monkeypatch):
    # tempfile.TemporaryDirectory makes the folder before it arranges to remove it
    stop_after(monkeypatch, tempfile, "mkdtemp")
    with pytest.raises(KeyboardInterrupt):
        with scratch_folder("cardgen-test-"):
            pytest.fail("the block ran though a stop came before it")
    assert list(system_temporary.iterdir()) == []


def test_a_stop_while_the_folder_is_removed_leaves_nothing(system_temporary, monkeypatch):
    with pytest.raises(KeyboardInterrupt):
        with scratch_folder("cardgen-test-") as folder:
            for n in range(20):
                (folder / f"file{n}").write_text("x")

            def stopped_half_way(path, *args, **kwargs):  # the stop lands before anything is removed
                signal.raise_signal(signal.SIGINT)
                return real_rmtree(path, *args, **kwargs)
            real_rmtree = shutil.rmtree
            monkeypatch.setattr(shutil, "rmtree", stopped_half_way)
    assert list(system_temporary.iterdir()) == []


def test_an_error_in_the_block_still_removes_the_folder(system_temporary):
    with pytest.raises(ValueError, match="in the block"):
        with scratch_folder("cardgen-test-"):
            raise ValueError("in the block")
    assert list(system_temporary.iterdir()) == []
