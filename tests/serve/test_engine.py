"""The preview's engine: text that does not fit is drawn in the preview and reported, while a
build still fails on it; a preview never leaves a clipped drawing for a build to reuse. The
server builds a set's PDF once its refreshes have been quiet for the delay (``--pdf-delay``)."""
from __future__ import annotations

import json
import shutil
import threading

import pytest

from cardgen import pipeline
from cardgen.errors import CardgenError
from cardgen.serve import PdfQueue
from cardgen.serve.engine import Engine
from projects import make_project

LONG = " ".join(["Overflowing words fill the box."] * 60)
# the build names the card's value first, the template line second (issue 13)
BUILD_FAILURE = ('data/demo/cards.yaml:4: card "Quick Draw": field "text": the text does not fit at the minimum size '
                 '5 pt in text box "body" (53.5 x 52 mm) (drawn by templates/demo/action.xml.j2:5)')


@pytest.fixture
def overflowing(tmp_path):
    root = make_project(tmp_path, "preview")
    cards = root / "data/demo/cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "Draw **two** cards, then discard *one*. :spade: beats :heart:.", LONG), encoding="utf-8")
    return root


def state_of(engine: Engine) -> dict:
    return json.loads(engine.state_json()[1])["sets"][0]


def test_the_preview_draws_text_that_does_not_fit_and_names_the_problem(overflowing):
    engine = Engine(overflowing, ["demo"], overflowing / "output")
    engine.refresh("demo")
    state = state_of(engine)
    assert state["failed"] == []
    errors = [p for p in state["problems"] if p["severity"] == "error"]
    assert len(errors) == 1
    assert errors[0]["text"].startswith(BUILD_FAILURE + "; ")  # the build's message, and how much is over
    assert errors[0]["where"] == "data/demo/cards.yaml:4" and errors[0]["card"] == "Quick Draw"
    quick = next(c for c in state["cards"] if c["name"] == "Quick Draw")
    assert [state["problems"][i]["severity"] for i in quick["problems"]] == ["warning", "error"]
    assert all(engine.grid_image("demo", face["hash"]) for face in quick["faces"])  # drawn anyway


def test_a_build_after_the_preview_still_fails_with_the_builds_message(overflowing):
    engine = Engine(overflowing, ["demo"], overflowing / "output")
    engine.refresh("demo")
    for _ in range(2):  # the second build reads the cache the first one left
        with pytest.raises(CardgenError) as failed:
            pipeline.build(["demo"], overflowing)
        assert [str(p) for p in failed.value.problems] == [BUILD_FAILURE]
    assert not (overflowing / "output/demo.pdf").exists()


def test_the_problem_stays_while_the_face_is_unchanged(overflowing):
    engine = Engine(overflowing, ["demo"], overflowing / "output")
    engine.refresh("demo")
    first = state_of(engine)["problems"]
    (overflowing / "data/demo/more.csv").write_text(
        (overflowing / "data/demo/more.csv").read_text(encoding="utf-8").replace("Attack <12>", "Attack <13>"),
        encoding="utf-8")
    engine.refresh("demo")  # Quick Draw is not drawn again: its problem is remembered
    state = state_of(engine)
    assert state["problems"] == first
    assert state["changed"] == ["Attack <13> & more"]


@pytest.mark.parametrize("rows_only", [True, False])
def test_a_problem_of_a_face_met_again_names_the_line_its_card_is_on_now(overflowing, rows_only):
    # the face is unchanged, so it is not drawn again; its problem named line 4, where it was
    engine = Engine(overflowing, ["demo"], overflowing / "output")
    engine.refresh("demo")
    cards = overflowing / "data/demo/cards.yaml"
    cards.write_text("- name: Newcomer\n  type: action\n  text: Fresh.\n" + cards.read_text(encoding="utf-8"),
                     encoding="utf-8")
    engine.refresh("demo", rows_only=rows_only)
    fresh = Engine(overflowing, ["demo"], overflowing / "output")
    fresh.refresh("demo")
    errors = [p["text"] for p in state_of(engine)["problems"] if p["severity"] == "error"]
    assert len(errors) == 1 and errors[0].startswith(BUILD_FAILURE.replace("cards.yaml:4:", "cards.yaml:7:"))
    assert state_of(engine)["problems"] == state_of(fresh)["problems"]
    assert state_of(engine)["cards"] == state_of(fresh)["cards"]


