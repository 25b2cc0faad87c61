"""Bad layouts and bad card text: each is one clear line naming the file, the line and the card."""
from __future__ import annotations

import pytest

import cardgen
from cardgen import CardgenError

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def problems_of(project) -> list[str]:
    with pytest.raises(CardgenError) as excinfo:
        cardgen.build(["demo"], project)
    return [str(p) for p in excinfo.value.problems]


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def only_tokens(project, label):
    (project / "data/demo/cards.yaml").write_text(f"- name: Marker\n  type: token\n  label: {label}\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")


def test_undefined_name_names_template_line_and_card(project):
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ lable }}")
    only_tokens(project, "M")
    assert problems_of(project) == [
        "templates/demo/token.xml.j2:3: card \"Marker\": undefined name: 'lable' is undefined"]


def test_undefined_name_in_a_parent_template_names_the_parent(project):
    edit(project / "templates/demo/frame.xml.j2", 'fill="#27408b"', 'fill="{{ colour }}"')
    (project / "data/demo/cards.yaml").write_text("- name: Solo\n  type: action\n  text: x\n")
    (project / "data/demo/more.csv").write_text("name,count,text\n")
    assert problems_of(project) == ["templates/demo/frame.xml.j2:2: card \"Solo\": undefined name: 'colour' is undefined"]


def test_unknown_element_and_attribute_name_the_template_line(project):
    edit(project / "templates/demo/token.xml.j2", "<circle ", "<circel ")
    only_tokens(project, "M")
    (line,) = problems_of(project)
    assert line.startswith('templates/demo/token.xml.j2:2: card "Marker": unknown element <circel> (known: ')
    edit(project / "templates/demo/token.xml.j2", "<circel ", "<circle colour=\"red\" ")
    (line,) = problems_of(project)
    assert line.startswith('templates/demo/token.xml.j2:2: card "Marker": <circle> has no attribute "colour"')


def test_bad_attribute_value(project):
    edit(project / "templates/demo/token.xml.j2", 'fill="#2e8b57"', 'fill="greenish"')
    only_tokens(project, "M")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:2: card "Marker": <circle> fill: expected a colour such as "#c8102e", '
        '"#fff", "black", "cmyk(0,0,0,100)" or "none", got "greenish"']


def test_text_that_does_not_fit_names_card_and_box(project):
    only_tokens(project, "'" + "Longword " * 10 + "'")
    assert problems_of(project) == [
        'data/demo/cards.yaml:3: card "Marker": field "label": the text does not fit at the minimum size 6 pt '
        'in text box "label" (12 x 12 mm) (drawn by templates/demo/token.xml.j2:3)']


def test_missing_glyph_names_card_and_character(project):
    only_tokens(project, "'\U00010000'")
    assert problems_of(project) == [
        'data/demo/cards.yaml:3: card "Marker": field "label": the font DejaVu Sans bold has no '
        'character U+10000 (\U00010000) (drawn by templates/demo/token.xml.j2:3)']


def test_unknown_icon(project):
    only_tokens(project, "':ghost:'")
    assert problems_of(project) == [
        'data/demo/cards.yaml:3: card "Marker": field "label": unknown icon ":ghost:" '
        '(the set has: heart, spade, star) (drawn by templates/demo/token.xml.j2:3)']


def test_missing_image(project):
    (project / "data/demo/icons/star.svg").unlink()
    with pytest.raises(CardgenError) as excinfo:
        cardgen.load_set("demo", project)
    assert [str(p) for p in excinfo.value.problems] == ['data/demo/set.yaml:22: icon "star": image "icons/star.svg" not found']
    (project / "data/demo/icons/star.svg").write_text("<svg/>")
    edit(project / "templates/demo/token.xml.j2", "</card>", '<image x="0" y="0" w="5" h="5" src="nothere.png"/>\n</card>')
    only_tokens(project, "M")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:4: card "Marker": image "nothere.png" not found in data/demo/ or templates/']


def test_text_outside_the_safe_zone(project):
    edit(project / "templates/demo/token.xml.j2", 'x="4" y="4"', 'x="0.5" y="4"')
    only_tokens(project, "M")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:3: card "Marker": text box "label" (0.5, 4, 12 x 12 mm) reaches outside the '
        'safe zone (1 mm inside the 20 x 20 mm trim)']


def test_template_syntax_error(project):
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ label }")
    only_tokens(project, "M")
    (line,) = problems_of(project)
    assert line.startswith('templates/demo/token.xml.j2:3: card "Marker": template syntax error:')


@pytest.mark.parametrize("character, named", [
    ("\x07", "U+0007 (a control character)"), ("\ufeff", "U+FEFF (a byte order mark)"),
    ("\u200b", "U+200B (an invisible character)")])
