"""Tuck boxes: the net's panels measured from the PDF, sized from the cards they hold."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import cardgen
from cardgen.errors import CardgenError

from projects import REPO

PT_PER_MM = 72 / 25.4


def _multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def strokes(pdf: Path):
    """Every stroked straight segment on the first page as ((x1, y1, x2, y2) in mm from the page's
    bottom-left, dashed?), read by walking the content stream's operators."""
    reader = PdfReader(str(pdf))
    page = reader.pages[0]
    ops = ContentStream(page.get_contents(), reader).operations
    ctm, stack, dash, path, start, found = (1, 0, 0, 1, 0, 0), [], False, [], None, []
    for operands, op in ops:
        op = op.decode()
        if op == "q":
            stack.append((ctm, dash))
        elif op == "Q":
            ctm, dash = stack.pop()
        elif op == "cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == "d":
            dash = bool(operands[0])
        elif op == "m":
            start = tuple(float(v) for v in operands)
            path.append(("m", start))
        elif op == "l":
            path.append(("l", tuple(float(v) for v in operands)))
        elif op in ("S", "s"):
            last = None
            for kind, (x, y) in path:
                point = (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                if kind == "l" and last is not None:
                    found.append((tuple(v / PT_PER_MM for v in (*last, *point)), dash))
                last = point
            path = []
        elif op in ("n", "f", "f*", "B", "b", "W"):
            if op != "W":
                path = []
    return found


def build_death_mesa(tmp_path: Path, thickness: str | None = None) -> Path:
    root = tmp_path / "proj"
    for folder in ("data/death-mesa", "templates/death-mesa", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    if thickness is not None:
        set_yaml = root / "data/death-mesa/set.yaml"
        set_yaml.write_text(set_yaml.read_text().replace("thickness: 0.3", f"thickness: {thickness}"))
    result = cardgen.build(["death-mesa"], root, tmp_path / "out", cardgen.BuildOptions(cache=False))
    assert [p.name for p in result.sets[0].boxes] == ["death-mesa.box-dmd.pdf"]
    assert "pages, 1 tuck box in" in result.summary  # 26 DMD cards and 9 aid cards
    return result.sets[0].boxes[0]


def folds_and_cuts(pdf: Path):
    segments = strokes(pdf)
    folds = {tuple(round(v, 2) for v in s) for s, dashed in segments if dashed}
    cuts = {tuple(round(v, 2) for v in s) for s, dashed in segments if not dashed}
    return folds, cuts


def test_the_dead_mens_deck_box_fits_26_cards_of_its_stock(tmp_path):
    pdf = build_death_mesa(tmp_path)
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 1
    folds, cuts = folds_and_cuts(pdf)
    vertical = sorted({x1 for x1, y1, x2, y2 in folds if abs(x1 - x2) < 0.01})
    horizontal = sorted({y1 for x1, y1, x2, y2 in folds if abs(y1 - y2) < 0.01}, reverse=True)  # top first
    inner_w, inner_h, depth = 57.15 + 1, 88.9 + 1, 26 * 0.3 + 1
    # glue | front | side | back | (side): four vertical folds
    assert len(vertical) == 4
    assert [round(b - a, 2) for a, b in zip(vertical, vertical[1:])] == [inner_w, depth, inner_w]
    # tuck / lid / body / bottom flap / bottom tuck: four horizontal fold heights
    assert len(horizontal) == 4
    assert [round(a - b, 2) for a, b in zip(horizontal, horizontal[1:])] == [depth, inner_h, depth]
    xs = [v for seg in cuts for v in (seg[0], seg[2])]
    ys = [v for seg in cuts for v in (seg[1], seg[3])]
    assert round(max(xs) - vertical[-1], 2) == depth  # the last side panel
    assert round(max(ys) - horizontal[0], 2) == 15.0  # the tuck flap: 15 mm
    assert round(vertical[0] - min(xs), 2) == 8.0  # the glue flap
    width, height = (float(v) / PT_PER_MM for v in reader.pages[0].mediabox[2:])
    assert min(xs) >= 5 + 3 and max(xs) <= width - 8 and min(ys) >= 8 and max(ys) <= height - 8


def test_thicker_stock_makes_a_deeper_box(tmp_path):
    folds, _ = folds_and_cuts(build_death_mesa(tmp_path, thickness="0.5"))
    vertical = sorted({x1 for x1, y1, x2, y2 in folds if abs(x1 - x2) < 0.01})
    assert round(vertical[2] - vertical[1], 2) == 26 * 0.5 + 1


def test_the_box_layout_prints_on_the_panels(tmp_path):
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(build_death_mesa(tmp_path)))[0]
    text = " ".join(page.get_textpage().get_text_range().split())
    assert text.count("Dead Men’s Deck") == 2 + 2  # front, back and both sides
    assert "Cut on the solid lines, fold on the dashed ones" in text


def make_box_project(tmp_path: Path, box: str) -> Path:
    from projects import make_project

    root = make_project(tmp_path, fonts=False)
    (root / "templates/demo/box.xml.j2").write_text(
        '<card><rect x="0" y="0" w="{{ w }}" h="{{ h }}" fill="#eeeeee"/>'
        '<text x="{{ box.front.x + 3 }}" y="{{ box.front.y + 3 }}" w="30" h="8" size="8">{{ count }} cards</text></card>')
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + box)
    return root


