"""Card markup values at the edges, found by a hostile sweep over the elements after rect,
circle, ellipse and line (polygon, path, image, text, group, clip): each is printed as written,
in numbers PDF readers read, or refused in one line naming the template line and the card."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
import pypdfium2

from demobuild import built, demo_build, intact, refused  # noqa: F401 (built, demo_build: fixtures)

BACKGROUND = '<rect x="-3" y="-3" w="69.5" h="94.9" fill="#ffffff"/>'


def layout(project: Path, element: str) -> None:
    """The action cards' layout: a white ground and ``element``, on the template's line 2."""
    (project / "templates/demo/action.xml.j2").write_text(f"<card>{BACKGROUND}\n{element}\n</card>\n")


def operators(pdf: Path, wanted: str) -> list[list]:
    """The operands of every ``wanted`` operator on the first page, as a PDF reader parses them
    (pikepdf): a number the reader does not take as a number fails the parse or shows here."""
    with pikepdf.open(pdf) as document:
        page = document.pages[0]
        found = []
        for stream in [page, *(x for x in page.Resources.get("/XObject", {}).values())]:
            for operands, operator in pikepdf.parse_content_stream(stream):
                if str(operator) == wanted:
                    found.append([Decimal(str(o)) if isinstance(o, (int, Decimal)) else o for o in operands])
        return found


def test_a_tiny_ink_is_written_as_a_pdf_number(built, cli):
    # Python writes 0.00001 as "1e-05", which PDF readers do not read as a number
    project, _ = built
    layout(project, '<rect x="5" y="5" w="20" h="10" fill="cmyk(0.001,0,0,0)" stroke="cmyk(0,0.0001,0,100)"/>')
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    assert [Decimal("0.00001"), 0, 0, 0] in operators(project / "output/demo.pdf", "k")
    assert [0, Decimal("0.000001"), 0, 1] in operators(project / "output/demo.pdf", "K")


def test_a_tiny_ink_of_text_is_written_as_a_pdf_number(built, cli):
    project, _ = built
    layout(project, '<text x="5" y="5" w="40" h="20" size="1" color="cmyk(0.002,0,0,100)">Hello</text>')
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    sizes = {operands[1] for operands in operators(project / "output/demo.pdf", "Tf")}
    assert 1 in sizes
    assert [Decimal("0.00002"), 0, 0, 1] in operators(project / "output/demo.pdf", "k")


@pytest.mark.parametrize("element, message", [
    # one shading has one colour space: reportlab refused it while drawing, naming no card
    ('<rect x="5" y="5" w="20" h="10" fill="linear-gradient(90, cmyk(0,50,0,0), #000000)"/>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": <rect> fill: a gradient\'s colours are all cmyk() '
     "or all RGB (#rrggbb or names), not both"),
    # (the same in a card's data is refused as the card file is read: "the text holds U+D800, ...")
    ('<text x="5" y="5" w="40" h="20">{{ "\\ud800" }}</text>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": a value here holds U+D800 (not a character: half of a '
     "UTF-16 pair), which card markup cannot carry (and 3 more cards)"),
    # it said "r must be between 0 and half the shorter side": not which element, nor the numbers
    ('<rect x="5" y="5" w="20" h="10" r="6"/>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": <rect> r: must be between 0 and half the shorter side '
     "(5 mm), got 6"),
    ('<image x="5" y="5" w="8" h="10" r="-1" src="icons/star.svg"/>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": <image> r: must be between 0 and half the shorter side '
     "(4 mm), got -1"),
    ('<text x="5" y="5" w="40" h="20" size="8" min-size="9">x</text>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": <text> min-size: must not be larger than size (8 pt), '
     "got 9"),
    # it was "the set's folder is a folder, not a file"
    ('<image x="5" y="5" w="8" h="10" src=" "/>',
     'templates/demo/action.xml.j2:2: card "Quick Draw": image src is empty: it names no file'),
], ids=["a gradient of cmyk and rgb colours", "half a utf-16 pair written in a template", "a corner too round",
        "an image's corner below 0", "a smallest size above the largest", "an empty image src"])
def test_a_value_the_layout_writes_is_refused_at_its_line(built, cli, element, message):
    project, _ = built
    layout(project, element)
    refused(cli, built, message, "cardgen: 1 error, 0 warnings")


def test_a_gradient_of_cmyk_colours_alone_is_drawn(built, cli):
    project, _ = built
    layout(project, '<rect x="5" y="5" w="20" h="10" fill="linear-gradient(90, cmyk(0,50,0,0), cmyk(0,0,0,100))"/>')
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    with pikepdf.open(project / "output/demo.pdf") as document:
        shadings = [s for s in document.pages[0].Resources.get("/Shading", {}).values()]
        assert shadings and all(str(s.ColorSpace) == "/DeviceCMYK" for s in shadings)


def test_text_outside_any_text_box_is_refused(built, cli):
    """``<card>{{ name }}<rect .../>``: a value outside every <text> printed nowhere, and the
    build went on with blank faces."""
    project, _ = built
    (project / "templates/demo/action.xml.j2").write_text(f"<card>{{{{ name }}}}{BACKGROUND}\n</card>\n")
    refused(cli, built,
        'templates/demo/action.xml.j2:1: card "Quick Draw": <card> cannot contain text (put it in a <text>) '
        "(and 3 more cards)", "cardgen: 1 error, 0 warnings")


def test_text_after_an_element_on_the_card_is_refused(built, cli):
    project, before = built
    layout(project, '<rect x="5" y="5" w="20" h="10" fill="#c00000"/> stray')
    result = cli(project, "build", "demo", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        'templates/demo/action.xml.j2:2: card "Quick Draw": <card> cannot contain text (put it in a <text>)')
    intact(project, before)


def test_stray_text_is_said_at_its_own_line(built, cli):
    """Text left between two elements was blamed on the <card> line, however far down the layout
    it was. Its line is counted from the element after it (here across a three-line <rect>);
    where a line of Jinja statements lies between, which prints no line, the two elements
    around it are named too."""
    project, before = built
    template = project / "templates/demo/action.xml.j2"
    rect = '<rect x="5" y="5"\n  w="20" h="10"\n  fill="#c00000"/>'
    template.write_text(f"<card>{BACKGROUND}\n{BACKGROUND}\n  stray words\n{rect}\n</card>\n")
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1,
        'templates/demo/action.xml.j2:3: card "Quick Draw": <card> cannot contain text (put it in a <text>)')
    template.write_text(f"<card>{BACKGROUND}\n{{% if true %}}\n{BACKGROUND}\n{{% endif %}}\n  stray words\n"
                        f"{{# a comment #}}\n{rect}\n</card>\n")
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1,
        'templates/demo/action.xml.j2:6: card "Quick Draw": <card> cannot contain text (put it in a <text>) '
        "(it is written between the <rect> of line 3 and the <rect> of line 7)")
    template.write_text(f'<card>{BACKGROUND}\n<group opacity="0.5">\n{BACKGROUND}\n  loose\n{rect}\n</group>\n</card>\n')
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1,
        'templates/demo/action.xml.j2:4: card "Quick Draw": <group> cannot contain text (put it in a <text>)')
    intact(project, before)


def test_text_before_the_card_is_said_at_its_own_line(built, cli):
    """Text written above ``<card>`` was blamed on the <card> line; it is counted up from it, and
    the <card>'s line named too (a line of Jinja statements between, which prints no line,
    would put the count below the text)."""
    project, before = built
    template = project / "templates/demo/action.xml.j2"
    template.write_text(f"{{# the action card #}}\n  stray words\n\n<card>{BACKGROUND}\n</card>\n")
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1,
        'templates/demo/action.xml.j2:2: card "Quick Draw": the template writes text before the <card> of line 4 '
        "(card markup is one <card> element; put text in a <text>)")
    template.write_text(f"{{# the action card #}}\n\nstray <card>{BACKGROUND}\n</card>\n")
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (1,
        'templates/demo/action.xml.j2:3: card "Quick Draw": the template writes text before <card> (card markup is '
        "one <card> element; put text in a <text>)")
    intact(project, before)


def test_a_quote_never_closed_in_a_csv_file(built, cli):
    """Python's CSV reader takes the rest of the file into the open cell: the rows after it
    vanished into one card's text, and the build went on."""
    project, _ = built
    (project / "data/demo/more.csv").write_text('name,count,text\nFirst,1,"Opened\nSecond,1,lost\nThird,1,lost\n')
    refused(cli, built,
        "data/demo/more.csv:2: a quoted cell on this row is never closed: the file ends inside it (the rows after "
        "it were read as its text)", "cardgen: 1 error, 0 warnings")


