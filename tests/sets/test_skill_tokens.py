"""The skill-tokens set: 120 round labels on an OL32 sheet, a rules aid, its rules.

Everything is measured in what cardgen writes: the manifest and the PDF (pdfplumber).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from ruamel.yaml import YAML
from cardgen.write.manifest import load_manifest
from projects import run_cli

ROOT = Path(__file__).resolve().parents[2]
SET = "skill-tokens"
FIXTURES = ROOT / "tests" / "fixtures" / SET
SEED = ROOT / "tests" / "fixtures" / "seeds" / "cosmic-encounter-skill-tokens.txt"
MM_PER_PT = 25.4 / 72
INCH = 25.4

# Online Labels OL32 (gLabels product database): US Letter, 1/2 in circles, 11 columns x 14 rows,
# first label's bounding box 0.25 in from the left and 0.375 in from the top edge, pitch 0.75 in.
OL32 = {"page": (8.5 * INCH, 11 * INCH), "d": 0.5 * INCH, "cols": 11, "rows": 14,
        "x0": 0.25 * INCH, "y0": 0.375 * INCH, "pitch": 0.75 * INCH}


def run_cardgen(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``cardgen ARGS`` in the project ``cwd`` (in this process: test_prohibition runs a real one)."""
    return run_cli(cwd, *args)


def set_data() -> dict:
    return YAML(typ="safe").load((ROOT / "data" / SET / "set.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill-tokens-out")
    result = run_cardgen("build", SET, "--out", str(out), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = load_manifest(out / f"{SET}.json")
    with pdfplumber.open(out / f"{SET}.pdf") as pdf:
        pages = [
            {"width": p.width, "height": p.height, "chars": list(p.chars), "curves": list(p.curves),
             "words": p.extract_words(keep_blank_chars=False, use_text_flow=False)}
            for p in pdf.pages
        ]
    return manifest, pages


def labels(manifest: dict) -> list[dict]:
    return [f for f in manifest["faces"] if f["type"] == "label" and f["side"] == "front"]


def rgb(value) -> tuple[float, float, float]:
    """A colour as 0..1 RGB, from "#rrggbb" or from pdfplumber's gray / RGB / CMYK tuples."""
    if isinstance(value, str):
        text = value.lstrip("#")
        return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))
    value = tuple(value)
    if len(value) == 1:
        return (value[0],) * 3
    if len(value) == 4:
        c, m, y, k = value
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return value


def wcag_ratio(first, second) -> float:
    def luminance(color):
        channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(color)]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def same_color(a, b, tolerance=0.01) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(rgb(a), rgb(b)))


# --- data and manifest -------------------------------------------------------------------

def test_manifest_holds_120_labels_one_per_copy(built):
    manifest, _ = built
    faces = labels(manifest)
    assert len(faces) == 120
    assert len({(f["card"], f["copy"]) for f in faces}) == 120
    assert all(f["shape"] == "circle" for f in faces)
    assert all(abs(f["w_mm"] - 12.7) < 1e-6 and abs(f["h_mm"] - 12.7) < 1e-6 for f in faces)


def test_twenty_labels_per_colour_five_of_each_skill(built):
    manifest, _ = built
    data = set_data()
    colours = [c["name"] for c in data["variables"]["colors"]]
    skills = [s["name"] for s in data["variables"]["skills"]]
    assert len(colours) == 6 and skills == ["Escort", "Leader", "Shield", "Weapon"]
    faces = labels(manifest)
    per_colour = Counter(f["data"]["item"]["name"] for f in faces)
    assert per_colour == {name: 20 for name in colours}
    per_colour_skill = Counter((f["data"]["item"]["name"], f["data"]["skill"]) for f in faces)
    assert per_colour_skill == {(c, s): 5 for c in colours for s in skills}


def test_one_rules_aid_card(built):
    manifest, _ = built
    aids = [f for f in manifest["faces"] if f["type"] == "aid" and f["side"] == "front"]
    assert [f["card"] for f in aids] == ["Skill Tokens"]
    assert abs(aids[0]["w_mm"] - 63.5) < 1e-6 and abs(aids[0]["h_mm"] - 88.9) < 1e-6


