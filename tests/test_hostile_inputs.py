"""Hostile inputs found by a sweep over every kind of file a project holds (images, card files,
markup, set.yaml, rules, fonts.yaml): each is one line ``file:line: card "X": message`` naming the
place to edit, exit 1, and the earlier output byte for byte as it was."""
from __future__ import annotations

from pathlib import Path

import pytest

from demobuild import built, demo_build, refused  # noqa: F401 (built, demo_build: fixtures)

ONE = "cardgen: 1 error, 0 warnings"


def back(project: Path, *lines: str) -> None:
    """The back's layout: ``lines`` from the template's line 2."""
    (project / "templates/demo/back.xml.j2").write_text("<card>\n" + "".join(f"{line}\n" for line in lines)
                                                         + "</card>\n")


# --- images: a file that is not an image is said where it is used --------------------------------

NOT_AN_IMAGE = 'cannot read image "data/demo/icons/fake.png": not an image file (PNG, JPG, GIF, ... or SVG)'


def test_an_image_src_that_is_not_an_image_names_the_template_line_and_the_file(built, cli):
    project, _ = built
    (project / "data/demo/icons/fake.png").write_text("not an image\n")
    back(project, '<image x="0" y="0" w="20" h="20" src="icons/fake.png"/>')
    refused(cli, built, f'templates/demo/back.xml.j2:2: card "Quick Draw": {NOT_AN_IMAGE}', ONE)


def test_an_image_named_by_a_card_that_is_not_an_image_names_the_cards_line(built, cli):
    project, _ = built
    (project / "data/demo/icons/fake.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # a PNG's signature, cut short
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("- name: Escape Artist\n",
                                               "- name: Escape Artist\n  art: icons/fake.png\n"))
    back(project, '{% if art is defined %}<image x="0" y="0" w="20" h="20" src="{{ art }}"/>{% endif %}')
    refused(cli, built, 'data/demo/cards.yaml:6: card "Escape Artist": field "art": cannot read image '
                        '"data/demo/icons/fake.png": not an image file (PNG, JPG, GIF, ... or SVG) '
                        "(drawn by templates/demo/back.xml.j2:2)", ONE)


def test_an_image_icon_that_is_not_an_image_names_its_line_in_set_yaml(built, cli):
    project, _ = built
    (project / "data/demo/icons/fake.png").write_bytes(b"")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("icons/star.svg", "icons/fake.png"))
    refused(cli, built, f'data/demo/set.yaml:22: card "Escape Artist": icon "star": {NOT_AN_IMAGE}', ONE)


@pytest.mark.parametrize("svg", ['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
                                 '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g><g/></g></svg>'])
def test_an_svg_that_draws_nothing_is_refused_not_printed_blank(built, cli, svg):
    project, _ = built
    (project / "data/demo/icons/empty.svg").write_text(svg + "\n")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("icons/star.svg", "icons/empty.svg"))
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": SVG "empty.svg" draws nothing: '
                        "it holds no shape (path, rect, circle, polygon, ...)", ONE)


@pytest.mark.parametrize("paint, shown", [('fill="rgb(nan,1,1)"', "rgb(nan,1,1)"), ('stroke="bogus"', "bogus")])
def test_an_svg_colour_that_cannot_be_read_is_refused_not_printed_black(built, cli, paint, shown):
    # svglib painted rgb(nan,1,1) black, and left out a stroke of a colour it did not know: said only in its log
    project, _ = built
    (project / "data/demo/icons/odd.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" {paint}/></svg>\n')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("icons/star.svg", "icons/odd.svg"))
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read SVG '
                        f'"data/demo/icons/odd.svg": the colour "{shown}" is not one SVG can print: write one such as '
                        '"#c8102e", "rgb(200, 16, 46)" or "red"', ONE)


def test_an_image_icon_too_thin_to_show_is_refused_not_printed_blank(built, cli):
    # drawn at the text's height, an SVG 1e-9 mm wide was a gap in the text, unsaid
    project, _ = built
    (project / "data/demo/icons/thin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1e-9mm" '
                                                     'height="10mm"><rect width="5" height="5"/></svg>\n')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("icons/star.svg", "icons/thin.svg"))
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": its image is 1e-10 times as wide '
                        "as it is high: inline at 11 pt it would print 3.49e-10 mm wide, too thin to show", ONE)


