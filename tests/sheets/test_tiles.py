"""Boards larger than the paper are tiled over pages: measured from the PDF and the manifest."""
from __future__ import annotations

import json
import math

import pypdfium2 as pdfium
import pytest

import cardgen
from cardgen.write.manifest import load_manifest
from projects import make_project

PX_PER_MM = 20  # 508 dpi: a pixel is 0.05 mm
MARGIN = 4.0  # the default sheet margin
OVERLAP = 10.0
LABEL_BAND = 6.0
LETTER = (215.9, 279.4)
LINE_X = 263.0  # mm from the board's left trim: inside the overlap of the first two columns


def board_project(tmp_path, w: float, h: float):
    root = make_project(tmp_path, fonts=False)
    (root / "templates/demo/board.xml.j2").write_text(
        '<card><rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2*bleed }}" h="{{ h + 2*bleed }}" fill="#ffffff"/>'
        f'<line x1="{LINE_X}" y1="0" x2="{LINE_X}" y2="{{{{ h }}}}" stroke="#000000" stroke-width="0.2"/></card>')
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "types:\n", f"types:\n  board:\n    template: demo/board.xml.j2\n    size: {{w: {w}, h: {h}}}\n"))
    (root / "data/demo/cards.yaml").write_text("- {name: Big Board, type: board}\n")
    (root / "data/demo/more.csv").write_text("name,count,text\n")
    return root


def expected_grid(w: float, h: float, bleed: float = 3.0):
    """Tiles across and down on the orientation that needs fewest, computed here from the rule."""
    best = None
    for page_w, page_h in (LETTER, LETTER[::-1]):
        cw, ch = page_w - 2 * MARGIN, page_h - 2 * MARGIN - LABEL_BAND
        cols = 1 if w + 2 * bleed <= cw else math.ceil((w + 2 * bleed - OVERLAP) / (cw - OVERLAP))
        rows = 1 if h + 2 * bleed <= ch else math.ceil((h + 2 * bleed - OVERLAP) / (ch - OVERLAP))
        if best is None or rows * cols < best[0] * best[1]:
            best = (rows, cols, page_w, page_h, cw - OVERLAP, ch - OVERLAP)
    return best


@pytest.mark.parametrize("w, h", [(480, 360), (900, 600)])
def test_a_board_larger_than_the_paper_is_tiled_with_a_page_map(tmp_path, w, h):
    root = board_project(tmp_path, w, h)
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    rows, cols, page_w, page_h, step_x, step_y = expected_grid(w, h)
    assert result.pages == 1 + rows * cols
    assert (result.cards, result.faces) == (1, 1)  # one card, however many tiles it takes
    faces = load_manifest(result.manifest)["faces"]
    assert [f["page"] for f in faces] == list(range(2, 2 + rows * cols))
    pdf = pdfium.PdfDocument(str(result.pdf))
    assert [round(v, 1) for v in pdf[1].get_size()] == [round(page_w * 72 / 25.4, 1), round(page_h * 72 / 25.4, 1)]
    map_text = pdf[0].get_textpage().get_text_range()
    assert f"Page map: Big Board, {w} x {h} mm, {rows} x {cols} tiles" in map_text
    names = [f"{chr(65 + r)}{c + 1}" for r in range(rows) for c in range(cols)]
    for index, name in enumerate(names):
        text = " ".join(pdf[1 + index].get_textpage().get_text_range().split())
        assert text.startswith(f"Tile {name} of {rows} x {cols} ({names[-1]}): Big Board.")
        assert name in map_text
    # neighbouring tiles place the board exactly one step apart
    for index, face in enumerate(faces):
        row, col = divmod(index, cols)
        assert face["x_mm"] == pytest.approx(MARGIN + 3 - col * step_x, abs=1e-6)
        assert face["y_mm"] + face["h_mm"] == pytest.approx(page_h - MARGIN - 3 + row * step_y, abs=1e-6)


def line_position(page, y_mm: float) -> float:
    """The x (mm) of the centre of the dark vertical line crossing height ``y_mm`` (from the top)."""
    image = page.render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("L")
    y = int(y_mm * PX_PER_MM)
    darkness = [255 - v for v in image.crop((0, y, image.size[0], y + 1)).tobytes()]
    columns = [x for x, d in enumerate(darkness) if d > 60]
    assert columns, "no line on this tile"
    lo, hi = columns[0] - 2, columns[-1] + 3
    weights = darkness[lo:hi]
    return (sum(x * d for x, d in zip(range(lo, hi), weights)) / sum(weights) + 0.5) / PX_PER_MM


def test_tiles_join_exactly_in_their_overlap(tmp_path):
    root = board_project(tmp_path, 480, 360)
    result = cardgen.build(["demo"], root, tmp_path / "out", cardgen.BuildOptions(cache=False)).sets[0]
    rows, cols, page_w, page_h, step_x, step_y = expected_grid(480, 360)
    pdf = pdfium.PdfDocument(str(result.pdf))
    on_first = line_position(pdf[1], 100)  # tile A1
    on_second = line_position(pdf[2], 100)  # tile A2: the same line, one step to the left
    assert on_first == pytest.approx(MARGIN + 3 + LINE_X, abs=0.05)
    assert on_first - on_second == pytest.approx(step_x, abs=0.05)


def test_each_copy_of_a_board_counts_once_in_the_build_summary(tmp_path):
    """"built 1 set, 12 cards" was said of two boards tiled over six pages each."""
    from click.testing import CliRunner

    from cardgen.cli import main

    root = board_project(tmp_path, 480, 360)
    (root / "data/demo/cards.yaml").write_text("- {name: Big Board, type: board, count: 2}\n")
    rows, cols = expected_grid(480, 360)[:2]
    result = CliRunner().invoke(main, ["--root", str(root), "build", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built 1 set, 2 cards, {2 * (1 + rows * cols)} pages in ")