def test_rules_aid_text_is_word_for_word_from_the_seed():
    """Every sentence of the aid is a sentence of the seed; bold headings are the seed's run-in
    headings ("Escort Tokens--") without their dashes."""
    seed = " ".join(SEED.read_text(encoding="utf-8").split())
    aid = YAML(typ="safe").load((ROOT / "data" / SET / "aid.yaml").read_text(encoding="utf-8"))
    assert len(aid) == 1
    card = aid[0]
    assert " ".join(card["intro"].split()) in seed
    lines = [line for line in card["text"].split("\n") if line.strip()]
    headings = [line for line in lines if line.startswith("**")]
    assert headings == ["**Escort Tokens**", "**Leader Tokens**", "**Shield and Weapon Tokens**"]
    for heading in headings:
        assert heading.strip("*") + "--" in seed
    for line in lines:
        if line not in headings:
            # the aid picks whole sentences of the seed
            for sentence in re.split(r"(?<=[.)]) (?=[A-Z(])", line):
                assert sentence in seed, sentence
    text = " ".join(lines)
    for needed in ("Escorts are called", "3-Leader minimum", "A Leader is considered active",
                   "If the number of Shields is greater than the number of Weapons"):
        assert needed in text


def test_reference_pages_hold_the_whole_rules_text_in_its_order():
    """Every rule sentence of the seed, from "ADDITIONAL EQUIPMENT;" to its last paragraph, once
    and in order, over the reference pages (bold markers aside); the aid is their summary."""
    seed = SEED.read_text(encoding="utf-8")
    rules = " ".join(seed[seed.index("ADDITIONAL EQUIPMENT;"):seed.index("Bryan Bowe")].split())
    pages = YAML(typ="safe").load((ROOT / "data" / SET / "reference.yaml").read_text(encoding="utf-8"))
    assert [page["page"] for page in pages] == ["1 of 4", "2 of 4", "3 of 4", "4 of 4"]
    assert " ".join(" ".join(page["text"].replace("**", "").split()) for page in pages) == rules
    aid = YAML(typ="safe").load((ROOT / "data" / SET / "aid.yaml").read_text(encoding="utf-8"))
    assert aid[0]["excerpt"] == ["text"] and aid[0]["added"] == ["summary"]


def test_reference_pages_and_the_summary_line_are_printed(built):
    manifest, pages = built
    references = [f for f in manifest["faces"] if f["type"] == "reference" and f["side"] == "front"]
    assert [f["card"] for f in references] == [f"Skill Tokens rules {n}" for n in range(1, 5)]
    assert all((f["w_mm"], f["h_mm"]) == (124, 190) for f in references)
    words = " ".join(w["text"] for page in pages for w in page["words"])
    for n in range(1, 5):
        assert f"RULES · {n} OF 4" in words
    assert "Summary · the full rules are on the reference pages" in words
    for sentence in ("Only one such comparison is made per challenge;", "he cannot pick a Leader",
                     "cannot be counted as Shields or Weapons."):
        assert sentence in words


# --- the PDF -----------------------------------------------------------------------------

def label_pages(manifest: dict) -> set[int]:
    return {f["page"] for f in labels(manifest)}


def test_every_label_prints_its_letter_and_skill_word(built):
    manifest, pages = built
    words = Counter()
    for number in label_pages(manifest):
        words.update(w["text"] for w in pages[number - 1]["words"])
    for skill in set_data()["variables"]["skills"]:
        assert words[skill["letter"]] == 30, skill
        assert words[skill["name"].upper()] == 30, skill


def test_labels_sit_on_ol32_positions(built):
    manifest, pages = built
    page_w, page_h = OL32["page"]
    assert label_pages(manifest) == {1}
    page = pages[0]
    assert abs(page["width"] * MM_PER_PT - page_w) < 0.05 and abs(page["height"] * MM_PER_PT - page_h) < 0.05
    r = OL32["d"] / 2
    grid = [(OL32["x0"] + c * OL32["pitch"] + r, OL32["y0"] + row * OL32["pitch"] + r)
            for row in range(OL32["rows"]) for c in range(OL32["cols"])]
    used = set()
    for face in labels(manifest):
        cx = face["x_mm"] + face["w_mm"] / 2
        cy_from_top = page_h - (face["y_mm"] + face["h_mm"] / 2)
        nearest = min(range(len(grid)), key=lambda i: (grid[i][0] - cx) ** 2 + (grid[i][1] - cy_from_top) ** 2)
        gx, gy = grid[nearest]
        assert abs(gx - cx) <= 0.05 and abs(gy - cy_from_top) <= 0.05, (face["card"], face["copy"], cx, cy_from_top)
        assert nearest not in used, f"two labels on slot {nearest}"
        used.add(nearest)


