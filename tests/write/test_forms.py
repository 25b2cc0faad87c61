"""A face met once is drawn inline; met again, it becomes a form that every later use places.
Nothing is counted ahead: the writer sees each face as the cards stream past."""
from __future__ import annotations

import json
import re
from collections import Counter

from pypdf import PdfReader

import cardgen
from cardgen.write.manifest import load_manifest


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
