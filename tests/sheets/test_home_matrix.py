"""Home-printed sheets measured from the PDF alone, over a sample of the options a user can
combine: paper (Letter, A4, A3, a custom size), orientation, the duplex edge, spacing, margin,
crop marks, back offset and mixed backs. The deck mixes sizes and bleeds: 11 poker cards
(bleed 3, a back: a full sheet and a part-filled one), 7 mini-usa cards (bleed 3, another back),
5 mini-euro cards (bleed 0, a back) and 2 tarot reference cards (no back). Each face fills its trim with one colour (magenta on fronts,
cyan on backs) over its bleed (yellow, green) and prints its name; nothing here reads
cardgen's geometry. For every page: each trim at its exact size inside the margin plus the 2 mm
the README keeps for crop marks; each back exactly behind its front once the sheet is turned on
its edge (the front mirrored across the page's centre line, columns on a portrait page turned on
its long edge, rows on a landscape one), moved by the back offset; the back page after its
front, a blank one after a sheet without backs; both saying how to turn the sheet; every card once; the crop marks on the cut
lines of the page's cards, 0.25 pt, outside the grid, at least 0.5 mm from any trim, inside the
margin (a back page's moved with it), over a white halo where they lie on art, at both ends of
every cut line where there is room."""
from __future__ import annotations

import math

import pdfplumber
import pytest
from pypdf import PdfReader

import cardgen
from cardgen import BuildOptions

pytestmark = pytest.mark.shipped_fonts  # no fonts/ folder: cardgen's own

MM = 25.4 / 72
EPS = 0.01  # mm: the trims' exactness
FRONT, BACK = (1.0, 0.0, 1.0), (0.0, 1.0, 1.0)
SIZES = {"poker": (63.5, 88.9), "mini-usa": (41.0, 63.0), "mini-euro": (44.0, 68.0), "tarot": (70.0, 120.0)}
DECK = {"P": ("poker", 3, True, 11), "M": ("mini-usa", 3, True, 7), "E": ("mini-euro", 0, True, 5),
        "T": ("tarot", 3, False, 2)}
PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0), "a3": (297.0, 420.0), ("300mm", "200mm"): (200.0, 300.0)}
FACE = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="#%s"/>
  <rect x="0" y="0" w="{{ w }}" h="{{ h }}" fill="#%s"/>
  <text name="title" x="3" y="3" w="{{ w - 6 }}" h="8" size="7" markup="plain">%s{{ name }}</text>
</card>
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("homematrix")
    (root / "templates" / "m").mkdir(parents=True)
    (root / "templates" / "m" / "front.xml.j2").write_text(FACE % ("ffff00", "ff00ff", ""))
    (root / "templates" / "m" / "back.xml.j2").write_text(FACE % ("00ff00", "00ffff", "B"))
    (root / "data" / "m").mkdir(parents=True)
    types = "".join(f"  {key}: {{template: m/front.xml.j2, size: {size}, bleed: {bleed}"
                    + (f", back: {'plain' if key == 'P' else 'other'}" if back else "") + "}\n"
                    for key, (size, bleed, back, _) in DECK.items())
    (root / "data" / "m" / "set.yaml").write_text(
        "name: m\ntitle: M\nversion: '1'\nsize: poker\ntypes:\n" + types
        + "backs:\n  plain: {template: m/back.xml.j2}\n  other: {template: m/back.xml.j2}\ncards: [cards.yaml]\n")
    (root / "data" / "m" / "cards.yaml").write_text("".join(
        f"- {{name: N{key}{i}, type: {key}}}\n" for key, (*_, count) in DECK.items() for i in range(1, count + 1)))
    return root


def fit(length, cell, gap):
    return int(math.floor((length + gap) / (cell + gap) + 1e-9)) if length >= cell else 0


def capacity(paper, orientation, size, bleed, margin, crop, spacing):
    """Faces a page of the README's rule takes: the cut area keeps margin + 2 mm (crop marks),
    else margin + the bleed up to 2 mm, from every edge; the orientation that takes the most."""
    w, h = PAPERS[paper]
    edge = margin + (2.0 if crop else min(bleed, 2.0))
    gap = 0.0 if spacing == "butt" else 2 * bleed
    counts = {o: fit(pw - 2 * edge, SIZES[size][0], gap) * fit(ph - 2 * edge, SIZES[size][1], gap)
              for o, pw, ph in (("portrait", w, h), ("landscape", h, w)) if orientation in ("auto", o)}
    return max(counts.values())


def mm_box(obj, page_h):
    return (obj["x0"] * MM, (page_h - obj["bottom"]) * MM, obj["x1"] * MM, (page_h - obj["top"]) * MM)


