"""The rules engine on a set read by the real loader: `each` rows, CSV rows, and `cardgen check`."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardgen
from cardgen.cli import main
from cardgen.validate import check_set

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "validate" / "colors-project"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    return root


def test_each_rows_csv_rows_and_unknown_warnings(project):
    assert [str(p) for p in check_set(cardgen.load_set("colors", root=project))] == [
        'data/colors/rulings.csv:3: card "Jailbreak": rule "suits": suit "cups" is not one of spades, hearts',
        'data/colors/rulings.csv:4: warning: card "Swap": rule "suits": suit is unknown',
    ]


SUIT_PROBLEMS = [
    'data/colors/rulings.csv:3: card "Jailbreak": rule "suits": suit "cups" is not one of spades, hearts',
    'data/colors/rulings.csv:4: warning: card "Swap": rule "suits": suit is unknown',
]


def test_an_excess_per_colour_points_at_the_row_and_a_shortfall_at_the_rule(project):
    cards = project / "data" / "colors" / "cards.yaml"
    cards.write_text(cards.read_text().replace("count: 0", "count: 1"))
    rulings = project / "data" / "colors" / "rulings.csv"
    rulings.write_text(rulings.read_text().replace("Amnesty,2", "Amnesty,1"))
    assert [str(p) for p in check_set(cardgen.load_set("colors", root=project))] == [
        f'data/colors/cards.yaml:4: card "Extra {colour}": rule "one capture per colour": '
        f"2 cards where type is capture and item.name is {colour}, expected exactly 1"
        for colour in ("Red", "Blue", "Green")
    ] + ['data/colors/rules.yaml:8: rule "two Amnesties": 1 card where name is Amnesty, expected exactly 2'] + SUIT_PROBLEMS


def test_a_colour_without_its_card_counts_zero(project):
    cards = project / "data" / "colors" / "cards.yaml"
    cards.write_text(cards.read_text().replace("  each: colors\n- name", "  each: colors\n  count: 0\n- name"))
    colours = project / "data" / "colors" / "set.yaml"
    colours.write_text(colours.read_text().replace(
        '    - {name: Green, print: "#2e7d32"}\n', '    - {name: Green, print: "#2e7d32"}\n    - {name: Black, print: "#000000"}\n'))
    assert [str(p) for p in check_set(cardgen.load_set("colors", root=project))] == [
        f'data/colors/rules.yaml:2: rule "one capture per colour": '
        f"0 cards where type is capture and item.name is {colour}, expected exactly 1"
        for colour in ("Red", "Blue", "Green", "Black")
    ] + SUIT_PROBLEMS


def test_cardgen_check_prints_every_problem_and_fails(project):
    result = CliRunner().invoke(main, ["--root", str(project), "check", "colors"], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/colors/rulings.csv:3: card "Jailbreak": rule "suits": suit "cups" is not one of spades, hearts',
        'data/colors/rulings.csv:4: warning: card "Swap": rule "suits": suit is unknown',
        "cardgen: 1 error, 1 warning",
    ]


def test_a_malformed_rules_file_fails_the_check_with_its_line(project):
    rules = project / "data" / "colors" / "rules.yaml"
    rules.write_text(rules.read_text().replace("equals: 2", "equal: 2"))
    result = CliRunner().invoke(main, ["--root", str(project), "check", "colors"], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        'data/colors/rules.yaml:11: unknown key "equal" for a count rule '
        "(allowed: rule, name, severity, message, scope, where, source, option, equals, min, max, per, over)")
