"""A build on worker processes (``--jobs``) writes the bytes a one-process build writes, and
reports the same problems in the same order."""
from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

import cardgen
from cardgen import workers
from cardgen.cli import main
from cardgen.load.cards import MARK
from projects import REPO, make_project
from workerbuilds import CHUNK, CLI, assert_each_worker_makes_only_its_chunks, FORKS, LARGE_SET, WORDS, build_code, build_in, on_workers, same_output

ROWS = 48  # cards added to the demo set: with its own cards, 13 chunks (workerbuilds.CHUNK a chunk)


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


def _many_cards(root, rows: int = ROWS, bad: dict[int, dict] = {}):
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


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """The demo project with ROWS more cards, built once in one process (cache off) into alone/;
    and what that build did. Each test builds on workers in a copy of it."""
    root = _many_cards(make_project(tmp_path_factory.mktemp("many")))
    return root, build_in(root, "alone", 1, cache=False)


def _copy(project, tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(project, root, symlinks=True)
    return root


def test_workers_write_the_bytes_of_a_one_process_build(many, tmp_path):
    root, alone = _copy(many[0], tmp_path), many[1]
    assert alone["workers"]["workers"] == 0  # --jobs 1: no worker
    shared = build_in(root, "shared", 2, cache=False)
    assert same_output(root, "alone", "shared")
    assert alone["cards"] > ROWS > 8 * CHUNK  # several chunks for each worker
    for key in ("cards", "pages", "laid_out", "warnings"):
        assert shared[key] == alone[key]
    assert alone["warnings"] == ["data/demo/empty.csv: warning: the card file holds no cards"]
    # every distinct face (fronts of both types, the back) was laid out by a worker
    assert shared["workers"] == {"workers": 2, "faces_from_workers": alone["laid_out"]}


def test_characters_first_met_in_a_later_chunk_are_coded_as_one_process_codes_them(tmp_path):
    """Workers send text made ready to write when every character's code is the same in any
    document; an accented word or a dash met first in later chunks is coded in the document's
    order by the build's process, and the pages after it print what a one-process build prints."""
    accents = {number: {"text": f"Caf\u00e9 na\u00efve word {number} \u00e9t\u00e9 *\u00e0 la*"}
               for number in (17, 37)}  # Latin-1: codes below 256, given in the document's order
    accents.update({number: {"text": f"a dash \u2014 word {number} \u00e9t\u00e9"} for number in (18, 47)})
    # codes that are the same in any document, escaped in the string: brackets and a backslash
    accents.update({number: {"text": f"a (bracketed) word {number}, a back\\\\slash"} for number in (30, 31)})
    root = _many_cards(make_project(tmp_path), bad=accents)
    shared = build_in(root, "shared", 2, cache=False)
    alone = build_in(root, "alone", 1, cache=False)
    assert shared["workers"]["faces_from_workers"] == alone["laid_out"] > ROWS
    assert same_output(root, "alone", "shared")
    cached = build_in(root, "cached", 2)  # the cache the workers stored, read back by a rebuild
    again = build_in(root, "again", 2)
    assert again["reused"] == cached["laid_out"] and again["laid_out"] == 0
    assert same_output(root, "alone", "cached", "again")


def test_what_workers_laid_out_goes_into_the_cache(many, tmp_path):
    root = _copy(many[0], tmp_path)
    assert not (root / ".cardgen-cache").exists()
    first = build_in(root, "first", 3)
    assert first["workers"] == {"workers": 3, "faces_from_workers": first["laid_out"]} and first["laid_out"] > ROWS
    again = build_in(root, "again", 3)  # the cache holds every drawing: one process draws them all
    assert (again["laid_out"], again["reused"], again["workers"]["workers"]) == (0, first["laid_out"], 0)
    assert same_output(root, "alone", "first", "again")
    action = root / "templates/demo/action.xml.j2"  # every front changes: workers lay them out again
    action.write_text(action.read_text(encoding="utf-8").replace('stroke="#27408b"', 'stroke="#8b2740"'),
                      encoding="utf-8")
    edited = build_in(root, "edited", 3)
    assert edited["workers"] == {"workers": 3, "faces_from_workers": edited["laid_out"]}
    assert edited["reused"] < 10 < edited["laid_out"]
    build_in(root, "plain", 1, cache=False)
    assert same_output(root, "plain", "edited")


COUNTING_RENDERS = """
from cardgen.render.environment import Templates
rendered = []
render = Templates.render
Templates.render = lambda self, template, *rest: rendered.append(template) or render(self, template, *rest)
"""


def test_a_rebuild_after_one_changed_card_renders_that_card_alone(many, tmp_path):
    """The warm-up before the workers (workers._warm_up) reads the first card's renderings from
    the cache, as the build does: a rebuild renders the changed card's front and no other, and
    prints what a build without the cache prints."""
    root = _copy(many[0], tmp_path)
    build_in(root, "first", 2)
    cards = root / "data/demo/more.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Card 30,", "Card 30 changed,"), encoding="utf-8")
    code = build_code(prelude=COUNTING_RENDERS) + "print(json.dumps(rendered), file=sys.stderr)\n"
    done = on_workers(code, str(root), str(root / "first"), "2", "{}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["laid_out"] == 1
    rendered = json.loads(done.stderr.strip().splitlines()[-1])
    # the back reads `set` (not plain data): rendered by the warm-up and by the build
    assert [template for template in rendered if template != "demo/back.xml.j2"] == ["demo/action.xml.j2"]
    build_in(root, "plain", 1, cache=False)
    assert same_output(root, "plain", "first")


def test_a_rebuild_after_a_build_on_workers_renders_face_by_face_only_the_changed_cards_run(many, tmp_path,
                                                                                          monkeypatch):
    """The workers' records keep runs of cards as a one-process build keeps them (kept_cards.py):
    the first rebuild after a build on workers renders only the changed card's run face by face."""
    from cardgen.kept_cards import RUN
    from cardgen.render.faces import FaceRenderer

    root = _copy(many[0], tmp_path)
    assert build_in(root, "first", 2)["workers"]["workers"] == 2
    cards = root / "data/demo/more.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Card 30,", "Card 30 changed,"), encoding="utf-8")
    names: list[str] = []
    face = FaceRenderer._face
    monkeypatch.setattr(FaceRenderer, "_face", lambda self, card, *rest: names.append(card.name) or face(self, card, *rest))
    again = build_in(root, "again", 1)
    monkeypatch.undo()
    assert "Card 30 changed" in names and len(set(names)) <= RUN, names
    assert again["laid_out"] == 1
    build_in(root, "plain", 1, cache=False)
    assert same_output(root, "plain", "again")




