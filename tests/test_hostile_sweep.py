"""Bad input found by a sweep over each kind of input (card files, set.yaml, images, icons,
templates): each is said as ``file:line: card "X": message`` at the place to edit, never as an
internal error or a silent misprint, and a failing build keeps the earlier output."""
from __future__ import annotations

import pytest

from cardgen import CardgenError
from cardgen.errors import Problem, Source
from cardgen.render.environment import marked_source

from demobuild import built, demo_build, demo_bytes, edit, problems, refused  # noqa: F401 (built, demo_build: fixtures)
from pdftext import page_texts

ONE = "cardgen: 1 error, 0 warnings"


# --- images that hold more than one picture ---------------------------------------------------------

@pytest.mark.parametrize("file, held", [
    ("anim.gif", "it is animated (3 frames), and a card prints one picture: save the frame to print as a still "
                 "image (PNG)"),
    ("anim.webp", "it is animated (3 frames), and a card prints one picture: save the frame to print as a still "
                  "image (PNG)"),
    ("pages.tif", "it holds 3 pages, and a card prints one picture: save the page to print as an image of its own"),
], ids=["gif", "webp", "tiff"])
def test_an_image_of_several_frames_or_pages_is_refused_where_it_is_used(built, cli, file, held):
    """Printed, it was its first frame without a word: the designer who meant another never knew."""
    from PIL import Image

    project, _ = built
    frames = [Image.new("RGB", (20, 20), color) for color in ("red", "green", "blue")]
    frames[0].save(project / "data/demo/icons" / file, save_all=True, append_images=frames[1:], duration=100)
    edit(project / "data/demo/set.yaml", "icons/star.svg", f"icons/{file}")
    refused(cli, built, f'data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read image '
                        f'"data/demo/icons/{file}": {held}', ONE)


def test_an_eps_image_is_refused_never_run(built, cli):
    """Pillow reads an EPS by having Ghostscript run it, where Ghostscript is installed: a set's
    PostScript program run on the machine that builds it (without Ghostscript, Pillow's words:
    "Unable to locate Ghostscript on paths")."""
    project, _ = built
    (project / "data/demo/icons/star.eps").write_text("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n"
                                                      "0 0 moveto 10 10 lineto stroke\nshowpage\n")
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/star.eps")
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read image '
                        '"data/demo/icons/star.eps": an EPS file is a PostScript program, which cardgen does not run: '
                        "save it as SVG, PNG or JPG", ONE)


def test_a_png_whose_metadata_decompresses_to_megabytes_is_said_so(built, cli):
    """Pillow's own guard refuses it, in the names of its variables: "Decompressed data too large
    for PngImagePlugin.MAX_TEXT_CHUNK"."""
    import struct
    import zlib

    from PIL import Image

    project, _ = built
    Image.new("RGB", (20, 20), "red").save(project / "data/demo/icons/text.png")
    data = (project / "data/demo/icons/text.png").read_bytes()
    body = b"Comment\0\0" + zlib.compress(b"x" * 2_000_000)
    chunk = struct.pack(">I", len(body)) + b"zTXt" + body + struct.pack(">I", zlib.crc32(b"zTXt" + body))
    (project / "data/demo/icons/text.png").write_bytes(data[:33] + chunk + data[33:])  # after IHDR
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/text.png")
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": cannot read image '
                        '"data/demo/icons/text.png": its metadata (a text or colour-profile chunk) decompresses to '
                        "more than Pillow reads (over a megabyte): save the picture again without its metadata", ONE)


def test_a_still_gif_and_a_one_frame_tiff_still_print(built, cli):
    from PIL import Image

    project, _ = built
    Image.new("RGB", (20, 20), "red").save(project / "data/demo/icons/still.gif")
    Image.new("RGB", (20, 20), "red").save(project / "data/demo/icons/one.tif", save_all=True)
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/still.gif")
    edit(project / "data/demo/set.yaml", '  spade: {glyph: "♠", font: DejaVu Sans, color: "#000000"}',
         "  spade: {image: icons/one.tif}")
    result = cli(project, "check", "demo")
    assert (result.exit_code, result.stderr) == (0, "")


