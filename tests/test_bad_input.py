"""Bad input made for real (empty card files, broken YAML, wrong values, bad options): one clear
message each, the right exit code, and the earlier output byte for byte as it was. Output places
the system refuses are in test_bad_output.py."""
from __future__ import annotations

import pytest

from cardgen.write.manifest import load_manifest

from demobuild import built, demo_build, demo_bytes, intact  # noqa: F401 (built, demo_build: fixtures)

EMPTY_SET = "data/demo/set.yaml:23: the set has no card to print (its card files hold no cards, or every count is 0)"


# --- 2: nothing to print ----------------------------------------------------------------------

def test_a_set_whose_card_files_are_empty_is_an_error_and_keeps_the_output(built, cli):
    project, before = built
    (project / "data/demo/cards.yaml").write_text("# no cards yet\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [EMPTY_SET, "demo: 2 warnings (`cardgen check demo` lists them)",
                                          "cardgen: 1 error, 2 warnings"]
    intact(project, before)
    result = cli(project, "check", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        EMPTY_SET, "data/demo/cards.yaml: warning: the card file holds no cards",
        "data/demo/more.csv: warning: the card file holds no cards", "cardgen: 1 error, 2 warnings"]


def test_a_set_whose_counts_are_all_zero_is_an_error(built, cli):
    project, before = built
    (project / "data/demo/cards.yaml").write_text("- {name: Gone, type: action, count: 0, text: x}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\nAlso gone,0,y\n")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [EMPTY_SET, "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_one_empty_card_file_is_a_warning_naming_it(built, cli):
    project, _ = built
    (project / "data/demo/cards.yaml").write_text("")
    result = cli(project, "check", "demo")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == ["data/demo/cards.yaml: warning: the card file holds no cards"]
    assert result.stdout == "ok: no errors, 1 warning\n"


def test_a_deck_that_names_no_card_is_an_error(built, cli):
    project, before = built
    (project / "decks").mkdir()
    (project / "decks/empty.yaml").write_text("# to do\nmain:\n")
    result = cli(project, "build", "demo", "--deck", "decks/empty.yaml")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["decks/empty.yaml:2: the deck names no card to print",
                                          "cardgen: 1 error, 0 warnings"]
    intact(project, before)


# --- 1: partial builds write their own files ---------------------------------------------------

def test_a_deck_build_writes_its_own_files(built, cli):
    project, before = built
    (project / "decks").mkdir()
    (project / "decks/two.yaml").write_text("main:\n  Marker: 2\n")
    result = cli(project, "build", "demo", "--deck", "decks/two.yaml")
    assert result.exit_code == 0, result.stderr
    assert demo_bytes(project) == before
    import json
    manifest = load_manifest(project / "output/demo.deck-two.json")
    assert [(f["card"], f["copy"]) for f in manifest["faces"]] == [("Marker", 1), ("Marker", 2)]
    assert (project / "output/demo.deck-two.pdf").read_bytes().startswith(b"%PDF")


# --- 5: one cause, one message ----------------------------------------------------------------

def test_a_broken_font_is_one_line_with_the_cards_it_hits(built, cli):
    project, before = built
    font = project / "fonts/DejaVuSans-Bold.ttf"
    font.write_bytes(font.read_bytes()[:5000])
    result = cli(project, "build", "demo", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'fonts/DejaVuSans-Bold.ttf: card "Quick Draw": cannot read font: the file is damaged or not a TrueType '
        "font (and 4 more cards)", "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_errors_come_before_warnings(built, cli):
    project, _ = built
    (project / "data/demo/cards.yaml").write_text("")
    text = (project / "templates/demo/action.xml.j2").read_text()
    (project / "templates/demo/action.xml.j2").write_text(text.replace("{{ text }}", "{{ txet }}"))
    result = cli(project, "check", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "templates/demo/action.xml.j2:5: card \"Attack <12> & more\": undefined name: 'txet' is undefined (did you mean \"text\"?) "
        "(and 1 more card)",
        "data/demo/cards.yaml: warning: the card file holds no cards", "cardgen: 1 error, 1 warning"]


# --- 7: parser and usage errors ---------------------------------------------------------------

@pytest.mark.parametrize("text, line", [
    ("- {name: A, type: action\n- name: B\n  type: action\n",
     'data/demo/cards.yaml:1: invalid YAML: the "{" opened at column 3 is never closed (line 2 was reached '
     'without a "}")'),
    ('- name: "A\n  type: action\n',
     'data/demo/cards.yaml:1: invalid YAML: the quote " at column 9 is never closed (the file ends inside it): '
     'add the closing "'),
    ("- name: A: B\n  type: action\n",
     'data/demo/cards.yaml:1: invalid YAML: a ":" at column 10 where no new key can start: put quotes round a '
     "value that holds \": \", or check this line's indentation"),
    ("- name: A\n\ttype: action\n", "data/demo/cards.yaml:2: invalid YAML: a tab character: YAML indents with spaces only"),
    ("- name: A\n  type: action\n - name: B\n",
     "data/demo/cards.yaml:3: invalid YAML: this line's indentation does not fit the lines before it (the list or "
     "mapping it belongs to began on line 1)"),
    ("- name: A\n  name: B\n", 'data/demo/cards.yaml:2: invalid YAML: the key "name" is given twice in one mapping'),
])
def test_yaml_errors_in_plain_words(built, cli, text, line):
    project, before = built
    (project / "data/demo/cards.yaml").write_text(text)
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [line, "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_a_set_folder_without_set_yaml_says_so(built, cli):
    project, _ = built
    (project / "data/drafts").mkdir()
    result = cli(project, "build", "drafts")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "data/drafts: set.yaml is missing: a set folder holds set.yaml, which names its card types and files",
        "cardgen: 1 error, 0 warnings"]


@pytest.mark.parametrize("args, message", [
    (["build", "demo", "--deck", "nope.yaml"], "Error: Invalid value for '--deck': File 'nope.yaml' does not exist."),
    (["check", "demo", "--deck", "nope.yaml"], "Error: Invalid value for '--deck': File 'nope.yaml' does not exist."),
    (["build", "demo", "--changed-since", "nope.json"],
     "Error: Invalid value for '--changed-since': File 'nope.json' does not exist."),
    (["build", "nope"], 'Error: unknown set "nope" (sets: demo)'),
    (["build", "../demo"], 'Error: unknown set "../demo" (sets: demo)'),
    (["build", "--nope"], "Error: No such option '--nope'"),
])
def test_usage_errors_exit_2(built, cli, args, message):
    project, before = built
    result = cli(project, *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith(message)
    intact(project, before)


# --- 5, 6: the one place to edit ----------------------------------------------------------------

@pytest.mark.parametrize("change, lines", [
    (lambda p: (p / "data/demo/icons/star.svg").write_text("<svg"),
     ['data/demo/icons/star.svg:1: card "Escape Artist": cannot read SVG: Couldn\'t find end of Start Tag svg line 1 '
      "(a damaged or cut-short file?)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/icons/star.svg").write_bytes((p / "data/demo/icons/star.svg").read_bytes()[:150]),
     ['data/demo/icons/star.svg:1: card "Escape Artist": cannot read SVG: Couldn\'t find end of Start Tag polygon '
      "line 1 (a damaged or cut-short file?)", "cardgen: 1 error, 0 warnings"]),  # it drew nothing, silently
    (lambda p: (p / "data/demo/icons/star.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" '
                                                           'height="9">\n<rect width="1" height="1"/>\0</svg>'),
     ['data/demo/icons/star.svg:2: card "Escape Artist": cannot read SVG: PCDATA invalid Char value 0 '
      "(a damaged or cut-short file?)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/icons/star.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 nan nan"><rect width="1" height="1"/></svg>'),
     ['data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read SVG "data/demo/icons/star.svg": its size, '
      'nan x nan, is not a finite size '
      "above 0 (width, height or viewBox)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/icons/star.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="-4" height="8"><rect width="1" height="1"/></svg>'),
     ['data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read SVG "data/demo/icons/star.svg": its size, '
      '-3 x 6, is not a finite size '
      "above 0 (width, height or viewBox)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/icons/star.svg").write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">' + "".join(
            f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
        + ']><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><desc>&i;</desc>'
          '<rect width="1" height="1"/></svg>'),  # libxml2's words named its C options, and damage
     ['data/demo/icons/star.svg:1: card "Escape Artist": cannot read SVG: its entities expand it too far (an XML '
      '"billion laughs")', "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/icons/star.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9">'
        '<rect width="1" height="1"/><image xlink:href="data:image/png;base64,AAAA" width="5" height="5"/></svg>'),
     ['data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read SVG "data/demo/icons/star.svg": cannot '
      "identify image file", "cardgen: 1 error, 0 warnings"]),  # and Python's "<_io.BytesIO object at 0x7f...>"
    (lambda p: (p / "templates/demo/token.xml.j2").write_bytes(b"<card>\n\xff</card>\n"),
     ['templates/demo/token.xml.j2:2: card "Marker": the template is not UTF-8 text: byte 0xFF at byte offset 7 '
      "(save it as UTF-8)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "templates/demo/token.xml.j2").write_text(
        (p / "templates/demo/token.xml.j2").read_text().replace("{{ label }}", "{{ label | shout }}")),
     ["templates/demo/token.xml.j2:3: card \"Marker\": template syntax error: No filter named 'shout'.",
      "cardgen: 1 error, 0 warnings"]),
    (lambda p: ((p / "templates/demo/part.xml.j2").write_text('<rect x="1" y="1" w="1" h="1" fill="{{ colour }}"/>\n'),
                (p / "templates/demo/token.xml.j2").write_text((p / "templates/demo/token.xml.j2").read_text().replace(
                    "</card>", '{% include "demo/part.xml.j2" %}\n</card>'))),
     ["templates/demo/part.xml.j2:1: card \"Marker\": undefined name: 'colour' is undefined (included from "
      "templates/demo/token.xml.j2:4)", "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "templates/demo/token.xml.j2").write_text((p / "templates/demo/token.xml.j2").read_text().replace(
        "</card>", '{% include "demo/nope.xml.j2" %}\n</card>')),
     ['templates/demo/token.xml.j2:4: card "Marker": template "templates/demo/nope.xml.j2" not found',
      "cardgen: 1 error, 0 warnings"]),
    (lambda p: (p / "data/demo/set.yaml").write_text((p / "data/demo/set.yaml").read_text() + "rules: [rules.yaml\n"),
     ['data/demo/set.yaml:26: invalid YAML: the "[" opened at column 8 is never closed (the file ends without a "]")',
      "cardgen: 1 error, 0 warnings"]),
])
def test_one_message_at_the_place_to_edit(built, cli, change, lines):
    project, before = built
    change(project)
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == lines
    intact(project, before)


def test_a_card_files_unknown_type_is_one_error_at_set_yaml(built, cli):
    project, before = built
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("{file: more.csv, type: action}", "{file: more.csv, type: acton}"))
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/demo/set.yaml:25: card file "more.csv": unknown card type "acton" (the set has: action, token)',
        "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_a_bad_attribute_value_from_a_card_names_its_row_first(built, cli):
    project, before = built
    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace('fill="#2e8b57"', "fill=\"{{ card.colour or '#2e8b57' }}\""))
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("  label: M\n", "  label: M\n  colour: greenish\n"))
    result = cli(project, "check", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/demo/cards.yaml:16: card "Marker": field "colour": <circle> fill: expected a colour such as "#c8102e", '
        '"#fff", "black", "cmyk(0,0,0,100)" or "none", got "greenish" (drawn by templates/demo/token.xml.j2:2)',
        "cardgen: 1 error, 0 warnings"]


