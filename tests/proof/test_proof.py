"""cardgen proof: PNG size and dpi, the gallery, reuse of unchanged faces, determinism."""
from __future__ import annotations

import json
import math
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from cardgen.proof import proof
from cardgen.proof.contact import GAP, layout

BLUE = (0x27, 0x40, 0x8B)  # the demo frame's background, drawn out to the bleed edge


def run(project, out=None, overlay=False):
    results, _ = proof(["demo"], project, out, overlay)
    (result,) = results
    return result


def faces_of(result):
    return json.loads((result.folder / "proof.json").read_text())["faces"]


def near(pixel, colour, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


@pytest.fixture(scope="module")
def proofed(tmp_path_factory):
    """The demo proofed once (into output/proofs/) for the tests that only read the proofs: the
    project and the run's result."""
    from projects import make_project

    project = make_project(tmp_path_factory.mktemp("proofed"))
    return project, run(project)


def test_a_png_per_face_at_300_dpi_of_trim_plus_bleed(proofed):
    project, result = proofed
    assert result.folder == project / "output/proofs/demo"
    faces = faces_of(result)
    assert len(faces) == result.faces == 13  # 5 action fronts + 5 backs + 3 tokens
    files = sorted(path.name for path in result.folder.glob("*.png") if path.name != "contact.png")
    assert files == sorted(f["file"] for f in faces)
    assert "quick-draw-2-back.png" in files and "attack-12-more-1-front.png" in files
    poker = (math.ceil((63.5 + 2 * 3) / 25.4 * 300), math.ceil((88.9 + 2 * 3) / 25.4 * 300))
    token = (math.ceil((20 + 2 * 1) / 25.4 * 300),) * 2
    assert poker == (821, 1121) and token == (260, 260)
    for face in faces:
        with Image.open(result.folder / face["file"]) as image:
            assert image.size == (token if face["type"] == "token" else poker), face["file"]
            assert image.mode == "RGB"
            assert [round(d) for d in image.info["dpi"]] == [300, 300]
    with Image.open(result.folder / "escape-artist-1-front.png") as image:
        assert near(image.getpixel((2, 2)), BLUE)  # the bleed is in the picture, not cropped
        assert near(image.getpixel((410, 1118)), BLUE)
        assert near(image.getpixel((410, 560)), (0xFD, 0xF6, 0xE3))  # the cream panel inside


def test_overlay_draws_the_trim_bleed_and_safe_lines(proofed, tmp_path):
    project, plain = proofed
    boxed = run(project, tmp_path / "boxed", overlay=True)
    trim_x = round(3 / 25.4 * 300)  # the trim line, 3 mm in from the page edge
    with Image.open(plain.folder / "quick-draw-1-front.png") as a, Image.open(boxed.folder / "quick-draw-1-front.png") as b:
        assert a.size == b.size
        column_a = [a.getpixel((x, 560)) for x in range(trim_x - 2, trim_x + 3)]
        column_b = [b.getpixel((x, 560)) for x in range(trim_x - 2, trim_x + 3)]
    assert all(near(p, BLUE) for p in column_a)
    assert any(p[2] > 150 and not near(p, BLUE, 30) for p in column_b)  # the proof line's blue #0070c0


class Gallery(HTMLParser):
    """The files a gallery page names, and the data written into it."""

    def __init__(self):
        super().__init__()
        self.links, self.data, self._in_data = [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("a", "link") and attrs.get("href", "").split(":")[0] not in ("data",):
            self.links.append(attrs["href"])
        if tag in ("img", "script") and "src" in attrs:
            self.links.append(attrs["src"])
        self._in_data = tag == "script" and attrs.get("id") == "cardgen-data"

    def handle_data(self, data):
        if self._in_data:
            self.data = json.loads(data)

    def handle_endtag(self, tag):
        self._in_data = False


def test_gallery_lists_every_card_and_every_link_exists(proofed):
    _, result = proofed
    page = Gallery()
    page.feed((result.folder / "index.html").read_text(encoding="utf-8"))
    (shown_set,) = page.data["sets"]
    shown = [(c["name"], c["type"], c["count"], [f["label"] for f in c["faces"]]) for c in shown_set["cards"]]
    assert shown == [("Quick Draw", "action", 2, ["front", "back"]), ("Escape Artist", "action", 1, ["front", "back"]),
                     ("Marker", "token", 3, ["front"]), ("Attack <12> & more", "action", 1, ["front", "back"]),
                     ("Long Winded", "action", 1, ["front", "back"])]
    assert shown_set["files"] == [{"path": "contact.png", "href": "contact.png"}]
    links = page.links + ["contact.png"] + [f[k] for c in shown_set["cards"] for f in c["faces"] for k in ("src", "print")]
    assert {"cardgen.css", "cardgen.js"} <= set(links)
    for link in links:
        assert not link.startswith(("/", "http:", "https:", "file:")), link  # relative: opens with no server
        assert (result.folder / link).is_file(), link
    # every distinct face is reachable (copies that look alike are shown once)
    distinct = {}
    for face in faces_of(result):
        distinct.setdefault((face["card"], face["key"]), face["file"])
    assert set(distinct.values()) <= set(links)


def test_contact_sheet_holds_every_card_and_the_back(proofed):
    _, result = proofed
    faces = faces_of(result)
    firsts = [f for f in faces if f["side"] == "front" and f["copy"] == 1] + [
        next(f for f in faces if f["side"] == "back")]  # the demo's cards share one back
    assert len(firsts) == 6
    thumbs = []
    for face in firsts:
        with Image.open(result.folder / face["file"]) as image:
            thumbs.append(image.reduce(4))  # a quarter: 75 dpi
    positions, size = layout([t.size for t in thumbs])
    with Image.open(result.folder / "contact.png") as sheet:
        assert sheet.size == size
        for thumb, (x, y) in zip(thumbs, positions):
            placed = sheet.crop((x, y, x + thumb.width, y + thumb.height))
            assert ImageChops.difference(placed, thumb).getbbox() is None


def test_contact_layout_keeps_thumbnails_apart_and_about_square():
    sizes = [(206, 281)] * 7 + [(65, 65)] * 3 + [(300, 480)] * 2
    positions, (width, height) = layout(sizes)
    boxes = [(x, y, x + w, y + h) for (x, y), (w, h) in zip(positions, sizes)]
    for i, a in enumerate(boxes):
        assert a[0] >= GAP and a[1] >= GAP and a[2] <= width - GAP and a[3] <= height - GAP
        for b in boxes[i + 1:]:
            assert a[2] + GAP <= b[0] or b[2] + GAP <= a[0] or a[3] + GAP <= b[1] or b[3] + GAP <= a[1], (a, b)
    assert [y for _, y in positions] == sorted(y for _, y in positions)  # in order, row by row
    assert 0.5 < width / height < 2


def test_only_changed_faces_are_rasterised_again(project):
    first = run(project)
    assert first.rasterised == 6  # copies and the shared back are rasterised once
    before = {p.name: p.read_bytes() for p in first.folder.glob("*.png")}
    again = run(project)
    assert (again.rasterised, again.written) == (0, 0)
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("gain 1 coin", "gain 2 coins"))
    changed = run(project)
    assert (changed.rasterised, changed.written) == (1, 1)
    after = {p.name: p.read_bytes() for p in changed.folder.glob("*.png")}
    differ = sorted(name for name in before if before[name] != after[name])
    assert differ == ["contact.png", "escape-artist-1-front.png"]



def test_faces_rasterised_by_other_code_are_rasterised_again(project):
    """proof.json said which content each PNG holds, not what made it: after an upgrade that
    draws a face otherwise (another cardgen, pdfium or Pillow), a rerun kept every old raster
    of an unchanged card, and differed from a fresh proof."""
    first = run(project)
    index = first.folder / "proof.json"
    fresh = (first.folder / "escape-artist-1-front.png").read_bytes()
    document = json.loads(index.read_text())
    assert document["made by"].count(";") == 2 and "pdfium" in document["made by"]
    document["made by"] = "cardgen 0.0.1 (an older one)"
    index.write_text(json.dumps(document))
    (first.folder / "escape-artist-1-front.png").write_bytes(b"an older raster")
    again = run(project)
    assert again.rasterised == first.rasterised == 6
    assert (again.folder / "escape-artist-1-front.png").read_bytes() == fresh
    assert run(project).rasterised == 0  # made by this code: kept

def test_a_card_removed_before_an_upgrade_leaves_no_file_behind(project, tmp_path):
    """The index of other code was dropped whole, with what it said of the files it made: the
    rerun after an upgrade made every face again but left the files of a card removed since."""
    first = run(project)
    assert list(first.folder.glob("attack-*"))
    index = first.folder / "proof.json"
    document = json.loads(index.read_text())
    document["made by"] = "cardgen 0.0.1 (an older one)"
    index.write_text(json.dumps(document))
    csv = project / "data/demo/more.csv"
    csv.write_text(csv.read_text().replace("Attack <12> & more,1,Attack <12> & more\n", ""))
    again = run(project)
    fresh = run(project, tmp_path / "fresh")
    assert not list(again.folder.glob("attack-*")) and again.removed == 2
    assert sorted(p.name for p in again.folder.iterdir()) == sorted(p.name for p in fresh.folder.iterdir())


def test_two_cards_of_one_name_get_files_of_their_own(project):
    """Both rows' faces were written to one file (long-winded-1-front.png), the last rasterised
    winning, so one face had no proof, proof.json named the file twice, and each rerun
    rasterised it again (and could differ from a fresh proof)."""
    csv = project / "data/demo/more.csv"
    csv.write_text(csv.read_text() + "Long Winded,1,Short this time.\n")
    first = run(project)
    files = [f["file"] for f in faces_of(first)]
    assert len(files) == len(set(files)) == first.faces
    fronts = [first.folder / "long-winded-1-front.png", first.folder / "long-winded-2-1-front.png"]
    assert fronts[0].read_bytes() != fronts[1].read_bytes()
    assert run(project).rasterised == 0


def test_copies_of_a_changed_card_are_one_rasterisation_and_a_removed_card_goes(project):
    run(project)
    csv = project / "data/demo/more.csv"
    csv.write_text(csv.read_text().replace("Attack <12> & more,1,Attack <12> & more\n", ""))
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("then discard *one*", "then discard *two*"))
    result = run(project)
    assert (result.rasterised, result.written, result.removed) == (1, 2, 2)
    assert not list(result.folder.glob("attack-*"))
    assert not any("Attack" in f["card"] for f in faces_of(result))


