"""`cardgen serve` in headless Chromium: the page, search, filters, the detail view, live
updates on save, a broken file, text that does not fit, and a console with no errors."""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image

from livepage import Server, served, unused_servers  # noqa: F401 (fixtures; chromium and page come from conftest.py)
from projects import make_project

QUICK = '[data-key="Quick Draw"]'
SHOTS = Path(os.environ["CARDGEN_SHOTS"]) if os.environ.get("CARDGEN_SHOTS") else None  # screenshots, to look at
# the build names the card's value first, the template line second (issue 13)
BUILD_FAILURE = ('data/demo/cards.yaml:4: card "Quick Draw": field "text": the text does not fit at the minimum size '
                 '5 pt in text box "body" (53.5 x 52 mm) (drawn by templates/demo/action.xml.j2:5)')


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    """One server for the module's tests that change no file (each has a page of its own); the
    tests that save a change have a server each (``served``)."""
    server = Server(make_project(tmp_path_factory.mktemp("page"), "preview"))
    yield server
    server.stop()


@pytest.fixture
def shared(shared_server):
    """The shared server with its PDF built, as ``served`` is: taken before ``page``, the page
    opens once nothing is under way."""
    shared_server.wait_for_pdf()
    return shared_server


def open_page(page, served):
    page.goto(served.url)
    page.wait_for_selector("article.card")
    page.wait_for_function("() => document.body.dataset.generation > 0")
    return page


def visible_keys(page) -> list[str]:
    return page.eval_on_selector_all("#groups article.card", "cards => cards.map(c => c.dataset.key)")


def search(page, text: str) -> list[str]:
    """Type into the search box; the cards shown once the page has filtered."""
    page.fill("#search", text)
    page.wait_for_function("query => document.body.dataset.query === query", arg=text)
    return visible_keys(page)


def image_size(served, src: str) -> tuple[int, int]:
    return Image.open(io.BytesIO(served.get(src))).size