def test_an_icon_wider_than_its_text_box_is_the_icons_problem_not_the_texts(built, cli):
    """A 60000 x 1 icon made the text around it not fit, and the message blamed the card's text.
    Its width is its own pixels' proportion (not a downsampled copy's: 3,559 mm), in plain digits."""
    from PIL import Image

    project, _ = built
    Image.new("RGB", (60000, 1), "red").save(project / "data/demo/icons/wide.png")
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/wide.png")
    refused(cli, built, 'data/demo/set.yaml:22: card "Escape Artist": icon "star": its image is 95,250 mm wide '
                        'inline at the minimum size 5 pt, wider than text box "body" (53.5 mm)', ONE)


# --- long values in messages -------------------------------------------------------------------------

def test_a_long_value_is_quoted_shortened_in_one_line(built, cli):
    project, _ = built
    edit(project / "data/demo/cards.yaml", "  type: action\n", "  type: " + "x" * 9998 + "yz\n")
    refused(cli, built, 'data/demo/cards.yaml:2: card "Quick Draw": unknown card type "' + "x" * 120 + "…"
                        + "x" * 28 + 'yz" (10,000 characters) (the set has: action, token)', ONE)


def test_quoted_values_are_shortened_where_they_are_long_and_only_there():
    long_name = "N" * 100 + "M" * 100
    problem = Problem(f'got "{"a" * 161}", not "b" or "say "hi" now"', Source("f.yaml", 3), long_name)
    assert str(problem) == (f'f.yaml:3: card "{"N" * 100}{"M" * 20}…{"M" * 30}" (200 characters): got '
                            f'"{"a" * 120}…{"a" * 30}" (161 characters), not "b" or "say "hi" now"')
    kept = f'rule "{"r" * 160}": 2 copies'  # a designer's own long name, up to the limit, whole
    assert str(Problem(kept)) == kept


# --- template markers: only on the markup's own tags -------------------------------------------------

def test_markers_go_on_element_tags_never_inside_jinja_cdata_or_comments():
    source = ('<card>\n<text a="1">{% if a<b %}<b>x</b>{% endif %}{{ "}}<i>" }}<i>\n'
              '<![CDATA[<b>]]><x/>{# <y> #}<!-- <z> --><?pi <q>?><w>\n{{ never closed <v>')
    assert marked_source(source, "T") == (
        '<card _src="T:1">\n<text _src="T:2" a="1">{% if a<b %}<b _src="T:2">x</b>{% endif %}{{ "}}<i>" }}'
        '<i _src="T:2">\n<![CDATA[<b>]]><x _src="T:3"/>{# <y> #}<!-- <z> --><?pi <q>?><w _src="T:3">\n'
        "{{ never closed <v>")


def test_a_comparison_without_spaces_and_a_cdata_section_are_what_they_say(built, cli):
    """``{% if count<label %}`` was a syntax error ("got '_src'"), and a tag inside CDATA printed
    with its marker."""
    project, _ = built
    (project / "templates/demo/back.xml.j2").write_text(
        '<card>\n<text x="5" y="5" w="50" h="20">{% if count<2 %}<![CDATA[<few>]]>{% else %}many{% endif %}'
        "</text>\n</card>\n")
    assert cli(project, "build", "demo", "--no-cache").exit_code == 0
    backs = page_texts(project / "output/demo.pdf")[1].split()
    assert sorted(backs) == sorted(["Back", "side:", "flip", "on", "long", "edge"] + ["<few>"] * 3 + ["many"] * 2)


def test_text_that_does_not_fit_is_not_blamed_on_a_number_inside_another(built, cli):
    """The count 1 is not what "&lt;12&gt;" in a CDATA section shows: the template line is named."""
    project, _ = built
    (project / "templates/demo/back.xml.j2").write_text(
        '<card>\n<text x="5" y="5" w="12" h="4" size="12" min-size="12"><![CDATA[<b>{{ name }}</b>]]></text>\n'
        "</card>\n")
    fit = 'the text does not fit at the minimum size 12 pt in text box (12 x 4 mm)'
    refused(cli, built,
            f'data/demo/cards.yaml:1: card "Quick Draw": field "name": {fit} (drawn by templates/demo/back.xml.j2:2)',
            f'data/demo/cards.yaml:5: card "Escape Artist": field "name": {fit} (drawn by '
            "templates/demo/back.xml.j2:2)",
            'templates/demo/back.xml.j2:2: card "Attack <12> & more": text box: the text does not fit at the minimum '
            "size 12 pt (12 x 4 mm)",
            f'data/demo/more.csv:3: card "Long Winded": field "name": {fit} (drawn by templates/demo/back.xml.j2:2)',
            "cardgen: 4 errors, 0 warnings")


