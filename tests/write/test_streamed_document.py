"""The PDF written page by page (write/stream.py) says what reportlab's own ``save`` of the same
document says: every page's boxes, content and resources (fonts, forms, images, opacities,
shadings), the catalogue (viewer preferences) and the document information, object for object.

The oracle is reportlab itself: the same build with the page stream replaced by one that
writes nothing as it goes and calls ``canvas.save()`` at the end."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject

import cardgen
from cardgen.write import pdf as pdf_writer
from write.test_stream import _objects_by_xref
from write.writing import PT_PER_MM, Page, Placement, Slot, face, write

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


class _SavedByReportlab:
    """A PageStream that leaves every object to reportlab's ``save``."""

    def __init__(self, canvas, out, kept=None):
        self.canvas = canvas

    def page_done(self):
        pass

    def form_done(self, name):
        pass

    def forget(self, name):
        pass

    def finish(self):
        self.canvas.save()


def _plain(value, seen=()):
    """A PDF object as Python values, references followed (a stream: its dictionary and its
    decoded data); a page's /Parent is left out (the page tree is compared as the list of pages)."""
    if isinstance(value, IndirectObject):
        if value.idnum in seen:
            return ("cycle",)
        return _plain(value.get_object(), (*seen, value.idnum))
    if isinstance(value, StreamObject):
        entries = {k: _plain(v, seen) for k, v in value.items() if k not in ("/Length", "/Filter", "/DecodeParms")}
        return ("stream", entries, value.get_data())
    if isinstance(value, DictionaryObject):
        return {k: _plain(v, seen) for k, v in value.items() if k not in ("/Parent",)}
    if isinstance(value, ArrayObject):
        return [_plain(v, seen) for v in value]
    if isinstance(value, float) or type(value).__name__ == "FloatObject":
        return round(float(value), 4)
    return value


def _meaning(path):
    reader = PdfReader(path, strict=True)
    root = dict(reader.trailer["/Root"])
    tree = {k: v for k, v in root.pop("/Pages").get_object().items() if k != "/Kids"}  # the pages: below
    pages = []
    for page in reader.pages:
        entries = {k: _plain(v) for k, v in page.items() if k not in ("/Parent", "/Contents")}
        entries.setdefault("/Rotate", 0)
        if entries.get("/Trans") == {}:  # reportlab's empty page transition: none
            del entries["/Trans"]
        pages.append((entries, page.get_contents().get_data()))
    info = _plain(reader.trailer["/Info"])
    return {"root": _plain(DictionaryObject(root)), "tree": _plain(DictionaryObject(tree)), "info": info,
            "pages": pages, "objects": _objects(Path(path).read_bytes()),
            "count": reader.trailer["/Root"]["/Pages"]["/Count"], "version": reader.pdf_header,
            "trailer": _trailer(Path(path).read_bytes())}


def _trailer(data: bytes) -> tuple:
    """The trailer's /Size and the first string of its /ID (the document's; a rewriting of the
    file, as for CMYK, gives the second string anew from the bytes it writes)."""
    trailer = data[data.rindex(b"trailer"):]
    return (re.search(rb"/Size (\d+)", trailer).group(1), re.search(rb"/ID\s*\[<([0-9a-f]+)>", trailer).group(1))


def _objects(data: bytes) -> int:
    """How many objects the file has; each stands whole between its offset and the next."""
    offsets = sorted(_objects_by_xref(data).values())
    for start, end in zip(offsets, [*offsets[1:], data.rindex(b"\nxref\n") + 1]):
        assert re.fullmatch(rb"\d+ 0 obj\n.*\nendobj\n", data[start:end], re.S), data[start:start + 40]
    return len(offsets)


def _demo(project):
    """The demo set with what a page's resources can hold: opacities (an ExtGState), gradients
    (shadings), an image on the shared back (an XObject, and the image procedures), and faces
    used once (drawn inline) and more often (forms)."""
    back = project / "templates/demo/back.xml.j2"
    back.write_text(back.read_text(encoding="utf-8").replace("</card>", (
        '  <image x="5" y="5" w="10" h="10" src="icons/star.svg"/>\n'
        '  <rect x="5" y="60" w="20" h="10" fill="linear-gradient(90, #ff0000, #0000ff)"/>\n</card>')), encoding="utf-8")
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text(encoding="utf-8").replace(
        "</card>", '<circle cx="10" cy="10" r="8" fill="none" stroke="#ffffff" opacity="0.6"/>\n</card>'),
        encoding="utf-8")
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text(encoding="utf-8").replace("{% endblock %}", (
        '<rect x="5" y="80" w="20" h="4" fill="radial-gradient(#ffffff, #000000)" opacity="0.5"/>\n'
        "{% endblock %}")), encoding="utf-8")
    return project


