"""The preview's HTTP server: the page, its state as JSON, server-sent events when it changes,
face images, and the project's output files. Nothing else: no folder is listed, and no URL
reaches outside the preview and output folders, however it is spelled.

    /                           the page (static/index.html)
    /static/<file>              its script and style, shipped in the package
    /api/state                  every set's state (engine.py)
    /api/events                 server-sent events: "state" (the whole state), then "delta" (what
                                changed) each time it changes
    /faces/<set>/<hash>.png     a face as shown in the grid
    /print/<set>/<hash>.png     a face at print resolution (rasterised when first asked for)
    /output/<path>              a file of the output folder (PDFs, manifests, exports)
"""
from __future__ import annotations

import ipaddress
import mimetypes
import re
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..page import PAGE, SCRIPT, STYLE
from .engine import Engine

STATIC = PAGE
ASSETS = (SCRIPT, STYLE)  # the only files of the package served
FACE = re.compile(r"/(faces|print)/([^/]+)/([0-9a-f]{16,128})\.png")
MOST_BODY = 1 << 20  # bytes of a request's body read and dropped; past it the connection ends
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream
IDLE = 120.0  # seconds a connection waits on its client (a request half sent, an answer not read) before it ends
HOST = re.compile(r"(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::[0-9]{1,5})?")  # a name, or [an IPv6 address]; a port
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".html": "text/html; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".pdf": "application/pdf", ".png": "image/png", ".txt": "text/plain; charset=utf-8"}


def safe_file(base: Path, url_path: str) -> Path | None:
    """The file ``url_path`` names inside ``base``, or None: no empty, dot or hidden segment
    (``..``, ``%2e%2e``, ``.cache``), no backslash or NUL, nothing encoded twice, and the real
    path (symlinks followed) inside ``base``. Folders are not files: nothing is listed."""
    try:
        decoded = unquote(url_path, errors="strict") if "%" in url_path else url_path
    except UnicodeDecodeError:
        return None
    if "%" in decoded or "\\" in decoded or "\0" in decoded:
        return None
    parts = decoded.split("/")
    if not parts or any(not part or part.startswith(".") for part in parts):
        return None
    try:
        real_base = base.resolve(strict=True)
        candidate = base.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    if not candidate.is_relative_to(real_base) or not candidate.is_file():
        return None
    return candidate