@pytest.mark.parametrize("added, line", [
    ("rules: 5\n", "data/demo/set.yaml:26: `rules` must be a rules file name or a list of them"),
    ("sheet: {template: 5}\n", "data/demo/set.yaml:26: a sheet template is a name (OL32, circle-cut, ...) or a "
                               "file, or a mapping of paper: either"),
    ("sheet: {margin: lots}\n", 'data/demo/set.yaml:26: sheet margin: expected a length such as "12", "12mm", '
                                '"0.5in" or "10pt", got "lots"'),
    ("sheet: {template: sheets/nope.yaml}\n", 'data/demo/set.yaml:26: sheet template file "sheets/nope.yaml" not found'),
    ('subject: "a\\0b"\n', "data/demo/set.yaml:26: the text holds U+0000, a control character"),
    ('variables: {x: ["\\x7f"]}\n', "data/demo/set.yaml:26: the text holds U+007F, a control character"),
    ('author: "\\uFFFF"\n', "data/demo/set.yaml:26: the text holds U+FFFF, not a character"),
    ("date: 2024-13-45\n", "data/demo/set.yaml:26: invalid YAML: 2024-13-45 is not a date (month must be in 1..12): "
                          "put quotes round it to keep it as text"),
    ("bleed: .nan\n", "data/demo/set.yaml:26: bleed: expected a length, got nan"),
    ("bleed: -.inf\n", "data/demo/set.yaml:26: bleed: expected a length of at most 100000 mm (100 m), got -inf"),
    ("safe: 1" + "0" * 400 + "\n", "data/demo/set.yaml:26: safe: expected a length of at most 100000 mm (100 m), got "
                                 "100000000000...(401 characters)"),
])
def test_set_yaml_values_of_the_wrong_kind(built, cli, added, line):
    project, before = built
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + added)
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [line, "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_yaml_nested_too_deeply(built, cli):
    project, before = built
    # a bracket a line: ruamel's scanner weighs every open bracket of the line at each token
    # (seconds for 3,000 on one line); the nesting, and what cardgen must say of it, is the same
    (project / "data/demo/cards.yaml").write_text("- name: A\n  type: action\n  text:\n" + "    [\n" * 3000
                                                  + "    " + "]" * 3000 + "\n")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["data/demo/cards.yaml: invalid YAML: lists or mappings nested too deeply",
                                          "cardgen: 1 error, 0 warnings"]
    intact(project, before)


@pytest.mark.parametrize("colour, said", [
    ("zzz", 'expected a colour such as "#c8102e", "#fff", "black", "cmyk(0,0,0,100)" or "none", got "zzz"'),
    # a colour with brackets, commas or dots was not checked with the card: an internal error as it was drawn
    ("cmyk(0,0,0,200)", 'cmyk() takes four percentages from 0 to 100, got "cmyk(0,0,0,200)"'),
    # a value with "%", "-" (or none) was no marker: the closed tag printed on the card as typed
    ("gray(50%)", 'expected a colour such as "#c8102e", "#fff", "black", "cmyk(0,0,0,100)" or "none", got "gray(50%)"'),
], ids=["name", "cmyk", "percent"])
def test_a_bad_colour_in_card_text_names_the_row(built, cli, colour, said):
    project, before = built
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("Draw **two** cards", f"Draw [color={colour}]two[/color] cards"))
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f'data/demo/cards.yaml:4: card "Quick Draw": field "text": [color={colour}]: {said} (drawn by '
        "templates/demo/action.xml.j2:5)", "cardgen: 1 error, 0 warnings"]
    intact(project, before)


def test_a_glyph_icon_problem_is_one_line_at_the_icon(built, cli):
    project, before = built
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace('spade: {glyph: "♠", font: DejaVu Sans', 'spade: {glyph: "♠", font: Nope'))
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'data/demo/set.yaml:20: card "Quick Draw": icon "spade": font family "Nope" is not in the project\'s fonts/ '
        "or cardgen's",
        "cardgen: 1 error, 0 warnings"]
    intact(project, before)


@pytest.mark.parametrize("row, shown", [('"Two\nlines",two,x', "Two\\nlines"), ('"Page\fbreak",two,x', "Page\\x0cbreak"),
                                        ('"Line\u2028separator",two,x', "Line\\u2028separator")])
def test_a_card_name_with_line_breaks_is_one_line(built, cli, row, shown):
    project, before = built
    (project / "data/demo/more.csv").write_text(f"name,count,text\n{row}\n", encoding="utf-8")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f'data/demo/more.csv:2: card "{shown}": count must be a whole number, got "two"',
                                          "cardgen: 1 error, 0 warnings"]
    intact(project, before)