def label_discs(page: dict, colours: list[dict]) -> list[tuple[dict, float, float, float]]:
    """The filled label discs drawn in the PDF: (colour, centre x mm, centre y mm from top, diameter)."""
    discs = []
    for curve in page["curves"]:
        if not curve.get("fill"):
            continue
        colour = next((c for c in colours if curve.get("non_stroking_color") is not None
                       and same_color(curve["non_stroking_color"], c["print"])), None)
        if colour is None:
            continue
        w = (curve["x1"] - curve["x0"]) * MM_PER_PT
        h = (curve["bottom"] - curve["top"]) * MM_PER_PT
        if abs(w - h) > 0.05 or w < 12.7 - 0.05:
            continue
        discs.append((colour, (curve["x0"] + curve["x1"]) / 2 * MM_PER_PT,
                      (curve["top"] + curve["bottom"]) / 2 * MM_PER_PT, w))
    return discs


def test_drawn_discs_are_centred_on_the_manifest_slots(built):
    manifest, pages = built
    page = pages[0]
    page_h = page["height"] * MM_PER_PT
    discs = label_discs(page, set_data()["variables"]["colors"])
    assert len(discs) == 120
    for face in labels(manifest):
        cx = face["x_mm"] + face["w_mm"] / 2
        cy = page_h - (face["y_mm"] + face["h_mm"] / 2)
        matching = [d for d in discs if abs(d[1] - cx) <= 0.05 and abs(d[2] - cy) <= 0.05]
        assert len(matching) == 1, (face["card"], face["copy"])
        assert matching[0][0]["name"] == face["data"]["item"]["name"]


def test_text_on_every_colour_has_wcag_contrast_of_at_least_4_5(built):
    _, pages = built
    page = pages[0]
    colours = set_data()["variables"]["colors"]
    discs = label_discs(page, colours)
    checked = Counter()
    for char in page["chars"]:
        if not char["text"].strip():
            continue
        x = (char["x0"] + char["x1"]) / 2 * MM_PER_PT
        y = (char["top"] + char["bottom"]) / 2 * MM_PER_PT
        inside = [d for d in discs if (d[1] - x) ** 2 + (d[2] - y) ** 2 <= (12.7 / 2) ** 2]
        assert len(inside) == 1, f"character {char['text']!r} at {x:.1f}, {y:.1f} mm is on no label"
        colour = inside[0][0]
        ratio = wcag_ratio(char["non_stroking_color"], colour["print"])
        assert ratio >= 4.5, f'{colour["name"]} ({colour["print"]}): text contrast {ratio:.2f}'
        checked[colour["name"]] += 1
    # every colour was measured, on every one of its 20 labels (letter and word)
    assert set(checked) == {c["name"] for c in colours}
    assert all(count >= 20 * 2 for count in checked.values())


# --- cardgen check -----------------------------------------------------------------------

def copy_project(tmp_path: Path) -> Path:
    for folder in (f"data/{SET}", f"templates/{SET}", "fonts"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def test_check_passes_on_the_shipped_set():
    result = run_cardgen("check", SET)
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_names_the_row_with_too_many_labels(tmp_path):
    root = copy_project(tmp_path)
    labels_file = root / "data" / SET / "labels.yaml"
    shutil.copy(FIXTURES / "labels-six-escorts.yaml", labels_file)
    line = line_of(labels_file, "{item} Escort")
    last_line = line_of(labels_file, "{item} Weapon")
    result = run_cardgen("check", SET, cwd=root)
    assert result.returncode == 1, result.stdout + result.stderr
    output = result.stdout + result.stderr
    for colour in [c["name"] for c in set_data()["variables"]["colors"]]:
        expected = (f'data/{SET}/labels.yaml:{line}: card "{colour} Escort": rule "Escort labels per colour": '
                    f"6 cards where type is label and skill is Escort and item.name is {colour}, expected exactly 5")
        assert expected in output
        # the colour's total goes past 20 at its last row, the Weapon labels
        expected = (f'data/{SET}/labels.yaml:{last_line}: card "{colour} Weapon": rule "labels per colour": '
                    f"21 cards where type is label and item.name is {colour}, expected exactly 20")
        assert expected in output
    assert output.count(f"data/{SET}/labels.yaml:") == 12
    assert "Traceback" not in output


def test_check_names_the_row_whose_count_is_not_a_number(tmp_path):
    root = copy_project(tmp_path)
    labels_file = root / "data" / SET / "labels.yaml"
    text = labels_file.read_text(encoding="utf-8")
    assert "skill: Shield, each: colors, count: 5, added: [name]}" in text
    labels_file.write_text(text.replace("skill: Shield, each: colors, count: 5, added: [name]}",
                                        "skill: Shield, each: colors, count: five}"), encoding="utf-8")
    result = run_cardgen("check", SET, cwd=root)
    assert result.returncode == 1
    line = line_of(labels_file, "count: five")
    assert (f'data/{SET}/labels.yaml:{line}: card "{{item}} Shield": count must be a whole number, got "five"'
            in result.stdout + result.stderr)