def test_a_refresh_after_saving_card_rows_shows_what_a_full_one_does(tmp_path):
    root = make_project(tmp_path, "preview")
    quick = Engine(root, ["demo"], root / "output")
    quick.refresh("demo")
    cards = root / "data/demo/cards.yaml"
    # a row changed, and a row inserted above others (their lines move)
    cards.write_text("- name: Newcomer\n  type: action\n  text: Fresh.\n" + cards.read_text(encoding="utf-8").replace(
        "Move up to three spaces.", "Move up to four spaces."), encoding="utf-8")
    quick.refresh("demo", rows_only=True)
    full = Engine(root, ["demo"], root / "output")
    full.refresh("demo")
    assert state_of(quick)["cards"] == state_of(full)["cards"]
    assert state_of(quick)["problems"] == state_of(full)["problems"]
    assert state_of(quick)["changed"] == ["Newcomer", "Escape Artist"]


@pytest.mark.parametrize("written", ["1.0", "true"])
def test_a_value_saved_as_another_kind_of_the_same_number_is_drawn_again(tmp_path, written):
    # 1, 1.0 and True are equal to Python's ==, but a card prints them as 1, 1.0 and True: the
    # refresh after a save of card rows kept the face of 1
    root = make_project(tmp_path, "preview")
    cards = root / "data/demo/cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("  label: M", "  label: 1"), encoding="utf-8")
    quick = Engine(root, ["demo"], root / "output")
    quick.refresh("demo")
    cards.write_text(cards.read_text(encoding="utf-8").replace("  label: 1", f"  label: {written}"), encoding="utf-8")
    quick.refresh("demo", rows_only=True)
    full = Engine(root, ["demo"], root / "output")
    full.refresh("demo")
    assert state_of(quick)["cards"] == state_of(full)["cards"]
    assert state_of(quick)["changed"] == ["Marker"]


def test_an_image_saved_while_a_card_file_is_broken_shows_once_the_card_file_is_mended(tmp_path):
    # the refresh after the image's save failed on the card file; the save that mended the card
    # file alone was taken as one of card rows only, and kept the faces drawn with the old image
    root = make_project(tmp_path, "preview")
    cards, star = root / "data/demo/cards.yaml", root / "data/demo/icons/star.svg"
    good = cards.read_text(encoding="utf-8")
    quick = Engine(root, ["demo"], root / "output")
    quick.refresh("demo")
    cards.write_text(good.replace("count: 2", "count: lots"), encoding="utf-8")
    quick.refresh("demo", rows_only=True)
    assert state_of(quick)["failed"]
    assert star.read_text(encoding="utf-8").count("#e0a800") == 1
    star.write_text(star.read_text(encoding="utf-8").replace("#e0a800", "#00a0e0"), encoding="utf-8")
    quick.refresh("demo")  # fails: the card file is still broken
    cards.write_text(good, encoding="utf-8")
    quick.refresh("demo", rows_only=True)
    full = Engine(root, ["demo"], root / "output")
    full.refresh("demo")
    assert state_of(quick)["failed"] == []
    assert state_of(quick)["cards"] == state_of(full)["cards"]
    assert state_of(quick)["changed"] == ["Escape Artist"]  # the card that shows the icon


