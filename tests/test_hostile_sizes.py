"""Bad input from the sweep over sizes, set.yaml values and template values: each is said as
``file:line: card "X": message`` at the place to edit, never as a hang, an internal error or a
silent misprint, and a failing build keeps the earlier output."""
from __future__ import annotations

import pytest

from demobuild import built, demo_build, edit, intact, refused  # noqa: F401 (built, demo_build: fixtures)

ONE = "cardgen: 1 error, 0 warnings"


def test_a_card_too_small_to_count_on_a_sheet_is_refused_before_its_slots_are_made(built, cli):
    """A 0.001 mm card (a slip for 1 mm, or 0.001 m) put 54 billion cells on a letter sheet: the
    build made them one by one and never ended."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "    template: demo/action.xml.j2\n",
         "    template: demo/action.xml.j2\n    size: {w: 0.001, h: 0.001}\n    safe: 0\n    bleed: 0\n")
    refused(cli, built, 'data/demo/set.yaml:8: card "Quick Draw": a 0.001 x 0.001 mm card puts 54,522,860,000 faces on '
                        'one letter sheet; limit: faces on one page of a built-in sheet, CARDGEN_MAX_GRID_SLOTS=250000 '
                        '(set that environment variable higher to raise it)', ONE)


def test_a_board_tiled_over_more_pages_than_the_limit_is_refused_before_they_are_made(built, cli):
    """A 100 m board (or a board on paper little larger than the tiles' overlap) made page after
    page of tiles, hundreds of thousands of them, and the build never ended."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "    template: demo/action.xml.j2\n",
         "    template: demo/action.xml.j2\n    size: {w: 100000, h: 100000}\n")
    refused(cli, built, 'data/demo/set.yaml:8: card "Quick Draw": a 100000 x 100000 mm card is tiled over 392 x 506 = '
                        '198,352 pages of letter paper; limit: pages one face larger than the paper is tiled over, '
                        'CARDGEN_MAX_BOARD_TILES=1000 (set that environment variable higher to raise it)', ONE)


def test_a_value_that_is_none_is_not_printed_as_a_colour_that_paints_nothing(built, cli):
    """``accent: ~`` in set.yaml printed as "None" in the attribute, read as the colour "none": the
    line was not drawn, and nothing said so."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "defaults:", "variables:\n  accent: ~\ndefaults:")
    edit(project / "templates/demo/action.xml.j2", 'stroke="#27408b"', 'stroke="{{ set.accent }}"')
    refused(cli, built, 'templates/demo/action.xml.j2:4: card "Quick Draw": the value printed here is none (left empty '
                        'in YAML, or nothing found), which would print as "None": give it a value, or test it with '
                        '`is none` (and 3 more cards)', ONE)


def test_a_value_that_is_none_is_not_printed_as_the_word(built, cli):
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", '{{ {"Quick Draw": "Fast."}.get(name) }}')
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Escape Artist": the value printed here is none (left '
                        'empty in YAML, or nothing found), which would print as "None": give it a value, or test it '
                        'with `is none` (and 2 more cards)', ONE)


def test_a_none_or_list_written_in_the_template_itself_is_not_printed_either(built, cli):
    """``{{ none }}`` printed "None": Jinja folded the constant when it compiled the template,
    autoescaped to the text "None" before cardgen's check saw it."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ none }}")
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{{ [1, 2] }}")
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Quick Draw": the value printed here is none (left empty '
                        'in YAML, or nothing found), which would print as "None": give it a value, or test it with '
                        '`is none` (and 3 more cards)',
            'templates/demo/token.xml.j2:3: card "Marker": the value printed here is a list, which would print as '
            'Python writes it, "[1, 2]": print its items in a loop, or join them with | join(", ")',
            "cardgen: 2 errors, 0 warnings")


JOINED_NONE = ('a value joined into text here (with ~, %, join or format) is none (left empty in YAML, or nothing '
               'found), which would print as "None": give it a value, or test it with `is none` (and 3 more cards)')


