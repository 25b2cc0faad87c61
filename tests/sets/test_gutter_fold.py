"""Gutter fold works for every shipped set on Letter and A4, measured from the PDF (page sizes,
the dashed fold line, crop marks) and its manifest (where each face went). The sets are
copied into a temporary project and built there: nothing is written into the repository, and
the second paper reuses, from that project's own cache, the faces this same code drew for the
first (what differs between papers, the sheets, is imposed anew)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest

import cardgen
from cardgen import BuildOptions
from cardgen.load.setfile import set_names
from cardgen.write.manifest import load_manifest

from pdflines import page_lines

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
TOL = 0.05
BLACK = (0.0, 0.0, 0.0, 1.0)
SETS = set_names(REPO)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gutter") / "proj"
    for folder in ("data", "templates", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    return root


def color(obj):
    value = obj.get("stroking_color")
    return tuple(round(v, 3) for v in value) if isinstance(value, (tuple, list)) else value


def test_every_shipped_set_is_there():
    assert {"death-mesa", "prisoners", "prisoners-warp", "prohibition", "skill-tokens"} <= set(SETS)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_gutter_fold_of_every_shipped_set(project, paper):
    out = project / "out" / paper
    result = cardgen.build(None, root=project, out=out,
                           options=BuildOptions(paper=paper, layout="gutter-fold"))
    assert [s.name for s in result.sets] == SETS
    for built in result.sets:
        manifest = load_manifest(out / f"{built.name}.json")
        faces = manifest["faces"]
        fronts = [f for f in faces if f["side"] == "front"]
        backs = {(f["card"], f["copy"]): f for f in faces if f["side"] == "back"}
        assert len(fronts) == built.cards > 0
        with pikepdf.open(out / f"{built.name}.pdf") as pdf:
            sizes = [(float(p.mediabox[2] - p.mediabox[0]), float(p.mediabox[3] - p.mediabox[1])) for p in pdf.pages]
        assert len(sizes) == manifest["pages"] == built.pages
        # the lines as pdfplumber reads them (tests/pdflines.py), without its seconds a page of text layout
        for number, ((width, height), lines) in enumerate(zip(sizes, page_lines(out / f"{built.name}.pdf"), strict=True), 1):
            pw, ph = width * MM, height * MM
            on_page = [f for f in faces if f["page"] == number]
            # the fold line: dashed, black, from margin to margin (faces may draw dashes of their own)
            folds = [line for line in lines if line.get("dash") and line["dash"][0]
                     and color(line) == BLACK and max(line["x1"] - line["x0"], line["bottom"] - line["top"])
                     * MM >= min(pw, ph) - 8 - TOL]
            has_backs = any(f["side"] == "back" for f in on_page)
            # A page with backs is a gutter-fold page (one dashed fold line across its middle);
            # faces without a back are on plain single-sided sheets, with no fold.
            assert len(folds) == (1 if has_backs else 0), (built.name, number)
            if has_backs:
                fold = folds[0]
                vertical = abs(fold["x0"] - fold["x1"]) < 0.01
                if vertical:
                    assert abs(fold["x0"] * MM - pw / 2) <= TOL
                else:
                    assert abs((height - fold["top"]) * MM - ph / 2) <= TOL
            for mark in lines:
                if color(mark) == BLACK and mark not in folds:
                    x0, y0 = mark["x0"] * MM, (height - mark["bottom"]) * MM
                    x1, y1 = mark["x1"] * MM, (height - mark["top"]) * MM
                    assert min(x0, y0) >= 4 - TOL and x1 <= pw - 4 + TOL and y1 <= ph - 4 + TOL
            for front in (f for f in on_page if f["side"] == "front"):
                back = backs.get((front["card"], front["copy"]))
                if back is None:
                    continue
                # Its back on the same page, the mirror image across the fold.
                assert back["page"] == number
                x, y, w, h = (front[k] for k in ("x_mm", "y_mm", "w_mm", "h_mm"))
                expected = (pw - x - w, y) if vertical else (x, ph - y - h)
                assert (back["x_mm"], back["y_mm"]) == pytest.approx(expected, abs=1e-3)
                assert back["rotation"] == (0 if vertical else 180)
                # Neither face (nor its 3 mm-or-less bleed) crosses the fold.
                lo, hi = (x, x + w) if vertical else (y, y + h)
                middle = pw / 2 if vertical else ph / 2
                assert hi <= middle - 2.5 or lo >= middle + 2.5
        assert sum(1 for f in faces if f["side"] == "back") == len(backs)


def test_a_face_with_a_back_too_large_to_fold_is_an_error_naming_it(project, tmp_path):
    # The Warp's 140 mm Star Discs have no back and go on plain sheets; given a back, they cannot
    # fit twice on Letter (at most 127.2 mm beside a fold).
    root = tmp_path / "proj"
    for folder in ("data", "templates", "fonts"):
        shutil.copytree(project / folder, root / folder)
    set_file = root / "data" / "prisoners-warp" / "set.yaml"
    text = set_file.read_text(encoding="utf-8")
    marker = "  star-disc:\n"
    assert text.count(marker) == 1
    set_file.write_text(text.replace(marker, marker + "    back: cosmic\n"), encoding="utf-8")
    line = text[:text.index(marker)].count("\n") + 1
    with pytest.raises(cardgen.CardgenError) as error:
        cardgen.build(["prisoners-warp"], root=root, out=tmp_path / "out",
                      options=BuildOptions(paper="letter", layout="gutter-fold", cache=False))
    (problem,) = error.value.problems
    assert (problem.source.file, problem.source.line) == ("data/prisoners-warp/set.yaml", line)
    assert problem.card and problem.card.startswith("Star Disc")
    assert problem.message == ("a 140 x 140 mm round card with 3 mm bleed does not fit twice (front and back, "
                               "gutter fold) on letter paper (215.9 x 279.4 mm) with a 4 mm margin")
    assert not (tmp_path / "out" / "prisoners-warp.pdf").exists()
