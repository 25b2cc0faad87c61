"""cardgen watch: the change detection on real manifests, the debounce, one short live run."""
from __future__ import annotations

import json
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import cardgen
from cardgen import pipeline
from cardgen.watch import Changes, _Events, changed_cards, rebuild, watch
from cardgen.write.manifest import load_manifest

WAIT = 300  # seconds: a guard against a hang, not a speed test


def manifest(project):
    return load_manifest(project / "output/demo.json")


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_changed_cards_between_two_real_builds(project):
    cardgen.build(["demo"], project)
    before = manifest(project)
    assert changed_cards(before, before) == Changes()
    edit(project / "data/demo/cards.yaml", "gain 1 coin", "gain 2 coins")
    edit(project / "data/demo/more.csv", "Attack <12> & more,1,Attack <12> & more\n", "New,1,Fresh\n")
    cardgen.build(["demo"], project)
    changes = changed_cards(before, manifest(project))
    assert changes == Changes(added=("New",), removed=("Attack <12> & more",), changed=("Escape Artist",))
    assert changes.describe("demo") == "demo: changed Escape Artist; added New; removed Attack <12> & more"
    assert Changes().describe("demo") == "demo: no card changed"


def test_a_template_change_changes_every_card_drawn_by_it(project):
    cardgen.build(["demo"], project)
    before = manifest(project)
    edit(project / "templates/demo/token.xml.j2", 'fill="#2e8b57"', 'fill="#2e8b58"')
    cardgen.build(["demo"], project)
    assert changed_cards(before, manifest(project)) == Changes(changed=("Marker",))


def test_rebuild_reports_changes_and_problems_and_recovers(project):
    out = project / "output"
    (first,) = rebuild(["demo"], project, out)
    assert first.startswith("demo: built 8 cards (")
    (same,) = rebuild(["demo"], project, out)
    assert same.startswith("demo: no card changed (")
    cards = project / "data/demo/cards.yaml"
    good = cards.read_text()
    cards.write_text(good.replace("count: 2", "count: two"))
    assert rebuild(["demo"], project, out) == [
        'data/demo/cards.yaml:3: card "Quick Draw": count must be a whole number, got "two"',
        "demo: not built (1 problem)"]
    cards.write_text(good.replace("Move up to three", "Move up to four"))
    (fixed,) = rebuild(["demo"], project, out)
    assert fixed.startswith("demo: changed Escape Artist (")


def test_rebuild_goes_on_when_the_manifest_is_gone_before_it_is_compared(project, monkeypatch):
    build_set = pipeline.build_set

    def build_then_clean(*args, **options):
        result = build_set(*args, **options)
        result.manifest.unlink()  # `cardgen clean`, run in another terminal at that moment
        return result

    monkeypatch.setattr(pipeline, "build_set", build_then_clean)
    (line,) = rebuild(["demo"], project, project / "output")  # it raised FileNotFoundError: watch ended
    assert line.startswith("demo: built 8 cards (")


def test_rebuild_says_a_bad_fonts_yaml_and_goes_on(project):
    out = project / "output"
    (project / "fonts/fonts.yaml").write_text("name: a fonts.yaml half saved\n")  # read as the session starts
    assert rebuild(["demo"], project, out) == [  # it raised: watch ended
        "fonts/fonts.yaml:1: fonts.yaml must list `families`", "demo: not built (1 problem)"]
    shutil.rmtree(project / "fonts")  # (then the fonts cardgen ships)
    (line,) = rebuild(["demo"], project, out)
    assert line.startswith("demo: built 8 cards (")


def test_events_wait_until_quiet_and_skip_editor_files(tmp_path):
    events = _Events()
    assert not events.quiet_for(0)
    events.dispatch(SimpleNamespace(event_type="modified", src_path=str(tmp_path / ".cards.yaml.swp")))
    events.dispatch(SimpleNamespace(event_type="modified", src_path=str(tmp_path / "cards.yaml~")))
    events.dispatch(SimpleNamespace(event_type="opened", src_path=str(tmp_path / "cards.yaml")))
    assert not events.quiet_for(0)
    events.dispatch(SimpleNamespace(event_type="modified", src_path=str(tmp_path / "cards.yaml")))
    assert not events.quiet_for(10)  # too soon
    time.sleep(0.05)
    assert events.quiet_for(0.04)
    assert not events.quiet_for(0)  # taken: one rebuild per burst
    events.dispatch(SimpleNamespace(event_type="moved", src_path=str(tmp_path / "x.tmp"),
                                    dest_path=str(tmp_path / "cards.yaml")))
    time.sleep(0.02)
    assert events.quiet_for(0.01)