def test_problems_in_later_chunks_are_reported_as_one_process_reports_them(tmp_path):
    long_text = " ".join(["unbreakable"] * 400)
    root = _many_cards(make_project(tmp_path), bad={  # in the chunks of both workers, none in the first ones
        25: {"text": long_text},  # text that does not fit
        33: {"weight": "0"},  # the template divides by it
        36: {"text": "a :nosuch: icon"},  # an icon the set does not have
        44: {"text": long_text},
    })
    (root / "output").mkdir()
    (root / "output/demo.pdf").write_bytes(b"earlier")
    command = ["--root", str(root), "build", "--no-cache", "demo"]
    # the one-process build in a new interpreter, not this process: a failed build leaves its
    # manifest's spooled lines to the garbage collector (a ResourceWarning in this process)
    alone = subprocess.run([sys.executable, "-c", CLI, *command, "--jobs", "1"], capture_output=True, text=True)
    runs = [json.loads(alone.stdout), json.loads(on_workers(CLI, *command, "--jobs", "2").stdout)]
    assert [run["workers"]["workers"] for run in runs] == [0, 2]
    assert [(run["code"], run["out"], run["err"]) for run in runs[1:]] == [(run["code"], run["out"], run["err"])
                                                                           for run in runs[:1]]
    fits = 'field "text": the text does not fit at the minimum size 5 pt in text box "body" (53.5 x 52 mm) ' \
           "(drawn by templates/demo/action.xml.j2:5)"
    assert runs[0]["code"] == 1
    assert runs[0]["err"].splitlines() == [
        'templates/demo/action.xml.j2:7: card "Card 34": integer division or modulo by zero',
        f'data/demo/more.csv:27: card "Card 26": {fits}',
        'data/demo/more.csv:38: card "Card 37": field "text": unknown icon ":nosuch:" (the set has: heart, '
        'spade, star) (drawn by templates/demo/action.xml.j2:5)',
        f'data/demo/more.csv:46: card "Card 45": {fits}',
        "demo: 1 warning (`cardgen check demo` lists them)",
        "cardgen: 4 errors, 1 warning"]
    assert (root / "output/demo.pdf").read_bytes() == b"earlier"
    assert sorted(p.name for p in (root / "output").iterdir()) == ["demo.pdf"]


def test_a_worker_that_dies_leaves_its_chunks_to_the_build(many, tmp_path):
    root, alone = _copy(many[0], tmp_path), many[1]
    dying = """
import os, signal
from cardgen import worker_process
chunk = worker_process._chunk

def dying(renderer, rendered, scratch, cards):
    if any(card.name == "Card 25" for card in cards):
        os.kill(os.getpid(), signal.SIGKILL)  # in the worker: killed as by the out-of-memory killer
    return chunk(renderer, rendered, scratch, cards)

worker_process._chunk = dying
"""
    shared = build_in(root, "shared", 2, prelude=dying, cache=False)
    assert 0 < shared["workers"]["faces_from_workers"] < alone["laid_out"] == shared["laid_out"]
    assert same_output(root, "alone", "shared")


