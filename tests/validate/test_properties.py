"""Properties of the rules engine over random card lists."""
from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.validate import check_set

from .helpers import card, make_set

ROWS = st.lists(st.tuples(st.sampled_from(["Ann", "Bob", "Cy", "Di"]), st.sampled_from(["A", "B"]),
                          st.integers(min_value=0, max_value=4)), max_size=8)


def cards_of(rows):
    return [card(name, type_, count, line=1 + 5 * i) for i, (name, type_, count) in enumerate(rows)]


def problems_for(rules: str, rows):
    with tempfile.TemporaryDirectory() as folder:
        card_set = make_set(Path(folder), rules, cards_of(rows))
        first, second = check_set(card_set), check_set(card_set)
    assert first == second  # deterministic
    return first


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, target=st.integers(min_value=0, max_value=6))
def test_count_fails_exactly_when_the_total_differs(rows, target):
    rules = f"rules:\n  - {{rule: count, name: n, where: {{type: A}}, equals: {target}}}\n"
    problems = problems_for(rules, rows)
    total = sum(count for _, type_, count in rows if type_ == "A")
    assert len(problems) == (0 if total == target else 1)
    if total > target:
        # the row at which the running total first passed the target
        running = 0
        for i, (name, type_, count) in enumerate(rows):
            running += count if type_ == "A" else 0
            if running > target:
                assert (problems[0].source.line, problems[0].card) == (1 + 5 * i, name)
                break
    elif total < target:
        assert (problems[0].source.line, problems[0].card) == (2, None)  # the rule's line


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, limit=st.integers(min_value=0, max_value=5))
def test_copies_reports_each_name_over_the_limit_once(rows, limit):
    problems = problems_for(f"rules:\n  - {{rule: copies, name: c, max: {limit}}}\n", rows)
    totals = Counter()
    for name, _, count in rows:
        totals[name] += count
    assert [p.card for p in problems] == [n for n in dict.fromkeys(name for name, _, count in rows if count)
                                          if totals[n] > limit]


@settings(max_examples=60, deadline=None)
@given(rows=ROWS, least=st.integers(min_value=0, max_value=5))
def test_distinct_counts_names_with_copies(rows, least):
    problems = problems_for(f"rules:\n  - {{rule: distinct, name: d, min: {least}}}\n", rows)
    names = {name for name, _, count in rows if count}
    assert len(problems) == (1 if len(names) < least else 0)
