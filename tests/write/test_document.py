"""What write_pdf puts round the faces, read back from the PDF: page and print boxes in mm, the
document's Title, Creator and Producer, the print dialog's hints (actual size; how to turn the
paper), the pages after the sheets, and who is told of each page."""
from __future__ import annotations

from write.writing import PT_PER_MM, Page, Placement, Slot, face, write

K = PT_PER_MM


def _sheet(number=1, **page):
    return Page(number, 100, 150, **page), [Placement(face(f"f{number}"), Slot(number, 10, 20, 20, 30))]


def _mm(box):
    return [round(float(v) / K, 4) for v in box]


def test_pages_have_their_size_and_print_boxes_in_mm(tmp_path):
    pages = [_sheet(1), _sheet(2, trim_box=(3, 3, 66, 91), bleed_box=(0, 0, 69, 94))]
    pages[1] = (Page(2, 69, 94, trim_box=(3, 3, 66, 91), bleed_box=(0, 0, 69, 94)), pages[1][1])
    first, second = write(tmp_path / "x.pdf", pages).pages
    assert _mm(first.mediabox) == [0, 0, 100, 150] and "/TrimBox" not in first and "/BleedBox" not in first
    assert _mm(second.mediabox) == [0, 0, 69, 94]
    assert _mm(second["/TrimBox"]) == [3, 3, 66, 91] and _mm(second["/BleedBox"]) == [0, 0, 69, 94]


def test_the_document_names_its_title_and_cardgen(tmp_path):
    metadata = write(tmp_path / "x.pdf", [_sheet()]).metadata
    assert (metadata["/Title"], metadata["/Creator"], metadata["/Producer"]) == ("Title", "cardgen", "cardgen")


def _preferences(reader):
    return dict(reader.trailer["/Root"]["/ViewerPreferences"])


def test_print_dialogs_print_at_actual_size_and_a_proof_says_nothing_of_duplex(tmp_path):
    assert _preferences(write(tmp_path / "x.pdf", [_sheet()])) == {"/PrintScaling": "/None"}


def test_sheets_without_backs_print_single_sided(tmp_path):
    assert _preferences(write(tmp_path / "x.pdf", [_sheet()], sheets=True)) == {
        "/PrintScaling": "/None", "/Duplex": "/Simplex"}


def test_back_pages_say_which_edge_the_paper_turns_on(tmp_path):
    for flip, duplex in (("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")):
        reader = write(tmp_path / f"{flip}.pdf", [_sheet(1), _sheet(2, flip=flip)], sheets=True)
        assert _preferences(reader) == {"/PrintScaling": "/None", "/Duplex": duplex}
    # pages printed from a proof (not sheets) with backs still say how to turn them
    reader = write(tmp_path / "proof.pdf", [_sheet(1), _sheet(2, flip="short")])
    assert _preferences(reader)["/Duplex"] == "/DuplexFlipShortEdge"


def test_pages_after_the_sheets_are_drawn_with_the_font_and_counted(tmp_path):
    told, fonts = [], []
    pages = [_sheet(1), _sheet(2)]

    def changelog(canvas, font):
        fonts.append(font)
        canvas.setPageSize((50 * K, 60 * K))
        canvas.drawString(10, 10, "changes")

    reader = write(tmp_path / "x.pdf", pages, extra_pages=(changelog, changelog),
                   on_page=lambda page, placements: told.append((page, placements)))
    assert len(reader.pages) == 4 and fonts == ["Helvetica", "Helvetica"]
    assert [_mm(page.mediabox) for page in reader.pages] == [[0, 0, 100, 150]] * 2 + [[0, 0, 50, 60]] * 2
    assert "changes" in reader.pages[3].extract_text()
    assert told == pages


def test_streams_are_binary_and_compressed_and_rebuilds_byte_identical(tmp_path):
    pages = [_sheet(1), (Page(2, 100, 150), [Placement(face("f1"), Slot(2, 10, 20, 20, 30))])]  # f1 again: a form
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    reader = write(tmp_path / "a" / "x.pdf", pages)
    (name,) = reader.pages[1]["/Resources"]["/XObject"]
    form = reader.pages[1]["/Resources"]["/XObject"][name].get_object()
    assert list(form["/Filter"]) == ["/FlateDecode"]
    assert [list(page["/Contents"].get_object()["/Filter"]) for page in reader.pages] == [["/FlateDecode"]] * 2
    write(tmp_path / "b" / "x.pdf", pages)
    assert (tmp_path / "a" / "x.pdf").read_bytes() == (tmp_path / "b" / "x.pdf").read_bytes()


def test_no_proof_boxes_unless_asked(tmp_path):
    data = write(tmp_path / "x.pdf", [_sheet()]).pages[0].get_contents().get_data()
    assert b"RG" not in data and b" S" not in data
