"""`cardgen serve` while the project changes under it: its output folder removed, and every
problem said on stderr as well as in the page."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error

from livepage import DIRECT, Server
from projects import make_project

OVERFLOW = ('data/demo/cards.yaml:4: card "Quick Draw": field "text": the text does not fit at the minimum size 5 pt '
            'in text box "body" (53.5 x 52 mm) (drawn by templates/demo/action.xml.j2:5)')


def wait_until(condition, failure: str, timeout: float = 120):
    """Poll ``condition`` until it holds: generous, as the machine may be busy; only a failure waits it out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.05)
    raise AssertionError(failure)


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
