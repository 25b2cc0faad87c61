"""Pages kept whole: a rebuild writes the pages it has already drawn from the cache, and prints
exactly what a build without the cache prints, whatever an edit does to the font subsets."""
from __future__ import annotations

import csv

import pytest

import cardgen
from cardgen import BuildOptions
from cardgen.write import pdf as pdf_writer
from pdftext import page_texts
from projects import make_project

WORDS = "token challenge planet alien power flare colony ship warp cone attack negotiate ally reward".split()
ROWS = 60  # some seven pages of fronts, and their backs


@pytest.fixture
def many(tmp_path):
    root = make_project(tmp_path)
    _write_rows(root, {})
    return root


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory):
    """``many`` built once (the cache on, into first/) for the module's tests that start from
    that build; each rebuilds a copy of it (``built``)."""
    root = make_project(tmp_path_factory.mktemp("many"))
    _write_rows(root, {})
    return root, _build(root, "first")


@pytest.fixture
def built(_built_once, tmp_path):
    """A copy of ``many`` after its first build (its cache and first/ included), and that build's
    result (its files are the first build's, read only)."""
    import shutil

    original, first = _built_once
    root = tmp_path / "proj"
    shutil.copytree(original, root, symlinks=True)
    return root, first


def _write_rows(root, texts: dict[int, str]) -> None:
    with open(root / "data/demo/more.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "count", "text", "weight"])
        for number in range(ROWS):
            words = [WORDS[(number * 5 + i * 3) % len(WORDS)] for i in range(12 + number % 9)]
            words[2] = f"**{words[2]}**"
            text = texts.get(number, " ".join(words))
            writer.writerow([f"Card {number + 1}", 1, text, ""])


def _build(root, out, **options):
    return cardgen.build(["demo"], root, root / out, BuildOptions(jobs=1, **options)).sets[0]


def _count_fronts_drawn(monkeypatch) -> list[str]:
    drawn: list[str] = []
    original = pdf_writer._FaceDrawer.draw

    def draw(self, placement):
        if placement.face.side == "front":
            drawn.append(placement.face.card.name)
        return original(self, placement)

    monkeypatch.setattr(pdf_writer._FaceDrawer, "draw", draw)
    return drawn


def test_a_rebuild_draws_only_the_page_of_the_changed_card(built, monkeypatch):
    many, first = built
    _write_rows(many, {30: "a changed text"})
    drawn = _count_fronts_drawn(monkeypatch)
    again = _build(many, "again")
    monkeypatch.undo()
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert again.manifest.read_bytes() == fresh.manifest.read_bytes()
    assert again.laid_out + again.reused == fresh.laid_out  # every distinct face counted once: laid out or kept
    # the changed card's sheet, and the first sheet (its copies are placed as forms: never
    # kept whole), which holds the fixture's own cards and Card 1 to Card 6
    later = [name for name in drawn if name.startswith("Card ") and int(name.split()[1]) > 6]
    assert "Card 31" in later and len(later) <= 9, later
    assert all(abs(int(name.split()[1]) - 31) < 9 for name in later), later
    assert len(drawn) < first.cards // 3
    assert any("a changed text" in text for text in page_texts(again.pdf))


@pytest.mark.parametrize("edits", [
    [(40, "café")],  # a new character late in the set: later pages get other codes
    [(1, "naïve Ωmega")],  # early: every later page's codes move
    [(1, "naïve"), (1, "plain")],  # and back again
])
def test_kept_pages_print_what_a_fresh_build_prints_when_an_edit_moves_the_codes(built, edits):
    many, _ = built
    for row, word in edits:
        _write_rows(many, {row: f"{word} and a few words"})
        again = _build(many, "again")
        fresh = _build(many, "fresh", cache=False)
        assert again.pdf.read_bytes() == fresh.pdf.read_bytes(), (row, word)
        assert all(any(w in text for text in page_texts(again.pdf)) for w in word.split())


def test_a_kept_page_whose_content_is_gone_is_drawn_again(built, monkeypatch):
    from cardgen.cache import FaceCache

    many, _ = built
    cache = FaceCache(many / ".cardgen-cache/faces-demo.bin")
    original_recall = FaceCache.recall
    monkeypatch.setattr(FaceCache, "recall",
                        lambda self, key: None if key.startswith("page:") else original_recall(self, key))
    del cache
    drawn = _count_fronts_drawn(monkeypatch)
    again = _build(many, "again")
    monkeypatch.undo()
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert len(drawn) == again.cards  # every front drawn: no page's content was there to keep


def _write_named_rows(root, copies: dict[int, int]) -> None:
    """The rows of ``_write_rows``, row ``to`` made the very card of row ``of`` for each
    ``to: of`` in ``copies`` (its name and text: the same face)."""
    _write_rows(root, {})
    with open(root / "data/demo/more.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    for to, of in copies.items():
        rows[to + 1] = list(rows[of + 1])
    with open(root / "data/demo/more.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


@pytest.mark.parametrize("copies", [
    {20: 40},  # met once before its kept page: drawn inline there, so placed as a form here
    {20: 40, 21: 40},  # met twice before: its form already defined, placed here
], ids=["once-before", "form-before"])
def test_a_kept_page_whose_face_is_met_earlier_in_the_document_places_it_as_a_fresh_build_does(built, copies):
    many, first = built
    _write_named_rows(many, copies)
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert again.pdf.read_bytes() != first.pdf.read_bytes()
    texts = page_texts(fresh.pdf)
    assert sum(text.count("Card 41") for text in texts) == 1 + len(copies)


def test_a_face_of_a_kept_page_met_again_later_is_placed_as_a_form_as_a_fresh_build_does(built):
    many, _ = built
    _write_named_rows(many, {50: 40})  # Card 41's page is kept; its face comes again later
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert sum(text.count("Card 41") for text in page_texts(fresh.pdf)) == 2


def _with_a_raster_icon(root) -> None:
    from PIL import Image

    Image.new("RGB", (8, 8), (200, 30, 30)).save(root / "data/demo/icons/dot.png")
    settings = root / "data/demo/set.yaml"
    text = settings.read_text(encoding="utf-8")
    star = "  star: {image: icons/star.svg}\n"
    assert star in text
    settings.write_text(text.replace(star, star + "  dot: {image: icons/dot.png}\n"), encoding="utf-8")


@pytest.mark.parametrize("second", [
    {5: "ally reward", 40: "planet :dot: power"},  # the image's first use gone: the kept page adds it
    {5: "ally :dot: reward", 40: "planet :dot: power", 30: "a changed text"},  # the image already in
], ids=["image-new-on-the-kept-page", "image-met-before"])
def test_a_kept_page_with_an_image_prints_what_a_fresh_build_prints(many, second):
    _with_a_raster_icon(many)
    _write_rows(many, {5: "ally :dot: reward", 40: "planet :dot: power"})
    _build(many, "first")
    _write_rows(many, second)
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert fresh.pdf.read_bytes().count(b"/Subtype /Image") == 1


def _rebuilt_as_fresh(many, before: dict, after: dict):
    """Build with ``before``'s rows, then again (cache on) with ``after``'s: the rebuild prints
    what a build without the cache prints, byte for byte."""
    _write_rows(many, before)
    _build(many, "first")
    _write_rows(many, after)
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    return again, fresh


def test_a_kept_page_asks_again_for_the_pdf_version_its_svg_icon_asked_for(many):
    """Drawing an SVG icon asks for PDF 1.4 (svglib sets each colour's alpha); a page kept whole
    asks for it again: a rebuild whose SVG icons were all on kept pages wrote a 1.3 header."""
    cards = many / "data/demo/cards.yaml"  # the first page names the fonts: it is never kept
    cards.write_text(cards.read_text(encoding="utf-8").replace("on a :star: space", "on a space"), encoding="utf-8")
    again, fresh = _rebuilt_as_fresh(many, {30: "planet :star: power"}, {30: "planet :star: power", 50: "a changed text"})
    assert fresh.pdf.read_bytes().startswith(b"%PDF-1.4\n")


def test_a_character_met_earlier_than_before_moves_the_codes_of_the_kept_pages_after_it(many):
    # ω first met on Card 31's page, ψ on Card 41's; then ψ on Card 11's: ψ takes ω's code, and
    # Card 31's page, its cards unchanged, must be drawn again with ω's new code
    _, fresh = _rebuilt_as_fresh(many, {30: "omega ω", 40: "psi ψ"}, {10: "psi ψ", 30: "omega ω", 40: "psi ψ"})
    texts = page_texts(fresh.pdf)
    assert sum("ψ" in text for text in texts) == 2 and sum("ω" in text for text in texts) == 1


@pytest.mark.parametrize("marks", [False, True])
def test_a_rebuild_with_other_crop_marks_prints_what_a_fresh_build_prints(many, marks):
    first = _build(many, "first", crop_marks=not marks)
    again = _build(many, "again", crop_marks=marks)
    fresh = _build(many, "fresh", cache=False, crop_marks=marks)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert again.pdf.read_bytes() != first.pdf.read_bytes()


def test_a_kept_page_after_one_that_starts_a_font_subset_prints_what_a_fresh_build_prints(many):
    # 300 letters never met before: Card 31's page starts a second subset of the font (of 256 codes)
    letters = "".join(chr(code) for code in [*range(0x0410, 0x0450), *range(0x0100, 0x017F), *range(0x0180, 0x01C0)])
    letters += "".join(chr(code) for code in range(0x0391, 0x03A2)) + "".join(chr(code) for code in range(0x03B1, 0x03CA))
    text = " ".join(letters[i:i + 12] for i in range(0, len(letters), 12))
    _, fresh = _rebuilt_as_fresh(many, {30: text}, {30: text, 50: "a changed text"})
    assert len(set(letters)) == 297
    assert sum(text.count("ω") for text in page_texts(fresh.pdf)) == 1


def test_a_kept_page_that_met_new_characters_gives_them_their_codes_for_the_pages_after_it(many):
    # Card 41's page kept: ψ and ω first met there; Card 51's page drawn again uses them
    again, fresh = _rebuilt_as_fresh(many, {40: "psi ψ omega ω", 55: "ω and ψ"},
                                     {40: "psi ψ omega ω", 55: "ω and ψ", 50: "a changed text"})
    assert again.reused >= 9  # the kept pages' faces, Card 41's among them
    assert sum("ψ" in text for text in page_texts(fresh.pdf)) == 2


def test_a_font_first_named_after_the_first_sheet_moves_the_codes_of_the_kept_pages_after_it(many):
    # bold italic first named on Card 31's page, ψ with it; ω in bold italic on Card 41's. Without
    # the ψ, ω takes its code: Card 41's page must be drawn again
    _write_rows(many, {30: "***bold italic ψ***", 40: "***ω***"})
    _build(many, "first")
    _write_rows(many, {30: "***bold italic***", 40: "***ω***"})
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert sum("ω" in text for text in page_texts(fresh.pdf)) == 1


@pytest.mark.parametrize("drawing", [
    '<image x="5" y="74" w="8" h="8" src="icons/star.svg"/>',
    '<image x="5" y="74" w="8" h="8" src="icons/star.svg"/><rect x="15" y="74" w="8" h="8" fill="#336699" opacity="0.5"/>',
], ids=["svg", "svg-and-opacity"])
def test_pages_whose_faces_draw_through_reportlab_are_drawn_again_as_a_fresh_build_draws_them(many, drawing):
    # on every action card: drawn through reportlab's graphics state, so never kept whole
    action = many / "templates/demo/action.xml.j2"
    action.write_text(action.read_text(encoding="utf-8").replace("{% endblock %}", drawing + "\n{% endblock %}"),
                      encoding="utf-8")
    _build(many, "first")
    _write_rows(many, {50: "a changed text"})
    again = _build(many, "again")
    fresh = _build(many, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()


def test_a_first_build_writes_a_back_page_met_again_from_the_content_it_kept(many, monkeypatch):
    """A deck's back pages are one page again and again: a first build draws it once placed as
    forms, and writes it again from what it kept (the cache's own memory of its latest entries
    has let it go long before), printing what a build without the cache prints."""
    pages_drawn: dict[str, set] = {"first": set(), "fresh": set()}
    original = pdf_writer._FaceDrawer.draw
    build = ["first"]

    def draw(self, placement):
        if placement.face.side == "back":
            pages_drawn[build[0]].add(placement.slot.page)
        return original(self, placement)

    monkeypatch.setattr(pdf_writer._FaceDrawer, "draw", draw)
    first = _build(many, "first")
    build[0] = "fresh"
    fresh = _build(many, "fresh", cache=False)
    assert first.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert first.manifest.read_bytes() == fresh.manifest.read_bytes()
    # the first back page (its first face drawn, the others placed as its form), the first placed
    # as forms alone; the later ones written as it
    assert sorted(pages_drawn["first"]) == [2, 4] and len(pages_drawn["fresh"]) > 4