def test_many_new_faces_come_in_batches_and_never_name_a_missing_image(tmp_path, monkeypatch):
    from cardgen.serve import engine as engine_module

    monkeypatch.setattr(engine_module, "BATCH", 2)
    root = make_project(tmp_path, "preview")
    engine = Engine(root, ["demo"], root / "output")
    seen = []
    publish = engine._publish

    def checked(name, before):
        state = engine.sets[name]
        for card in state.cards:
            for face in card["faces"]:
                assert engine.grid_image(name, face["hash"]).is_file()  # what the server answers
        seen.append((len(state.cards), state.progress))
        publish(name, before)

    monkeypatch.setattr(engine, "_publish", checked)
    engine.refresh("demo")
    # 2 faces a batch: cards appear as their faces are drawn
    assert seen[-1] == (5, "")
    assert [progress for _, progress in seen[:-1]] == [f"drawing faces: {n} of {seen[0][1].split(' of ')[1]}"
                                                      for n in range(2, 2 * len(seen) - 1, 2)]
    assert [count for count, _ in seen] == sorted(count for count, _ in seen)
    stop = threading.Event()
    stop.set()
    (root / "templates/demo/back.xml.j2").write_text(
        (root / "templates/demo/back.xml.j2").read_text(encoding="utf-8").replace("#27408b", "#8b2740"), encoding="utf-8")
    before = state_of(engine)
    assert engine.refresh("demo", stop=stop) is False  # stopping: ends between batches, publishes nothing
    assert state_of(engine) == before


def test_a_pdf_waits_out_the_delay_and_a_burst_of_refreshes_builds_it_once():
    queue, stop = PdfQueue(), threading.Event()
    queue.want("demo")
    queue.want("demo")

    def stop_waiting():
        stop.set()
        queue.wake()

    threading.Timer(0.05, stop_waiting).start()
    assert queue.take(stop, 3600) is None  # stopped within the hour's delay: nothing to build yet
    stop.clear()
    assert queue.take(stop, 0) == "demo"  # --pdf-delay 0: at once
    assert queue.pending == {}  # once for both refreshes


def test_the_pdf_build_says_an_output_folder_that_is_a_file_is_one(tmp_path, monkeypatch):
    from cardgen.serve.pdfbuild import run

    root = make_project(tmp_path, "preview")
    monkeypatch.chdir(root)
    (root / "output").write_text("not a folder")
    message = "cannot write output/demo.pdf: output is a file, not a folder"
    assert run(root, "demo", root / "output") == {"ok": False, "problems": [
        {"severity": "error", "message": message, "where": "", "card": None, "text": message}]}


def test_a_set_dropped_while_its_image_is_asked_for_is_not_found_and_pages_get_the_whole_state(tmp_path):
    """The preview worker drops a set removed from data/ while a request for one of its images
    is under way (between the request's look at the set and its drawing): the request finds
    nothing (404), no KeyError; a page one generation behind gets the whole state, with no set
    it has not got, not a delta."""
    root = make_project(tmp_path, "preview", fonts=False)
    engine = Engine(root, ["demo"], root / "output")
    engine.refresh("demo")
    face = state_of(engine)["cards"][0]["faces"][0]["hash"]
    generation = engine.state_json()[0]
    store = engine.stores["demo"]
    look_again = store.look_again

    def dropped_meanwhile():
        look_again()
        engine.show([])

    store.look_again = dropped_meanwhile
    assert engine.print_image("demo", face) is None  # not drawn at 300 dpi yet: it would draw it
    assert engine.grid_image("demo", face) is None and engine.print_image("demo", face) is None
    assert engine.next_event(generation) == (generation + 1, "state", json.dumps(
        {"generation": generation + 1, "sets": []}))
    assert engine.show([]) is False  # no change: no new generation
    assert engine.show(["demo"]) is True
    back = json.loads(engine.next_event(generation + 1)[2])
    assert back["generation"] == generation + 2 and [(s["name"], s["ready"], s["cards"]) for s in back["sets"]] == [
        ("demo", False, [])]  # a set back in data/ is new: shown once refreshed
    engine.refresh("demo")
    assert engine.next_event(generation + 2)[1] == "delta"


