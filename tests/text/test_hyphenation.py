"""Hyphenation: long words break at a line's end before auto-fit shrinks the text."""
from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

import cardgen
from cardgen.errors import CardgenError

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

WORD = "Incomprehensibilities"


def build(project, text: str, box: str = 'w="24" h="12"', set_extra: str = "", attrs: str = ""):
    (project / "templates/demo/probe.xml.j2").write_text(
        f'<card><text name="body" x="2" y="2" {box} size="9" min-size="4" {attrs}>{{{{ text }}}}</text></card>',
        encoding="utf-8")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "types:\n", "types:\n  probe:\n    template: demo/probe.xml.j2\n    size: {w: 40, h: 40}\n    bleed: 0\n"
                    "    safe: 1\n") + set_extra, encoding="utf-8")
    (project / "data/demo/cards.yaml").write_text(f"- name: Probe\n  type: probe\n  text: \"{text}\"\n",
                                                  encoding="utf-8")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0]
    # pdfium joins a word hyphenated at a line's end (as U+FFFE): the lines, as drawn
    lines = pdfium.PdfDocument(str(result.pdf))[0].get_textpage().get_text_range().replace("\ufffe", "-\r\n")
    lines = lines.split("\r\n")
    stream = PdfReader(str(result.pdf)).pages[0].get_contents().get_data().decode("latin-1")
    sizes = {float(s) for s in re.findall(r"/F[\d+]+ ([\d.]+) Tf", stream)}
    return [line.strip() for line in lines if line.strip()], sizes


def test_without_a_language_a_long_word_shrinks_the_text(project):
    lines, sizes = build(project, f"The {WORD} of it all")
    assert WORD in lines
    assert max(sizes) < 9


def test_with_the_sets_language_the_word_breaks_and_the_text_keeps_its_size(project):
    lines, sizes = build(project, f"The {WORD} of it all", set_extra="language: en_US\n")
    assert sizes == {9.0}
    assert WORD not in lines
    broken = [line for line in lines if line.endswith("-")]
    assert broken, lines
    joined = " ".join(lines)
    head = broken[0].split()[-1][:-1]
    assert WORD.startswith(head) and len(head) < len(WORD)
    # the rest of the word starts the next line
    after = lines[lines.index(broken[0]) + 1].split()[0]
    assert head + after == WORD, joined


def test_a_box_can_name_its_own_language_or_turn_hyphenation_off(project):
    lines, sizes = build(project, f"The {WORD} of it all", attrs='hyphenate="en_US"')
    assert sizes == {9.0} and any(line.endswith("-") for line in lines)


def test_hyphenate_none_overrides_the_set(tmp_path):
    from projects import make_project

    lines, sizes = build(make_project(tmp_path, fonts=False), f"The {WORD} of it all", set_extra="language: en_US\n",
                         attrs='hyphenate="none"')
    assert WORD in lines and max(sizes) < 9


def test_soft_hyphens_break_in_any_set_and_never_print_unbroken(project):
    soft = "Super\u00adcali\u00adfragilistic"
    lines, sizes = build(project, f"A {soft} day", box='w="22" h="12"')
    assert sizes == {9.0}
    assert any(line.endswith(("Super-", "Supercali-")) for line in lines), lines
    assert "\u00ad" not in "".join(lines)


def test_an_unbroken_soft_hyphen_prints_nothing(tmp_path):
    from projects import make_project

    lines, _ = build(make_project(tmp_path, fonts=False), "A Super\u00adman day", box='w="36" h="12"')
    assert lines == ["A Superman day"]


def test_text_that_does_not_fit_even_hyphenated_is_still_an_error(project):
    with pytest.raises(CardgenError) as caught:
        build(project, " ".join([WORD] * 12), box='w="24" h="6"', set_extra="language: en_US\n")
    assert str(caught.value.problems[0]) == (
        'data/demo/cards.yaml:3: card "Probe": field "text": the text does not fit at the minimum size 4 pt in text '
        'box "body" (24 x 6 mm) (drawn by templates/demo/probe.xml.j2:1)')


def test_an_unknown_language_names_the_set_file_line(project):
    with pytest.raises(CardgenError) as caught:
        build(project, "x", set_extra="language: xx_YY\n")
    line = (project / "data/demo/set.yaml").read_text().splitlines().index("language: xx_YY") + 1
    message = str(caught.value.problems[0])
    assert message.startswith(f'data/demo/set.yaml:{line}: language: no hyphenation dictionary for "xx_YY" '
                              f'(known: af, af_ZA, ')