@pytest.mark.parametrize("joined", ['"Flavor: " ~ set.accent', '"Flavor: %s" % set.accent',
                                    '["Flavor", set.accent] | join(": ")', '"Flavor: %s" | format(set.accent)',
                                    '"Flavor: {}".format(set.accent)', '"Flavor: " ~ none'],
                         ids=["tilde", "percent", "join", "format", "str-format", "tilde-literal"])
def test_a_none_joined_into_text_is_not_printed_either(built, cli, joined):
    """``"Flavor: " ~ set.accent`` printed "Flavor: None" for a value left empty, as did the
    other ways of making text of it; ``~ none`` written in the template did still (a constant was let through)."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "defaults:", "variables:\n  accent: ~\ndefaults:")
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ " + joined + " }}")
    refused(cli, built, f'templates/demo/action.xml.j2:6: card "Quick Draw": {JOINED_NONE}', ONE)


def test_a_macro_printed_without_its_call_is_not_printed_as_python_writes_it(built, cli):
    project, _ = built
    edit(project / "templates/demo/token.xml.j2", "{{ label }}", "{% macro m() %}x{% endmacro %}{{ m }}")
    refused(cli, built, """templates/demo/token.xml.j2:3: card "Marker": the value printed here is a Macro, which would """
                        """print as Python writes it, "<Macro 'm'>": call it, with ()""", ONE)


def test_a_list_or_mapping_from_a_card_file_is_not_printed_as_python_writes_it(built, cli):
    """``flavor: [Fast, Quiet]`` in a YAML card file printed "['Fast', 'Quiet']" on the card."""
    project, _ = built
    edit(project / "data/demo/cards.yaml", "  flavor: Nobody saw him leave.", "  flavor: [Fast, Quiet]")
    edit(project / "data/demo/cards.yaml", "  label: M", "  label: {letter: M}")
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Escape Artist": the value printed here is a list, which '
                        'would print as Python writes it, "[\'Fast\', \'Quiet\']": print its items in a loop, or join '
                        'them with | join(", ")',
            'templates/demo/token.xml.j2:3: card "Marker": the value printed here is a mapping, which would print as '
            'Python writes it, "{\'letter\': \'M\'}": print one of its values', "cardgen: 2 errors, 0 warnings")


def test_a_file_name_longer_than_a_file_system_takes_is_said_at_its_line(built, cli):
    """It was "cardgen: cannot open data/demo/icons/sss…: file name too long", naming no line."""
    project, _ = built
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/" + "s" * 300 + ".svg")
    refused(cli, built, 'data/demo/set.yaml:22: icon "star": image "icons/' + "s" * 114 + "…" + "s" * 26 + '.svg" '
                        '(310 characters) is not a file name (a part of it is 304 bytes long; a file system takes '
                        'at most 255)', ONE)


def test_an_svg_holding_nan_or_inf_is_refused_at_the_line_that_names_it(built, cli):
    """svglib reads "nan" and "inf" as numbers; the card then failed where it was drawn, as
    "cannot draw <image>: ValueError: cannot convert float NaN to integer", naming neither the
    card nor the SVG."""
    project, _ = built
    star = project / "data/demo/icons/star.svg"
    edit(star, 'viewBox="0 0 20 20"', 'viewBox="0 0 nan 20"')
    line = ('data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read SVG "data/demo/icons/star.svg": '
            "it holds nan or inf where a number belongs (svglib read it as a group's transform)")
    refused(cli, built, line, ONE)
    edit(star, 'viewBox="0 0 nan 20"><polygon', 'viewBox="0 0 20 20"><polygon stroke-width="inf" stroke="red"')
    refused(cli, built, line.replace("a group's transform", "a polygon's strokeWidth"), ONE)


def test_an_svg_group_flattened_to_nothing_is_left_out_as_a_browser_leaves_it(built, cli):
    """A group scaled by 0 (or by a matrix whose determinant is 0) made reportlab divide by zero
    as it drew the icon: an internal error naming neither the card nor the SVG."""
    from pdftext import page_texts

    project, _ = built
    star = project / "data/demo/icons/star.svg"
    edit(star, "<polygon", '<g transform="matrix(0 0 0 0 0 0)"><rect width="5" height="5"/></g><polygon transform="scale(0)"')
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": SVG "star.svg" draws nothing: it '
                        "holds no shape (path, rect, circle, polygon, ...)", ONE)
    edit(star, '<polygon transform="scale(0)"', "<polygon")
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    assert "Escape Artist" in page_texts(project / "output/demo.pdf")[0]


def test_a_custom_paper_from_the_command_line_is_named_in_the_does_not_fit_message(built, cli):
    """`--paper 60x80 --gutter-fold` was an internal error: the message formatted "60mm" as a number."""
    refused(cli, built, 'data/demo/set.yaml:8: card "Quick Draw": a 63.5 x 88.9 mm card with 3 mm bleed does not fit '
                        'twice (front and back, gutter fold) on 60 x 80 mm paper (60 x 80 mm) with a 4 mm margin and '
                        'room for crop marks', ONE, args=("build", "demo", "--paper", "60x80", "--gutter-fold"))


def test_a_paper_side_of_zero_on_the_command_line_is_the_options_problem(built, cli):
    """It was blamed on set.yaml's first line ("data/demo/set.yaml:1: paper sides must be greater
    than 0"), which does not name a paper, and exited 1."""
    project, before = built
    for paper, said in (("0x5", '"0x5": paper sides must be greater than 0'),
                        ("1.2.3x4", '"1.2.3x4" is not letter, a4, a3 or a size such as 300x200 (mm) or 11x17in')):
        result = cli(project, "build", "demo", "--paper", paper)
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, f"Error: Invalid value for '--paper': {said}")


