"""cardgen/deferred.py: a module that a library imports but a build does not use runs when first
used, and is then the real module for everyone."""
from __future__ import annotations

import py_compile
import sys
import threading

import pytest

from cardgen.deferred import defer

RAN = "ran = globals().setdefault('ran', 0) + 1\nimport sys\nsys.modules['ran_log'].append(__name__)\n"


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """A folder on the path for throw-away modules; what the test imported from it is forgotten.
    The process counts as one thread (a pytest-xdist worker has threads of its own)."""
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.syspath_prepend(str(tmp_path))
    log: list[str] = []
    monkeypatch.setitem(sys.modules, "ran_log", log)
    before = set(sys.modules)
    yield tmp_path, log
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_deferred_module_runs_when_first_asked_for_what_it_has(modules):
    folder, log = modules
    (folder / "lazy_one.py").write_text(RAN + "def double(x):\n    return 2 * x\n")
    defer("lazy_one")
    import lazy_one  # as a library imports it: nothing run yet

    assert log == [] and lazy_one.__name__ == "lazy_one"
    assert lazy_one.double(4) == 8
    assert lazy_one.double(5) == 10 and lazy_one.ran == 1 and log == ["lazy_one"]
    assert "__getattr__" not in vars(lazy_one)
    with pytest.raises(AttributeError, match="has no attribute 'missing'"):
        lazy_one.missing


def test_a_from_import_runs_the_module_at_once(modules):
    folder, log = modules
    (folder / "lazy_two.py").write_text(RAN + "VALUE = 3\n")
    defer("lazy_two")
    from lazy_two import VALUE

    assert VALUE == 3 and log == ["lazy_two"]


def test_a_module_keeps_its_own_module_getattr(modules):
    folder, log = modules
    (folder / "lazy_three.py").write_text(RAN + "def __getattr__(name):\n    return name.upper()\n")
    defer("lazy_three")
    import lazy_three

    assert lazy_three.anything == "ANYTHING" and lazy_three.other == "OTHER" and log == ["lazy_three"]


def test_a_submodule_stands_in_its_package_until_used(modules):
    folder, log = modules
    (folder / "lazy_pack").mkdir()
    (folder / "lazy_pack/__init__.py").write_text(RAN)
    (folder / "lazy_pack/part.py").write_text(RAN + "WHAT = 'part'\n")
    defer("lazy_pack.part")
    from lazy_pack import part

    assert log == ["lazy_pack"] and sys.modules["lazy_pack.part"] is part
    assert part.WHAT == "part" and log == ["lazy_pack", "lazy_pack.part"]


def test_a_submodule_its_package_imports_is_left_as_it_is(modules):
    folder, log = modules
    (folder / "eager_pack").mkdir()
    (folder / "eager_pack/__init__.py").write_text(RAN + "from . import part\n")
    (folder / "eager_pack/part.py").write_text(RAN + "WHAT = 'part'\n")
    defer("eager_pack.part")

    assert log == ["eager_pack", "eager_pack.part"]
    assert sys.modules["eager_pack"].part is sys.modules["eager_pack.part"]
    assert "__getattr__" not in vars(sys.modules["eager_pack.part"])


def test_nothing_is_deferred_while_another_thread_runs(modules, monkeypatch):
    folder, log = modules
    monkeypatch.undo()  # the real count
    monkeypatch.syspath_prepend(str(folder))
    (folder / "lazy_four.py").write_text(RAN)
    started, finish = threading.Event(), threading.Event()
    other = threading.Thread(target=lambda: (started.set(), finish.wait()))
    other.start()
    started.wait()
    try:
        defer("lazy_four")
    finally:
        finish.set()
        other.join()
    assert "lazy_four" not in sys.modules and log == []


def test_nothing_is_deferred_that_is_imported_missing_or_not_python_source(modules):
    folder, log = modules
    math = sys.modules["math"]
    defer("math")
    defer("no_such_module_anywhere")
    assert sys.modules["math"] is math and "no_such_module_anywhere" not in sys.modules
    (folder / "lazy_five.py").write_text(RAN)
    py_compile.compile(str(folder / "lazy_five.py"), cfile=str(folder / "compiled_only.pyc"))
    (folder / "lazy_five.py").unlink()
    defer("compiled_only")  # bytecode alone: loaded by another loader, left to it
    assert "compiled_only" not in sys.modules and log == []