def test_a_quote_left_open_before_more_than_a_cell_can_hold(built, cli):
    """Python's reader stops where the open cell passes its limit (128 KB), far below the quote:
    "data/demo/more.csv:1171: invalid CSV: field larger than field limit (131072)"."""
    project, _ = built
    rows = "".join(f"Row {n},1,{'text ' * 25}\n" for n in range(1200))
    (project / "data/demo/more.csv").write_text(f'name,count,text\nFirst,1,"Opened\n{rows}')
    refused(cli, built, "data/demo/more.csv:2: a quoted cell on this row is never closed: the file ends inside it "
                        "(the rows after it were read as its text)", "cardgen: 1 error, 0 warnings")


def test_a_quoted_cell_over_several_lines_at_the_end_of_a_csv_file_is_fine(built, cli):
    project, _ = built
    (project / "data/demo/more.csv").write_text('name,count,text\nFirst,1,"Two\nlines ""quoted"""\n')
    result = cli(project, "build", "demo", "--no-cache")
    assert (result.exit_code, result.stderr) == (0, "")


def test_transparent_paints_nothing(built, cli):
    """CSS's "transparent" is no paint; reportlab's colour of that name is black with an alpha
    of 0, and a direct PDF colour has no alpha: it painted black."""
    project, _ = built
    drawn = {}
    for paint in ("none", "transparent"):
        layout(project, f'<rect x="5" y="5" w="20" h="10" fill="{paint}" stroke="{paint}"/>'
                        f'<polygon points="5,5 20,5 10,20" fill="{paint}" stroke="#000000"/>')
        assert cli(project, "build", "demo", "--no-cache").exit_code == 0
        page = pypdfium2.PdfDocument(str(project / "output/demo.pdf"))[0]
        drawn[paint] = page.render(scale=1).to_pil().tobytes()
    assert drawn["transparent"] == drawn["none"]