def test_an_image_of_floating_point_pixels_is_refused_not_printed_black(built, cli):
    from PIL import Image

    project, _ = built
    Image.new("F", (20, 20), 0.5).save(project / "data/demo/icons/float.tif")  # mid-grey, in 0-1
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("icons/star.svg", "icons/float.tif"))
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read image '
                        '"data/demo/icons/float.tif": its pixels are floating-point numbers, with no set black '
                        "and white (save it with 8 or 16 bits a channel)", ONE)


# --- markup that would draw nothing: refused at its line, with the reason ---------------------------

RED = '<rect x="0" y="0" w="20" h="20" fill="#ff0000"/>'
NO_AREA = "encloses no area (it is a point or a line): nothing in the {} would print"
MAGNIFIES = "magnifies its content more than 10,000 times: nothing of it would print on the card"


@pytest.mark.parametrize("lines, message", [
    ([f'<group clip="M 0 0">{RED}</group>'], "<group> clip: the outline " + NO_AREA.format("group")),
    ([f'<group clip="M 0 0 L 10 10 l 5 5 M 30 30 C 31 31 32 32 40 40">{RED}</group>'],
     "<group> clip: the outline " + NO_AREA.format("group")),
    ([f'<clip><path d="M 0 0 H 30"/>{RED}</clip>'], "<clip>'s outline, a <path>, " + NO_AREA.format("clip")),
    ([f'<clip><polygon points="0,0 1,1 2,2"/>{RED}</clip>'],
     "<clip>'s outline, a <polygon>, " + NO_AREA.format("clip")),
    ([f'<clip><rect x="0" y="0" w="20" h="0.0001"/>{RED}</clip>'],
     "<clip>'s outline, a <rect>, " + NO_AREA.format("clip")),
    ([f'<group transform="scale(1e308)">{RED}</group>'], "<group> transform: the transform " + MAGNIFIES),
    ([f'<group transform="scale(1e200) scale(1e200)">{RED}</group>'], "<group> transform: the transform " + MAGNIFIES),
    ([f'<group transform="matrix(100000 0 0 0.00001 0 0)">{RED}</group>'],
     "<group> transform: the transform " + MAGNIFIES),
    ([f'<group transform="scale(0.00001)">{RED}</group>'],
     "<group> transform: the transform shrinks its content more than 10,000 times: nothing of it would print "
     "visibly"),
    ([f'<group transform="skewX(90)">{RED}</group>'],
     "<group> transform: skewX(90) slants the content by 90 degrees, or so near it that it becomes a line: "
     "nothing would print"),
    ([f'<group transform="translate(5) skewY(-270)">{RED}</group>'],
     "<group> transform: skewY(-270) slants the content by 90 degrees, or so near it that it becomes a line: "
     "nothing would print"),
    (['<group transform="scale(1000)">', f'<group transform="scale(1000)">{RED}</group>', "</group>"],
     "<group> transform: with the groups around it, the transform " + MAGNIFIES),
    (['<text x="5" y="5" w="40" h="20" size="1e-320">Hello</text>'],
     "<text> size: must be at least 1 pt: smaller text does not print as letters, got 1e-320"),
    (['<text x="5" y="5" w="40" h="20" size="10" min-size="0.5">Hello</text>'],
     "<text> min-size: must be at least 1 pt: smaller text does not print as letters, got 0.5"),
], ids=["clip of a point", "clip of lines", "clip path", "clip polygon", "clip rect of no height", "scale 1e308",
        "scales past a float", "matrix", "shrinks", "skewX 90", "skewY -270", "nested groups", "size 1e-320",
        "min-size 0.5"])
def test_markup_that_would_print_nothing_is_refused_at_its_line(built, cli, lines, message):
    project, _ = built
    back(project, *lines)
    line = 3 if "around it" in message else 2  # the inner group's
    refused(cli, built, f'templates/demo/back.xml.j2:{line}: card "Quick Draw": {message}', ONE)


