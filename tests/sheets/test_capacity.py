"""The README's faces-per-page table is the code's, and the code's is what imposition does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.sheets import CARD_SIZES, SheetOptions, impose
from cardgen.sheets.capacity import PAPERS, TABLE_END, TABLE_START, faces_table

from .helpers import by_page, card_type, pairs

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def readme_table() -> dict[str, list[tuple[int, int, int, str]]]:
    """preset -> [(faces, columns, rows, orientation)] for Letter, A4, Letter and A4 gutter fold."""
    start, end = README.index(TABLE_START), README.index(TABLE_END)
    rows = {}
    for line in README[start:end].splitlines()[3:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        parsed = []
        for cell in cells[2:]:
            match = re.fullmatch(r"(\d+) \((\d+) x (\d+) (portrait|landscape)\)", cell)
            assert match, cell
            parsed.append((int(match[1]), int(match[2]), int(match[3]), match[4]))
        rows[cells[0]] = parsed
    return rows


def test_the_readme_holds_the_generated_table():
    start, end = README.index(TABLE_START), README.index(TABLE_END) + len(TABLE_END)
    assert README[start:end] == faces_table()
    assert sorted(readme_table()) == sorted(CARD_SIZES)


@pytest.mark.parametrize("preset", sorted(CARD_SIZES))
@pytest.mark.parametrize("paper_index, paper", list(enumerate(PAPERS)))
def test_the_table_is_what_imposition_does(preset, paper_index, paper):
    size = CARD_SIZES[preset]
    row = readme_table()[preset]
    for layout, expected in (("sheets", row[paper_index]), ("gutter-fold", row[len(PAPERS) + paper_index])):
        faces, ncols, nrows, orientation = expected
        assert faces == ncols * nrows
        imposition = impose(pairs(40, card_type(size.w, size.h)), SheetOptions(paper=paper, layout=layout))
        page = imposition.pages[0]
        fronts = [p.slot for p in by_page(imposition)[1] if p.face.side == "front"]
        assert len(fronts) == faces, (preset, paper, layout)
        assert len({round(s.x, 6) for s in fronts}) == ncols
        assert len({round(s.y, 6) for s in fronts}) == nrows
        assert ("portrait" if page.w <= page.h else "landscape") == orientation


def test_nine_poker_and_bridge_cards_on_letter_and_a4():
    table = readme_table()
    for preset in ("poker", "bridge"):
        assert table[preset][:2] == [(9, 3, 3, "portrait"), (9, 3, 3, "portrait")]