def colour(value):
    return tuple(round(float(v), 3) for v in value) if isinstance(value, (list, tuple)) else value


def touches(a, b, grow=0.0):
    return a[0] < b[2] + grow and a[2] > b[0] - grow and a[1] < b[3] + grow and a[3] > b[1] - grow


def read(path):
    pages = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            ph = page.height
            faces = {FRONT: [], BACK: []}
            for rect in page.rects:
                if rect["fill"] and colour(rect["non_stroking_color"]) in faces:
                    box = mm_box(rect, ph)
                    name = [w["text"] for w in page.extract_words() if touches(mm_box(w, ph), box, -0.5)
                            and w["text"][:2] in ("NP", "NM", "NE", "NT", "BN")]
                    faces[colour(rect["non_stroking_color"])].append((name[0] if len(name) == 1 else name, box))
            lines = [(mm_box(line, ph), line["linewidth"], colour(line["stroking_color"])) for line in page.lines]
            pages.append({"w": page.width * MM, "h": page.height * MM, "fronts": faces[FRONT], "backs": faces[BACK],
                          "marks": [(b, lw) for b, lw, c in lines if c == (0.0, 0.0, 0.0, 1.0)],
                          "halos": [(b, lw) for b, lw, c in lines if c == (0.0, 0.0, 0.0, 0.0)],
                          "text": page.extract_text()})
    return pages


def says(page, note: str) -> bool:
    """Whether the page prints the note (read up the page, its letters come out reversed)."""
    text, note = "".join(page["text"].split()), "".join(note.split())
    return note in text or note[::-1] in text


def check_marks(page, trims, margin, bleed, shift):
    """The crop marks of a page whose cards have these trims (see the module's docstring)."""
    pw, ph = page["w"], page["h"]
    xs = [b[0] for b in trims] + [b[2] for b in trims]
    ys = [b[1] for b in trims] + [b[3] for b in trims]
    gx0, gy0, gx1, gy1 = min(xs), min(ys), max(xs), max(ys)
    ends = set()
    for (x0, y0, x1, y1), width in page["marks"]:
        mark = (x0, y0, x1, y1)
        assert width == pytest.approx(0.25)
        assert max(x1 - x0, y1 - y0) >= 1.5 - 1e-3
        assert (x0 >= margin + shift[0] - EPS and y0 >= margin + shift[1] - EPS
                and x1 <= pw - margin + shift[0] + EPS and y1 <= ph - margin + shift[1] + EPS), mark
        assert not any(touches(mark, t, 0.5 - EPS) for t in trims), mark
        if abs(x1 - x0) < 1e-3:  # vertical: on a cut line, above or below the grid
            assert any(abs(x0 - x) < EPS for x in xs) and (y1 <= gy0 + EPS or y0 >= gy1 - EPS), mark
            ends.add(("x", round(x0, 2), y1 <= gy0 + EPS))
        else:
            assert any(abs(y0 - y) < EPS for y in ys) and (x1 <= gx0 + EPS or x0 >= gx1 - EPS), mark
            ends.add(("y", round(y0, 2), x1 <= gx0 + EPS))
        if any(touches(mark, (t[0] - bleed, t[1] - bleed, t[2] + bleed, t[3] + bleed)) for t in trims):
            assert any(max(abs(u - v) for u, v in zip(mark, halo)) < EPS and w == pytest.approx(1.25)
                       for halo, w in page["halos"]), mark
    for x in xs:
        for low, room in ((True, gy0 - margin - shift[1]), (False, ph - gy1 - margin + shift[1])):
            assert room < 2.0 or ("x", round(x, 2), low) in ends, (x, low)
    for y in ys:
        for low, room in ((True, gx0 - margin - shift[0]), (False, pw - gx1 - margin + shift[0])):
            assert room < 2.0 or ("y", round(y, 2), low) in ends, (y, low)


CASES = [  # paper, orientation, duplex, spacing, margin, crop marks, back offset, mix backs
    ("letter", "auto", "long", "butt", 4.0, True, (0.0, 0.0), False),
    ("letter", "landscape", "long", "butt", 4.0, True, (1.5, -0.75), False),
    ("letter", "landscape", "short", "bleed", 0.0, True, (0.0, 0.0), True),
    ("letter", "portrait", "short", "butt", 10.0, False, (-0.5, 2.0), False),
    ("a4", "auto", "short", "butt", 4.0, True, (1.5, -0.75), True),
    ("a4", "landscape", "long", "bleed", 10.0, True, (0.0, 0.0), False),
    ("a4", "portrait", "long", "bleed", 0.0, False, (0.0, 0.0), False),
    ("a3", "auto", "long", "butt", 0.0, True, (0.0, 0.0), False),
    ("a3", "landscape", "short", "butt", 4.0, False, (1.5, -0.75), False),
    (("300mm", "200mm"), "auto", "short", "bleed", 4.0, True, (0.0, 0.0), False),
    (("300mm", "200mm"), "portrait", "long", "butt", 10.0, True, (-0.5, 2.0), True),
]


