"""Runs of cards kept whole (kept_cards.py): a rebuild renders face by face only the runs whose
cards changed, and prints exactly what a build without the cache prints, whatever changed."""
from __future__ import annotations

import csv

import pytest

from cardgen.kept_cards import RUN
from cardgen.render.faces import FaceRenderer
from cardgen.write import pdf as pdf_writer
from pdftext import page_texts
from projects import build_demo, copy_of_project, make_project

WORDS = "token challenge planet alien power flare colony ship warp cone attack negotiate ally reward".split()
ROWS = 60  # some seven sheets of fronts, and their backs


def _write_rows(root, texts: dict[int, str] | None = None, counts: dict[int, int] | None = None,
                rows: list[int] | None = None) -> None:
    """The card file of ``ROWS`` rows (``rows``: these of them, in this order), row ``n`` with
    the text ``texts[n]`` and the count ``counts[n]`` where given."""
    texts, counts = texts or {}, counts or {}
    with open(root / "data/demo/more.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "count", "text", "weight"])
        for number in range(ROWS) if rows is None else rows:
            words = [WORDS[(number * 5 + i * 3) % len(WORDS)] for i in range(12 + number % 9)]
            words[2] = f"**{words[2]}**"
            writer.writerow([f"Card {number + 1}", counts.get(number, 1), texts.get(number, " ".join(words)), ""])


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("runs"))
    _write_rows(root)
    build_demo(root, "first")
    return root


@pytest.fixture
def built(_built_once, tmp_path):
    """A copy of the project after its first build (the cache on)."""
    return copy_of_project(_built_once, tmp_path)


def _rendered_face_by_face(monkeypatch) -> list[str]:
    """The names of the cards whose faces go through the renderer one by one."""
    names: list[str] = []
    original = FaceRenderer._face

    def face(self, card, *args):
        names.append(card.name)
        return original(self, card, *args)

    monkeypatch.setattr(FaceRenderer, "_face", face)
    return names


def _as_fresh(root, monkeypatch=None):
    """Rebuild (cache on) and build without the cache: the same bytes, PDF and manifest. With
    ``monkeypatch``: also the names of the cards the rebuild rendered face by face."""
    names = _rendered_face_by_face(monkeypatch) if monkeypatch is not None else None
    again = build_demo(root, "again")
    if monkeypatch is not None:
        monkeypatch.undo()
    fresh = build_demo(root, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    assert again.manifest.read_bytes() == fresh.manifest.read_bytes()
    return again, fresh, names


def test_a_rebuild_renders_face_by_face_only_the_run_of_the_changed_card(built, monkeypatch):
    _write_rows(built, {30: "a changed text"})
    again, fresh, names = _as_fresh(built, monkeypatch)
    assert "Card 31" in names and 0 < len(set(names)) <= RUN, names
    assert again.laid_out == 1 and again.laid_out + again.reused == fresh.laid_out
    assert any("a changed text" in text for text in page_texts(again.pdf))
    again = build_demo(built, "again")  # nothing changed since: no card rendered face by face
    names = _rendered_face_by_face(monkeypatch)
    build_demo(built, "again")
    assert names == []


@pytest.mark.parametrize("edit", [
    {"texts": {0: "the first card changed"}},
    {"texts": {ROWS - 1: "the last card changed"}},
    {"texts": {n: f"a sheet's worth {n}" for n in range(18, 27)}},
    {"counts": {10: 3}},  # every later card moves two slots, and its run's cards
    {"counts": {10: 0}},
    {"counts": {40: 2, 41: 0}},  # as many faces in the run as before, of other cards
    {"rows": [59, *range(59)]},  # the last card first: every run's cards move by one
    {"rows": [*range(30), *range(31, 60)]},  # a card gone
    {"texts": {20: "ψ and ω, never met before"}},  # every later page's codes move
], ids=["first", "last", "sheet", "count-up", "count-zero", "counts-balanced", "moved", "removed", "new-characters"])
def test_a_rebuild_after_an_edit_to_the_cards_prints_what_a_fresh_build_prints(built, edit):
    _write_rows(built, **edit)
    _as_fresh(built)


def test_a_rebuild_after_a_template_edit_renders_every_card_again(built, monkeypatch):
    template = built / "templates/demo/action.xml.j2"
    text = template.read_text(encoding="utf-8")
    assert "{% endblock %}" in text
    template.write_text(text.replace("{% endblock %}", '<rect x="2" y="2" w="4" h="4" fill="#aa0000"/>\n'
                                                         "{% endblock %}"), encoding="utf-8")
    _, _, names = _as_fresh(built, monkeypatch)
    assert {f"Card {n + 1}" for n in range(ROWS)} <= set(names)


@pytest.mark.parametrize("edit", [
    ("title: Demo Deck", "title: Other Deck"),  # every back reads set.title
    ("motto: first", "motto: other"),  # a field of the back
    ("  star: {image: icons/star.svg}", "  star: {image: icons/dot.svg}"),  # what every :star: draws
    ("size: poker\n", "size: poker\nsheet: {paper: a4, crop-marks: false}\n"),  # the sheets the faces go on
], ids=["set-title", "back-fields", "icon", "sheet-options"])
def test_a_rebuild_after_an_edit_to_the_set_prints_what_a_fresh_build_prints(built, edit):
    icons = built / "data/demo/icons"
    (icons / "dot.svg").write_text((icons / "star.svg").read_text(encoding="utf-8").replace("#e0a800", "#0050e0"),
                                   encoding="utf-8")
    back = built / "templates/demo/back.xml.j2"
    back.write_text(back.read_text(encoding="utf-8").replace(
        "</card>", '<text x="4" y="4" w="40" h="8" size="6">{{ motto }}</text>\n</card>'), encoding="utf-8")
    settings = built / "data/demo/set.yaml"
    plain = "  plain: {template: demo/back.xml.j2}"
    text = settings.read_text(encoding="utf-8").replace(plain, plain[:-1] + ", motto: first}")
    settings.write_text(text, encoding="utf-8")
    first = build_demo(built, "first")
    assert edit[0] in text
    settings.write_text(text.replace(*edit), encoding="utf-8")
    again, fresh, _ = _as_fresh(built)
    assert again.pdf.read_bytes() != first.pdf.read_bytes()
    if edit[1] == "motto: other":
        assert any("other" in text for text in page_texts(fresh.pdf))


def test_a_rebuild_after_an_image_file_changed_prints_what_a_fresh_build_prints(built):
    icon = built / "data/demo/icons/star.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace("<svg", "<svg data-edited=\"1\"", 1), encoding="utf-8")
    _as_fresh(built)


def test_the_back_pages_of_a_rebuild_are_kept_whole(built, monkeypatch):
    _write_rows(built, {30: "a changed text"})
    backs: list[int] = []
    original = pdf_writer._FaceDrawer.draw

    def draw(self, placement):
        if placement.face.side == "back":
            backs.append(placement.slot.page)
        return original(self, placement)

    monkeypatch.setattr(pdf_writer._FaceDrawer, "draw", draw)
    again = build_demo(built, "again")
    monkeypatch.undo()
    fresh = build_demo(built, "fresh", cache=False)
    assert again.pdf.read_bytes() == fresh.pdf.read_bytes()
    # the first back page (its back drawn inline once, then defined as a form) and, at most, the
    # changed card's (what it drew before may have moved the fonts' codes)
    assert 0 < len(set(backs)) <= 2, sorted(set(backs))
