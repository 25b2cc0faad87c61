"""`cardgen serve` while the project changes under it: its output folder removed, and every
problem said on stderr as well as in the page."""
from __future__ import annotations

import json
import shutil
import time
import urllib.error

from livepage import DIRECT, Server
from projects import make_project

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
