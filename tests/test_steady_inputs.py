"""A file saved while a build reads it: the build fails and changes nothing (steady_inputs.py);
the next build is that of the files as they are."""
from __future__ import annotations

import os

import pytest

from cardgen.errors import CardgenError
from cardgen.render.environment import Templates
from cardgen.steady_inputs import CHANGED
from projects import build_demo

pytestmark = pytest.mark.shipped_fonts  # the project's own fonts play no part


def test_a_template_saved_half_way_through_a_build_fails_it_and_changes_nothing(project, monkeypatch):
    earlier = build_demo(project, "output", cache=False)
    pdf, manifest = earlier.pdf.read_bytes(), earlier.manifest.read_bytes()
    back = project / "templates/demo/back.xml.j2"
    render = Templates.render
    saved = []

    def render_then_save_the_back(self, name, *args):
        # the fronts' templates are read before the back's: saved now, the back of the new text
        # would be drawn behind fronts of the old, as no build of either file draws them
        if not saved and name != "demo/back.xml.j2":
            stat = back.stat()
            back.write_text(back.read_text().replace('fill="#fdf6e3"', 'fill="#e3f6fd"'))
            os.utime(back, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as an editor keeping the time may
            saved.append(name)
        return render(self, name, *args)

    monkeypatch.setattr(Templates, "render", render_then_save_the_back)
    with pytest.raises(CardgenError) as failed:
        build_demo(project, "output")
    assert saved
    assert [str(problem) for problem in failed.value.problems] == [f"templates/demo/back.xml.j2: {CHANGED}"]
    assert (earlier.pdf.read_bytes(), earlier.manifest.read_bytes()) == (pdf, manifest)
    assert not list((project / ".cardgen-cache").glob("faces-*"))  # no face drawn from a mix is kept
    monkeypatch.undo()
    again = build_demo(project, "output")
    assert again.pdf.read_bytes() == build_demo(project, "fresh", cache=False).pdf.read_bytes() != pdf


def test_a_failure_met_while_a_card_file_was_saved_is_said_as_the_save(project, monkeypatch):
    from cardgen import pipeline

    cards = project / "data/demo/more.csv"

    def save_then_trip(*args, **options):  # a half-read row can trip what expects the row as checked
        cards.write_text(cards.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
        raise IndexError("list index out of range")

    monkeypatch.setattr(pipeline, "write_set", save_then_trip)
    with pytest.raises(CardgenError) as failed:  # it was the IndexError: "internal error"
        build_demo(project, "output")
    assert [str(problem) for problem in failed.value.problems] == [f"data/demo/more.csv: {CHANGED}"]


def test_what_is_no_input_of_the_build_may_change_while_it_runs(project, monkeypatch):
    """Only a save of what a build reads fails it: bytecode Python writes for a module imported
    late (a project that holds cardgen's own source), a notes file, or an editor's swap file,
    autosave and backup beside the card file it edits (which change as the designer types) made
    every such build fail as "saved during the build"."""
    render = Templates.render
    written = []

    def render_while_files_change(self, name, *args):
        if not written:
            (project / "tools/__pycache__").mkdir(parents=True)
            (project / "tools/__pycache__/svgsize.cpython-311.pyc").write_bytes(b"\x00")
            (project / "notes.txt").write_text("print the rulings on yellow")
            for scratch in (".more.csv.swp", "#more.csv#", ".#more.csv", "more.csv~"):
                (project / "data/demo" / scratch).write_text("typing...")
            written.append(name)
        return render(self, name, *args)

    monkeypatch.setattr(Templates, "render", render_while_files_change)
    built = build_demo(project, "output")
    assert written
    monkeypatch.undo()
    # the same bytes, its date too: that of the set's files as saved, not of the swap file's last write
    assert built.pdf.read_bytes() == build_demo(project, "fresh", cache=False).pdf.read_bytes()
