"""A set's files are replaced in one step: its PDF, its manifest, its tuck boxes and the record
of its build (unchanged.py) are all the earlier build's or all the new one's, whatever fails or
stops the build between them (write/atomic.py: together)."""
from __future__ import annotations

from pathlib import Path

import pytest

import cardgen
import cardgen.components.boxes
import cardgen.unchanged

from forkserver import BUILD_IMPORTS, Forkserver
from projects import make_project, run_cli
from stopping import STOP_SIGNALS, Held, ours

BOX = ('<card><rect x="0" y="0" w="{{ w }}" h="{{ h }}" fill="#eeeeee"/>'
       '<text x="{{ box.front.x + 3 }}" y="{{ box.front.y + 3 }}" w="30" h="8" size="8">{{ count }} cards</text></card>')
FILES = ["demo.box-actions.pdf", "demo.json", "demo.pdf"]
FORKS = Forkserver(preload=BUILD_IMPORTS)


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


def boxed_project(tmp_path: Path) -> Path:
    """The demo project with a tuck box for its action cards."""
    root = make_project(tmp_path)
    (root / "templates/demo/box.xml.j2").write_text(BOX)
    set_yaml = root / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "boxes:\n  actions:\n    template: demo/box.xml.j2\n"
                        "    cards: {type: action}\n")
    return root


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def change_the_cards(root: Path) -> None:
    """A new action card: the set's PDF, its manifest and its box (which counts them) all change."""
    (root / "data/demo/more.csv").write_text("name,type,count,text\nNew card,action,1,New text\n")


def built_then_changed(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    root = boxed_project(tmp_path)
    assert run_cli(root, "build", "--no-cache").returncode == 0
    before = outputs(root / "output")
    assert sorted(before) == FILES
    change_the_cards(root)
    return root, before


def test_a_box_whose_layout_fails_leaves_the_sets_files_as_they_were(tmp_path):
    """The box's layout is rendered after the set's PDF is written: its error fails the build
    before anything is replaced (once, the new PDF stood beside the old box)."""
    root, before = built_then_changed(tmp_path)
    (root / "templates/demo/box.xml.j2").write_text('<card>{{ box.lid.nothing }}</card>')
    done = run_cli(root, "build", "--no-cache")
    assert done.returncode == 1
    assert done.stderr == ("templates/demo/box.xml.j2:1: card \"actions\": undefined name: "
                           "a mapping has no attribute 'nothing'\ncardgen: 1 error, 0 warnings\n")
    assert outputs(root / "output") == before


def test_a_stop_while_the_box_is_drawn_leaves_the_sets_files_as_they_were(tmp_path, monkeypatch):
    root, before = built_then_changed(tmp_path)
    real = cardgen.components.boxes.draw_face

    def stopped(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt  # Ctrl-C as the box's art is drawn

    monkeypatch.setattr(cardgen.components.boxes, "draw_face", stopped)
    with pytest.raises(KeyboardInterrupt):
        cardgen.build(["demo"], root, root / "output", cardgen.BuildOptions(cache=False))
    assert outputs(root / "output") == before  # no temporary beside them either


def test_the_box_is_new_when_the_set_is(tmp_path):
    root, before = built_then_changed(tmp_path)
    assert run_cli(root, "build", "--no-cache").returncode == 0
    after = outputs(root / "output")
    assert sorted(after) == FILES
    assert all(after[name] != before[name] for name in FILES)


def test_a_stop_while_the_record_is_made_leaves_the_sets_files_and_record_as_they_were(tmp_path, monkeypatch):
    """The record of a build that a later one may skip (unchanged.py) is made from the staged
    files, and put in place with them."""
    root = make_project(tmp_path)
    assert run_cli(root, "build").returncode == 0
    record = root / ".cardgen-cache/built-demo.marshal"
    before, kept = outputs(root / "output"), record.read_bytes()
    change_the_cards(root)

    def stopped(path):
        raise KeyboardInterrupt  # Ctrl-C as the record reads what the build wrote

    monkeypatch.setattr(cardgen.unchanged, "_file_digest", stopped)
    stopped_build = run_cli(root, "build")
    assert (stopped_build.returncode, stopped_build.stderr) == (1, "\nAborted!\n")
    assert outputs(root / "output") == before
    assert record.read_bytes() == kept
    assert sorted(p.name for p in record.parent.iterdir() if "cardgen-" in p.name) == []
    monkeypatch.undo()
    assert run_cli(root, "build").returncode == 0
    assert record.read_bytes() != kept and outputs(root / "output") != before
    written = (root / "output/demo.pdf").stat().st_mtime_ns
    assert run_cli(root, "build").stdout.startswith("built 1 set, 7 cards")
    assert (root / "output/demo.pdf").stat().st_mtime_ns == written  # the record holds: not built again


def _box_temporary(out: Path) -> Path | None:
    return next((p for p in out.iterdir() if p.name.startswith(".demo.box-actions.pdf.cardgen-")), None)


@pytest.mark.parametrize("stop, status", STOP_SIGNALS)
def test_a_build_stopped_while_its_box_is_written_leaves_every_file_of_the_set_old(tmp_path, stop, status):
    """The set's PDF and manifest are staged, the box's PDF is being drawn: the stop removes them all."""
    root, before = built_then_changed(tmp_path)
    out = root / "output"
    temp = tmp_path / "tmp"
    with Held(root, temp, "drawn demo.box-actions", "build", "--no-cache", "--jobs", "1", forks=FORKS) as process:
        assert process.reached() == str(temp)
        assert _box_temporary(out) is not None
        assert sorted(p.name.split(".cardgen-")[0] for p in out.iterdir() if ".cardgen-" in p.name) == [
            ".demo.box-actions.pdf", ".demo.json", ".demo.pdf"]
        code, err = process.stop(stop)
    assert (code, "Traceback" in err) == (status, False), err
    assert outputs(out) == before  # and no temporary left beside them
    assert ours(tmp_path / "tmp") == []

