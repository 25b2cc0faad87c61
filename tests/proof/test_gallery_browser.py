"""The proof gallery opened from disk (file://, no server) in headless Chromium: names on
screen, search, filters, the trim toggle and the detail view, with no console error."""
from __future__ import annotations

from cardgen.proof import proof
from projects import make_project


def keys(page) -> list[str]:
    return page.eval_on_selector_all("#groups article.card", "cards => cards.map(c => c.dataset.key)")


def test_the_gallery_works_from_disk(tmp_path, page):
    root = make_project(tmp_path, "preview")
    (result,), _ = proof(["demo"], root)
    page.goto((result.folder / "index.html").as_uri())
    page.wait_for_selector("article.card")
    assert keys(page) == ["Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded", "Marker"]
    assert page.locator('[data-key="Quick Draw"] figcaption').all_inner_texts() == ["FRONT", "BACK"]
    assert page.locator("#live").is_hidden()  # no server, no event stream
    page.fill("#search", "discard")
    page.wait_for_function("() => document.body.dataset.query === 'discard'")
    assert keys(page) == ["Quick Draw"]
    page.fill("#search", "")
    page.wait_for_function("() => document.body.dataset.query === ''")
    page.select_option("#type-filter", "token")
    assert keys(page) == ["Marker"]
    page.select_option("#type-filter", "")
    page.select_option("#problem-filter", "warnings")
    assert keys(page) == ["Quick Draw"]
    page.select_option("#problem-filter", "")
    assert page.locator("#groups .guides").first.is_hidden()
    page.check("#guides")
    assert page.locator("#groups .g-trim").first.is_visible()
    page.click('[data-key="Escape Artist"]')
    page.locator("#detail").wait_for(state="visible")
    page.wait_for_function("() => [...document.querySelectorAll('#detail img')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.eval_on_selector_all("#detail img", "imgs => imgs.map(i => i.naturalWidth)") == [821, 821]  # 300 dpi
    rows = page.eval_on_selector_all("#detail-fields tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert ["flavor", "Nobody saw him leave.", "data/demo/cards.yaml:11"] in rows
    assert page.console.messages == []