def test_sets_that_cannot_be_read_again_keep_those_shown_and_say_why(tmp_path):
    """Served without SET, the sets are read again at each save. Two sets writing one file: the
    sets shown stay, the new one is not added, and the problem is said (stderr); no set left:
    each is said gone, and so is the emptiness."""
    from cardgen.project import sets_now

    root = make_project(tmp_path, "preview", fonts=False)
    shutil.copytree(root / "data/demo", root / "data/extra")
    assert sets_now(["demo"], root) == (["demo", "extra"], [], [])
    shutil.copytree(root / "data/demo", root / "data/Demo")
    names, gone, problems = sets_now(["demo", "extra"], root)
    assert (names, gone) == (["demo", "extra"], [])
    assert problems == ['data/demo: set "demo" and set "Demo", which differs in case, write output files that are '
                        'one file on macOS and Windows, whose names ignore that difference: rename one of the two '
                        'folders']
    for name in ("demo", "extra", "Demo"):
        (root / "data" / name).rename(tmp_path / name)
    assert sets_now(["demo", "extra"], root) == (
        [], ["demo", "extra"], [f"no sets found: {root / 'data'} has no <set>/set.yaml"])


def test_preview_images_another_code_drew_are_drawn_again(tmp_path, monkeypatch):
    # images are kept by the face's content hash, which says nothing of the code that drew them:
    # after an upgrade (another cardgen, pdfium or Pillow) a restarted server served the print
    # images (300 dpi, drawn when first asked for) that the old code drew
    from cardgen.proof import store as proof_store

    root = make_project(tmp_path, "preview")
    monkeypatch.setattr(proof_store, "made_by", lambda: "0.1.0 other-code")
    before = Engine(root, ["demo"], root / "output")
    before.refresh("demo")
    hashes = [face["hash"] for card in state_of(before)["cards"] for face in card["faces"]]
    for face_hash in hashes:
        before.print_image("demo", face_hash).write_bytes(b"\x89PNG\r\n\x1a\n drawn by other code")
    monkeypatch.undo()
    restarted = Engine(root, ["demo"], root / "output")
    restarted.refresh("demo")
    fresh = Engine(root, ["demo"], tmp_path / "fresh")
    fresh.refresh("demo")
    assert state_of(restarted)["cards"] == state_of(fresh)["cards"]
    for face_hash in hashes:
        assert restarted.print_image("demo", face_hash).read_bytes() == fresh.print_image("demo", face_hash).read_bytes()
    drawn = {path: path.stat().st_mtime_ns for path in (root / "output/.preview/demo").glob("*-300.png")}
    assert len(drawn) == len(set(hashes))
    again = Engine(root, ["demo"], root / "output")  # drawn by this code: kept
    again.refresh("demo")
    assert [again.print_image("demo", face_hash) for face_hash in hashes] == [
        restarted.print_image("demo", face_hash) for face_hash in hashes]
    assert {path: path.stat().st_mtime_ns for path in drawn} == drawn


@pytest.mark.parametrize("record", ["folder", "link"])
def test_a_made_by_record_that_is_no_plain_file_is_replaced(tmp_path, record):
    # output/.preview/<set>/made-by.txt made a folder stopped the restarted server with an
    # IsADirectoryError; a link to a file outside the project was read (a link to the zero device or a
    # FIFO would have hung it), and its words taken for the record
    from cardgen.proof import store as proof_store

    root = make_project(tmp_path, "preview")
    before = Engine(root, ["demo"], root / "output")
    before.refresh("demo")
    hashes = [face["hash"] for card in state_of(before)["cards"] for face in card["faces"]]
    for face_hash in hashes:
        before.print_image("demo", face_hash).write_bytes(b"\x89PNG\r\n\x1a\n drawn by other code")
    made_by = root / "output/.preview/demo/made-by.txt"
    made_by.unlink()
    if record == "folder":
        made_by.mkdir()
        (made_by / "note.txt").write_text("x")
    else:
        outside = tmp_path / "outside.txt"
        outside.write_text(proof_store.made_by(), encoding="utf-8")
        made_by.symlink_to(outside)
    restarted = Engine(root, ["demo"], root / "output")
    restarted.refresh("demo")
    fresh = Engine(root, ["demo"], tmp_path / "fresh")
    fresh.refresh("demo")
    for face_hash in hashes:
        assert restarted.print_image("demo", face_hash).read_bytes() == fresh.print_image("demo", face_hash).read_bytes()
    assert made_by.is_file() and not made_by.is_symlink()
    assert made_by.read_text(encoding="utf-8") == proof_store.made_by()
    if record == "link":
        assert outside.read_text(encoding="utf-8") == proof_store.made_by()