# --- set.yaml ------------------------------------------------------------------------------------------

@pytest.mark.shipped_fonts
@pytest.mark.parametrize("old, new, message", [
    ("  - cards.yaml\n", "  - ../../templates/demo/back.xml.j2\n",
     "data/demo/set.yaml:24: card file \"../../templates/demo/back.xml.j2\": unknown card file type '.j2' (use "
     ".yaml, .csv, .tsv, .xlsx or .ods)"),
    ("  - cards.yaml\n", "  - cards.yaml\n  - {file: cards.yaml}\n",
     'data/demo/set.yaml:25: card file "cards.yaml" is listed twice in `cards` (first at line 24)'),
    ("name: demo\n", "name: demo\nlanguage: [en]\n", "data/demo/set.yaml:2: language must be text, got a list"),
    ("back: plain\n", "back: [plain]\n",
     'data/demo/set.yaml:10: card type "action": back must be text, got a list'),
], ids=["card file type", "card file twice", "language list", "back list"])
def test_a_set_yaml_entry_is_said_at_its_line(project, old, new, message):
    """The card file's type was said without set.yaml's line; a file listed twice built its cards
    twice; a list was read as the text "['en']"."""
    edit(project / "data/demo/set.yaml", old, new)
    assert problems(project) == [message]


def test_a_long_path_in_a_message_is_shortened_too(built, cli):
    project, before = built
    result = cli(project, "build", "demo", "--no-cache", "--out", "output/demo.pdf/" + "b" * 300)
    assert (result.exit_code, result.stderr) == (1, "cardgen: cannot write output/demo.pdf/" + "b" * 104 + "…" + "b" * 21
                                                 + "/demo.pdf (325 characters): output/demo.pdf is a file, not a folder\n")
    assert demo_bytes(project) == before



@pytest.mark.shipped_fonts
def test_a_build_that_fails_leaves_no_output_folder_it_made(project, cli):
    """A sheet template is read once the output's files are staged: a bad one left an empty
    output/ behind."""
    result = cli(project, "build", "demo", "--no-cache", "--sheet", "nope")
    assert (result.exit_code, result.stderr.splitlines()) == (1, [
        'data/demo/set.yaml:1: unknown sheet template "nope" (built-in: Endisch 6500012x, Online Labels OL32, Online '
        "Labels OL5275, circle-cut; or the path of a gLabels .xml or a sheet-template .yaml file)", ONE])
    assert sorted(p.name for p in project.iterdir()) == ["data", "templates"]


# --- images that would print wrong without a word ----------------------------------------------------

def _card_art(project, file: str) -> None:
    edit(project / "data/demo/cards.yaml", "- name: Escape Artist\n", f"- name: Escape Artist\n  art: {file}\n")
    (project / "templates/demo/back.xml.j2").write_text(
        '<card>\n{% if art is defined %}<image x="0" y="0" w="20" h="20" src="{{ art }}"/>{% endif %}\n</card>\n')


def test_a_jpeg_cut_short_is_refused_not_printed_grey_from_where_it_stops(built, cli):
    """Small enough to embed as it is, it went into the PDF undecoded."""
    from PIL import Image

    project, _ = built
    photo = project / "data/demo/icons/photo.jpg"
    Image.effect_noise((200, 200), 60).convert("RGB").save(photo)
    photo.write_bytes(photo.read_bytes()[:3000])
    _card_art(project, "icons/photo.jpg")
    refused(cli, built, 'data/demo/cards.yaml:6: card "Escape Artist": field "art": cannot read image '
                        '"data/demo/icons/photo.jpg": image file is truncated (drawn by templates/demo/back.xml.j2:2)',
            ONE)