def loopback_host(host: str) -> bool:
    """Whether a Host header names this machine: ``localhost`` or a loopback address, then at
    most ``:port`` (``[::1]:8642``, ``localhost``); no user, path or second name."""
    match = HOST.fullmatch(host.strip())
    if match is None:
        return False
    bracketed, name = match.groups()
    if name is not None and name.lower() == "localhost":
        return True
    try:
        return (ipaddress.IPv6Address(bracketed) if bracketed else ipaddress.IPv4Address(name)).is_loopback
    except ValueError:
        return False


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True  # a browser's open event stream must not keep the process alive
    request_queue_size = 128  # connections waiting to be accepted: past socketserver's 5, a burst waits seconds

    def __init__(self, address, engine: Engine, stop: threading.Event):
        self.engine, self.stop = engine, stop
        super().__init__(address, Handler)

    def handle_error(self, request, client_address) -> None:
        """One line, not a traceback: a browser that goes away mid-answer is not news."""
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            print(f"cardgen serve: a request failed: {error!r}", file=sys.stderr)


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # a request line too broken to name its version is still answered with a status line
    server_version = "cardgen"
    sys_version = ""

    def setup(self) -> None:
        """A client that stops sending or reading ends its connection after IDLE seconds: its
        thread is not held for good (a page's event stream writes every KEEPALIVE seconds)."""
        self.timeout = IDLE
        super().setup()

    def parse_request(self) -> bool:
        return super().parse_request() and self._skip_body()

    def _skip_body(self) -> bool:
        """No request here has a body: one sent anyway is read and dropped, so that the next
        request on the connection starts where it does (read as a request, a body would answer a
        request nobody sent). A body whose end is not known, or too long to read, ends the
        connection after the answer."""
        lengths = self.headers.get_all("Content-Length") or []
        if self.headers.get("Transfer-Encoding") is not None or len(set(lengths)) > 1:
            self.close_connection = True
            return True
        if not lengths:
            return True
        if not re.fullmatch(r"[0-9]{1,18}", lengths[0].strip()):
            self.send_error(HTTPStatus.BAD_REQUEST)
            return False
        left = int(lengths[0])
        if left > MOST_BODY:
            self.close_connection = True
            return True
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                self.close_connection = True
                break
            left -= len(chunk)
        return True

    def log_message(self, format, *args) -> None:  # quiet: the terminal is for the project's problems
        pass

    def do_HEAD(self) -> None:
        self.do_GET(body=False)

    def do_GET(self, body: bool = True) -> None:
        if not self._host_allowed() or not self._asked_by_the_page():
            return self._error(HTTPStatus.FORBIDDEN)
        path = urlsplit(self.path).path
        engine = self.server.engine
        if path in ("/", "/index.html"):
            return self._file(STATIC / "index.html", body, "no-store")
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            return self._file(STATIC / name, body, "no-cache") if name in ASSETS else self._error(HTTPStatus.NOT_FOUND)
        if path == "/api/state":
            return self._bytes(engine.state_json()[1].encode("utf-8"), TYPES[".json"], body, "no-store")
        if path == "/api/events":
            return self._events() if body else self._error(HTTPStatus.METHOD_NOT_ALLOWED)
        match = FACE.fullmatch(path)
        if match:
            kind, name, face_hash = match.groups()
            found = (engine.grid_image if kind == "faces" else engine.print_image)(unquote(name), face_hash)
            return (self._file(found, body, "public, max-age=31536000, immutable") if found
                    else self._error(HTTPStatus.NOT_FOUND))
        if path.startswith("/output/"):
            found = safe_file(engine.out, path[len("/output/"):]) if engine.out.is_dir() else None
            return self._file(found, body, "no-cache") if found else self._error(HTTPStatus.NOT_FOUND)
        return self._error(HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_POST

    def _host_allowed(self) -> bool:
        """On the loopback address, a page of another site reaching here through a DNS name of
        its own (DNS rebinding) is refused: the request names one host, ``localhost`` or a
        loopback address, with at most a port, as a browser writes it. Told to listen on the
        network, any name goes."""
        bound = self.server.server_address[0]
        if not ipaddress.ip_address(bound).is_loopback:
            return True
        hosts = self.headers.get_all("Host") or []
        return len(hosts) == 1 and loopback_host(hosts[0])

    def _asked_by_the_page(self) -> bool:
        """Whether the request comes from the preview's own page or the user, not from a page of
        another site (an image, a script, a form, an event stream it embeds: the browser says so
        in Sec-Fetch-Site, or names the page's origin): no other site can make the server draw
        faces or hold connections. Following a link to the preview from another site is the
        user's doing and opens it."""
        site = self.headers.get("Sec-Fetch-Site", "").lower()
        opened = (self.headers.get("Sec-Fetch-Mode", "").lower() == "navigate"
                  and self.headers.get("Sec-Fetch-Dest", "").lower() == "document")
        if site in ("cross-site", "same-site") and not opened:
            return False
        origin = self.headers.get("Origin")
        return origin is None or origin.lower() == f"http://{self.headers.get('Host', '')}".lower()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The errors http.server answers itself (a malformed request line, an unknown method,
        a header too long) as this server's own: a status line, plain text, the same headers,
        and the connection closed, as the request could not be read to its end."""
        self.close_connection = True
        self._error(HTTPStatus(code))

    def _error(self, status: HTTPStatus) -> None:
        data = f"{status.value} {status.phrase}\n".encode()
        self.send_response(status)
        self._common("text/plain; charset=utf-8", len(data), "no-store")
        self.end_headers()
        if self.command != "HEAD":  # a body after a HEAD's answer would be read as the next answer
            self.wfile.write(data)

    def _common(self, content_type: str, length: int, cache: str) -> None:
        if self.close_connection:  # the request could not be read to its end (see _skip_body, send_error)
            self.send_header("Connection", "close")
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'")

    def _bytes(self, data: bytes, content_type: str, body: bool, cache: str) -> None:
        self.send_response(HTTPStatus.OK)
        self._common(content_type, len(data), cache)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _file(self, path: Path | None, body: bool, cache: str) -> None:
        if path is None:
            return self._error(HTTPStatus.NOT_FOUND)
        try:
            data = path.read_bytes()
        except OSError:
            return self._error(HTTPStatus.NOT_FOUND)
        content_type = TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self._bytes(data, content_type, body, cache)

    def _events(self) -> None:
        engine, stop = self.server.engine, self.server.stop
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        generation = -1
        try:
            while not stop.is_set():
                if generation != -1 and not engine.wait(generation, KEEPALIVE):
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    continue
                generation, event, data = engine.next_event(generation)
                self.wfile.write(f"event: {event}\ndata: ".encode() + data.encode("utf-8") + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
