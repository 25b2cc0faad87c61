"""Bad input from the sweep over templates and layouts, rules files and deck lists: each is said
as ``file:line: card "X": message`` at the place to edit, never as a hang, memory run out, an
internal error or a silent misprint, and a failing build keeps the earlier output."""
from __future__ import annotations

import pytest

from demobuild import built, demo_build, edit, refused  # noqa: F401 (built, demo_build: fixtures)

ONE = "cardgen: 1 error, 0 warnings"
STEPS = ("the template takes too many steps (loops inside loops, or a very long value); limit: loop turns and calls in "
         "one template rendering, CARDGEN_MAX_TEMPLATE_STEPS=1000000 (set that environment variable higher to raise it)")


def test_the_text_a_loop_writes_as_it_is_counts_against_the_steps(built, cli):
    """100,000 turns (200,000 steps) over 10 KB of the template's own text (a comment) built a gigabyte: the
    build ran out of memory after 15 s, and said so without a place. Each turn now costs the text
    it writes, and the loop stops at its line."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% endblock %}",
         "{% for i in range(100000) %}\n<!-- " + "x" * 10_000 + " -->{% endfor %}\n{% endblock %}")
    refused(cli, built, f'templates/demo/action.xml.j2:7: card "Quick Draw": {STEPS}', ONE)


def test_a_text_filter_does_not_make_a_none_the_word(built, cli):
    """``{{ set.accent | upper }}`` printed "NONE" on the card for a value left empty (``| lower``
    "none", which an attribute reads as the colour that paints nothing; ``| title``, ``| trim``,
    ``| replace``... "None"): the filter made the text before cardgen's check of what is printed
    saw it. ``| string`` still makes it "None", as it is asked to."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "defaults:", "variables:\n  accent: ~\ndefaults:")
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ set.accent | string }}{{ set.accent | upper }}")
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Quick Draw": | upper of a value that is none (left empty '
                        'in YAML, or nothing found), which Jinja makes the text "None" first: give it a value, or test '
                        'it with `is none` (and 3 more cards)', ONE)


def test_wordwrap_is_charged_what_it_builds_before_it_builds_it(built, cli):
    """``wordwrap`` built a line and a ``wrapstring`` for every character of its text, and Python's
    textwrap copied the rest of a long word at each cut: ``("a" * 400000) | wordwrap(1)`` never
    ended, and a long wrapstring ran out of memory. This one built 900,000 characters from 3,300."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", '{{ ("a" * 3000) | wordwrap(1, wrapstring="b" * 300) | length }}')
    refused(cli, built, f'templates/demo/action.xml.j2:6: card "Quick Draw": {STEPS}', ONE)


def test_a_template_saved_with_a_byte_order_mark_is_read_as_its_text(built, cli):
    """An editor that saves UTF-8 with a byte-order mark put an invisible U+FEFF in front of the
    template's text: an included template wrote it inside <card>, and the build failed with
    "<card> cannot contain text" at the including layout's <card> line."""
    project, before = built
    frame = project / "templates/demo/frame.xml.j2"
    edit(frame, "{% block content %}", '{% include "demo/rule.xml.j2" %}\n{% block content %}')
    (project / "templates/demo/rule.xml.j2").write_bytes(
        b'\xef\xbb\xbf<line x1="5" y1="80" x2="{{ w - 5 }}" y2="80" stroke="#27408b" stroke-width="0.4"/>\n')
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    assert (project / "output/demo.pdf").read_bytes() != before["demo.pdf"]  # the line is drawn


def test_a_block_the_parent_layout_does_not_have_is_refused(built, cli):
    """``{% block contnet %}`` (a slip for content) in a layout extending another: Jinja printed
    the parent without it, and every card came out with its frame and nothing on it."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% block content %}", "{% block contnet %}")
    refused(cli, built, 'templates/demo/action.xml.j2:2: card "Quick Draw": template syntax error: block "contnet" is '
                        'no block of the template it extends, "demo/frame.xml.j2" (its blocks: content): it is never '
                        'printed (and 3 more cards)', ONE)


def test_what_a_layout_extending_another_writes_outside_its_blocks_is_refused(built, cli):
    """Markup after ``{% endblock %}`` in a layout that extends another was dropped without a word."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% endblock %}",
         '{% endblock %}\n\n<rect x="0" y="0" w="5" h="5" fill="#c00000"/>')
    refused(cli, built, 'templates/demo/action.xml.j2:9: card "Quick Draw": template syntax error: this template '
                        'extends another, which prints only its {% block %}s: what it writes outside them is never '
                        'printed (put it inside a block) (and 3 more cards)', ONE)