def test_text_that_is_no_number_is_not_made_zero_by_the_int_filter(built, cli):
    """``{{ cost | int + 1 }}`` with a cost of "X" printed 1: Jinja's int made "X" 0 without a word."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ (flavor | int) + (flavor | float(0)) }}")
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Escape Artist": | int of text that is not a whole '
                        "number, which Jinja makes 0: give a number, or say what it makes instead: | int(0)",
            ONE)  # the other cards' flavor is empty: 0, as a blank cell is


@pytest.mark.parametrize("expression", ['"{0:>{1}}".format(name, 10 ** 9)', '"{0:>{1[0][0]}}".format(name, [[10 ** 9]])',
                                        '"%*s" % (10 ** 9, name)', '"%.*f" | format(10 ** 9, 1.5)'])
def test_a_width_a_format_takes_from_its_values_is_charged_before_it_is_built(built, cli, expression):
    """A width written in the format string was charged; one taken from the values ("*", or a field
    inside a field) was not, and a billion-space title hung the build."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", ">{{ name }}<", ">{{ " + expression + " }}<")
    refused(cli, built, 'templates/demo/action.xml.j2:3: card "Quick Draw": the template takes too many steps '
                        "(loops inside loops, or a very long value); limit: loop turns and calls in one template "
                        "rendering, CARDGEN_MAX_TEMPLATE_STEPS=1000000 (set that environment variable higher to "
                        "raise it)", ONE)


def test_a_template_prints_the_same_at_every_build(built, cli):
    """Jinja's random filter and lipsum drew anew at every build: the same input printed
    differently, and a reprint never matched. lipsum now gives the same words; random is refused."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{{ flavor }}", "{{ lipsum(1, false, 3, 5) }}")
    first = cli(project, "build", "demo", "--no-cache", "--out", "a")
    second = cli(project, "build", "demo", "--no-cache", "--out", "b")
    assert (first.exit_code, second.exit_code) == (0, 0)
    assert (project / "a/demo.pdf").read_bytes() == (project / "b/demo.pdf").read_bytes()
    edit(project / "templates/demo/action.xml.j2", "{{ lipsum(1, false, 3, 5) }}", "{{ ['a', 'b'] | random }}")
    refused(cli, built, 'templates/demo/action.xml.j2:6: card "Quick Draw": the random filter picks anew at every '
                        "build, and the same input must print the same: pick by something of the card, such as "
                        "items[copy % items | length] (and 3 more cards)", ONE)


def test_a_rule_message_takes_its_names_alone(built, cli):
    """``{card:>1000000000}`` in a rule's message built a billion spaces for each failure: the check hung."""
    project, _ = built
    (project / "data/demo/rules.yaml").write_text('rules:\n  - rule: copies\n    max: 0\n'
                                                  '    message: "{card:>1000000000} and {actual!r}"\n')
    edit(project / "data/demo/set.yaml", "cards:", "rules: [rules.yaml]\ncards:")
    refused(cli, built, 'data/demo/rules.yaml:4: "message" uses {card:>1000000000}; write the name alone: {card}',
            'data/demo/rules.yaml:4: "message" uses {actual!r}; write the name alone: {actual}',
            "cardgen: 2 errors, 0 warnings")


