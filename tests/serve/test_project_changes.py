"""`cardgen serve` while the project changes under it: its output folder removed, and every
problem said on stderr as well as in the page."""
from __future__ import annotations

import http.client
import json
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
from types import SimpleNamespace
from urllib.parse import urlsplit

from livepage import DIRECT, Server, wait_until
from projects import make_project

OVERFLOW = ('data/demo/cards.yaml:4: card "Quick Draw": field "text": the text does not fit at the minimum size 5 pt '
            'in text box "body" (53.5 x 52 mm) (drawn by templates/demo/action.xml.j2:5)')


def status(server, path: str) -> int:
    try:
        with DIRECT.open(server.url + path.lstrip("/"), timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_removed_output_folder_is_drawn_and_built_again(tmp_path):
    server = Server(make_project(tmp_path, "preview", fonts=False))
    try:
        server.wait_for_pdf()
        state = json.loads(server.get("api/state"))
        faces = {face["hash"] for card in state["sets"][0]["cards"] for face in card["faces"]}
        shutil.rmtree(server.root / "output")
        for face in faces:  # they were answered "not found" until the server was restarted
            assert server.get(f"faces/demo/{face}.png")[:8] == b"\x89PNG\r\n\x1a\n"
        cards = server.root / "data/demo/cards.yaml"
        cards.write_bytes(cards.read_bytes())  # a save changing nothing: the PDF is built again all the same
        wait_until(lambda: status(server, "output/demo.pdf") == 200, "the PDF was not built again")
    finally:
        assert server.stop() == 0


def test_every_problem_is_said_on_stderr(tmp_path):
    root = make_project(tmp_path, "preview", fonts=False)
    cards = root / "data/demo/cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Draw **two** cards", "Draw " + "many words " * 200),
                     encoding="utf-8")
    said, complained = tmp_path / "stdout", tmp_path / "stderr"
    with said.open("w") as out, complained.open("w") as err:
        process = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(root), "serve", "--port", "0",
                                    "--pdf-delay", "0"], stdout=out, stderr=err)
    try:
        wait_until(lambda: "the PDF was not built" in complained.read_text(), "no PDF failure on stderr")
        lines = complained.read_text().splitlines()
        assert lines[0].startswith(OVERFLOW + "; ") and lines[0].endswith(" lines fall below the box (the preview clips them)")
        assert lines[-2:] == [OVERFLOW, "demo: the PDF was not built"]
        cards.write_text(cards.read_text(encoding="utf-8").replace("count: 2", "count: lots"), encoding="utf-8")
        wait_until(lambda: "showing the last good cards" in said.read_text(), "the broken file was not seen")
        assert 'data/demo/cards.yaml:3: card "Quick Draw": count must be a whole number, got "lots"' \
            in complained.read_text().splitlines()
        assert "count must be" not in said.read_text() and "Traceback" not in complained.read_text()
    finally:
        process.terminate()
        assert process.wait(timeout=60) == 0


def test_a_watched_folder_removed_and_put_back_is_watched_again(tmp_path):
    """A ``git checkout`` or a restored backup makes templates/ anew: the watch of the old folder
    saw its removal, then nothing, and the page showed "template not found" until a restart."""
    server = Server(make_project(tmp_path, "preview", fonts=False))
    try:
        server.wait_for_pdf()

        def front():
            state = json.loads(server.get("api/state"))["sets"][0]
            return None if state["failed"] else state["cards"][0]["faces"][0]["hash"]

        before = front()
        kept = tmp_path / "templates-kept"
        shutil.move(server.root / "templates", kept)
        wait_until(lambda: front() is None, "the removed templates were not seen")
        action = kept / "demo/action.xml.j2"
        action.write_text(action.read_text(encoding="utf-8").replace("#27408b", "#8b2740"), encoding="utf-8")
        shutil.move(kept, server.root / "templates")
        wait_until(lambda: front() not in (None, before), "the templates put back were not seen")
    finally:
        assert server.stop() == 0

GREEDY = ('data/{}/decks/greedy.yaml:2: card "Quick Draw": rule "at most 2 copies of an action": 3 copies, '
          'expected at most 2')


