"""The check that the suite leaves no build output or cache in the repository (conftest.py)."""
from __future__ import annotations

from untouched import build_outputs, changes


def test_a_new_cache_a_rewritten_output_and_a_removed_file_are_reported(tmp_path):
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "demo.pdf").write_bytes(b"old")
    (tmp_path / "output" / "demo.json").write_bytes(b"{}")
    (tmp_path / "data" / "demo").mkdir(parents=True)
    (tmp_path / "data" / "demo" / "cards.yaml").write_text("- name: A\n")
    before = build_outputs(tmp_path)
    (tmp_path / ".cardgen-cache").mkdir()
    (tmp_path / ".cardgen-cache" / "faces-demo.bin").write_bytes(b"x")
    (tmp_path / "output" / "demo.pdf").write_bytes(b"newer")
    (tmp_path / "output" / "demo.json").unlink()
    (tmp_path / "data" / "demo" / "cards.yaml").write_text("- name: B\n")  # data: not a build output
    assert changes(before, build_outputs(tmp_path)) == [
        ".cardgen-cache/: created", ".cardgen-cache/faces-demo.bin: created",
        "output/demo.json: removed", "output/demo.pdf: rewritten"]


def test_a_cache_left_inside_a_fixture_is_reported(tmp_path):
    fixture = tmp_path / "tests" / "fixtures" / "project"
    fixture.mkdir(parents=True)
    before = build_outputs(tmp_path)
    (fixture / ".cardgen-cache").mkdir()
    assert changes(before, build_outputs(tmp_path)) == ["tests/fixtures/project/.cardgen-cache/: created"]


def test_nothing_changed_is_nothing_reported(tmp_path):
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "demo.pdf").write_bytes(b"pdf")
    assert changes(build_outputs(tmp_path), build_outputs(tmp_path)) == []