def test_same_input_same_bytes(proofed, tmp_path):
    project, a = proofed
    b = run(project, tmp_path / "b")
    names = sorted(p.name for p in a.folder.iterdir() if p.is_file())
    assert names == sorted(p.name for p in b.folder.iterdir() if p.is_file())
    for name in names:
        assert (a.folder / name).read_bytes() == (b.folder / name).read_bytes(), name


def test_command_line(project, cli, tmp_path):
    result = cli(project, "proof", "demo", "--out", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"demo: 13 faces in {tmp_path / 'p' / 'demo'}, 6 rasterised, 0 unchanged"
    assert (tmp_path / "p/demo/index.html").is_file()
    unknown = cli(project, "proof", "nope")
    assert unknown.exit_code == 2 and 'unknown set "nope"' in unknown.output


def test_bad_data_is_reported_not_a_traceback(project, cli):
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("count: 2", "count: two"))
    result = cli(project, "proof", "demo")
    assert result.exit_code == 1
    assert 'data/demo/cards.yaml:3: card "Quick Draw": count must be a whole number, got "two"' in result.output
    assert not Path(project / "output/proofs/demo").exists()


def test_a_face_whose_raster_passes_the_pixel_limit_is_refused_before_it_is_rasterised(project, cli, monkeypatch):
    """A 5 m board was rasterised whole at 300 dpi, 59,127 pixels a side: 23 GB of memory. With
    the limit lowered, a poker card (821 x 1,121 pixels with its bleed) is refused the same way."""
    monkeypatch.setenv("CARDGEN_MAX_IMAGE_PIXELS", "900000")
    result = cli(project, "proof", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/demo/set.yaml:8: card "Quick Draw": a 63.5 x 88.9 mm face is 821 x 1,121 = 920,341 pixels at the '
        "proof's 300 dpi; limit: pixels in one image (width x height), CARDGEN_MAX_IMAGE_PIXELS=900000 (set that "
        "environment variable higher to raise it)", "cardgen: 1 error, 0 warnings"]
    assert not Path(project / "output/proofs/demo").exists()