def test_a_box_for_cards_of_two_sizes_names_its_line(tmp_path):
    root = make_box_project(tmp_path, "boxes:\n  mixed:\n    template: demo/box.xml.j2\n")
    line = root.joinpath("data/demo/set.yaml").read_text().splitlines().index("  mixed:") + 1
    with pytest.raises(CardgenError) as caught:
        cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False))
    assert [str(p) for p in caught.value.problems] == [
        f'data/demo/set.yaml:{line}: box "mixed" holds cards of different sizes (20 x 20 mm, 63.5 x 88.9 mm): '
        f'a box holds one size']


def test_a_box_that_holds_nothing_is_an_error(tmp_path):
    root = make_box_project(tmp_path, "boxes:\n  none:\n    template: demo/box.xml.j2\n    cards: {type: nothing}\n")
    with pytest.raises(CardgenError) as caught:
        cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False))
    assert str(caught.value.problems[0]).endswith(
        "box \"none\" holds no card: nothing matches {type: nothing}")


@pytest.mark.parametrize("box", ["boxes:\n  mixed:\n    template: demo/box.xml.j2\n",
                                 "boxes:\n  none:\n    template: demo/box.xml.j2\n    cards: {type: nothing}\n"])
def test_a_box_that_cannot_be_made_leaves_the_earlier_output_as_it_was(tmp_path, box):
    root = make_box_project(tmp_path, "")
    out = tmp_path / "out"
    cardgen.build(["demo"], root, out, cardgen.BuildOptions(cache=False))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + box)
    with pytest.raises(CardgenError):  # checked before the set's own files are replaced
        cardgen.build(["demo"], root, out, cardgen.BuildOptions(cache=False, stamp=True, stamp_date="2024-01-01"))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_box_counts_its_copies(tmp_path):
    import pypdfium2 as pdfium

    root = make_box_project(tmp_path, "boxes:\n  actions:\n    template: demo/box.xml.j2\n    cards: {type: action}\n")
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    copies = sum(card.count for card in cardgen.load_set("demo", root).cards if card.type == "action")
    text = pdfium.PdfDocument(str(result.boxes[0]))[0].get_textpage().get_text_range()
    assert f"{copies} cards" in text


@pytest.mark.parametrize("dated", ["date: 2024-05-01\n", "SOURCE_DATE_EPOCH", "files"])
def test_a_box_has_the_sets_date(tmp_path, monkeypatch, dated):
    """The box's PDF is dated as the set's PDF is (README, PDF information: set.yaml's date:,
    else SOURCE_DATE_EPOCH, else the set's newest file): it was reportlab's invariant
    2000-01-01, or SOURCE_DATE_EPOCH over set.yaml's date:, whatever the input said."""
    import os

    root = make_box_project(tmp_path, "boxes:\n  actions:\n    template: demo/box.xml.j2\n    cards: {type: action}\n")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    if dated.startswith("date:"):
        set_yaml = root / "data/demo/set.yaml"
        set_yaml.write_text(dated + set_yaml.read_text(encoding="utf-8"), encoding="utf-8")
        want = b"D:20240501000000+00'00'"
    elif dated == "files":
        monkeypatch.delenv("SOURCE_DATE_EPOCH")
        for path in (root / "data/demo").rglob("*"):
            os.utime(path, (1600000000, 1600000000))  # 2020-09-13 12:26:40 UTC
        want = b"D:20200913122640+00'00'"
    else:
        want = b"D:20231114221320+00'00'"
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    assert want in result.pdf.read_bytes()
    box = result.boxes[0].read_bytes()
    assert box.count(want) == 2 and b"D:2000" not in box  # CreationDate and ModDate