def test_an_image_letterboxed_to_a_line_too_thin_to_print_is_refused(built, cli):
    project, _ = built
    (project / "data/demo/icons/wide.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1e308" height="10"><rect width="5" height="5"/></svg>\n')
    _card_art(project, "icons/wide.svg")
    refused(cli, built, 'data/demo/cards.yaml:6: card "Escape Artist": field "art": image "icons/wide.svg" is 1e+307 '
                        "times as wide as it is high: fitted in its 20 x 20 mm box it would print 20 x 2e-306 mm, too "
                        "thin to show (drawn by templates/demo/back.xml.j2:2)", ONE)


# --- messages -------------------------------------------------------------------------------------------

def test_writing_direction_controls_in_a_card_name_are_escaped_in_its_message():
    """Printed as they are, they turn the rest of the line round in a terminal."""
    assert str(Problem("x", Source("a.csv", 2), "\u202eQuick\u2066 Draw")) == 'a.csv:2: card "\\u202eQuick\\u2066 Draw": x'


def test_a_ce_conv_file_that_is_not_utf8_is_named_at_its_line(tmp_path):
    from cardgen.importers.ceconv import parse_ceconv

    (tmp_path / "bad.txt").write_bytes("#TF Test Fixtures\nTESTER [M:TF] DOES TESTS\nYou have the pow\xe9r\n"
                                       .encode("latin-1"))
    with pytest.raises(CardgenError) as excinfo:
        parse_ceconv(tmp_path / "bad.txt")
    assert [str(p) for p in excinfo.value.problems] == [
        f"{(tmp_path / 'bad.txt').as_posix()}:3: the file is not UTF-8 text: byte 0xE9 at byte offset 59 (save it as "
        "UTF-8)"]


def test_a_tts_export_that_fails_keeps_the_earlier_one_whole(built, cli):
    """It removed the earlier deck sheets first, and left a tts.json naming images that were gone;
    a first export that failed left output/tts/demo/ behind, empty."""
    project, _ = built
    star = (project / "data/demo/icons/star.svg").read_text()
    (project / "data/demo/icons/star.svg").write_text("garbage")
    assert cli(project, "export", "demo", "--tts").exit_code == 1
    assert not (project / "output/tts").exists()  # the first export, failing, leaves no folder of its own
    (project / "data/demo/icons/star.svg").write_text(star)
    assert cli(project, "export", "demo", "--tts").exit_code == 0
    folder = project / "output/tts/demo"
    earlier = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert sorted(earlier) == ["deck-1-back.png", "deck-1.png", "deck-2-back.png", "deck-2.png",
                               "demo.saved-object.json", "tts.json"]
    (project / "data/demo/icons/star.svg").write_text("garbage")
    result = cli(project, "export", "demo", "--tts")
    assert (result.exit_code, result.stderr.splitlines()) == (1, [
        'data/demo/icons/star.svg:1: card "Escape Artist": cannot read SVG: Start tag expected, \'<\' not found (a '
        "damaged or cut-short file?)", ONE])
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == earlier
    (folder / "deck-9.png").write_bytes(b"a sheet of an export that had nine")
    (project / "data/demo/icons/star.svg").write_text(star)
    assert cli(project, "export", "demo", "--tts").exit_code == 0
    assert sorted(path.name for path in folder.iterdir()) == sorted(earlier)  # the ninth sheet is gone


@pytest.mark.shipped_fonts
def test_a_card_shape_that_encloses_no_area_is_refused(project):
    """A shape of a point or a line was taken: the card would have no outline to cut."""
    edit(project / "data/demo/set.yaml", "    shape: circle\n", "    shape: {path: 'M 0 0 L 20 20'}\n")
    assert problems(project) == ["data/demo/set.yaml:14: shape: the outline encloses no area (it is a point or a "
                                 "line): the card would have no shape to cut"]


def test_a_preflight_finding_shortens_a_long_quoted_value_too():
    from cardgen.preflight.report import Finding

    finding = Finding("file", "error", f'cannot read image "{"i" * 200}.png"', Source("a.yaml", 3), ["X"])
    assert str(finding) == (f'a.yaml:3: error: cannot read image "{"i" * 120}…{"i" * 26}.png" (204 characters) '
                            "(1 card: X)")