class EventPage:
    """What the page does with /api/events, in Python: the whole state, then each delta applied
    to the set it names. A delta it cannot apply (a set it has not got, a generation skipped)
    is recorded: the page would break on it."""

    def __init__(self, server):
        address = urlsplit(server.url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        self.connection.request("GET", "/api/events")
        self.socket = self.connection.sock  # the answer says "Connection: close": the connection lets go of it
        self.response = self.connection.getresponse()
        self.state: dict | None = None
        self.events: list[str] = []
        self.broken: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        event = None
        try:
            for raw in self.response:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    event = line[len("event: "):]
                elif line.startswith("data: "):
                    self._take(event, json.loads(line[len("data: "):]))
        except (OSError, ValueError):
            return

    def _take(self, event: str, data: dict) -> None:
        self.events.append(event)
        if event == "state":
            self.state = data
            return
        sets = {s["name"]: s for s in self.state["sets"]} if self.state else {}
        if self.state is None or data["generation"] != self.state["generation"] + 1 or data["set"] not in sets:
            self.broken.append(f"a delta of generation {data['generation']} for {data['set']}")
            return
        shown = sets[data["set"]]
        fresh, known = {c["key"]: c for c in data["cards"]}, {c["key"]: c for c in shown["cards"]}
        shown.update(data["rest"])
        shown["cards"] = [fresh.get(key) or known[key] for key in data["order"]]
        self.state["generation"] = data["generation"]

    def close(self) -> None:
        self.socket.shutdown(socket.SHUT_RDWR)  # the reader's read ends now, not at the next keep-alive
        self.reader.join(timeout=60)
        self.response.close()


def test_serving_every_set_shows_a_set_folder_added_and_drops_one_removed(tmp_path, monkeypatch):
    """The sets were read once, when serve started: a set folder added to data/ afterwards was
    never shown or built, and one removed was refreshed, and failed, at every save."""
    from cardgen.serve import engine as engine_module, serve

    drawn: list[tuple[str, int]] = []  # (set, faces) of each drawing of faces
    draw_faces = engine_module.draw_faces
    monkeypatch.setattr(engine_module, "draw_faces", lambda store, rendered, faces, dpi=None: (
        drawn.append((store.folder.name, len(faces))), draw_faces(store, rendered, faces, dpi))[1])
    root = make_project(tmp_path, "preview", fonts=False)
    said, complained, stop = queue.Queue(), [], threading.Event()
    thread = threading.Thread(target=serve, args=(None, root), kwargs={
        "port": 0, "echo": said.put, "complain": complained.append, "stop": stop, "pdf_delay": 0})
    thread.start()

    def lines(count: int) -> list[str]:
        return [re.sub(r" in \d+\.\d\d s$", " in T s", said.get(timeout=60)) for _ in range(count)]

    page = None
    try:
        started = lines(2)
        assert started[1] == "demo: 5 cards in T s"
        server = SimpleNamespace(url=re.search(r"http://\S+/", started[0]).group(0))

        def state() -> dict:
            with DIRECT.open(server.url + "api/state", timeout=60) as response:
                return json.loads(response.read())

        wait_until(lambda: state()["sets"][0]["pdf"], "the PDF was not built")
        demo_pdf = state()["sets"][0]["pdf"]
        drawn_at_start = list(drawn)
        page = EventPage(server)
        wait_until(lambda: page.state, "no state on the event stream")
        extra = shutil.copytree(root / "data/demo", tmp_path / "extra")
        set_file = extra / "set.yaml"
        set_file.write_text(set_file.read_text(encoding="utf-8").replace("name: demo", "name: extra").replace(
            "title: Demo Deck", "title: Extra Deck"), encoding="utf-8")
        extra.rename(root / "data/extra")  # one event: the set comes whole
        assert lines(2) == ["demo: 5 cards in T s", "extra: 5 cards in T s"]
        added = wait_until(lambda: (s := state())["sets"][-1]["pdf"] and s, "the added set's PDF was not built")
        assert [(s["name"], s["title"], s["ready"], s["failed"]) for s in added["sets"]] == [
            ("demo", "Demo Deck", True, []), ("extra", "Extra Deck", True, [])]
        assert [c["key"] for c in added["sets"][1]["cards"]] == [c["key"] for c in added["sets"][0]["cards"]]
        assert added["sets"][1]["pdf"]["ok"] and (root / "output/extra.pdf").is_file()
        assert added["sets"][0]["pdf"] == demo_pdf  # demo's PDF was not built again
        assert {name for name, _ in drawn[len(drawn_at_start):]} == {"extra"}  # nor its faces drawn
        face = added["sets"][1]["cards"][0]["faces"][0]["hash"]
        assert status(server, f"faces/extra/{face}.png") == 200

        (root / "data/extra").rename(tmp_path / "extra-gone")  # removed from data/ (a folder moved away)
        assert lines(2) == ["extra: no longer a set in data/ (not built; its earlier output is left)",
                            "demo: 5 cards in T s"]
        removed = state()
        assert [s["name"] for s in removed["sets"]] == ["demo"] and removed["sets"][0]["pdf"] == demo_pdf
        assert status(server, f"faces/extra/{face}.png") == 404
        assert status(server, f"print/extra/{face}.png") == 404
        assert (root / "output/extra.pdf").is_file()  # left as it was
        cards = root / "data/demo/cards.yaml"
        cards.write_bytes(cards.read_bytes())  # another save: the removed set is not said again
        assert lines(1) == ["demo: 5 cards in T s"]
        wait_until(lambda: page.state["generation"] == state()["generation"], "the event stream fell behind")
        assert page.broken == []
        assert page.state == state()  # the page, told of each change, holds what the server has
        # at the start, and when each set came and went (more when the stream fell behind by two)
        assert page.events.count("state") >= 3 and "delta" in page.events
        assert said.empty()
        # stderr: the deck list's error at each refresh of its set, as before; nothing of the sets' coming and going
        assert complained == [GREEDY.format(name) for name in ("demo", "demo", "extra", "demo", "demo")]
        assert {name for name, _ in drawn[len(drawn_at_start):]} == {"extra"}
    finally:
        stop.set()
        if page is not None:
            page.close()
        thread.join(timeout=60)
    assert not thread.is_alive()


def test_a_save_that_changes_no_face_still_builds_the_pdf_a_build_would(tmp_path):
    """The PDF was built again only when a card or a problem changed: a paper size set in
    set.yaml, or a card file saved again (the PDF's date is its set's newest file's), left the
    old PDF served where `cardgen build` writes another."""
    server = Server(make_project(tmp_path, "preview", fonts=False))
    try:
        server.wait_for_pdf()
        letter = server.get("output/demo.pdf")
        set_yaml = server.root / "data/demo/set.yaml"
        set_yaml.write_text(set_yaml.read_text(encoding="utf-8") + "sheet:\n  paper: a4\n", encoding="utf-8")
        built = tmp_path / "built"
        subprocess.run([sys.executable, "-m", "cardgen", "--root", str(server.root), "build", "demo", "--out",
                        str(built), "--no-cache"], check=True, capture_output=True)
        a4 = (built / "demo.pdf").read_bytes()
        assert a4 != letter
        wait_until(lambda: server.get("output/demo.pdf") == a4, "the PDF was not built again on A4", timeout=60)
    finally:
        assert server.stop() == 0