@pytest.mark.parametrize("lines", [
    [f'<group clip="M 0 0 L 10 0 L 10 10 Z">{RED}</group>'],
    [f'<clip><circle cx="5" cy="5" r="3"/>{RED}</clip>'],
    [f'<group transform="skewX(89)">{RED}</group>', f'<group transform="scale(0.001)">{RED}</group>'],
    ['<group transform="scale(100)">', f'<group transform="scale(0.01)">{RED}</group>', "</group>"],
    ['<text x="5" y="5" w="40" h="20" size="10" min-size="1">Hello</text>'],
], ids=["clip triangle", "clip circle", "near the limits", "nested groups that cancel", "min-size 1"])
def test_markup_near_those_limits_is_drawn(built, cli, lines):
    project, _ = built
    back(project, *lines)
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr) == (0, "")


# --- set.yaml's sheet settings: refused at their own line, by check as by build --------------------

@pytest.mark.parametrize("setting, message", [
    ("spacing: wide", 'sheet spacing must be one of butt, bleed, got "wide"'),
    ("orientation: sideways", 'sheet orientation must be one of auto, portrait, landscape, got "sideways"'),
    ("crop-marks: no", 'sheet crop-marks must be true or false, got "no"'),  # YAML 1.2: text, and text was true
    ("cut-lines: 1", 'sheet cut-lines must be true or false, got "1"'),
    ("template: OL99", 'unknown sheet template "OL99" (built-in: Endisch 6500012x, Online Labels OL32, Online '
                       "Labels OL5275, circle-cut; or the path of a gLabels .xml or a sheet-template .yaml file)"),
    ("template: {letter: OL32, a4: nope}", 'unknown sheet template "nope" (built-in: Endisch 6500012x, Online Labels '
                                           "OL32, Online Labels OL5275, circle-cut; or the path of a gLabels .xml or a "
                                           "sheet-template .yaml file)"),
])
def test_a_bad_sheet_setting_is_refused_at_its_line(built, cli, setting, message):
    project, _ = built
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + f"sheet:\n  margin: 5\n  {setting}\n")
    line = f"data/demo/set.yaml:28: {message}"
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr.splitlines()) == (1, [line, ONE])
    refused(cli, built, line, ONE)


def test_a_length_a_template_computes_near_zero_is_a_length(built, cli):
    """Jinja prints 63.5 - 63.4 - 0.1 as 1.4155343563970746e-15: a length, not an error."""
    project, _ = built
    back(project, '<rect x="{{ 63.5 - 63.4 - 0.1 }}" y="{{ 1e-7 }}" w="{{ 2.5e1 }}" h="10mm" fill="#ff0000"/>',
         '<rect x="0" y="0" w="{{ 1e20 }}" h="10" fill="#ff0000"/>')
    refused(cli, built, 'templates/demo/back.xml.j2:3: card "Quick Draw": <rect> w: expected a length of at most '
                        "100000 mm (100 m), got 1e+20", ONE)
    back(project, '<rect x="{{ 63.5 - 63.4 - 0.1 }}" y="{{ 1e-7 }}" w="{{ 2.5e1 }}" h="10mm" fill="#ff0000"/>')
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr) == (0, "")


# --- rules files: a name, type or field no card has selects nothing, and would pass ---------------

