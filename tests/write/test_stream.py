"""The PDF is written page by page (write/stream.py): its cross-reference table must still point
at every object, and its header must name the version the document ended up needing."""
from __future__ import annotations

import re
from array import array

import pypdf
import pytest

import cardgen
from cardgen.write.stream import _cross_references
from projects import make_project


def _objects_by_xref(data: bytes) -> dict[int, int]:
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    head, *lines = data[start:].split(b"trailer")[0].decode("ascii").splitlines()[1:]
    first, count = map(int, head.split())
    assert first == 0 and count == len(lines)
    return {number: int(line[:10]) for number, line in enumerate(lines) if line.endswith("n ")}


def test_every_object_is_where_the_cross_reference_table_says(tmp_path):
    root = make_project(tmp_path, fonts=False)
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
    root = make_project(tmp_path, fonts=False)
    token = root / "templates/demo/token.xml.j2"  # a shading drawn with an opacity
    token.write_text(token.read_text().replace(
        "</card>", '<circle cx="10" cy="10" r="8" fill="none" stroke="#ffffff" opacity="0.6"/>\n</card>'))
    pdf = cardgen.build(["demo"], root, tmp_path / "out", options).sets[0].pdf
    data = pdf.read_bytes()
    assert b"/ca " in data or b"/CA " in data
    assert data.startswith(b"%PDF-1.4\n")


def _table(offsets, count: int) -> bytes:
    return b"".join(_cross_references(array("Q", offsets), count))


def test_the_cross_reference_table_lists_every_object_across_its_chunks():
    """Written a few thousand entries at a time: an entry a line, none lost or doubled at the
    chunks' edges (a set of thousands of pages has tens of thousands of objects)."""
    offsets = [0] + [15 + 7 * number for number in range(1, 9001)]
    for count in (1, 2, 4095, 4096, 4097, 4098, 8192, 8193, 8194, 9000):
        expected = b"xref\n0 %d\n0000000000 65535 f \n" % (count + 1) + b"".join(
            b"%010d 00000 n \n" % offset for offset in offsets[1:count + 1])
        assert _table(offsets[:count + 1], count) == expected, count


def test_an_object_never_written_stops_the_table():
    for offsets, count in (([0, 15, 0, 30], 3), ([0, 15, 22, 30, 0], 4), ([0, 0, 22], 2), ([0, 15, 22], 3)):
        with pytest.raises(AssertionError) as raised:
            _table(offsets, count)
        assert str(raised.value) == "an object of the PDF was never written", (offsets, count)