def test_an_invisible_character_in_a_template_tag_is_named_by_its_code_point(project, character, named):
    """Jinja said "unexpected char '\\x07'": Python's escape, which no editor finds."""
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ " + character + "label }}")
    only_tokens(project, "M")
    assert problems_of(project) == [f'templates/demo/token.xml.j2:3: card "Marker": template syntax error: '
                                    f"unexpected character {named}: delete it"]


@pytest.mark.parametrize("expression, said", [
    ("none.name", "none (left empty in YAML, or nothing found) has no attribute 'name'"),
    ("[1].q", "a list has no attribute 'q'"), ("{}.q", "a mapping has no attribute 'q'")])
def test_an_attribute_of_a_value_that_has_none_is_said_in_the_data_files_words(project, expression, said):
    """Jinja said "'None' has no attribute 'name'", "'list object'": Python's names for them."""
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ " + expression + " }}")
    only_tokens(project, "M")
    assert problems_of(project) == [f'templates/demo/token.xml.j2:3: card "Marker": undefined name: {said}']


@pytest.mark.parametrize("expression, said", [
    ("label + 1", "text and a number cannot be added with +: join them into text with ~"),
    ("label - 1", "text - a number cannot be worked out (a value of the wrong kind)"),
    ("1 | length", "a number has no length"), ("range(label)", "text is given where a whole number is needed"),
    ("label < 1", "text and a number cannot be compared with <")])
def test_a_value_of_the_wrong_kind_in_a_sum_is_said_in_the_data_files_words(project, expression, said):
    """Python's TypeError said "can only concatenate str (not "int") to str", "object of type 'int' has no len()"."""
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ " + expression + " }}")
    only_tokens(project, "M")
    assert problems_of(project) == [f'templates/demo/token.xml.j2:3: card "Marker": {said}']


def test_markup_that_is_not_xml(project):
    edit(project / "templates/demo/token.xml.j2", "</card>", "<rect x='1'>\n</card>")
    only_tokens(project, "M")
    (line,) = problems_of(project)
    assert line.startswith('templates/demo/token.xml.j2:4: card "Marker": the template does not produce valid card markup:')


def test_sandbox_blocks_python_internals(project):
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ label.__class__.__mro__ }}")
    only_tokens(project, "M")
    (line,) = problems_of(project)
    assert line.startswith('templates/demo/token.xml.j2:3: card "Marker": ')
    assert "__class__" in line


def test_data_cannot_inject_markup(project):
    only_tokens(project, "'</text><rect x=\"0\" y=\"0\" w=\"5\" h=\"5\"/>'")
    with pytest.raises(CardgenError) as excinfo:
        cardgen.build(["demo"], project)
    # the value stays text: it is too long for the label, and no <rect> was ever parsed
    (problem,) = excinfo.value.problems
    assert 'field "label": the text does not fit' in str(problem)


def test_templates_folder_may_be_a_link_inside_the_project(project):
    shared = project / "shared" / "templates"
    shared.parent.mkdir()
    (project / "templates").rename(shared)
    (project / "templates").symlink_to(shared)
    edit(shared / "demo/token.xml.j2", "{{ label }}", "{{ lable }}")
    only_tokens(project, "M")
    assert problems_of(project) == [
        "templates/demo/token.xml.j2:3: card \"Marker\": undefined name: 'lable' is undefined"]


def test_every_face_that_does_not_fit_is_reported_at_once(project, cli):
    cli(project, "build", "demo")
    before = (project / "output/demo.pdf").read_bytes()
    (project / "data/demo/cards.yaml").write_text(
        f"- {{name: One, type: token, label: '{'Longword ' * 10}'}}\n"
        "- {name: Fine, type: token, count: 2, label: F}\n"
        f"- {{name: Two, type: token, label: '{'Wordlong ' * 10}'}}\n")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert [line.split(": field")[0] for line in result.stderr.splitlines()[:2]] == [
        'data/demo/cards.yaml:1: card "One"', 'data/demo/cards.yaml:3: card "Two"']
    assert (project / "output/demo.pdf").read_bytes() == before


def test_a_template_fault_met_by_many_cards_is_one_line(project):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("template: demo/action.xml.j2", "template: demo/nope.xml.j2"))
    assert problems_of(project) == [
        'data/demo/set.yaml:8: card "Quick Draw": template "templates/demo/nope.xml.j2" not found (and 3 more cards)']