@pytest.mark.parametrize("how", ["option", "set.yaml"])
def test_a_cmyk_builds_box_is_cmyk_as_its_set_is(tmp_path, how):
    """``--color cmyk`` (or ``color: cmyk``) converted the set's PDF and left its tuck box RGB:
    its ground, its gradient and its white-under-black cut lines went to the printer as RGB."""
    import re

    import pikepdf

    root = make_box_project(tmp_path, "boxes:\n  actions:\n    template: demo/box.xml.j2\n    cards: {type: action}\n")
    layout = root / "templates/demo/box.xml.j2"
    layout.write_text(layout.read_text().replace(
        "</card>", '<rect x="2" y="2" w="20" h="5" fill="linear-gradient(90, #c8102e, #27408b)"/></card>'))
    if how == "set.yaml":
        set_yaml = root / "data/demo/set.yaml"
        set_yaml.write_text(set_yaml.read_text() + "color: cmyk\n")
    options = cardgen.BuildOptions(cache=False, color="cmyk" if how == "option" else None)
    result = cardgen.build(["demo"], root, tmp_path / "out", options).sets[0]
    with pikepdf.open(result.boxes[0]) as pdf:
        (page,) = pdf.pages
        text = page.obj.Contents.read_bytes().decode("latin-1")
        text = re.sub(r"\((?:\\.|[^\\)])*\)", "", text)  # strings are text, not operators
        assert not re.search(r"(?<![\w/])(rg|RG)(?![\w])", text)
        assert re.search(r"(?<![\w/])k(?![\w])", text) and re.search(r"(?<![\w/])K(?![\w])", text)
        spaces = [obj.ColorSpace for obj in pdf.objects
                  if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj]
        assert spaces == [pikepdf.Name.DeviceCMYK]


@pytest.mark.parametrize("given", [True, False])
def test_a_box_has_the_sets_author_and_subject(tmp_path, given):
    """The box's PDF said Author "anonymous" and Subject "unspecified" (reportlab's own) whatever
    set.yaml's author: and subject: said; the set's PDF had them."""
    import pikepdf

    root = make_box_project(tmp_path, "boxes:\n  actions:\n    template: demo/box.xml.j2\n    cards: {type: action}\n")
    if given:
        set_yaml = root / "data/demo/set.yaml"
        set_yaml.write_text(set_yaml.read_text() + "author: Ada Designer\nsubject: Playtest 3\n")
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    with pikepdf.open(result.pdf) as pdf:
        author = str(pdf.docinfo.Author)
    with pikepdf.open(result.boxes[0]) as box:
        assert str(box.docinfo.Author) == author == ("Ada Designer" if given else "Demo Deck")
        assert str(box.docinfo.Subject) == ("Playtest 3" if given else "Demo Deck: actions tuck box printed by cardgen")
        assert str(box.docinfo.Title) == "Demo Deck: actions tuck box"


def test_a_box_prints_at_actual_size_one_sided(tmp_path):
    """The set's sheets told print dialogs to print at actual size (/PrintScaling /None); the box,
    whose size is the point, did not: scaled to fit the printable area it holds no card."""
    import pikepdf

    root = make_box_project(tmp_path, "boxes:\n  actions:\n    template: demo/box.xml.j2\n    cards: {type: action}\n")
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    with pikepdf.open(result.boxes[0]) as box:
        preferences = box.Root.ViewerPreferences
        assert preferences.PrintScaling == pikepdf.Name("/None") and preferences.Duplex == pikepdf.Name.Simplex
