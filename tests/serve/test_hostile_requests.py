"""`cardgen serve` against requests no browser of the user sends, through its socket: each answer
framed as HTTP so that the next request on the connection is read as sent, Host headers naming
anything but this machine and requests of other sites' pages refused, a burst of connections
queued, and a client that stops sending let go."""
from __future__ import annotations

import json
import socket
import threading
from urllib.parse import urlsplit

import pytest

from cardgen.page import PAGE
from cardgen.serve.engine import Engine
from cardgen.serve.http import PreviewServer

from livepage import Server
from projects import make_project


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Server(make_project(tmp_path_factory.mktemp("hostile"), "preview", fonts=False))
    server.wait_for_pdf()
    yield server
    server.stop()


def exchange(server, data: bytes) -> bytes:
    """Send ``data`` on one connection, then read every answer until the server closes it."""
    address = urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port), timeout=60) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    return received


def answers(data: bytes, heads: int = 0) -> list[tuple[str, dict[str, str], bytes]]:
    """The status lines, headers and bodies of the answers in ``data``, one after the other; the
    first ``heads`` answer HEAD requests (no body, whatever their Content-Length)."""
    found = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        status, *lines = head.decode("latin-1").split("\r\n")
        headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines)}
        length = 0 if len(found) < heads else int(headers.get("content-length", 0))
        found.append((status, headers, rest[:length]))
        data = rest[length:]
    return found


def request(server, method: str, path: str, *headers: str, body: bytes = b"", close: bool = False) -> bytes:
    host = f"Host: {urlsplit(server.url).netloc}"
    lines = [f"{method} {path} HTTP/1.1", host, *headers, *(["Connection: close"] if close else [])]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def test_an_error_to_a_head_request_has_no_body_to_be_read_as_the_next_answer(served):
    received = exchange(served, request(served, "HEAD", "/nope") + request(served, "GET", "/static/cardgen.css", close=True))
    (first, headers, _), (second, second_headers, css) = answers(received, heads=1)
    assert first == "HTTP/1.1 404 Not Found" and headers["content-length"] == "14"
    assert second == "HTTP/1.1 200 OK" and second_headers["content-type"] == "text/css; charset=utf-8"
    assert css == (PAGE / "cardgen.css").read_bytes()


@pytest.mark.parametrize("line, status", [
    ("GET / HTTP/2.0", "505 HTTP Version Not Supported"),
    ("GET / FOO/1.1", "400 Bad Request"),
    ("GET", "400 Bad Request"),
    ("BREW / HTTP/1.1", "501 Not Implemented"),
])
def test_a_request_line_it_cannot_read_gets_a_status_line_and_the_servers_own_headers(served, line, status):
    (answer, headers, body), = answers(exchange(served, f"{line}\r\n\r\n".encode()))
    assert answer == f"HTTP/1.1 {status}"
    assert body == f"{status}\n".encode()
    assert headers["content-type"] == "text/plain; charset=utf-8" and headers["x-content-type-options"] == "nosniff"
    assert headers["connection"] == "close"


def test_a_request_body_is_dropped_never_read_as_a_request(served):
    hidden = request(served, "GET", "/api/state")  # a page's form can post this as its text
    for method in ("GET", "POST"):
        sent = (request(served, method, "/", f"Content-Length: {len(hidden)}", body=hidden)
                + request(served, "GET", "/static/cardgen.css", close=True))
        statuses = [status for status, _, _ in answers(exchange(served, sent))]
        assert statuses == ["HTTP/1.1 200 OK" if method == "GET" else "HTTP/1.1 405 Method Not Allowed",
                            "HTTP/1.1 200 OK"], method
    chunked = request(served, "POST", "/", "Transfer-Encoding: chunked", body=b"5\r\nhello\r\n0\r\n\r\n")
    statuses = [status for status, _, _ in answers(exchange(served, chunked + request(served, "GET", "/api/state")))]
    assert statuses == ["HTTP/1.1 405 Method Not Allowed"]  # its end unknown: the connection ends


@pytest.mark.parametrize("hosts, status", [
    (["127.0.0.1:1@evil.example"], 403),
    (["127.0.0.1:1/evil.example"], 403),
    (["127.0.0.1:evil"], 403),
    (["127.0.0.1", "evil.example"], 403),
    (["evil.example:8642"], 403),
    (["localhost"], 200),
    (["[::1]:8642"], 200),
])
def test_a_host_header_naming_anything_but_this_machine_is_refused(served, hosts, status):
    sent = "GET /api/state HTTP/1.1\r\n" + "".join(f"Host: {host}\r\n" for host in hosts) + "Connection: close\r\n\r\n"
    (answer, _, _), = answers(exchange(served, sent.encode()))
    assert int(answer.split()[1]) == status


@pytest.mark.parametrize("headers, status", [
    (["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: image"], 403),  # <img> of another site
    (["Sec-Fetch-Site: same-site", "Sec-Fetch-Mode: cors", "Sec-Fetch-Dest: empty"], 403),  # another port's page
    (["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: iframe"], 403),
    (["Origin: http://evil.example"], 403),
    (["Origin: null"], 403),
    (["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"], 200),  # a link followed
    (["Sec-Fetch-Site: same-origin", "Sec-Fetch-Mode: cors", "Sec-Fetch-Dest: empty"], 200),  # the page itself
    (["Sec-Fetch-Site: none", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"], 200),  # an address typed
])
def test_a_request_a_page_of_another_site_makes_is_refused(served, headers, status):
    state = json.loads(served.get("api/state"))
    face = state["sets"][0]["cards"][1]["faces"][0]["hash"]
    for path in ("/api/state", f"/print/demo/{face}.png"):  # the print image is drawn when first asked for
        (answer, _, _), = answers(exchange(served, request(served, "GET", path, *headers, close=True)))
        assert int(answer.split()[1]) == status, path
    origin = f"Origin: http://{urlsplit(served.url).netloc}"
    (answer, _, _), = answers(exchange(served, request(served, "GET", "/api/state", origin, close=True)))
    assert answer == "HTTP/1.1 200 OK"


def test_a_burst_of_connections_waits_in_the_listening_queue(tmp_path):
    """A page opening many images at once, or many pages: connections the server has not taken
    yet wait in its socket's queue (socketserver's 5 dropped the rest, whose clients tried again
    1, 3, then 7 seconds later)."""
    server = PreviewServer(("127.0.0.1", 0), Engine(tmp_path, [], tmp_path / "output"), threading.Event())
    waiting = []
    try:
        for _ in range(100):  # nothing takes them: the server is not serving yet
            waiting.append(socket.create_connection(server.server_address[:2], timeout=5))
    finally:
        for connection in waiting:
            connection.close()
        server.server_close()
    assert len(waiting) == 100


def test_a_client_that_stops_sending_loses_its_connection(tmp_path, monkeypatch):
    """A request half sent (or a body announced and never sent) held its thread for as long as
    the client kept the connection open."""
    from cardgen.serve import http

    monkeypatch.setattr(http, "IDLE", 0.2, raising=False)
    server = PreviewServer(("127.0.0.1", 0), Engine(tmp_path, [], tmp_path / "output"), threading.Event())
    listener = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    listener.start()
    try:
        for half in (b"GET / HTTP/1.1\r\nHost: 127", b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9\r\n\r\nabc"):
            with socket.create_connection(server.server_address[:2], timeout=30) as connection:
                connection.sendall(half)
                assert connection.recv(100) == b""  # closed by the server, with no answer
    finally:
        server.shutdown()
        listener.join()
        server.server_close()