def test_a_shipped_set_builds_the_same_on_workers(tmp_path):
    root = tmp_path / "proj"
    for folder in ("templates", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copytree(REPO / "data/prisoners", root / "data/prisoners")
    results = [build_in(root, f"out{jobs}", jobs, sets=["prisoners"], cache=False, stamp=True, stamp_date="2026-01-01")
               for jobs in (1, 2)]
    assert results[1]["workers"] == {"workers": 2, "faces_from_workers": results[0]["laid_out"]}
    assert results[0]["laid_out"] > 50
    for name in ("prisoners.pdf", "prisoners.json"):
        assert (root / "out1" / name).read_bytes() == (root / "out2" / name).read_bytes()


def test_small_sets_build_in_one_process(tmp_path):
    root = make_project(tmp_path)
    cardgen.build(["demo"], root, root / "out", cardgen.BuildOptions(cache=False))  # 9 cards
    assert workers.last_build["workers"] == 0
    assert workers.MIN_CARDS == 200 and workers.chunk_size(200, 2) == 32 and workers.chunk_size(10_000, 2) == 256


def test_jobs_must_be_a_positive_number(tmp_path):
    root = make_project(tmp_path)
    result = CliRunner().invoke(main, ["--root", str(root), "build", "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs" in result.output


def _odd_card_files(root, rows: int = 40) -> list[str]:
    """The demo set's cards replaced by card files of one sheet group (action cards) whose rows
    are not one a line: a CSV file with a byte order mark, CRLF line ends, blank lines and rows,
    cells of two lines and rows that make a card per item (``each``); a YAML file; a TSV file
    whose lines end with CR alone. Their names."""
    demo = root / "data/demo"
    lines = ["\ufeffname,count,text,each"]
    for number in range(rows):
        if number % 11 == 0:
            lines += ["", ",,,"]  # a blank line, a row of empty cells
        text = f'"word {number}\r\nand a second line"' if number % 5 == 1 else f"word {number}"
        each = "colors" if number % 7 == 3 else ""
        lines.append(f"Odd {number}{' {item}' if each else ''},{number % 3},{text},{each}")
    (demo / "odd.csv").write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    (demo / "middle.yaml").write_text("".join(f"- name: Middle {number}\n  type: action\n  text: x {number}\n"
                                              for number in range(5)), encoding="utf-8")
    (demo / "tabs.tsv").write_bytes("\r".join(["name\ttext"] + [f"Tab {number}\tt {number}"
                                                                 for number in range(rows // 2)]).encode("utf-8"))
    set_yaml = demo / "set.yaml"
    set_yaml.write_text(set_yaml.read_text(encoding="utf-8").replace(  # (a date: not the files' times)
        "defaults:",
        "date: 2026-01-01\nvariables:\n  colors: [{name: Red}, {name: Green}, {name: Blue}]\ndefaults:").replace(
        "  - cards.yaml\n  - {file: more.csv, type: action}\n",
        "  - {file: odd.csv, type: action}\n  - middle.yaml\n  - {file: tabs.tsv, type: action}\n"), encoding="utf-8")
    return ["odd.csv", "middle.yaml", "tabs.tsv"]


def test_a_worker_takes_its_chunks_of_a_large_set_as_a_reading_from_the_start_gives_them(tmp_path, monkeypatch):
    """A worker passes over the other workers' chunks from the place where the set's check
    read every few cards (load/cursor.py); the cards of its own are those, with their sources,
    that reading the files from the start gives, whatever the chunks' size and the workers."""
    from cardgen.load.setfile import load_set

    root = make_project(tmp_path, fonts=False)
    _odd_card_files(root)
    monkeypatch.setattr("cardgen.load.cards.KEPT_CARDS", 0)  # read from the files each time
    monkeypatch.setattr("cardgen.load.cards.MARK_EVERY", 3)
    cards = load_set("demo", root).cards
    every = list(cards)
    assert len(cards.marks) == MARK * -(-len(every) // 3) and len(every) == 40 + 2 * 6 + 5 + 20
    sources = [str(card.source) for card in every]
    assert sources[:3] == ["data/demo/odd.csv:4", "data/demo/odd.csv:5", "data/demo/odd.csv:7"]
    assert sources[-1] == "data/demo/tabs.tsv:21" and "data/demo/middle.yaml:1" in sources
    assert every[3].name == "Odd 3 Red" and sources[3:6] == ["data/demo/odd.csv:8"] * 3
    for chunk in (1, 2, 3, 4, 6):
        for jobs in (1, 2, 3):
            for index in range(jobs):
                cursor = cards.cursor()
                for number in range(index, len(every) // chunk + 2, jobs):
                    assert cursor.take(number * chunk, chunk) == every[number * chunk:(number + 1) * chunk]


def test_a_worker_makes_no_card_of_the_other_workers_csv_rows(tmp_path, monkeypatch):
    """Of CSV files, a worker makes cards of the rows of its own chunks alone: the others' rows
    are passed over unparsed, from the line where the check read a card just before its chunk."""
    from cardgen.load import cards as cards_module
    from cardgen.load.cards import CardFiles
    from cardgen.load.setfile import load_set

    root = make_project(tmp_path, fonts=False)
    _odd_card_files(root)
    card_set = load_set("demo", root)
    monkeypatch.setattr(cards_module, "KEPT_CARDS", 0)
    monkeypatch.setattr(cards_module, "MARK_EVERY", 4)
    demo = root / "data/demo"
    cards = CardFiles([(demo / "odd.csv", "action"), (demo / "tabs.tsv", "action")], root, card_set.types,
                      card_set.variables)
    cards.check()
    every = list(cards)
    assert_each_worker_makes_only_its_chunks(cards, every, monkeypatch)



SHIFTED_UNDER_THE_BUILD = LARGE_SET + """
from pathlib import Path
from cardgen import workers
from cardgen.steady_inputs import rewritten
on_workers = workers.on_workers

def shifting(*args, **kwargs):  # once the set is checked, before the workers start
    path = Path(sys.argv[1]) / "data/demo/odd.csv"
    path.write_bytes(path.read_bytes().replace(b"\\r\\n", b"\\r\\n\\r\\n\\r\\n", 1))  # the rows two lines down
    rewritten(path)  # of the workers' cursor, not of a save failing the build (steady_inputs.py)
    return on_workers(*args, **kwargs)

workers.on_workers = shifting
"""


def test_a_large_set_of_odd_rows_builds_the_same_on_workers(tmp_path):
    root = make_project(tmp_path)
    _odd_card_files(root)
    alone = build_in(root, "alone", 1, cache=False)
    shared = build_in(root, "shared", 2, prelude=LARGE_SET, cache=False)
    assert shared["workers"] == {"workers": 2, "faces_from_workers": alone["laid_out"]}
    assert same_output(root, "alone", "shared") and alone["cards"] > 60
    # a card file changed under the build: what the workers read no longer matches the cards the
    # build's process reads, which renders them itself, as a one-process build would
    odd = (root / "data/demo/odd.csv").read_bytes()
    runs = []
    for out, jobs in (("shifted-alone", "1"), ("shifted-shared", "2")):
        (root / "data/demo/odd.csv").write_bytes(odd)
        runs.append(on_workers(build_code(SHIFTED_UNDER_THE_BUILD), str(root), str(root / out), jobs,
                               '{"cache": false}'))
    assert [run.returncode for run in runs] == [0, 0], runs[1].stderr
    alone, shared = (json.loads(run.stdout) for run in runs)
    assert 0 < shared["workers"]["faces_from_workers"] < alone["laid_out"] == shared["laid_out"]
    assert same_output(root, "shifted-alone", "shifted-shared")


# notes, each time the build's process takes a worker's chunk, how many pages it has written
PAGES_AT_CHUNKS = """
import pathlib
from cardgen import worker_feed
from cardgen.write import stream
written, seen = [0], []
page_done = stream.PageStream.page_done
stream.PageStream.page_done = lambda self: written.__setitem__(0, written[0] + 1) or page_done(self)
receive = worker_feed._Feed._receive
def noting_receive(self, number):
    seen.append(written[0])
    (pathlib.Path(sys.argv[1]) / "pages.json").write_text(json.dumps(seen))
    return receive(self, number)
worker_feed._Feed._receive = noting_receive
"""


def test_the_build_draws_each_chunk_once_it_has_it(many, tmp_path):
    """Cards are taken a chunk at a time, not pipeline.BATCH (256) at a time: a batch waited for
    its last chunk, so when the workers were done the whole last batch (a quarter of a
    1,000-card set; here the whole set) was left to draw on one core."""
    root = _copy(many[0], tmp_path)
    shared = build_in(root, "shared", 2, prelude=PAGES_AT_CHUNKS, cache=False)
    seen, pages = json.loads((root / "pages.json").read_text()), shared["pages"]
    assert pages > 10 and len(seen) > 10
    # pages are written as runs of cards come (kept_cards.RUN at a time): by the last chunk, more
    # than half of them; with 256-card batches not one was written before the last chunk
    assert seen == sorted(seen) and seen[-1] >= pages // 2
    assert same_output(root, "alone", "shared")
