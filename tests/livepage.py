"""Real browser tests: Debian's chromium driven by Playwright, and `cardgen serve` run as the
user runs it (its own process, its own port), on a copy of tests/fixtures/preview.

conftest.py shares ``chromium`` (one browser a session) and ``page`` (its one tab, a new document
a test); a test module imports ``served`` itself.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from projects import make_project

# what Chromium needs to run headless in a container, and nothing that reaches the internet
ARGUMENTS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--disable-sync"]
ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/")
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # the server is here, whatever *_proxy says


def wait_until(condition, failure: str, timeout: float = 120):
    """Poll ``condition`` until it holds: generous, as the machine may be busy; only a failure waits it out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.05)
    raise AssertionError(failure)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def chromium():
    """Chromium, started once a session (a worker), and the one browser context of its tests'
    pages (``page``)."""
    executable = chromium_path()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=ARGUMENTS)
        yield browser.new_context(viewport={"width": 1300, "height": 900})
        browser.close()


class Console:
    """What the page said on its console and its uncaught errors."""

    def __init__(self, page):
        self.messages: list[str] = []
        self.page = page
        page.on("console", self._said)
        page.on("pageerror", self._failed)

    def _said(self, message) -> None:
        if message.type in ("error", "warning"):
            self.messages.append(f"{message.type}: {message.text}")

    def _failed(self, error) -> None:
        self.messages.append(f"pageerror: {error}")

    def stop(self) -> None:
        self.page.remove_listener("console", self._said)
        self.page.remove_listener("pageerror", self._failed)


@pytest.fixture
def page(chromium):
    """The session's tab, on about:blank: the test opens its own document in it, with nothing of
    the test before (no storage, no cookie, an empty cache, as in a new browser context) but
    the tab's renderer process, which loads the next page for about a quarter of the CPU a new
    tab's first page costs (a new process: about 0.6 CPU s)."""
    from playwright.sync_api import Error

    tab = chromium.pages[0] if chromium.pages else chromium.new_page()
    tab.set_default_timeout(60_000)  # waits end when the page is ready: long only on a busy machine
    tab.console = Console(tab)
    yield tab
    tab.console.stop()
    try:
        tab.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")
        tab.goto("about:blank")  # the test's document ends: its scripts, its event stream
        devtools = chromium.new_cdp_session(tab)
        devtools.send("Network.clearBrowserCache")
        devtools.send("Network.clearBrowserCookies")
        devtools.detach()
        tab.mouse.move(0, 0)  # no card of the next test's page opens under the pointer (:hover)
    except Error:
        tab.close()  # a tab that cannot leave the page: the next test opens a new one


class Server:
    """``cardgen serve`` in a process of its own; ``stop`` sends SIGTERM, as a service manager does.

    Starting returns at once: the server's Python starts while the test sets up the rest;
    ``url`` waits for the address the server prints first. It builds a set's PDF as soon as
    the preview is refreshed (``--pdf-delay 0``): the half second a user's server leaves for
    the page's images would only be waited out, a test at a time."""

    def __init__(self, root: Path, *sets: str):
        self.root = root
        self.process = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(root), "serve", *sets,
                                         "--port", "0", "--pdf-delay", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._said_first = threading.Event()
        self._url: str | None = None
        self._terminated = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)
            self._said_first.set()
        self._said_first.set()  # it ended without a word: ``url`` says so

    @property
    def url(self) -> str:
        if self._url is None:
            self._said_first.wait(timeout=60)
            match = ADDRESS.search(self.lines[0]) if self.lines else None
            if match is None:
                self.process.kill()
                self.reader.join(timeout=5)
                raise AssertionError(f"no address in {''.join(self.lines)!r}")
            self._url = match.group(0)
        return self._url

    def get(self, path: str) -> bytes:
        with DIRECT.open(self.url + path.lstrip("/"), timeout=60) as response:
            return response.read()

    def wait_for_pdf(self, timeout: float = 120) -> None:
        """Until every set's PDF build has finished (ok or not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all('"pdf": {}' not in part for part in [self.get("api/state").decode()]):
                return
            time.sleep(0.03)
        raise AssertionError("the PDF was not built")

    def terminate(self) -> None:
        """Send SIGTERM once (a second one, after the server has put back the default handler
        while stopping, would kill it half-way); ``stop`` waits for the end."""
        if not self._terminated and self.process.poll() is None:
            self._terminated = True
            self.process.send_signal(signal.SIGTERM)

    def stop(self) -> int:
        self.terminate()
        code = self.process.wait(timeout=60)
        self.reader.join(timeout=5)
        return code


class Servers:
    """The module's servers for ``served``: those no test has had yet, and all, to stop at the end."""

    def __init__(self, tmp_path_factory, count: int):
        self.tmp_path_factory = tmp_path_factory
        self.unused = [self.start() for _ in range(count)]
        self.started = list(self.unused)

    def start(self) -> Server:
        return Server(make_project(self.tmp_path_factory.mktemp("served"), "preview"))

    def take(self) -> Server:
        if self.unused:
            return self.unused.pop(0)
        server = self.start()
        self.started.append(server)
        return server


@pytest.fixture(scope="module", autouse=True)
def unused_servers(request, tmp_path_factory):
    """One server for each test of the module that takes ``served``, each on a project of its
    own, all started with the module: their start and first PDF build overlap the tests before
    them instead of each test waiting for its own. A test's server is stopped after it (SIGTERM)
    and waited for here, at the module's end, while the next tests run."""
    wanted = [item for item in request.session.items
              if item.module is request.module and "served" in getattr(item, "fixturenames", ())]
    servers = Servers(tmp_path_factory, len(wanted))
    yield servers
    for server in servers.started:
        server.stop()


@pytest.fixture
def served(unused_servers):
    """A served copy of tests/fixtures/preview (set "demo") that no other test has seen or changed,
    its first PDF built: nothing is under way when the test starts, and a test that takes
    ``page`` after ``served`` opens its page only then (a page opened on a server still
    starting draws every batch of faces and the PDF's end as they come)."""
    server = unused_servers.take()
    server.wait_for_pdf()
    yield server
    server.terminate()
