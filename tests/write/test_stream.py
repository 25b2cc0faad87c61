"""The PDF is written page by page (write/stream.py): its cross-reference table must still point
at every object, and its header must name the version the document ended up needing."""
from __future__ import annotations

import re

import pypdf

import cardgen
from projects import make_project


def _objects_by_xref(data: bytes) -> dict[int, int]:
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    head, *lines = data[start:].split(b"trailer")[0].decode("ascii").splitlines()[1:]
    first, count = map(int, head.split())
    assert first == 0 and count == len(lines)
    return {number: int(line[:10]) for number, line in enumerate(lines) if line.endswith("n ")}


def test_every_object_is_where_the_cross_reference_table_says(tmp_path):
    root = make_project(tmp_path)
    result = cardgen.build(None, root)
    data = result.sets[0].pdf.read_bytes()
    offsets = _objects_by_xref(data)
    assert len(offsets) > 10
    for number, offset in offsets.items():
        assert data[offset:].startswith(f"{number} 0 obj\n".encode()), number
    trailer = pypdf.PdfReader(result.sets[0].pdf, strict=True).trailer
    assert trailer["/Size"] == len(offsets) + 1


def test_the_header_names_the_version_that_transparency_needs(tmp_path):
    options = cardgen.BuildOptions(cache=False)
    root = make_project(tmp_path)
    token = root / "templates/demo/token.xml.j2"  # a shading drawn with an opacity
    token.write_text(token.read_text().replace(
        "</card>", '<circle cx="10" cy="10" r="8" fill="none" stroke="#ffffff" opacity="0.6"/>\n</card>'))
    pdf = cardgen.build(["demo"], root, tmp_path / "out", options).sets[0].pdf
    data = pdf.read_bytes()
    assert b"/ca " in data or b"/CA " in data
    assert data.startswith(b"%PDF-1.4\n")
