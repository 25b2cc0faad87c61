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


def test_pages_name_a_form_defined_again_by_its_new_object(project, monkeypatch):
    """A form let go and defined again is a new object (with the same drawing): every page
    after that names the new one, never the object its name stood for before (a page's XObject
    dictionary formatted once and kept must be kept by the objects it names, not the names)."""
    from cardgen.write import pdf

    with open(project / "data/demo/more.csv", "a", encoding="utf-8") as cards:  # faces used again and again
        cards.write("Twin A,3,Same again\nTwin B,3,And again\n")
    monkeypatch.setattr(pdf._FaceDrawer, "FORMS", 1)  # forms let go and defined again, under new numbers
    (result,) = cardgen.build(["demo"], project, project / "out", cardgen.BuildOptions(cache=False)).sets
    reader = PdfReader(result.pdf)
    forms: dict[bytes, list[int]] = {}  # a form's drawing -> the objects that define it, in file order
    for number in range(1, reader.trailer["/Size"]):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if getattr(obj, "get", None) and obj.get("/Subtype") == "/Form":
            forms.setdefault(obj.get_data(), []).append(number)
    redefined = 0
    for page in reader.pages:
        for reference in page["/Resources"].get("/XObject", {}).values():
            form = reference.get_object()
            if form.get("/Subtype") != "/Form":
                continue
            defined = forms[form.get_data()]
            before_page = [number for number in defined if number < page.indirect_reference.idnum]
            assert reference.idnum == max(before_page)  # the latest definition before the page
            redefined += len(defined) > 1
    assert redefined  # some page named a form defined twice
