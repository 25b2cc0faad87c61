"""`cardgen serve` through its socket: it serves the page, the preview and the output folder and
nothing else, lists no folder, and stops cleanly on SIGTERM."""
from __future__ import annotations

import subprocess

import http.client
import json
import os
import socket
from urllib.parse import urlsplit

import pytest

from livepage import Server, wait_until
from projects import make_project


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the module's tests, which change no card."""
    root = make_project(tmp_path_factory.mktemp("http"), "preview")
    server = Server(root)
    yield server
    server.stop()


MOMENTS = ["saved", "laid out"]  # a refresh under way; the PDF build under way


@pytest.fixture(scope="module", autouse=True)
def to_stop(tmp_path_factory):
    """A server of its own for each SIGTERM test, on a project of its own: all start with the
    module, so their start and first PDF build overlap the other tests instead of following them."""
    servers = {moment: Server(make_project(tmp_path_factory.mktemp("sigterm"), "preview")) for moment in MOMENTS}
    yield servers
    for server in servers.values():
        server.stop()


def request(server, path: str, method: str = "GET", host: str | None = None) -> tuple[int, bytes]:
    address = urlsplit(server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    headers = {"Host": host} if host else {}
    connection.request(method, path, headers=headers)  # sent as written: no normalising
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def wait_ready(server) -> dict:
    def ready():
        state = json.loads(server.get("api/state"))
        return state if all(s["ready"] and s["pdf"] for s in state["sets"]) else None

    return wait_until(ready, "the preview did not get ready")


def test_it_listens_on_127_0_0_1_and_serves_the_page_and_its_files(served):
    assert urlsplit(served.url).hostname == "127.0.0.1"
    state = wait_ready(served)
    status, page = request(served, "/")
    assert status == 200 and b'<script src="static/cardgen.js" defer></script>' in page
    assert request(served, "/static/cardgen.css")[0] == 200
    face = state["sets"][0]["cards"][0]["faces"][0]["hash"]
    status, png = request(served, f"/faces/demo/{face}.png")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    status, pdf = request(served, "/output/demo.pdf")
    assert status == 200 and pdf == (served.root / "output/demo.pdf").read_bytes()


@pytest.mark.parametrize("path", [
    "/output/../data/demo/cards.yaml",
    "/output/%2e%2e/data/demo/cards.yaml",
    "/output/%2E%2E%2Fdata%2Fdemo%2Fcards.yaml",
    "/output/%252e%252e/data/demo/cards.yaml",
    "/output/..%5cdata%5cdemo%5ccards.yaml",
    "/output/.preview",
    "/output/",
    "/output",
    "/output/outside.txt",  # a symlink out of the output folder
    "/output/inside",  # a folder: never listed
    "/static/__init__.py",
    "/static/../serve/http.py",
    "/faces/demo/../../data/demo/cards.yaml",
    "/faces/nope/" + "0" * 64 + ".png",
    "/data/demo/cards.yaml",
    "//etc/passwd",
    "/output/%ff%fe.pdf",  # not UTF-8
    "/output/demo.pdf%00.png",
])
def test_nothing_outside_the_preview_and_output_files_is_served(served, path):
    wait_ready(served)
    secret = served.root.parent / "secret.txt"
    secret.write_text("secret")
    (served.root / "output/inside").mkdir(exist_ok=True)
    (served.root / "output/inside/file.txt").write_text("inside")
    link = served.root / "output/outside.txt"
    if not link.exists():
        os.symlink(secret, link)
    status, body = request(served, path)
    assert status == 404, (path, body)
    assert b"secret" not in body and b"Quick Draw" not in body
    assert request(served, "/output/inside/file.txt") == (200, b"inside")


def test_other_methods_and_other_hosts_are_refused(served):
    assert request(served, "/", method="POST")[0] == 405
    assert request(served, "/", method="DELETE")[0] == 405
    assert request(served, "/", host="attacker.example")[0] == 403  # DNS rebinding
    assert request(served, "/", host="localhost:1")[0] == 200


def test_no_request_above_made_the_server_print_a_traceback(served):
    wait_ready(served)
    said = "".join(served.lines)
    assert "Traceback" not in said and "request failed" not in said, said


def processes_naming(text: str) -> list[str]:
    """Command lines of the running processes that mention ``text``."""
    listing = subprocess.run(["ps", "-eo", "args="], capture_output=True, text=True, check=True).stdout
    return [command for command in listing.splitlines() if text in command]


@pytest.mark.parametrize("moment", MOMENTS)
def test_sigterm_stops_it_with_no_process_and_no_half_written_file(to_stop, moment):
    server = to_stop[moment]
    root = server.root
    generation = wait_ready(server)["generation"]
    cards = root / "data/demo/cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Quick Draw", "Slow Draw"), encoding="utf-8")
    if moment == "laid out":  # the cards are laid out again: the PDF build starts now
        wait_until(lambda: json.loads(server.get("api/state"))["generation"] > generation, "the change was not seen")
    assert server.stop() == 0
    assert server.lines[-1] == "stopped\n"
    address = urlsplit(server.url)
    with pytest.raises(OSError):
        socket.create_connection((address.hostname, address.port), timeout=2).close()
    assert processes_naming(str(root)) == []  # the server, and any PDF build it started
    leftovers = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    assert (root / "output/demo.pdf").read_bytes()[:5] == b"%PDF-"


def test_usage_mistakes_are_reported(tmp_path, cli):
    root = make_project(tmp_path, "preview")
    unknown = cli(root, "serve", "nope")
    assert unknown.exit_code == 2 and 'unknown set "nope"' in unknown.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = cli(root, "serve", "--port", str(port))
    assert busy.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in busy.output
    negative = cli(root, "serve", "--pdf-delay", "-1")
    assert negative.exit_code == 2
    assert "Invalid value for '--pdf-delay': -1.0 is not in the range x>=0." in negative.output
    with socket.socket() as taken:  # a port in use: were the delay let through, no server would start
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        endless_runs = {endless: cli(root, "serve", "--port", str(port), "--pdf-delay", endless)
                        for endless in ("inf", "nan", "1e308")}
    for endless, refused in endless_runs.items():  # the PDF thread died with a traceback, or never built
        assert refused.exit_code == 2
        assert f'Invalid value for \'--pdf-delay\': "{endless}" is not a number of seconds from 0 to 86400' \
            in refused.output
