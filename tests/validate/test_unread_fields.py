"""A card field that no layout of its type reads, spelt nearly like a name a layout reads, is a
typo in the card file: the layout printed the default (or nothing) and the check passed."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.shipped_fonts


def checked(project, cli) -> str:
    """What ``cardgen check demo`` prints; it passes (warnings are no errors)."""
    result = cli(project, "check", "demo")
    assert result.exit_code == 0, result.output
    return result.output


def test_a_misspelt_yaml_field_is_a_warning_at_its_line(project, cli):
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("  flavor: Nobody saw him leave.", "  flavr: Nobody saw him leave."))
    assert checked(project, cli).splitlines() == [
        'data/demo/cards.yaml:11: warning: card "Escape Artist": field "flavr" is read by no layout of type '
        '"action" (did you mean "flavor", which templates/demo/action.xml.j2 reads?)',
        "ok: no errors, 1 warning"]


def test_fields_no_layout_reads_unlike_any_it_reads_are_fine(project, cli):
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text() + "  designer_note: playtest this\n")
    assert "read by no layout" not in checked(project, cli)


def test_a_misspelt_default_is_a_warning_at_its_set_yaml_line(project, cli):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("    safe: 1\n", "    safe: 1\n    defaults: {lable: \"?\"}\n", 1))
    assert checked(project, cli).splitlines() == [
        'data/demo/set.yaml:17: warning: default "lable" is read by no layout (did you mean "label", which '
        'templates/demo/token.xml.j2 reads?)',
        "ok: no errors, 1 warning"]


def _with_field_texts(project):
    """Escape Artist gets a field "texts" (spelt nearly like "text", which the action layout reads)."""
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("  flavor: Nobody saw him leave.",
                                               "  flavor: Nobody saw him leave.\n  texts: alt"))


def test_a_field_a_rules_file_reads_is_no_misspelling(project, cli):
    _with_field_texts(project)
    (project / "data/demo/rules.yaml").write_text(
        "rules:\n  - rule: values\n    field: texts\n    allowed: [alt]\n    unknown: ignore\n"
        "  - rule: count\n    where: {texts: alt}\n    max: 1\n")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "rules: [rules.yaml]\n")
    assert checked(project, cli).splitlines() == ["ok: no errors, 0 warnings"]


@pytest.mark.parametrize("read", ['{{ card.get("texts", "") }}', '{% if "texts" in card %}{{ card["texts"] }}{{ card.texts }}{% endif %}',
                                  '{% if "texts" in card %}x{% endif %}',
                                  '{% for k in ["texts"] %}{{ card.get(k, "") }}{% endfor %}',
                                  '{% for k, v in card.items() if k == "texts" %}{{ v }}{% endfor %}'])
def test_a_field_a_layout_reads_through_card_is_no_misspelling(project, cli, read):
    _with_field_texts(project)
    layout = project / "templates/demo/action.xml.j2"
    layout.write_text(layout.read_text().replace("{{ flavor }}", "{{ flavor }}" + read))
    assert checked(project, cli).splitlines() == ["ok: no errors, 0 warnings"]


def test_a_layout_reading_other_keys_through_card_still_warns(project, cli):
    _with_field_texts(project)
    layout = project / "templates/demo/action.xml.j2"
    layout.write_text(layout.read_text().replace("{{ flavor }}", '{{ flavor }}{{ card.get("note", "") }}'))
    assert 'field "texts" is read by no layout of type "action" (did you mean "text"' in checked(project, cli)


def test_a_field_a_tuck_box_selects_by_is_no_misspelling(project, cli):
    _with_field_texts(project)
    (project / "templates/demo/box.xml.j2").write_text(
        '<card><rect x="0" y="0" w="{{ w }}" h="{{ h }}" fill="#eeeeee"/></card>')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "boxes:\n  alt:\n    template: demo/box.xml.j2\n"
                        "    cards: {texts: alt}\n")
    assert checked(project, cli).splitlines() == ["ok: no errors, 0 warnings"]