@pytest.mark.parametrize("rule, message", [
    ("  - rule: copies\n    where: {name: Quick Drwa}\n    max: 1\n",
     'data/demo/rules.yaml:3: rule "copies at data/demo/rules.yaml:2": no card has name "Quick Drwa" '
     '(did you mean "Quick Draw"?)'),
    ("  - rule: count\n    where: {type: [action, tokne]}\n    max: 50\n",
     'data/demo/rules.yaml:3: rule "count at data/demo/rules.yaml:2": the set defines no card type "tokne" '
     '(did you mean "token"?)'),
    ("  - rule: unique\n    fields: [name, lable]\n",
     'data/demo/rules.yaml:2: rule "unique at data/demo/rules.yaml:2": no card has a field "lable" '
     '(did you mean "label"?)'),
    ("  - rule: values\n    field: flavour\n    allowed: [x]\n",
     'data/demo/rules.yaml:2: rule "values at data/demo/rules.yaml:2": no card has a field "flavour" '
     '(did you mean "flavor"?)'),
])
def test_a_rule_that_selects_by_what_no_card_has_is_refused(built, cli, rule, message):
    project, _ = built
    (project / "data/demo/rules.yaml").write_text("rules:\n" + rule)
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "rules: [rules.yaml]\n")
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr.splitlines()) == (1, [message, ONE])
    refused(cli, built, message, ONE)


def test_a_type_with_no_cards_yet_is_fine_where_a_name_no_card_has_is_not(built, cli):
    project, _ = built
    (project / "data/demo/rules.yaml").write_text("rules:\n  - rule: copies\n    where: {type: spare, name: "
                                                   "[Marker, Joker]}\n    max: 3\n")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("backs:\n", "  spare: {template: demo/token.xml.j2}\nbacks:\n")
                        + "rules: [rules.yaml]\n")
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr.splitlines()) == (1, [
        'data/demo/rules.yaml:3: rule "copies at data/demo/rules.yaml:2": no card has name "Joker"', ONE])


@pytest.mark.parametrize("text", ['<text x="1" y="8" font-family="Liberation Serif">Hi</text>', "<text> </text>"])
def test_an_svg_holding_text_is_refused_before_svglib_looks_for_its_font(built, cli, text):
    """svglib set SVG text in a font it looked up on the machine (fc-match: a file outside the
    project), or in an unembedded Times-Roman, silently."""
    project, _ = built
    (project / "data/demo/icons/star.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">\n<rect width="3" height="3"/>\n'
        f"{text}</svg>\n")
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": SVG "star.svg" holds text (a <text> '
                        "at its line 3), which cardgen does not draw inside an SVG: its font would be the machine's, "
                        "not embedded; convert the text to paths in the SVG's editor (or remove an empty one), or "
                        "write it in a <text> of the layout", ONE)


# --- templates that build without end ---------------------------------------------------------------

STEPS = ("the template takes too many steps (loops inside loops, or a very long value); limit: loop turns and "
         "calls in one template rendering, CARDGEN_MAX_TEMPLATE_STEPS=1000000 (set that environment variable "
         "higher to raise it)")
DOUBLING = '{% set ns = namespace(x=[]) %}{% for i in range(30) %}{% set ns.x = LITERAL %}{% endfor %}'


@pytest.mark.parametrize("expression", [
    DOUBLING.replace("LITERAL", "[ns.x, ns.x]") + "{{ ns.x | string | length }}",  # hung: 2 ** 30 lists, printed
    DOUBLING.replace("LITERAL", "(ns.x, ns.x)") + "{{ ns.x }}",
    DOUBLING.replace("LITERAL", '{"a": ns.x, "b": ns.x}') + "{{ ns.x | tojson | length }}",
    DOUBLING.replace("LITERAL", "dict(a=ns.x, b=ns.x)") + "{{ ns.x | pprint | length }}",
    '{{ ("a" * 100000) | replace("a", "a" * 100000) | length }}',  # 10 GB
    '{{ ("a" * 100000).replace("a", "a" * 100000) | length }}',
    '{{ "a".ljust(1000000000) | length }}',
    '{{ "1".zfill(1000000000) | length }}',
    '{{ "{:>1000000000}".format(1) | length }}',
    '{{ ("\\t" * 100000).expandtabs(100000) | length }}',
    '{{ (["x" * 100000] * 100000) | map("upper") | join | length }}',
    '{{ range(10) | slice(1000000000) | list | length }}',
    '{{ range(10) | batch(1000000000, "x") | list | length }}',
    '{{ ([[1] * 1000] * 1000) | sum(start=[]) | length }}',
    '{{ lipsum(1000000000) | length }}',
], ids=["list doubled", "tuple doubled", "dict doubled", "dict() doubled", "replace filter", "replace method", "ljust",
        "zfill", "format width", "expandtabs", "shared strings joined", "slice", "batch", "sum of lists", "lipsum"])