@pytest.mark.parametrize("options", [{}, {"layout": "gutter-fold", "stamp": True, "stamp_date": "2026-01-02"},
                                     {"proof_boxes": True, "color": "cmyk"}])
def test_a_build_written_page_by_page_says_what_reportlab_would_save(project, tmp_path, monkeypatch, options):
    root = _demo(project)
    build = cardgen.BuildOptions(cache=False, jobs=1, **options)
    streamed = cardgen.build(["demo"], root, tmp_path / "streamed", build).sets[0].pdf
    monkeypatch.setattr(pdf_writer, "PageStream", _SavedByReportlab)
    saved = cardgen.build(["demo"], root, tmp_path / "saved", build).sets[0].pdf
    meaning = _meaning(streamed)
    assert meaning == _meaning(saved)
    kinds = set()
    for entries, _ in meaning["pages"]:
        resources = entries["/Resources"]
        kinds |= set(resources) | set(resources["/ProcSet"])
        kinds |= {"/Bleed" if "/BleedBox" in entries else "", "/Trim" if "/TrimBox" in entries else ""}
    assert {"/Font", "/XObject", "/ExtGState", "/Shading", "/ImageC"} <= kinds  # what the demo was made to hold


def test_pages_after_the_sheets_and_print_boxes_say_what_reportlab_would_save(tmp_path, monkeypatch):
    K = PT_PER_MM

    def changelog(canvas, font):
        canvas.setPageSize((50 * K, 60 * K))
        canvas.drawString(10, 10, "changes")
        canvas.linkURL("https://example.org", (5, 5, 40, 20))  # an annotation: reportlab formats the page

    once = face("f1")
    pages = [(Page(1, 69, 94, trim_box=(3, 3, 66, 91), bleed_box=(0, 0, 69, 94)), [Placement(once, Slot(1, 3, 3, 20, 30))]),
             (Page(2, 100, 150, flip="short"), [Placement(once, Slot(2, 10, 20, 20, 30)),
                                                Placement(face("f2"), Slot(2, 40, 20, 20, 30))])]
    write(tmp_path / "streamed.pdf", pages, extra_pages=(changelog,), sheets=True)
    monkeypatch.setattr(pdf_writer, "PageStream", _SavedByReportlab)
    write(tmp_path / "saved.pdf", pages, extra_pages=(changelog,), sheets=True)
    meaning = _meaning(tmp_path / "streamed.pdf")
    assert meaning == _meaning(tmp_path / "saved.pdf")
    assert meaning["tree"] == {"/Type": "/Pages", "/Count": 3}
    assert meaning["count"] == 3 and "/Annots" in meaning["pages"][2][0]
    assert "/TrimBox" in meaning["pages"][0][0] and "/BleedBox" in meaning["pages"][0][0]


def test_a_document_without_information_has_reportlabs_fixed_date(tmp_path):
    """No ``info`` (a proof of hand-made pages): the dates are still not the clock's."""
    metadata = write(tmp_path / "x.pdf", [(Page(1, 100, 150), [Placement(face("f1"), Slot(1, 10, 20, 20, 30))])]).metadata
    assert metadata["/CreationDate"] == metadata["/ModDate"] == "D:20000101000000+00'00'"


def test_a_page_tree_of_more_than_ten_lines_of_kids_says_what_reportlab_would_save(tmp_path, monkeypatch):
    """The page tree names ten pages a line: 23 pages make three lines, read back in order."""
    pages = [(Page(n, 100, 150 + n), [Placement(face(f"f{n % 4}"), Slot(n, 10, 20, 20, 30))]) for n in range(1, 24)]
    reader = write(tmp_path / "streamed.pdf", pages)
    assert [round(float(page.mediabox[3]) / PT_PER_MM, 3) for page in reader.pages] == [150 + n for n in range(1, 24)]
    monkeypatch.setattr(pdf_writer, "PageStream", _SavedByReportlab)
    write(tmp_path / "saved.pdf", pages)
    meaning = _meaning(tmp_path / "streamed.pdf")
    assert meaning == _meaning(tmp_path / "saved.pdf") and meaning["tree"] == {"/Type": "/Pages", "/Count": 23}
    # every reference of /Kids stands apart from the next (a lenient reader would take "0 R12" too)
    data = (tmp_path / "streamed.pdf").read_bytes()
    tree = reader.trailer["/Root"].raw_get("/Pages").idnum
    start = _objects_by_xref(data)[tree]
    kids = re.match(rb"\d+ 0 obj\n<<\n/Count 23 /Kids \[(.*?)\] /Type /Pages\n>>\nendobj\n", data[start:], re.S).group(1)
    assert re.fullmatch(rb"(\s+\d+ 0 R)+\s+", kids) and len(kids.split(b"R")) == 24
