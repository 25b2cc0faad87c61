"""Rasterising in worker processes: the same files whatever the number of processes, each
distinct face rasterised once, the commands' count of distinct faces; the PNG writer."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys

import pytest
from PIL import Image

from cardgen.export import export_report
from cardgen.proof import proof
from cardgen.proof.png import png_from_rows, png_of_image
from cardgen.proof.raster import Rasteriser
from cardgen.proof.workers import can_fork, chunks, ordered_map

needs_fork = pytest.mark.skipif(not can_fork(), reason="worker processes are forked")


def files_of(folder):
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_ordered_map_keeps_the_order_and_runs_in_workers():
    parent = os.getpid()
    results = list(ordered_map(lambda n: (n * n, os.getpid()), list(range(20)), 2))  # a lambda: not pickled
    assert [square for square, _ in results] == [n * n for n in range(20)]
    if can_fork():
        assert parent not in {pid for _, pid in results}
    assert list(ordered_map(lambda n: n + 1, [1, 2, 3], 1)) == [2, 3, 4]
    assert list(ordered_map(lambda n: n, [], 2)) == []


@needs_fork
def test_an_error_in_a_worker_reaches_the_caller():
    def work(n):
        if n == 3:
            raise ValueError("face 3 is broken")
        return n

    with pytest.raises(ValueError, match="face 3 is broken"):
        list(ordered_map(work, list(range(6)), 2))

    def stopped(n):  # a Ctrl-C or an exit met in a worker: the pool would wait for ever for its chunk
        if n == 2:
            raise KeyboardInterrupt
        return n

    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(stopped, list(range(6)), 2))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@needs_fork
def test_a_map_left_half_way_ends_its_workers_before_it_returns():
    results = ordered_map(lambda n: os.getpid(), list(range(40)), 2)
    first = next(results)
    assert first != os.getpid()
    results.close()
    assert not _running(first)  # ended and waited for: no worker left behind, not even a zombie


@needs_fork
def test_a_killed_worker_leaves_its_chunks_to_the_caller():
    parent = os.getpid()

    def work(n):
        if n == 5 and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as by the out-of-memory killer
        return n * n, os.getpid()

    results = list(ordered_map(work, list(range(12)), 2))
    assert [square for square, _ in results] == [n * n for n in range(12)]
    assert results[5][1] == parent and {pid for _, pid in results[6:]} - {parent}  # the rest on the other worker


@needs_fork
def test_a_worker_stopped_by_ctrl_c_stops_the_map_and_one_stopped_otherwise_leaves_its_chunks():
    parent = os.getpid()

    def stopped_by(signum):
        def work(n):
            if n == 1 and os.getpid() != parent:
                os.kill(os.getpid(), signum)  # to this worker alone
            return n, os.getpid()
        return work

    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(stopped_by(signal.SIGINT), list(range(4)), 2))
    results = list(ordered_map(stopped_by(signal.SIGTERM), list(range(4)), 2))
    assert [n for n, _ in results] == [0, 1, 2, 3] and results[1][1] == parent


def test_a_file_a_stop_cuts_short_is_not_left_behind(tmp_path, monkeypatch):
    from cardgen.proof import store

    folder = store.ProofFolder(tmp_path / "out")
    folder.write("face.png", b"earlier")

    def stopped(source, target):
        raise KeyboardInterrupt  # a stop (in a worker: its unwinding) between the writing and the rename

    monkeypatch.setattr(store.os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        folder.write("face.png", b"new")
    assert [(path.name, path.read_bytes()) for path in folder.folder.iterdir()] == [("face.png", b"earlier")]


def test_chunks_are_consecutive_and_cover_every_item():
    items = list(range(1001))
    parts = chunks(items, 2)
    assert [item for part in parts for item in part] == items
    assert max(len(part) for part in parts) == 16 and len(parts) >= 8  # several a process
    assert chunks(items[:3], 2) == [[0], [1], [2]]
    assert chunks([], 2) == []


@needs_fork
def test_proof_files_are_the_same_bytes_with_one_and_two_processes(project, tmp_path):
    ((one,), _) = proof(["demo"], project, tmp_path / "one", jobs=1)
    ((two,), _) = proof(["demo"], project, tmp_path / "two", jobs=2)
    assert (one.rasterised, two.rasterised) == (6, 6)
    a, b = files_of(one.folder), files_of(two.folder)
    assert sorted(a) == sorted(b) and len([name for name in a if name.endswith(".png")]) == 13 + 1 + 6
    for name in a:
        assert a[name] == b[name], name


@needs_fork
@pytest.mark.parametrize("shop", ["tgc", "mpc"])
def test_shop_files_are_the_same_bytes_with_one_and_two_processes(project, tmp_path, shop):
    one = export_report("demo", project, tmp_path / "one", shop=shop, jobs=1)
    two = export_report("demo", project, tmp_path / "two", shop=shop, jobs=2)
    assert (one.rasterised, two.rasterised) == (5, 5)  # four fronts and the shared back
    a, b = files_of(tmp_path / "one"), files_of(tmp_path / "two")
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name] == b[name], name


@needs_fork
def test_tts_sheets_are_the_same_bytes_with_one_and_two_processes(project, tmp_path):
    csv = project / "data/demo/more.csv"  # two poker sheets (69 cards a sheet): Card 066 has copies on both
    csv.write_text("name,count,text\n" + "".join(f"Card {n:03},{2 if n == 66 else 1},Text {n}\n"
                                                for n in range(1, 81)))
    one = export_report("demo", project, tmp_path / "one", tts=True, jobs=1)
    two = export_report("demo", project, tmp_path / "two", tts=True, jobs=2)
    # poker: Quick Draw, Escape Artist, 80 cards and the back; tokens: one look (their back is plain)
    assert (one.rasterised, two.rasterised) == (2 + 80 + 1 + 1,) * 2
    decks = json.loads((tmp_path / "one/demo/tts.json").read_text())["decks"]
    straddling = [number for number, deck in enumerate(decks) if "Card 066" in deck["names"]]
    assert len(straddling) == 2
    a, b = files_of(tmp_path / "one"), files_of(tmp_path / "two")
    assert sorted(a) == sorted(b)
    for name in a:
        other = b[name].replace((tmp_path / "two").as_uri().encode(), (tmp_path / "one").as_uri().encode())
        assert a[name] == other, name


def test_a_shared_back_and_copies_are_rasterised_once(project, tmp_path, monkeypatch):
    asked = []
    rows = Rasteriser.rows

    def counted(self, index, **options):
        asked.append((self.dpi, index))
        return rows(self, index, **options)

    monkeypatch.setattr(Rasteriser, "rows", counted)
    ((result,), _) = proof(["demo"], project, tmp_path / "proofs", jobs=1)
    faces = json.loads((result.folder / "proof.json").read_text())["faces"]
    backs = [face for face in faces if face["side"] == "back"]
    assert len(backs) == 5 and len({face["key"] for face in backs}) == 1  # five cards, one back
    assert len(faces) == 13 and len(asked) == len(set(asked)) == result.rasterised == 6
    assert sum(1 for _, index in asked if index + 1 in {face["page"] for face in backs}) == 1
    asked.clear()
    assert export_report("demo", project, tmp_path / "tgc", shop="tgc", jobs=1).rasterised == len(asked) == 5
    asked.clear()
    assert export_report("demo", project, tmp_path / "tts", tts=True, jobs=1).rasterised == len(asked) == 6
    assert len(asked) == len(set(asked))


@needs_fork
def test_the_commands_count_distinct_faces_rasterised(project, cli, tmp_path):
    result = cli(project, "proof", "demo", "--out", str(tmp_path / "p"), "--jobs", "2")
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert re.fullmatch(r"proofed 1 set, 13 faces in \d+\.\d\d s: 6 distinct faces rasterised at \d+\.\d faces/s "
                        r"\(2 processes\)", last), last
    again = cli(project, "proof", "demo", "--out", str(tmp_path / "p"), "--jobs", "1")
    assert re.fullmatch(r"proofed 1 set, 13 faces in \d+\.\d\d s: 0 distinct faces rasterised \(1 process\)",
                        again.output.splitlines()[-1]), again.output
    shop = cli(project, "export", "demo", "--shop", "tgc", "--out", str(tmp_path / "tgc"), "--jobs", "2")
    assert shop.exit_code == 0, shop.output
    assert re.fullmatch(r"exported in \d+\.\d\d s: 5 distinct faces rasterised at \d+\.\d faces/s \(2 processes\)",
                        shop.output.splitlines()[-1]), shop.output
    bad = cli(project, "proof", "demo", "--jobs", "0")
    assert bad.exit_code == 2 and "--jobs" in bad.output


def test_png_writer_keeps_every_pixel_and_the_dpi():
    image = Image.new("RGB", (7, 5))
    image.putdata([((x * 37) % 256, (y * 91) % 256, (x * y * 13) % 256) for y in range(5) for x in range(7)])
    data = png_of_image(image, 300)
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data == png_of_image(image, 300)
    with Image.open(io.BytesIO(data)) as back:
        assert back.mode == "RGB" and back.size == (7, 5) and back.tobytes() == image.tobytes()
        assert [round(d) for d in back.info["dpi"]] == [300, 300]
    rows = b"".join(b"\x00" + bytes(range(y, y + 6)) for y in range(3))  # 2 px wide, 3 rows
    with Image.open(io.BytesIO(png_from_rows(2, 3, [rows[:5], rows[5:]], 75))) as back:
        assert (back.getpixel((0, 0)), back.getpixel((1, 0))) == ((0, 1, 2), (3, 4, 5))
    with pytest.raises(ValueError, match="20 bytes are not 3 PNG rows of 2 RGB pixels"):
        png_from_rows(2, 3, [rows[:-1]], 75)
    grey = png_of_image(Image.new("L", (3, 3), 128), 300)  # other modes: Pillow's writer, no time stamp
    assert grey == png_of_image(Image.new("L", (3, 3), 128), 300)
    with Image.open(io.BytesIO(grey)) as back:
        assert back.mode == "L" and back.getpixel((2, 2)) == 128


def test_rows_crop_and_image_match_the_rendered_page(project, tmp_path):
    from cardgen import pipeline

    built = pipeline.build_set("demo", pipeline.Session(project), tmp_path, pipeline.BuildOptions(layout="per-card"))
    with Rasteriser(built.pdf) as raster:
        page = raster.page(0)
        rows = raster.rows(0)
        assert raster.size(0) == page.size == (rows.width, rows.height)
        assert rows.image().tobytes() == page.tobytes()
        with Image.open(io.BytesIO(rows.png(300))) as decoded:
            assert decoded.tobytes() == page.tobytes()
        crop = rows.crop(10, 20, 300, 400)
        assert crop.image().tobytes() == page.crop((10, 20, 310, 420)).tobytes()
        with pytest.raises(ValueError, match="does not fit"):
            rows.crop(10, 20, page.width, 400)
        # a scratch buffer drawn over page after page, and a crop into a reused buffer, give
        # what fresh buffers give
        other = raster.rows(1).data
        buffer = raster.scratch(400 * (3 * 300 + 1))
        assert raster.rows(1, scratch=True).data[:len(other)] == other
        again = raster.rows(0, scratch=True)
        assert again.data is raster.rows(1, scratch=True).data  # the same buffer, drawn over
        again = raster.rows(0, scratch=True)
        assert again.image().tobytes() == page.tobytes()
        assert again.crop(10, 20, 300, 400, into=buffer).data is buffer
        assert again.crop(10, 20, 300, 400, into=buffer).png(300) == crop.png(300)
        with pytest.raises(ValueError, match="cannot hold"):
            again.crop(10, 20, 300, 401, into=buffer)


def test_a_folder_opened_again_loses_what_dead_workers_left_half_written(tmp_path):
    from cardgen.proof.store import ProofFolder

    folder = tmp_path / "proofs" / "demo"
    (folder / ".thumbs").mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = [folder / f".a-1-front.png.cardgen-{dead.stdout.strip()}-0123abcd.tmp",
             folder / f".thumbs/.k-plain-300.png.cardgen-{dead.stdout.strip()}-89abcdef.tmp"]
    kept = [folder / f".b-1-front.png.cardgen-{os.getpid()}-0123abcd.tmp", folder / "notes.tmp"]
    for path in stale + kept:
        path.write_bytes(b"half")
    ProofFolder(folder)
    assert [path.exists() for path in stale + kept] == [False, False, True, True]