def test_a_template_that_builds_a_huge_value_is_stopped_before_it_is_built(built, cli, expression):
    project, _ = built
    back(project, f'<text x="5" y="5" w="40" h="20">{expression}</text>')
    refused(cli, built, f'templates/demo/back.xml.j2:2: card "Quick Draw": {STEPS}', ONE)


@pytest.mark.parametrize("expression, message", [
    ("{{ set.nope }}", "undefined name: set has no attribute 'nope'"),  # was "'nope'", a KeyError's words
    ("{{ 9 ** 9999 }}", "a number of more than 4300 digits cannot be written"),
    # was Jinja's "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."
    ("{% for i in range(10 ** 9) %}{% endfor %}", "range() of more than 100,000 numbers: no card needs a loop that long"),
    ("{{ range(100001) | list | length }}", "range() of more than 100,000 numbers: no card needs a loop that long"),
    # was "'int' object is not iterable"
    ("{% include 5 %}", 'include names a template: text such as "cosmic/stars.xml.j2", or a list of them'),
    # was 'template "templates/None" not found'
    ("{% include none %}", 'include names a template: text such as "cosmic/stars.xml.j2", or a list of them'),
])
def test_a_template_fault_is_said_in_words(built, cli, expression, message):
    project, _ = built
    back(project, f'<text x="5" y="5" w="40" h="20">{expression}</text>')
    refused(cli, built, f'templates/demo/back.xml.j2:2: card "Quick Draw": {message} (and 3 more cards)', ONE)


def test_set_values_can_be_tested_for_and_small_lists_built(built, cli):
    project, _ = built
    back(project, '<text x="5" y="5" w="50" h="70" size="6" min-size="2">{% if set.nope is defined %}x{% endif %}'
                  '{{ set.get("no", "a") }}'
                  '{{ set.title }}{{ [name, name] | join }}{{ dict(a=name).a }}{{ "%s" % name }}</text>')
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr) == (0, "")


@pytest.mark.parametrize("lines, line, message", [
    (['{% extends none %}'], 1, 'a template is named by text, such as "demo/frame.xml.j2", got None (and 3 more cards)'),
    (['<group>' * 300 + '<rect x="0" y="0" w="5" h="5" fill="red"/>' + '</group>' * 300], 2,
     "the card markup nests elements more than 256 deep (groups inside groups?)"),  # libxml2's "use XML_PARSE_HUGE"
])
def test_a_template_the_libraries_refuse_is_said_in_cardgens_words(built, cli, lines, line, message):
    project, _ = built
    if lines[0].startswith("{%"):
        (project / "templates/demo/back.xml.j2").write_text(lines[0] + "\n")
    else:
        back(project, *lines)
    refused(cli, built, f'templates/demo/back.xml.j2:{line}: card "Quick Draw": {message}', ONE)


def test_an_empty_template_is_said_at_the_line_that_names_it(built, cli):
    project, _ = built
    (project / "templates/demo/back.xml.j2").write_text("{# to do #}\n")
    refused(cli, built, 'data/demo/set.yaml:18: card "Quick Draw": the template produces no card markup (it is empty, '
                        "or writes only spaces)", ONE)  # was libxml2's "Document is empty"


def test_an_entity_a_template_declares_is_named_and_never_expanded(built, cli):
    project, _ = built
    (project / "templates/demo/back.xml.j2").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE card [<!ENTITY x SYSTEM "file:///etc/hostname">]>\n'
        '<card><text x="5" y="5" w="40" h="20">&x;</text></card>\n')
    refused(cli, built, 'templates/demo/back.xml.j2:3: card "Quick Draw": <text> holds the entity &x;, which card '
                        "markup does not expand (write the characters themselves, or &amp; &lt; &gt; &quot; &apos; "
                        "&#...;)", ONE)  # was "<text> cannot contain other elements"
