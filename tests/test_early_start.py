"""A large set's workers forked before its cards are checked (cardgen/early_start.py): the same
bytes as a one-process build, and the same problems, exit and files when the check or the
rules fail."""
from __future__ import annotations

import json

import pytest

from cardgen import workers
from projects import make_project
from workerbuilds import CLI, FORKS, LARGE_SET, WORDS, build_in, on_workers


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


FORKED_BEFORE_CHECK = """
from cardgen.load import cards as card_files
check = card_files.CardFiles.check

def checking(self):  # the workers the build had forked when it began the check of its cards
    workers.last_build["forked_before_check"] = workers.last_build["workers"]
    check(self)

card_files.CardFiles.check = checking
"""


def _big_set(root, rows: int, bad: dict[int, str] = {}, rules: str | None = None):
    """A set ``big`` of one card type (one sheet group) whose cards are ``rows`` rows of one CSV
    file of about 125 bytes each; ``bad`` replaces the count of some rows, ``rules`` is its
    rules file."""
    big = root / "data/big"
    big.mkdir()
    lines = ["name,count,text"]
    for number in range(rows):
        words = " ".join(WORDS[(number * 7 + i * 3) % len(WORDS)] for i in range(20))
        lines.append(f"Card {number + 1},{bad.get(number, '1')},{words[:110]}")
    (big / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (big / "set.yaml").write_text(
        "name: big\ntitle: Big\ndate: 2026-01-01\ndefaults:\n  flavor: ''\n"
        "types:\n  action: {template: demo/action.xml.j2, back: plain}\n"
        "backs:\n  plain: {template: demo/back.xml.j2}\n"
        "cards:\n  - {file: cards.csv, type: action}\n" + ("rules: rules.yaml\n" if rules else ""), encoding="utf-8")
    if rules:
        (big / "rules.yaml").write_text(rules, encoding="utf-8")
    return root


def test_a_large_set_checked_while_its_workers_render_builds_the_bytes_of_a_one_process_build(tmp_path):
    """Its card files large enough (here: a byte is taken for a card), a set of one sheet group
    is checked once its workers are forked: the same bytes, even for a set that turns out to
    hold fewer cards than a build on workers needs (workers.MIN_CARDS), the workers passing over
    each other's rows by the check's marks once it is done."""
    root = _big_set(make_project(tmp_path, fonts=False), 60)
    early = LARGE_SET + FORKED_BEFORE_CHECK + """
from cardgen import early_start
early_start.EXPECTED_ROW, workers.MIN_CARDS = 1, 200
"""
    alone = build_in(root, "alone", 1, sets=["big"], cache=False)
    shared = build_in(root, "shared", 2, prelude=early, sets=["big"], cache=False)
    assert shared["workers"] == {"workers": 2, "faces_from_workers": alone["laid_out"], "forked_before_check": 2}
    assert alone["cards"] == 60 < workers.MIN_CARDS
    for name in ("big.pdf", "big.json"):
        assert (root / "alone" / name).read_bytes() == (root / "shared" / name).read_bytes()


def _failed_on_workers(root) -> dict:
    (root / "output").mkdir()
    (root / "output/big.pdf").write_bytes(b"earlier")
    code = CLI.replace("result = CliRunner()", FORKED_BEFORE_CHECK + "result = CliRunner()")
    done = json.loads(on_workers(code, "--root", str(root), "build", "big", "--jobs", "2").stdout)
    assert (root / "output/big.pdf").read_bytes() == b"earlier"
    assert sorted(p.name for p in (root / "output").iterdir()) == ["big.pdf"]
    return done


def test_a_bad_row_of_a_large_set_stops_the_workers_forked_before_the_check(tmp_path):
    root = _big_set(make_project(tmp_path, fonts=False), 9_000, bad={8_999: "many"})
    assert (root / "data/big/cards.csv").stat().st_size > 2000 * 512  # large: not kept once checked
    done = _failed_on_workers(root)
    assert done["workers"]["forked_before_check"] == 2
    assert (done["code"], done["out"]) == (1, "")
    assert done["err"].splitlines() == ['data/big/cards.csv:9001: card "Card 9000": count must be a whole number, '
                                        'got "many"', "cardgen: 1 error, 0 warnings"]


def test_a_rules_problem_of_a_large_set_stops_the_workers_forked_before_the_check(tmp_path):
    rules = "rules:\n  - rule: copies\n    name: one of each\n    max: 1\n"
    root = _big_set(make_project(tmp_path, fonts=False), 9_000, bad={8_999: "2"}, rules=rules)
    done = _failed_on_workers(root)
    assert done["workers"]["forked_before_check"] == 2
    assert (done["code"], done["out"]) == (1, "")
    assert done["err"].splitlines() == ['data/big/cards.csv:9001: card "Card 9000": rule "one of each": 2 copies, '
                                        "expected at most 1", "cardgen: 1 error, 0 warnings"]