def test_set_yaml_shapes_are_checked(project):
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    set_yaml.write_text(text.replace("bleed: 1", "bleed: lots"))
    assert problems_of(project) == [
        'data/demo/set.yaml:15: bleed: expected a length such as "12", "12mm", "0.5in" or "10pt", got "lots"']
    set_yaml.write_text(text.replace('defaults:\n  flavor: ""', "defaults: 3"))
    assert problems_of(project) == ["data/demo/set.yaml:5: `defaults` must be a mapping of name: value"]


def test_a_glyph_missing_in_a_template_literal_names_the_template_line(project):
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ label }}\U00010000")
    only_tokens(project, "M")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:3: card "Marker": text box "label": the font DejaVu Sans bold has no '
        'character U+10000 (\U00010000)']


@pytest.mark.parametrize("old, new, line, message", [
    ('size="20"', 'size="nan"', 3, '<text> size: expected a finite number, got "nan"'),
    ('size="20"', 'size="inf"', 3, '<text> size: expected a finite number, got "inf"'),
    ('size="20"', 'size="20" leading="nan"', 3, '<text> leading: expected a finite number, got "nan"'),
    ('size="20"', 'size="20" rotate="1e999"', 3, '<text> rotate: expected a finite number, got "1e999"'),
    ('size="20"', 'size="20" letter-spacing="nan"', 3,
     '<text> letter-spacing: expected a number of em such as "0.05em", got "nan"'),
    ('size="20"', 'size="20" letter-spacing="-3em"', 3,
     '<text> letter-spacing: must be at least -0.5em: closer, most letters print over the one before, '
     'got "-3em"'),
    ('fill="#2e8b57"', 'fill="linear-gradient(90, red nan%, blue)"', 2,
     '<circle> fill: a gradient stop is a percentage such as "40%", got "nan%"'),
    ('<circle', '<group transform="rotate(nan)"/><circle', 2,
     '<group> transform: expected a finite number, got "nan"'),
    ('size="20"', 'size="20" rotate="1e308"', 3,
     '<text> rotate: expected an angle from -3600 to 3600 degrees (ten turns), got "1e308"'),
    ('<circle', '<group transform="rotate(-1e308 5 5)"/><circle', 2,
     '<group> transform: expected an angle from -3600 to 3600 degrees (ten turns), got "-1e308"'),
    ('r="{{ w / 2 + bleed }}"', 'r="1e-320"', 2,
     "<circle> r: must be at least 0.0001 mm: a smaller size prints nothing, got 1e-320"),
    ('r="{{ w / 2 + bleed }}"', 'r="100001"', 2,
     "<circle> r: expected a length of at most 100000 mm (100 m), got 100001"),
])
def test_numbers_that_are_not_finite_name_the_attribute(project, old, new, line, message):
    # nan passes every comparison meant to stop a bad value, and failed deep in the drawing
    edit(project / "templates/demo/token.xml.j2", old, new)
    only_tokens(project, "M")
    assert problems_of(project) == [f'templates/demo/token.xml.j2:{line}: card "Marker": {message}']



@pytest.mark.parametrize("escaped, character", [("\\0", "U+0000 (a control character)"),
                                               ("\\uFFFE", "U+FFFE (not a character)")])
def test_a_character_markup_cannot_carry_is_named_at_the_line_that_prints_it(project, escaped, character):
    # a template's own text (or a value no loader checked) holding it: the template line says where
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", f'{{{{ "M{escaped}" }}}}')
    only_tokens(project, "M")
    assert problems_of(project) == [f'templates/demo/token.xml.j2:3: card "Marker": a value here holds {character}, '
                                    "which card markup cannot carry: remove it from the data"]


def test_card_text_and_icons_are_not_printed_in_no_colour(project):
    # [color=none] and an icon's color: none printed nothing where the text said something
    token = project / "templates/demo/token.xml.j2"
    edit(token, "color=\"{{ '#2e8b57' | contrast }}\"", 'color="none"')
    only_tokens(project, "M")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:3: card "Marker": <text> color: "none" would print the text invisible: give a '
        'colour such as "#000000", or leave the text out']
    edit(token, 'color="none"', 'color="#000000"')
    edit(token, "{{ label }}", "{{ label }} [color=none]x[/color]")
    assert problems_of(project) == [
        'templates/demo/token.xml.j2:3: card "Marker": text box "label": [color=none]: "none" would print the text '
        'invisible: give a colour such as "#000000", or leave the text out']
    edit(token, " [color=none]x[/color]", " :heart:")
    edit(project / "data/demo/set.yaml", 'color: "#c00000"', "color: none")
    assert problems_of(project) == [
        'data/demo/set.yaml:21: card "Marker": icon "heart": color: "none" would print the text invisible: give a '
        'colour such as "#000000", or leave the text out']
