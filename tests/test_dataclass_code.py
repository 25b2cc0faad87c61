"""The dataclass methods kept between runs (cardgen/dataclass_code.py): a class made with kept
code is the class ``dataclasses`` makes, a changed class is compiled afresh, and a file from
another Python or a damaged one is ignored."""
from __future__ import annotations

import dataclasses
import marshal
import subprocess
import sys

import pytest

from cardgen import dataclass_code
from cardgen.dataclass_code import KeptMethods


def _define(kept: KeptMethods, extra_field: bool = False):
    """A frozen dataclass made while ``kept`` serves dataclasses' exec."""
    dataclasses.exec = kept.exec
    try:
        if extra_field:
            @dataclasses.dataclass(frozen=True)
            class Point:
                x: int
                y: int = 2
                z: str = "z"
        else:
            @dataclasses.dataclass(frozen=True)
            class Point:
                x: int
                y: int = 2
    finally:
        del dataclasses.exec
    return Point


def _check_point(Point, extra_field: bool = False):
    point = Point(1)
    assert point.y == 2 and point == Point(1, 2) and point != Point(1, 3)
    assert hash(point) == hash(Point(1, 2))
    assert dataclasses.replace(point, y=5).y == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3
    if extra_field:
        assert repr(point).endswith("<locals>.Point(x=1, y=2, z='z')")
        assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "z"]
    else:
        assert repr(point).endswith("<locals>.Point(x=1, y=2)")
        with pytest.raises(TypeError):
            Point()


@pytest.fixture
def no_bytecode_flag(monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_kept_code_makes_the_same_class_without_compiling(tmp_path, no_bytecode_flag):
    first = KeptMethods(str(tmp_path))
    _check_point(_define(first))
    assert first.compiled > 0
    first.save()
    assert (tmp_path / f"dataclass-methods.{sys.implementation.cache_tag}.marshal").is_file()

    second = KeptMethods(str(tmp_path))  # the next run
    _check_point(_define(second))
    assert second.compiled == 0


def test_a_changed_class_is_compiled_afresh(tmp_path, no_bytecode_flag):
    first = KeptMethods(str(tmp_path))
    _define(first)
    first.save()
    second = KeptMethods(str(tmp_path))
    Point = _define(second, extra_field=True)  # __init__, __repr__, __eq__, __hash__ read three fields now
    _check_point(Point, extra_field=True)
    assert second.compiled >= 4
    second.save()
    third = KeptMethods(str(tmp_path))  # both versions are kept
    _define(third)
    _define(third, extra_field=True)
    assert third.compiled == 0


def test_another_pythons_or_a_damaged_file_is_ignored(tmp_path, no_bytecode_flag):
    first = KeptMethods(str(tmp_path))
    _define(first)
    first.save()
    path = tmp_path / f"dataclass-methods.{sys.implementation.cache_tag}.marshal"
    signature, codes = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((("another Python",) + signature[1:], codes)))
    other = KeptMethods(str(tmp_path))
    _check_point(_define(other))
    assert other.compiled > 0

    path.write_bytes(path.read_bytes()[:100])  # truncated
    damaged = KeptMethods(str(tmp_path))
    _check_point(_define(damaged))
    assert damaged.compiled > 0

    path.write_bytes(marshal.dumps((signature, {text: b"\x00not code" for text in codes} | {2: "x"})))
    wrong = KeptMethods(str(tmp_path))
    _check_point(_define(wrong))
    assert wrong.compiled > 0


def test_nothing_is_written_when_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    kept = KeptMethods(str(tmp_path))
    _define(kept)
    kept.save()
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_folder_is_no_error(tmp_path, no_bytecode_flag):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    kept = KeptMethods(str(blocker / "__pycache__"))
    _check_point(_define(kept))
    kept.save()  # cannot make the folder: compiled each time, as without the file
    assert blocker.read_text() == "not a folder"


def test_the_exec_is_lent_to_dataclasses_only_while_cardgen_imports(tmp_path, monkeypatch):
    import cardgen

    monkeypatch.setattr(dataclass_code, "KEPT", KeptMethods(str(tmp_path)))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not hasattr(dataclasses, "exec")
    with cardgen.collector_paused():
        with cardgen.collector_paused():
            assert dataclasses.exec == dataclass_code.KEPT.exec
        assert dataclasses.exec == dataclass_code.KEPT.exec
    assert not hasattr(dataclasses, "exec")


def test_every_dataclass_a_build_makes_has_a_docstring_of_its_own():
    """Without one, dataclasses gives a class its signature as its doc, through inspect.signature:
    a tenth of a millisecond a class at every start-up. (A process of its own: what a build
    imports, and nothing else the tests have imported.)"""
    code = ("import dataclasses, sys\nimport cardgen.cli, cardgen.pipeline\nfrom cardgen.draw import PRIMITIVES\n"
            "PRIMITIVES.values()\n"  # every drawing primitive's module
            "made = [c for n, m in list(sys.modules.items()) if n.startswith('cardgen.') for c in vars(m).values()\n"
            "        if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == n]\n"
            "print(len(made), *(c.__qualname__ for c in made\n"
            "                   if not c.__dict__.get('__doc__') or c.__doc__.startswith(c.__name__ + '(')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, *undocumented = done.stdout.split()
    assert int(count) > 40 and undocumented == []