def test_text_a_layout_writes_before_or_after_its_card_is_said_at_the_layout(built, cli):
    """Text before ``<card>`` was blamed on set.yaml's line naming the card type (there was no
    element before it to name a template line), in libxml2's words ("Start tag expected, '<' not
    found"); text after ``</card>`` on the last element before it, here one of the parent layout's."""
    project, _ = built
    token = project / "templates/demo/token.xml.j2"
    edit(token, "<card>", "{{ label }}\n<card>")
    edit(project / "templates/demo/frame.xml.j2", "</card>", "</card>\n{{ name }}")
    refused(cli, built, 'templates/demo/frame.xml.j2:3: card "Quick Draw": the template writes something after </card> '
                        '(card markup is one <card> element) (and 3 more cards)',
            'templates/demo/token.xml.j2:1: card "Marker": the template writes text before the <card> of line 2 (card '
            'markup is one <card> element; put text in a <text>)', "cardgen: 2 errors, 0 warnings")


def test_a_block_never_closed_is_said_at_the_tag_that_opens_it(built, cli):
    """Jinja said an ``{% if %}`` left open at the line it was reading when the template ended,
    here the last; a ``{{`` left open at the next line, where the markup after it stopped reading
    as an expression; and an end tag met while another block is open, without that block's line."""
    project, _ = built
    edit(project / "templates/demo/token.xml.j2", "<card>", "{% if label %}\n<card>")
    edit(project / "templates/demo/action.xml.j2", "  <line x1", "  {{ name\n  <line x1")
    edit(project / "templates/demo/back.xml.j2", "<ellipse", "{% if w %}\n{% for i in [1] %}\n{% endif %}\n<ellipse")
    refused(cli, built, 'templates/demo/action.xml.j2:4: card "Quick Draw": template syntax error: this {{ is not '
                        "closed before line 5, where Jinja found: expected token 'end of print statement', got 'x1' "
                        "(and 3 more cards)",
            'templates/demo/back.xml.j2:5: card "Quick Draw": template syntax error: Encountered unknown tag '
            "'endif'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for "
            "'endfor' or 'else'. The innermost block that needs to be closed is 'for'. (the {% for %} left open is "
            "at line 4) (and 3 more cards)",
            'templates/demo/token.xml.j2:1: card "Marker": template syntax error: {% if %} is never closed: Jinja '
            "reached the end of the template looking for 'elif' or 'else' or 'endif'", "cardgen: 3 errors, 0 warnings")


