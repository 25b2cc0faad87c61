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


def _big_set(root, rows: int, bad: dict[int, str] = {}, rules: str | None = None, yaml: bool = False):
    """A set ``big`` of one card type (one sheet group) whose cards are ``rows`` rows of one CSV
    file of about 125 bytes each (``yaml``: items of a YAML list, about 140 bytes, the README's
    first example); ``bad`` replaces the count of some rows, ``rules`` is its rules file."""
    big = root / "data/big"
    big.mkdir()
    lines = [] if yaml else ["name,count,text"]
    for number in range(rows):
        words = " ".join(WORDS[(number * 7 + i * 3) % len(WORDS)] for i in range(20))
        count = bad.get(number, "1")
        lines.append(f"- name: Card {number + 1}\n  count: {count}\n  text: {words[:110]}" if yaml
                     else f"Card {number + 1},{count},{words[:110]}")
    name = "cards.yaml" if yaml else "cards.csv"
    (big / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (big / "set.yaml").write_text(
        "name: big\ntitle: Big\ndate: 2026-01-01\ndefaults:\n  flavor: ''\n"
        "types:\n  action: {template: demo/action.xml.j2, back: plain}\n"
        "backs:\n  plain: {template: demo/back.xml.j2}\n"
        f"cards:\n  - {{file: {name}, type: action}}\n" + ("rules: rules.yaml\n" if rules else ""), encoding="utf-8")
    if rules:
        (big / "rules.yaml").write_text(rules, encoding="utf-8")
    return root


@pytest.mark.parametrize("yaml", [False, True])
def test_a_large_set_checked_while_its_workers_render_builds_the_bytes_of_a_one_process_build(tmp_path, yaml):
    """Its card files large enough (here: a byte is taken for a card), CSV or YAML, a set of one
    sheet group is checked once its workers are forked: the same bytes, even for a set that turns
    out to hold fewer cards than a build on workers needs (workers.MIN_CARDS), the workers passing
    over each other's rows by the check's marks once it is done."""
    root = _big_set(make_project(tmp_path, fonts=False), 60, yaml=yaml)
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


def _failed_on_workers(root, prelude: str = "") -> dict:
    (root / "output").mkdir()
    (root / "output/big.pdf").write_bytes(b"earlier")
    code = CLI.replace("result = CliRunner()", FORKED_BEFORE_CHECK + prelude + "result = CliRunner()")
    done = json.loads(on_workers(code, "--root", str(root), "build", "big", "--jobs", "2").stdout)
    assert (root / "output/big.pdf").read_bytes() == b"earlier"
    assert sorted(p.name for p in (root / "output").iterdir()) == ["big.pdf"]
    return done


@pytest.mark.parametrize("yaml, bad, said", [
    (False, "many", 'data/big/cards.csv:9001: card "Card 9000": count must be a whole number, got "many"'),
    (True, "many", 'data/big/cards.yaml:26999: card "Card 9000": count must be a whole number, got "many"'),
])
def test_a_bad_row_of_a_large_set_stops_the_workers_forked_before_the_check(tmp_path, yaml, bad, said):
    """The problem of a row in the workers' part of the file (the last) is said as ever."""
    root = _big_set(make_project(tmp_path, fonts=False), 9_000, bad={8_999: bad}, yaml=yaml)
    assert (root / "data/big" / ("cards.yaml" if yaml else "cards.csv")).stat().st_size > 2000 * 512  # not kept
    done = _failed_on_workers(root)
    assert done["workers"]["forked_before_check"] == 2
    assert (done["code"], done["out"]) == (1, "")
    assert done["err"].splitlines() == [said, "cardgen: 1 error, 0 warnings"]


def test_invalid_yaml_in_the_workers_part_of_a_set_is_said_as_ever(tmp_path):
    """The workers, forked before the check, read the file from its start, then from the check's
    marks: the YAML error at its end is the check's, said as ever (ruamel's reading)."""
    root = _big_set(make_project(tmp_path, fonts=False), 60, bad={58: "[1"}, yaml=True)
    done = _failed_on_workers(root, LARGE_SET + "from cardgen import early_start\nearly_start.EXPECTED_ROW = 1\n")
    assert done["workers"]["forked_before_check"] == 2
    assert (done["code"], done["out"]) == (1, "")
    assert done["err"].splitlines() == ['data/big/cards.yaml:176: invalid YAML: the "[" opened at column 10 is never '
                                        'closed (line 177 was reached without a "]")', "cardgen: 1 error, 0 warnings"]


def test_a_rules_problem_of_a_large_set_stops_the_workers_forked_before_the_check(tmp_path):
    rules = "rules:\n  - rule: copies\n    name: one of each\n    max: 1\n"
    root = _big_set(make_project(tmp_path, fonts=False), 9_000, bad={8_999: "2"}, rules=rules)
    done = _failed_on_workers(root)
    assert done["workers"]["forked_before_check"] == 2
    assert (done["code"], done["out"]) == (1, "")
    assert done["err"].splitlines() == ['data/big/cards.csv:9001: card "Card 9000": rule "one of each": 2 copies, '
                                        "expected at most 1", "cardgen: 1 error, 0 warnings"]
