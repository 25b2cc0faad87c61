"""A face met once is drawn inline; met again, it becomes a form that every later use places.
Nothing is counted ahead: the writer sees each face as the cards stream past."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from pypdf import PdfReader

import cardgen
from cardgen.write.manifest import load_manifest

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def test_a_face_used_again_becomes_one_form_placed_by_every_later_use(project):
    (result,) = cardgen.build(["demo"], project).sets
    uses = Counter(face["hash"] for face in load_manifest(result.manifest)["faces"])
    reader = PdfReader(result.pdf)
    placed = Counter()
    forms = set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        forms.update(name for name in xobjects if xobjects[name].get_object()["/Subtype"] == "/Form")
        placed.update(re.findall(r"(/FormXob\.\w+) Do", page.get_contents().get_data().decode("latin-1")))
    shared = [count for count in uses.values() if count > 1]
    assert len(forms) == len(shared) > 0  # the plain back, Quick Draw's two copies, the markers
    assert sorted(placed.values()) == sorted(count - 1 for count in shared)  # the first use: inline


def test_forms_used_long_ago_are_let_go_and_defined_again_when_met_again(project, tmp_path, monkeypatch):
    """Only the latest FORMS forms stay in reportlab's tables (memory that would grow with the
    set); a face whose form was let go is drawn again, and every page prints the same."""
    from cardgen.write import pdf
    from cardgen.write.stream import PageStream

    (full,) = cardgen.build(["demo"], project, tmp_path / "full", cardgen.BuildOptions(cache=False)).sets
    forgotten = []
    forget = PageStream.forget
    monkeypatch.setattr(PageStream, "forget", lambda self, name: (forgotten.append(name), forget(self, name)))
    monkeypatch.setattr(pdf._FaceDrawer, "FORMS", 1)
    (small,) = cardgen.build(["demo"], project, tmp_path / "small", cardgen.BuildOptions(cache=False)).sets
    forms = [name for name in forgotten if name.startswith("FormXob.")]
    assert forms  # forms were let go while the pages were written
    full_pages, small_pages = PdfReader(full.pdf).pages, PdfReader(small.pdf).pages
    assert len(small_pages) == len(full_pages) == small.pages
    for before, after in zip(full_pages, small_pages):
        assert after.extract_text() == before.extract_text()
        xobjects = after["/Resources"].get("/XObject", {})
        placed = re.findall(r"/(FormXob\.\w+) Do", after.get_contents().get_data().decode("latin-1"))
        assert all(f"/{name}" in xobjects for name in placed)  # each form a page places, it names


def test_pages_name_a_form_defined_again_by_its_new_object(project, tmp_path, monkeypatch):
    """Each page's XObject dictionary is formatted once for its names and the objects they
    refer to (write/stream.py): a form let go and defined again is a new object, and the pages
    after it name that one, byte for byte as reportlab's own formatting of every page does."""
    from reportlab.pdfbase import pdfdoc

    from cardgen.write import pdf, stream

    with open(project / "data/demo/more.csv", "a", encoding="utf-8") as cards:  # faces used again and again
        cards.write("Twin A,3,Same again\nTwin B,3,And again\n")
    monkeypatch.setattr(pdf._FaceDrawer, "FORMS", 1)  # forms let go and defined again, under new numbers
    (kept,) = cardgen.build(["demo"], project, tmp_path / "kept", cardgen.BuildOptions(cache=False)).sets
    monkeypatch.setattr(stream, "_xobjects", pdfdoc.format)
    (plain,) = cardgen.build(["demo"], project, tmp_path / "plain", cardgen.BuildOptions(cache=False)).sets
    assert kept.pdf.read_bytes() == plain.pdf.read_bytes()
    numbers = {}  # form name -> the object numbers pages name it by
    for page in PdfReader(kept.pdf).pages:
        for name, reference in page["/Resources"].get("/XObject", {}).items():
            numbers.setdefault(name, set()).add(reference.idnum)
    assert any(len(found) > 1 for found in numbers.values())  # a form named by two objects in turn