def test_a_comment_never_closed_names_the_template_in_the_project(built, cli):
    """Jinja's lexer gives its own errors the file's absolute path for a name: the message named
    "templates//tmp/.../templates/demo/token.xml.j2". And it said where a quote opens by its offset
    in the source, as cardgen had marked it ("at 259"): no one's column."""
    project, _ = built
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{# {{ label }}")
    edit(project / "templates/demo/back.xml.j2", "{{ set.title }}", '{{ "Deck: }}')
    refused(cli, built, 'templates/demo/back.xml.j2:4: card "Quick Draw": template syntax error: unexpected char \'"\' '
                        "(a quote never closed?) (and 3 more cards)",
            'templates/demo/token.xml.j2:3: card "Marker": template syntax error: Missing end of comment tag',
            "cardgen: 2 errors, 0 warnings")


def test_a_box_name_cannot_lead_its_file_out_of_the_output_folder(built, cli):
    """A box's name is part of its file's, ``output/<set>.box-<name>.pdf``: one named
    "../../../../escaped" was written beside the project, out of every folder the build writes to."""
    project, _ = built
    set_file = project / "data/demo/set.yaml"
    line = set_file.read_text().count("\n") + 2
    with set_file.open("a") as handle:
        handle.write("boxes:\n  '../../../../escaped': {template: demo/back.xml.j2, cards: {type: action}}\n")
    refused(cli, built, f'data/demo/set.yaml:{line}: box "../../../../escaped": a box\'s name is part of its file name '
                        '(demo.box-<name>.pdf): give it one without "/", "\\" or control characters', ONE)
    assert not (project.parent / "escaped.pdf").exists()


def test_a_box_template_left_empty_is_said_at_the_box(built, cli):
    """``template: ~`` for a box was looked for as the file "templates/None"."""
    project, _ = built
    set_file = project / "data/demo/set.yaml"
    line = set_file.read_text().count("\n") + 2
    with set_file.open("a") as handle:
        handle.write("boxes:\n  actions:\n    template: ~\n    cards: {type: action}\n")
    refused(cli, built, f'data/demo/set.yaml:{line}: box "actions" needs a `template` (its layout below templates/)',
            ONE)


@pytest.mark.parametrize("expression", ['range(99999) | join("x" * 99999)', '{"a": 1} | tojson(indent=10 ** 9)',
                                        '("www.a.com " * 90000) | urlize'], ids=["join", "tojson", "urlize"])
def test_join_tojson_and_urlize_are_charged_what_they_build(built, cli, expression):
    """``join`` charged its items but not its separator between each two, nor the items of a
    range (ten billion characters: out of memory); ``tojson`` nothing for its indent (two
    gigabytes, 23 s); ``urlize`` its text once, for links of three times its length that took
    3.5 s a card to make."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ (" + expression + ") | length }}")
    refused(cli, built, f'templates/demo/action.xml.j2:6: card "Quick Draw": {STEPS}', ONE)


def test_join_checks_what_a_map_or_select_gives_it(built, cli):
    """``cards | map(attribute="cost") | join(", ")`` wrote "1, None" for a cost left empty: what
    join was given was a generator, whose items it did not look at as it does a list's."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "defaults:", "variables:\n  costs: [{c: 1}, {c: ~}]\ndefaults:")
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", '{{ set.costs | map(attribute="c") | join(", ") }}')
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Quick Draw": a value joined into text here (with ~, %, '
                        'join or format) is none (left empty in YAML, or nothing found), which would print as "None": '
                        'give it a value, or test it with `is none` (and 3 more cards)', ONE)


def test_a_block_never_closed_is_found_past_the_tags_that_open_nothing(built, cli):
    """An ``{% include %}`` (or import, extends) between an open block and the end tag of an inner one
    was taken for a block left open: the outer block's line was missed for the inner one's."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% block content %}",
         '{% block outer %}\n{% block content %}\n{% include "demo/token.xml.j2" %}')
    refused(cli, built, 'templates/demo/action.xml.j2:2: card "Quick Draw": template syntax error: {% block %} is never '
                        "closed: Jinja reached the end of the template looking for 'endblock' (and 3 more cards)", ONE)


def test_a_limit_passed_inside_an_included_template_names_the_line_including_it(built, cli):
    """A loop including a template 100,000 times passed the steps limit in the included template's
    text, and the message named only that template's first line, not the loop."""
    project, _ = built
    (project / "templates/demo/rule.xml.j2").write_text('<line x1="5" y1="80" x2="50" y2="80" stroke="#27408b"/>\n')
    edit(project / "templates/demo/token.xml.j2", "</card>", '{% for i in range(100000) %}{% include "demo/rule.xml.j2" %}'
                                                            "{% endfor %}\n</card>")
    refused(cli, built, f'templates/demo/rule.xml.j2:1: card "Marker": {STEPS} (included from '
                        "templates/demo/token.xml.j2:4)", ONE)


def test_a_layout_whose_own_text_is_longer_than_a_rendering_may_write_says_so(built, cli):
    """A million characters of the layout's own text (here a comment, in a block) were said as
    "loops inside loops, or a very long value", with no loop in the layout."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% endblock %}", "<!-- " + "x" * 1_000_000 + " -->\n{% endblock %}")
    refused(cli, built, 'templates/demo/action.xml.j2:2: card "Quick Draw": the template\'s own text here is longer '
                        "than one rendering may write (it is not a loop's); limit: loop turns and calls in one "
                        "template rendering, CARDGEN_MAX_TEMPLATE_STEPS=1000000 (set that environment variable "
                        "higher to raise it)", ONE)