def test_a_run_stopped_half_way_leaves_nothing_stale(project, tmp_path, monkeypatch):
    run(project)
    cards = project / "data/demo/cards.yaml"
    original = cards.read_text()
    cards.write_text(original.replace("gain 1 coin", "gain 2 coins").replace("discard *one*", "discard *two*"))
    from cardgen.proof.store import ProofFolder
    from cardgen.write.temporary import is_temporary

    write = ProofFolder.write
    written = []

    def stop_on_second_face(self, file, data):
        if file.endswith("-front.png"):
            written.append(file)
            if len(written) == 2:
                raise KeyboardInterrupt
        write(self, file, data)

    monkeypatch.setattr(ProofFolder, "write", stop_on_second_face)
    try:
        run(project)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the run was not stopped")
    monkeypatch.setattr(ProofFolder, "write", write)
    cards.write_text(original)  # undone: the faces look as they did before the stopped run
    again = run(project)
    assert not [path for path in again.folder.rglob("*") if is_temporary(path)]
    fresh = run(project, tmp_path / "fresh")
    for path in sorted(fresh.folder.glob("*.png")):
        assert (again.folder / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_face_that_cannot_be_written_is_named(project):
    import os
    import resource
    import signal
    import subprocess
    import sys

    def small_files():  # past 100 kB a write fails (EFBIG), as on a full disk: an OSError naming no file
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # (the set's PDF fits; its longest card's PNG does not)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    out = project / "proofs"
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "proof", "demo", "--jobs", "1",
                           "--out", str(out)], capture_output=True, text=True, timeout=300, preexec_fn=small_files)
    assert done.returncode == 1
    assert done.stderr == f"cardgen: cannot write {out / 'demo/long-winded-1-front.png'}: file too large\n"
    assert not [name for name in os.listdir(out / "demo") if name.endswith(".tmp")]