def test_a_device_named_on_the_command_line_is_not_read(built, cli):
    """``--deck`` naming the zero device (and --changed-since, --sheet, an import's FILE) was read until memory
    ran out. A device is refused; os.devnull stands for one here, as it reads nothing."""
    import os

    project, before = built
    for args, option in ((("check", "demo", "--deck", os.devnull), "'--deck'"),
                         (("build", "demo", "--changed-since", os.devnull), "'--changed-since'"),
                         (("import", "ce-conv", os.devnull, "--set", "demo"), "'FILE'")):
        result = cli(project, *args)
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (
            2, f'Error: Invalid value for {option}: "{os.devnull}" is a device, not a file')
    refused(cli, built, f"{os.devnull}: it is a device, not a file", ONE,
            args=("build", "demo", "--sheet", os.devnull))


def test_a_sheet_given_as_empty_text_is_refused(built, cli):
    """``--sheet ''`` (a variable left unset) printed on the plain grid without a word."""
    project, before = built
    result = cli(project, "build", "demo", "--sheet", "")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2, "Error: Invalid value for '--sheet': empty text: name a sheet template (OL32, circle-cut, ...) or a file")
    intact(project, before)


def test_a_rules_option_given_as_empty_text_is_refused_as_usage(built, cli):
    """``--rules-option ''`` was blamed on the set's set.yaml, line 1."""
    project, _ = built
    result = cli(project, "check", "demo", "--rules-option", "")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2, "Error: Invalid value for '--rules-option': empty text: name an option of the set's rules files (their "
           "`options:`)")


@pytest.mark.parametrize("root", ["", " "])
def test_a_root_given_as_empty_text_is_refused(built, root, monkeypatch):
    """``--root ''`` (a variable left unset) quietly built the working folder's project."""
    from click.testing import CliRunner

    from cardgen.cli import main

    project, before = built
    monkeypatch.chdir(project)  # a project is here: the empty root would have built it
    result = CliRunner().invoke(main, ["--root", root, "build", "demo"], catch_exceptions=False)
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2, "Error: Invalid value for '--root': empty text: name the project folder (. for this one)")
    intact(project, before)


@pytest.mark.parametrize("args", [("build", "demo"), ("proof", "demo"), ("export", "demo"), ("calibrate",), ("clean",),
                                  ("preflight", "demo"), ("watch", "demo"), ("serve", "demo"), ("new",)])
def test_an_output_folder_given_as_empty_text_is_refused(built, cli, args):
    """``--out ''`` (a variable left unset) was read as the current folder: the build wrote its
    PDF among the project's own files, and ``clean`` would clean there."""
    project, before = built
    listing = sorted(p.name for p in project.iterdir())
    result = cli(project, *args, *(("--out",) if args != ("new",) else ()), "")
    option = "'PATH'" if args == ("new",) else "'--out'"
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2, f"Error: Invalid value for {option}: empty text: name a folder (\".\" for the current one)")
    assert sorted(p.name for p in project.iterdir()) == listing
    intact(project, before)


def test_a_file_where_the_fonts_folder_goes_is_said(built, cli):
    """A file named ``fonts`` at the project's root was passed over without a word: the project's
    own fonts were not there, and the build went on with cardgen's."""
    import shutil

    project, _ = built
    shutil.rmtree(project / "fonts")
    (project / "fonts").write_text("DejaVuSans.ttf\n")
    refused(cli, built, "fonts: it is a file, not a folder: the project's own fonts go in a folder named fonts "
                        "(rename or remove the file)", ONE)