def case_id(case) -> str:
    paper, orientation, duplex, spacing, margin, crop, offset, mix = case
    paper = paper if isinstance(paper, str) else "x".join(paper)
    return "-".join([paper, orientation, duplex, spacing, f"m{margin:g}", "crop" if crop else "nocrop",
                     f"off{offset[0]:g},{offset[1]:g}", "mixed" if mix else "grouped"])


@pytest.mark.parametrize("paper, orientation, duplex, spacing, margin, crop, offset, mix", CASES,
                         ids=map(case_id, CASES))
def test_every_face_and_back_where_the_readme_says(project, paper, orientation, duplex, spacing, margin, crop,
                                                    offset, mix):
    name = case_id((paper, orientation, duplex, spacing, margin, crop, offset, mix))
    options = BuildOptions(cache=False, jobs=1, paper=paper, orientation=orientation, duplex=duplex, spacing=spacing,
                           margin=margin, crop_marks=crop, back_offset=offset, mix_backs=mix)
    cardgen.build(["m"], project, project / "out" / name, options)
    path = project / "out" / name / "m.pdf"
    pages = read(path)
    edge = "long" if duplex == "long" else "short"
    assert PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == (
        "/DuplexFlipLongEdge" if duplex == "long" else "/DuplexFlipShortEdge")
    fronts_seen, backs_seen, sheets = [], [], {}
    number = 0
    while number < len(pages):
        front = pages[number]
        pw, ph = front["w"], front["h"]
        names = [n for n, _ in front["fronts"]]
        assert front["fronts"] and not front["backs"] and all(isinstance(n, str) for n in names), number
        kinds = {n[1] for n in names}
        assert len(kinds) == 1, names  # one size (and bleed) a sheet
        size, bleed, has_back, _ = DECK[kinds.pop()]
        sheets.setdefault(size, []).append(len(names))
        fronts_seen += names
        room = margin + (2.0 if crop else min(bleed, 2.0))
        for card, (x0, y0, x1, y1) in front["fronts"]:
            assert (x1 - x0, y1 - y0) == pytest.approx(SIZES[size], abs=EPS), card
            assert x0 >= room - EPS and y0 >= room - EPS and x1 <= pw - room + EPS and y1 <= ph - room + EPS, card
        assert says(front, f"Print double-sided, flip on {edge} edge")
        trims = [box for _, box in front["fronts"]]
        assert not any(touches(a, b, -EPS) for i, a in enumerate(trims) for b in trims[i + 1:])
        if crop:
            check_marks(front, trims, margin, bleed, (0.0, 0.0))
        else:
            assert not front["marks"]
        back = pages[number + 1]
        assert (back["w"], back["h"]) == (pw, ph) and not back["fronts"]
        if not has_back:
            assert not back["backs"] and "blank" in back["text"]
            number += 2
            continue
        assert says(back, f"Back side: flip on {edge} edge")
        mirror_x = (duplex == "long") == (pw <= ph)  # the columns mirror, else the rows
        dx, dy = offset
        behind = {}
        for card, (x0, y0, x1, y1) in front["fronts"]:
            x0, y0, x1, y1 = (pw - x1, y0, pw - x0, y1) if mirror_x else (x0, ph - y1, x1, ph - y0)
            behind["B" + card] = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        got = dict(back["backs"])
        assert got.keys() == behind.keys()
        for card, box in got.items():
            assert box == pytest.approx(behind[card], abs=EPS), card
        backs_seen += [card[1:] for card in got]
        if crop:
            check_marks(back, list(got.values()), margin, bleed, offset)
        number += 2
    cards = [f"N{key}{i}" for key, (*_, count) in DECK.items() for i in range(1, count + 1)]
    assert sorted(fronts_seen) == sorted(cards)
    assert sorted(backs_seen) == sorted(c for c in cards if DECK[c[1]][2])
    for key, (size, bleed, _, count) in DECK.items():
        most = capacity(paper, orientation, size, bleed, margin, crop, spacing)
        full, rest = divmod(count, most)
        assert sheets[size] == [most] * full + ([rest] if rest else []), (size, most)