def test_face_files_of_names_in_european_languages_keep_their_letters(project):
    """Letters that Unicode does not decompose were dropped from file names: "Größe Łódź Ørsted"
    was proofed as groe-odz-rsted-1-front.png."""
    (project / "data/demo/cards.yaml").write_text("- {name: Größe Łódź Ørsted, type: token, label: G}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = run(project)
    assert sorted(path.name for path in result.folder.glob("*-front.png")) == ["grosse-lodz-orsted-1-front.png"]


def test_a_fields_default_is_shown_at_its_line_of_set_yaml(proofed):
    """The detail view said a default came from the card's own row ("flavor ... cards.yaml:1"),
    which does not give it; it is set.yaml's `defaults:` line."""
    _, result = proofed
    page = Gallery()
    page.feed((result.folder / "index.html").read_text(encoding="utf-8"))
    (shown_set,) = page.data["sets"]
    fields = {c["name"]: {f[0]: f[2] for f in c["fields"]} for c in shown_set["cards"]}
    assert fields["Quick Draw"]["flavor"] == "data/demo/set.yaml:6"  # Quick Draw gives no flavor
    assert fields["Escape Artist"]["flavor"] == "data/demo/cards.yaml:11"  # its own
    assert fields["Quick Draw"]["text"] == "data/demo/cards.yaml:4"
