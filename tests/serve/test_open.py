"""`cardgen serve --open`: the page's address goes to the web browser, and where no browser can
be started (a server without a display) the command says so instead of nothing."""
from __future__ import annotations

import os
import subprocess
import sys

from livepage import ADDRESS, wait_until
from projects import make_project


def serve_with_browser(tmp_path, browser: str):
    """`cardgen serve --open` with $BROWSER set as given and no display; its stdout and the
    process, once its address is printed."""
    root = make_project(tmp_path, "preview", fonts=False)
    said = tmp_path / "stdout"
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    with said.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(root), "serve", "--port", "0",
                                    "--open"], stdout=out, stderr=subprocess.STDOUT, env={**env, "BROWSER": browser})
    wait_until(lambda: ADDRESS.search(said.read_text()), "no address printed")
    return process, said


def stopped(process) -> int:
    process.terminate()
    return process.wait(timeout=60)


def test_the_address_goes_to_the_browser(tmp_path):
    opened = tmp_path / "opened"
    script = tmp_path / "browser.py"  # a browser that notes the address it is given
    script.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    process, said = serve_with_browser(tmp_path, f"{sys.executable} {script} %s")
    try:
        wait_until(lambda: opened.exists() and opened.read_text().strip(), "the browser was not started")
        assert opened.read_text().strip() == ADDRESS.search(said.read_text()).group(0)
    finally:
        assert stopped(process) == 0
    assert "--open" not in said.read_text()


def test_no_browser_is_said(tmp_path):
    process, said = serve_with_browser(tmp_path, "false")  # the only browser there is fails
    try:
        wait_until(lambda: "--open:" in said.read_text(), "nothing said when no browser could be started")
        url = ADDRESS.search(said.read_text()).group(0)
        assert f"--open: no web browser could be started here; open {url} in one" in said.read_text().splitlines()
    finally:
        assert stopped(process) == 0