def test_live_watch_rebuilds_on_save(project):
    said: queue.Queue = queue.Queue()  # each line it echoes, as it echoes it
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(["demo"], project),
                              kwargs={"echo": said.put, "stop": stop, "debounce": 0.2})
    thread.start()
    lines: list[str] = []
    try:
        # Each wait ends when its line comes; the limit only stops a hang on a very busy machine.
        lines += [said.get(timeout=WAIT), said.get(timeout=WAIT)]  # built, then watching
        assert lines[1].startswith("watching"), lines
        edit(project / "data/demo/cards.yaml", "Nobody saw him leave.", "Nobody saw him go.")
        lines.append(said.get(timeout=WAIT))
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not thread.is_alive()
    while not said.empty():  # anything else it echoed before it stopped
        lines.append(said.get())
    assert lines[0].startswith("demo: built 8 cards")
    assert [line.split(" (")[0] for line in lines[2:]] == ["demo: changed Escape Artist"]


def test_ctrl_c_exits_0(project):
    process = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(project), "watch", "demo"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()  # what it prints, then None when its output ends

    def read() -> None:
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        # Each wait ends when its line comes; the limit only stops a hang on a very busy machine.
        first, second = lines.get(timeout=WAIT), lines.get(timeout=WAIT)
        assert first.startswith("demo: built 8 cards") and second.startswith("watching"), (first, second)
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=WAIT)
        rest = "".join(iter(lambda: lines.get(timeout=WAIT), None))
    finally:
        process.kill()
        process.wait()
        reader.join(timeout=WAIT)
    assert code == 0
    assert rest == "stopped\n"


def test_rebuild_refreshes_proofs_of_the_changed_card_only(project):
    out, proofs = project / "output", project / "output/proofs"
    rebuild(["demo"], project, out, proofs=proofs)
    before = {p.name: p.read_bytes() for p in (proofs / "demo").glob("*-front.png")}
    assert len(before) == 8
    edit(project / "data/demo/cards.yaml", "Nobody saw him leave.", "Nobody saw him go.")
    (line,) = rebuild(["demo"], project, out, proofs=proofs)
    assert line.startswith("demo: changed Escape Artist (")
    after = {p.name: p.read_bytes() for p in (proofs / "demo").glob("*-front.png")}
    assert sorted(n for n in before if before[n] != after[n]) == ["escape-artist-1-front.png"]


def test_rebuild_says_an_output_folder_that_is_a_file_is_one_and_keeps_watching(project, monkeypatch):
    monkeypatch.chdir(project)
    (project / "output").write_text("not a folder")
    assert rebuild(["demo"], project, project / "output") == [
        "demo: not built (cannot write output/demo.pdf: output is a file, not a folder)"]


def test_watching_every_set_builds_a_set_made_while_watching_and_leaves_one_removed(project, tmp_path):
    """The sets were read once, when watch started: a set folder added afterwards was never built,
    and one removed was "not built" at every save after."""
    said: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(None, project), kwargs={"echo": said.put, "stop": stop, "debounce": 0.2})
    thread.start()
    lines: list[str] = []
    try:
        lines += [said.get(timeout=WAIT), said.get(timeout=WAIT)]
        assert lines[0].startswith("demo: built 8 cards") and lines[1].startswith("watching"), lines
        extra = shutil.copytree(project / "data/demo", tmp_path / "extra")
        edit(extra / "set.yaml", "name: demo", "name: extra")
        extra.rename(project / "data/extra")  # one event: the set comes whole
        lines += [said.get(timeout=WAIT), said.get(timeout=WAIT)]
        shutil.rmtree(project / "data/extra")
        lines += [said.get(timeout=WAIT), said.get(timeout=WAIT)]
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not thread.is_alive()
    assert [line.split(" (")[0] for line in lines[2:]] == [
        "demo: no card changed", "extra: built 8 cards", "extra: no longer a set in data/", "demo: no card changed"]
    assert (project / "output/extra.pdf").is_file()  # left as it was
