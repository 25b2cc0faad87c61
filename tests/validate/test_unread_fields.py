"""A card field that no layout of its type reads, spelt nearly like a name a layout reads, is a
typo in the card file: the layout printed the default (or nothing) and the check passed."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.shipped_fonts


def test_a_misspelt_yaml_field_is_a_warning_at_its_line(project, cli):
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("  flavor: Nobody saw him leave.", "  flavr: Nobody saw him leave."))
    result = cli(project, "check", "demo")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        'data/demo/cards.yaml:11: warning: card "Escape Artist": field "flavr" is read by no layout of type '
        '"action" (did you mean "flavor", which templates/demo/action.xml.j2 reads?)',
        "ok: no errors, 1 warning"]


def test_fields_no_layout_reads_unlike_any_it_reads_are_fine(project, cli):
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text() + "  designer_note: playtest this\n")
    result = cli(project, "check", "demo")
    assert result.exit_code == 0, result.output
    assert "read by no layout" not in result.output


def test_a_misspelt_default_is_a_warning_at_its_set_yaml_line(project, cli):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("    safe: 1\n", "    safe: 1\n    defaults: {lable: \"?\"}\n", 1))
    result = cli(project, "check", "demo")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        'data/demo/set.yaml:17: warning: default "lable" is read by no layout (did you mean "label", which '
        'templates/demo/token.xml.j2 reads?)',
        "ok: no errors, 1 warning"]
