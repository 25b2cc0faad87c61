"""Benchmark: from saving one card of a 1,000-card set to the new card showing in the page of
``cardgen serve``, measured in a real browser (Debian's chromium through Playwright).

    python bench/bench_serve.py                  # 1,000 cards, 5 saves
    python bench/bench_serve.py --cards 1000 --runs 9

Goal (issue 16): the changed card appears within 0.5 s of the save. A round starts when the
file is written and ends when the page shows the card marked changed with its new image loaded
(the time is taken in the page). Each round waits for the server to finish the PDF of the save
before (a designer saves, then looks), and changes a different card. Prints each round and the
median.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import make_project  # noqa: E402

ARGUMENTS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--disable-sync"]
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
SHOWN = """([key, old]) => {
  const card = document.querySelector(`article.card[data-key="${key}"]`);
  const image = card && card.querySelector("img");
  return card && card.classList.contains("is-changed") && image.getAttribute("src") !== old
    && image.complete && image.naturalWidth > 0 ? Date.now() : false;
}"""


def state(url: str) -> dict:
    with DIRECT.open(url + "api/state", timeout=30) as response:
        return json.loads(response.read())


def wait_idle(url: str, since: float, timeout: float = 600) -> None:
    """Until the set is ready and its PDF built after ``since`` (a time.time())."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        (only,) = state(url)["sets"]
        if only["ready"] and only["pdf"].get("finished", 0) > since:
            return
        time.sleep(0.1)
    raise SystemExit("the server did not get ready")


def change(folder: Path, row: int, round_number: int) -> None:
    path = folder / "data/bench/cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    name = lines[row].split(",")[0]
    lines[row] = f'{name},"Changed text, round {round_number}: **bold** and :star:."\n'
    path.write_text("".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="cardgen-bench-serve-") as temporary:
        folder = make_project(Path(temporary) / "project", args.cards)
        started = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(folder), "serve", "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            url = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline()).group(0)
            said: list[str] = []  # the server's lines: each refresh with its time
            threading.Thread(target=lambda: said.extend(server.stdout), daemon=True).start()
            wait_idle(url, 0)
            print(f"{args.cards} cards: first preview and PDF in {time.perf_counter() - started:.1f} s")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=ARGUMENTS)
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                page.goto(url)
                page.wait_for_selector("article.card")
                seconds = []
                for round_number in range(1, args.runs + 1):
                    row = 1 + (args.cards * round_number) // (args.runs + 1)  # a different card each round
                    key = f"Card {row}"
                    page.wait_for_function("key => document.querySelector(`article.card[data-key=\"${key}\"] img`)",
                                           arg=key)
                    page.evaluate("key => document.querySelector(`article.card[data-key=\"${key}\"]`).scrollIntoView()", key)  # on screen: images load lazily
                    old = page.evaluate("key => document.querySelector(`article.card[data-key=\"${key}\"] img`).getAttribute('src')", key)
                    saved = time.time() * 1000
                    change(folder, row, round_number)
                    shown = page.wait_for_function(SHOWN, arg=[key, old], polling="raf", timeout=30_000).json_value()
                    seconds.append((shown - saved) / 1000)
                    update = page.evaluate("window.cardgenUpdate")
                    print(f"round {round_number}: {key} shown {seconds[-1]:.3f} s after the save (state received "
                          f"after {(update['received'] - saved) / 1000:.3f} s, parsed in {update['parseMs']:.0f} ms, "
                          f"drawn in {update['renderMs']:.0f} ms)")
                    wait_idle(url, saved / 1000)
                    print("   server: " + " | ".join(line.strip() for line in said[-2:]))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=60)
    print(f"median {statistics.median(seconds):.3f} s, worst {max(seconds):.3f} s (goal: 0.5 s)")


if __name__ == "__main__":
    main()