def replace_in(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_every_face_by_type_named_with_counts(shared, page):
    open_page(page, shared)
    assert shared.lines[0].startswith("cardgen serve: http://127.0.0.1:")
    groups = page.eval_on_selector_all(".group", "gs => gs.map(g => [g.dataset.type, g.querySelector('h2 .count').textContent])")
    assert groups == [["action", "4 cards · 5 copies · 63.5 × 88.9 mm"], ["token", "1 card · 3 copies · 20 × 20 mm"]]
    assert visible_keys(page) == ["Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded", "Marker"]
    quick = page.locator(QUICK)
    assert quick.locator("figcaption").all_inner_texts() == ["FRONT", "BACK"]  # named on screen
    assert quick.locator(".name").inner_text() == "Quick Draw"
    assert page.locator('[data-key="Marker"] figcaption').all_inner_texts() == ["FRONT"]  # tokens have no back
    assert page.locator("#type-filter option").all_inner_texts() == ["All types (5)", "action (4)", "token (1)"]
    # every image loads; a poker face at 120 dpi is (63.5 + 2 x 3) mm = 329 px wide
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    src = quick.locator("img").first.get_attribute("src")
    assert image_size(shared, src) == (329, 449)
    assert page.console.messages == []


def test_search_by_name_and_text_and_filter_by_type_and_problem(shared, page):
    open_page(page, shared)
    assert search(page, "discard") == ["Quick Draw"]  # in Quick Draw's text only
    assert page.inner_text("#status") == "1 of 5 cards shown"
    assert search(page, "long w") == ["Long Winded"]  # a name
    assert len(search(page, "")) == 5
    page.select_option("#type-filter", "token")
    assert visible_keys(page) == ["Marker"]
    page.select_option("#type-filter", "")
    page.select_option("#problem-filter", "warnings")  # the fixture's rule warns on Quick Draw's 2 copies
    assert visible_keys(page) == ["Quick Draw"]
    page.select_option("#problem-filter", "errors")
    assert visible_keys(page) == []
    assert page.console.messages == []


def test_problems_and_deck_lists_with_their_rule_results(shared, page):
    open_page(page, shared)
    problems = page.locator("#problems li.problem")
    assert problems.count() == 1
    assert problems.locator(".where").inner_text() == "data/demo/cards.yaml:1"
    assert problems.locator(".msg").inner_text() == (
        'card "Quick Draw": rule "one of each action": 2 copies, expected at most 1')
    decks = page.locator("#decks li.deck")
    assert decks.locator(".deck-name").all_inner_texts() == ["greedy", "starter"]
    assert decks.nth(0).locator(".badge").inner_text() == "breaks a rule"
    assert decks.nth(0).locator(".where").all_inner_texts() == ["data/demo/decks/greedy.yaml", "data/demo/decks/greedy.yaml:2"]
    assert decks.nth(0).locator(".msg").inner_text() == (
        'card "Quick Draw": rule "at most 2 copies of an action": 3 copies, expected at most 2')
    assert decks.nth(1).locator(".badge").inner_text() == "passes every rule"
    assert page.console.messages == []


def test_a_card_opens_at_print_resolution_with_guides_and_fields(shared, page):
    open_page(page, shared)  # the PDF is built (``shared``): its end would draw an open detail view again
    page.click(QUICK)
    dialog = page.locator("#detail")
    dialog.wait_for(state="visible")
    assert page.inner_text("#detail-name") == "Quick Draw"
    assert dialog.locator("figcaption").all_inner_texts() == ["FRONT", "BACK"]
    page.wait_for_function("() => [...document.querySelectorAll('#detail img')].every(i => i.complete && i.naturalWidth > 0)")
    sizes = page.eval_on_selector_all("#detail img", "imgs => imgs.map(i => [i.naturalWidth, i.naturalHeight])")
    assert sizes == [[821, 1121], [821, 1121]]  # 300 dpi: (63.5 + 6) mm and (88.9 + 6) mm
    rows = page.eval_on_selector_all("#detail-fields tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert ["text", "Draw **two** cards, then discard *one*. :spade: beats :heart:.", "data/demo/cards.yaml:4"] in rows
    assert ["count", "2", "data/demo/cards.yaml:3"] in rows
    assert not dialog.locator(".guides").first.is_visible()
    page.check("#detail-guides")
    trim = dialog.locator(".g-trim").first
    assert trim.is_visible()
    # the trim line lies the bleed (3 mm of 69.5) inside the image's edge
    shot, box = dialog.locator(".shot").first.bounding_box(), trim.bounding_box()
    assert abs((box["x"] - shot["x"]) - shot["width"] * 3 / 69.5) < 1.0
    page.keyboard.press("ArrowRight")  # the next card on screen
    assert page.inner_text("#detail-name") == "Escape Artist"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#detail-name") == "Quick Draw"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.locator("#groups .guides").first.is_visible()  # the toggle holds for the grid too
    assert page.console.messages == []


def test_a_saved_change_shows_without_a_reload_and_is_marked(served, page):
    open_page(page, served)
    page.evaluate("window.notReloaded = true")
    before = page.locator(QUICK).locator("img").first.get_attribute("src")
    replace_in(served.root / "data/demo/cards.yaml", "Draw **two** cards", "Draw **three** cards")
    page.wait_for_selector(f"{QUICK}.is-changed")
    assert page.evaluate("window.notReloaded") is True
    assert page.locator(QUICK).locator(".badge.changed").inner_text() == "changed"
    assert page.locator("article.is-changed").count() == 1
    after = page.locator(QUICK).locator("img").first.get_attribute("src")
    assert after != before
    assert page.locator(QUICK).locator("img").nth(1).get_attribute("src") in page.content()  # the back is the same
    assert search(page, "three** cards") == ["Quick Draw"]
    search(page, "")
    page.select_option("#problem-filter", "changed")
    assert visible_keys(page) == ["Quick Draw"]
    assert page.console.messages == []


def test_a_broken_file_keeps_the_last_good_cards_under_the_error(served, page):
    open_page(page, served)
    sources = page.eval_on_selector_all("#groups img", "imgs => imgs.map(i => i.getAttribute('src'))")
    cards = served.root / "data/demo/cards.yaml"
    good = cards.read_text(encoding="utf-8")
    cards.write_text(good.replace("  count: 2\n", "  count: [2\n"), encoding="utf-8")
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    assert banner.locator("h2").inner_text() == "The latest change could not be read: 1 problem"
    assert re.fullmatch(r"data/demo/cards\.yaml:\d+", banner.locator(".where").inner_text())
    assert page.eval_on_selector_all("#groups img", "imgs => imgs.map(i => i.getAttribute('src'))") == sources
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    cards.write_text(good, encoding="utf-8")
    banner.wait_for(state="hidden")
    assert page.console.messages == []


def test_text_that_does_not_fit_is_drawn_clipped_and_marked_while_the_build_fails(served, page):
    open_page(page, served)
    long_text = " ".join(["Overflowing words fill the box."] * 60)
    replace_in(served.root / "data/demo/cards.yaml", "Draw **two** cards, then discard *one*. :spade: beats :heart:.",
               long_text)
    page.wait_for_selector(f"{QUICK}.has-error")
    problem = page.locator("#problems li.problem.error")
    assert problem.locator(".where").inner_text() == "data/demo/cards.yaml:4"
    message = problem.locator(".msg").inner_text()
    # the build's message, and in the preview how much is over
    build_message = BUILD_FAILURE.split(": ", 1)[1]  # the build's own message, and the preview's part
    assert message.startswith(build_message + "; ")
    below, lines = map(int, re.fullmatch(r"; (\d+) of (\d+) lines fall below the box \(the preview clips them\)",
                                         message[len(build_message):]).groups())
    assert 0 < below < lines
    # the preview draws it anyway: text inside the box, the red mark below the box
    src = page.locator(QUICK).locator("img").first.get_attribute("src")
    image = Image.open(io.BytesIO(served.get(src))).convert("RGB")
    mark_x = round((3 + 5 + 53.5 / 2) / 25.4 * 120)  # the tab under the box's middle
    mark_y = round((3 + 18 + 52 + 0.8) / 25.4 * 120)
    red, green, blue = image.getpixel((mark_x, mark_y))
    assert red > 180 and green < 80 and blue < 80
    below = round((3 + 18 + 52 + 4) / 25.4 * 120)  # under the box, clipped text prints nothing dark
    assert all(sum(image.getpixel((x, below))) > 600 for x in range(round(10 / 25.4 * 120), round(28 / 25.4 * 120)))
    # the build still fails on it, with its own message: the page offers the last good PDF
    page.wait_for_selector("#links a.stale")
    assert page.inner_text("#links a.stale") == "Last good PDF"
    pdf_problems = json.loads(served.get("api/state"))["sets"][0]["pdf"]["problems"]
    assert [p["text"] for p in pdf_problems] == [BUILD_FAILURE]
    assert page.console.messages == []


def test_the_pdf_and_the_files_are_a_click_away(shared, page):
    open_page(page, shared)
    link = page.locator("#links a.primary")
    link.wait_for()
    assert link.inner_text() == "Open PDF"
    assert link.get_attribute("href") == "output/demo.pdf"
    assert shared.get("output/demo.pdf")[:5] == b"%PDF-"
    page.click("#links .files summary")
    assert page.locator("#links .files a").all_inner_texts() == ["demo.json"]
    assert page.console.messages == []


def test_a_set_folder_added_shows_and_one_removed_goes_without_a_reload(served, page, tmp_path):
    """Served without SET: the sets were read once, when the server started, so a set folder
    added to data/ never showed (and one removed stayed, failing at each save)."""
    open_page(page, served)
    page.evaluate("window.notReloaded = true")
    assert page.locator("#sets button").count() == 0  # one set: no set buttons
    extra = shutil.copytree(served.root / "data/demo", tmp_path / "extra")
    replace_in(extra / "set.yaml", "name: demo\ntitle: Demo Deck", "name: extra\ntitle: Extra Deck")
    extra.rename(served.root / "data/extra")  # one event: the set comes whole
    page.wait_for_selector("#sets button:text-is('extra')")
    assert page.locator("#sets button").all_inner_texts() == ["demo", "extra"]
    assert page.inner_text("#title") == "Demo Deck"  # the set shown stays
    page.click("#sets button:text-is('extra')")
    page.wait_for_function("() => document.querySelector('#title').textContent === 'Extra Deck'")
    page.wait_for_selector("#groups article.card")
    assert visible_keys(page) == ["Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded", "Marker"]
    assert page.locator("#groups img").first.get_attribute("src").startswith("faces/extra/")
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    page.wait_for_selector("#links a.primary")  # its PDF, built as the other's
    assert page.locator("#links a.primary").get_attribute("href") == "output/extra.pdf"
    if SHOTS:
        page.screenshot(path=str(SHOTS / "set-added.png"), full_page=True)
    (served.root / "data/extra").rename(tmp_path / "extra-gone")
    page.wait_for_function("() => document.querySelector('#title').textContent === 'Demo Deck'")
    assert page.locator("#sets button").count() == 0
    assert page.evaluate("window.notReloaded") is True
    assert visible_keys(page) == ["Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded", "Marker"]
    assert page.locator("#groups img").first.get_attribute("src").startswith("faces/demo/")
    (served.root / "data/demo").rename(tmp_path / "demo-gone")  # the last set: an empty page, saying so
    page.wait_for_function("() => document.querySelector('#status').textContent === 'No set in data/'")
    assert (page.inner_text("#title"), visible_keys(page), page.locator("#problems").is_visible()) == ("cardgen", [], False)
    # said once each, before the page changed (read here by a thread of the test's: waited for)
    said = [f"{name}: no longer a set in data/ (not built; its earlier output is left)\n" for name in ("extra", "demo")]
    deadline = time.monotonic() + 60
    while [line for line in served.lines if "no longer a set" in line] != said and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [line for line in served.lines if "no longer a set" in line] == said
    assert page.console.messages == []
