"""A build on worker processes (``--jobs``) writes the bytes a one-process build writes, and
reports the same problems in the same order."""
from __future__ import annotations

import csv
import os
import shutil
import signal

import pytest
from click.testing import CliRunner

import cardgen
from cardgen import workers
from cardgen.cli import main
from projects import REPO, make_project

WORDS = "draw discard attack ally planet colony ship warp cone reward moon base".split()


@pytest.fixture
def small_chunks(monkeypatch):
    """Workers for any set, a chunk every 16 cards: a few hundred cards make many chunks."""
    monkeypatch.setattr(workers, "MIN_CARDS", 1)
    monkeypatch.setattr(workers, "CHUNK", 16)


def _many_cards(root, rows: int, bad: dict[int, dict] = {}):
    """The demo project with ``rows`` more cards in more.csv (some with two copies, icons of
    both kinds, bold and italic words), a logo image on the shared back, and an empty card file
    (a warning). ``bad`` replaces the values of some rows."""
    demo = root / "data/demo"
    with open(demo / "more.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "count", "text", "weight"])
        for number in range(rows):
            words = [WORDS[(number * 7 + i * 3) % len(WORDS)] for i in range(20 + number % 30)]
            words[2] = f"**{words[2]}**"
            words[5] = f"*{words[5]}*"
            words[9] = ":spade:" if number % 2 else ":star:"
            row = {"name": f"Card {number + 1}", "count": 2 if number % 9 == 4 else 1, "text": " ".join(words),
                   "weight": ""}
            row.update(bad.get(number, {}))
            writer.writerow([row["name"], row["count"], row["text"], row["weight"]])
    (demo / "empty.csv").write_text("name,text\n", encoding="utf-8")
    set_yaml = (demo / "set.yaml").read_text(encoding="utf-8")
    (demo / "set.yaml").write_text(set_yaml.replace("  - {file: more.csv, type: action}",
                                                    "  - {file: more.csv, type: action}\n"
                                                    "  - {file: empty.csv, type: action}"), encoding="utf-8")
    back = root / "templates/demo/back.xml.j2"
    back.write_text(back.read_text(encoding="utf-8").replace(
        "</card>", '  <image x="5" y="5" w="10" h="10" src="icons/star.svg"/>\n</card>'), encoding="utf-8")
    action = root / "templates/demo/action.xml.j2"  # a card's value that breaks the template
    action.write_text(action.read_text(encoding="utf-8").replace(
        "{% endblock %}", '{% if weight is defined and weight %}<text x="5" y="80" w="20" h="5">{{ 1 // (weight | int) }}</text>{% endif %}\n'
                          "{% endblock %}"), encoding="utf-8")
    return root


def _build(root, out, jobs, **options):
    return cardgen.build(["demo"], root, root / out, cardgen.BuildOptions(jobs=jobs, **options)).sets[0]


def test_workers_write_the_bytes_of_a_one_process_build(tmp_path, small_chunks):
    root = _many_cards(make_project(tmp_path), 300)
    alone = _build(root, "alone", 1, cache=False)
    assert workers.last_build["workers"] == 0  # --jobs 1: no worker
    shared = _build(root, "shared", 2, cache=False)
    assert alone.pdf.read_bytes() == shared.pdf.read_bytes()
    assert alone.manifest.read_bytes() == shared.manifest.read_bytes()
    assert (shared.cards, shared.pages, shared.laid_out) == (alone.cards, alone.pages, alone.laid_out)
    assert alone.cards > 300 and alone.pages > 60
    # every distinct face (fronts of both types, the back) was laid out by a worker
    assert workers.last_build == {"workers": 2, "faces_from_workers": alone.laid_out}
    assert [str(w) for w in shared.warnings] == [str(w) for w in alone.warnings] != []


def test_what_workers_laid_out_goes_into_the_cache(tmp_path, small_chunks):
    root = _many_cards(make_project(tmp_path), 200)
    first = _build(root, "first", 3)
    assert workers.last_build["faces_from_workers"] == first.laid_out > 200
    again = _build(root, "again", 3)  # the cache holds every drawing: one process draws them all
    assert (again.laid_out, again.reused) == (0, first.laid_out)
    assert workers.last_build["workers"] == 0
    plain = _build(root, "plain", 1, cache=False)
    for result in (first, again):
        assert result.pdf.read_bytes() == plain.pdf.read_bytes()
        assert result.manifest.read_bytes() == plain.manifest.read_bytes()
    action = root / "templates/demo/action.xml.j2"  # every front changes: workers lay them out again
    action.write_text(action.read_text(encoding="utf-8").replace('stroke="#27408b"', 'stroke="#8b2740"'),
                      encoding="utf-8")
    edited = _build(root, "edited", 3)
    assert workers.last_build["workers"] == 3
    assert edited.reused < 10 < edited.laid_out == workers.last_build["faces_from_workers"]
    plain = _build(root, "plain", 1, cache=False)
    assert edited.pdf.read_bytes() == plain.pdf.read_bytes()
    assert edited.manifest.read_bytes() == plain.manifest.read_bytes()


def test_problems_in_later_chunks_are_reported_as_one_process_reports_them(tmp_path, small_chunks):
    long_text = " ".join(["unbreakable"] * 400)
    root = _many_cards(make_project(tmp_path), 260, bad={
        150: {"text": long_text},  # text that does not fit
        201: {"weight": "0"},  # the template divides by it
        230: {"text": "a :nosuch: icon"},  # an icon the set does not have
        240: {"text": long_text},
    })
    (root / "output").mkdir()
    (root / "output/demo.pdf").write_bytes(b"earlier")
    runs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(main, ["--root", str(root), "build", "--no-cache", "--jobs", jobs, "demo"])
        runs.append((result.exit_code, result.output))
    assert workers.last_build["workers"] == 2
    assert runs[0] == runs[1]
    code, output = runs[0]
    assert code == 1
    fits = 'field "text": the text does not fit at the minimum size 5 pt in text box "body" (53.5 x 52 mm) ' \
           "(drawn by templates/demo/action.xml.j2:5)"
    assert output.splitlines() == [
        'templates/demo/action.xml.j2:7: card "Card 202": integer division or modulo by zero',
        f'data/demo/more.csv:152: card "Card 151": {fits}',
        'data/demo/more.csv:232: card "Card 231": field "text": unknown icon ":nosuch:" (the set has: heart, '
        'spade, star) (drawn by templates/demo/action.xml.j2:5)',
        f'data/demo/more.csv:242: card "Card 241": {fits}',
        "demo: 1 warning (`cardgen check demo` lists them)",
        "cardgen: 4 errors, 1 warning"]
    assert (root / "output/demo.pdf").read_bytes() == b"earlier"
    assert sorted(p.name for p in (root / "output").iterdir()) == ["demo.pdf"]


def test_a_worker_that_dies_leaves_its_chunks_to_the_build(tmp_path, small_chunks, monkeypatch):
    root = _many_cards(make_project(tmp_path), 200)
    chunk = workers._chunk

    def dying(renderer, rendered, scratch, cards):
        if any(card.name == "Card 100" for card in cards):
            os.kill(os.getpid(), signal.SIGKILL)  # in the worker: killed as by the out-of-memory killer
        return chunk(renderer, rendered, scratch, cards)

    monkeypatch.setattr(workers, "_chunk", dying)
    shared = _build(root, "shared", 2, cache=False)
    alone = _build(root, "alone", 1, cache=False)
    assert alone.pdf.read_bytes() == shared.pdf.read_bytes()
    assert alone.manifest.read_bytes() == shared.manifest.read_bytes()


def test_a_shipped_set_builds_the_same_on_workers(tmp_path, small_chunks):
    root = tmp_path / "proj"
    for folder in ("templates", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copytree(REPO / "data/prisoners", root / "data/prisoners")
    results = [cardgen.build(["prisoners"], root, root / f"out{jobs}",
                             cardgen.BuildOptions(cache=False, jobs=jobs, stamp=True, stamp_date="2026-01-01")).sets[0]
               for jobs in (1, 2)]
    assert workers.last_build["faces_from_workers"] == results[0].laid_out > 50
    assert results[0].pdf.read_bytes() == results[1].pdf.read_bytes()
    assert results[0].manifest.read_bytes() == results[1].manifest.read_bytes()


def test_small_sets_and_jobs_1_build_in_one_process(tmp_path, monkeypatch):
    root = make_project(tmp_path)
    _build(root, "out", None, cache=False)  # 9 cards: far below MIN_CARDS
    assert workers.last_build["workers"] == 0
    monkeypatch.setattr(workers, "MIN_CARDS", 1)
    _build(root, "out", 1, cache=False)
    assert workers.last_build["workers"] == 0
    _build(root, "out", None, cache=False)
    assert workers.last_build["workers"] == workers.usable_cores() or workers.usable_cores() == 1


def test_jobs_must_be_a_positive_number(tmp_path):
    root = make_project(tmp_path)
    result = CliRunner().invoke(main, ["--root", str(root), "build", "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs" in result.output
