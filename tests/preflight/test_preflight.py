"""`cardgen preflight`: each finding once, with the template line, the cards and a count."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from cardgen.export import export
from cardgen.preflight import preflight
from projects import REPO


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


def lines(project, shop="home"):
    (report,) = preflight(["demo"], project, shop)
    return [str(f) for f in report.findings], report


def test_a_clean_set_passes(project, cli):
    result = cli(project, "preflight", "demo")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "demo: preflight for home: 0 errors, 0 warnings"


def test_small_text_light_text_and_thin_lines(project):
    action = project / "templates/demo/action.xml.j2"
    edit(action, 'size="8" min-size="6" style="italic"', 'size="5.5" min-size="5" style="italic"')
    edit(action, 'stroke="#27408b" stroke-width="0.4"', 'stroke="#27408b" stroke-width="0.05"')
    back = project / "templates/demo/back.xml.j2"
    edit(back, 'size="16" weight="bold" align="center" valign="middle" color="#27408b"',
         'size="6.5" weight="bold" align="center" valign="middle" color="#ffffff"')
    edit(back, '<ellipse cx="{{ w / 2 }}" cy="{{ h / 2 }}" rx="20" ry="30" fill="#fdf6e3"/>', "")
    found, report = lines(project)
    assert found == [
        'templates/demo/action.xml.j2:4: error: <line> stroke 0.142 pt, under the 0.25 pt a press holds '
        '(4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)',
        'templates/demo/action.xml.j2:6: error: text box "flavor" prints at 5.5 pt, under the 6 pt minimum for text '
        '(1 card: Escape Artist)',
        'templates/demo/back.xml.j2:4: error: text box "logo" prints at 6.5 pt, under the 7 pt minimum for light '
        'text on a dark ground (4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)']
    assert report.errors == 3


def test_a_set_may_lower_a_minimum_with_a_reason(project, cli):
    edit(project / "templates/demo/action.xml.j2", 'size="8" min-size="6" style="italic"',
         'size="5.5" min-size="5" style="italic"')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "preflight:\n  - element: flavor\n    min-size: 5.5\n"
                        "    reason: a one-line flavour under the frame, read up close\n")
    result = cli(project, "preflight", "demo")
    assert result.exit_code == 0, result.output
    assert ('demo: data/demo/set.yaml:27: note: text box "flavor" may print down to 5.5 pt: a one-line flavour '
            'under the frame, read up close') in result.output.splitlines()


def test_a_lowered_minimum_is_written_as_text_and_a_number(project):
    """``reason: [a, b]`` was printed as "['a', 'b']" in preflight's note, and ``min-size: true``
    lowered the minimum to 1 pt (float(True))."""
    from cardgen import CardgenError, load_set

    set_yaml = project / "data/demo/set.yaml"
    original = set_yaml.read_text()
    for entry, message in (
            ("{element: flavor, min-size: 5, reason: [a, b]}", "preflight reason must be text, got a list"),
            ("{element: [flavor], min-size: 5, reason: close}", "preflight element must be text, got a list"),
            ("{element: flavor, min-size: true, reason: close}", 'min-size must be a number of points, got "true"')):
        set_yaml.write_text(original + f"preflight:\n  - {entry}\n")
        with pytest.raises(CardgenError) as error:
            load_set("demo", project)
        assert str(error.value) == f"data/demo/set.yaml:27: {message}"


def test_a_low_resolution_image_is_an_error_and_a_middling_one_a_warning(project):
    Image.new("RGB", (40, 30), "red").save(project / "data/demo/tiny.png")
    Image.new("RGB", (500, 500), "red").save(project / "data/demo/middling.png")
    action = project / "templates/demo/action.xml.j2"
    edit(action, "{% endblock %}", '<image x="4" y="40" w="55" h="20" src="tiny.png" fit="stretch"/>\n'
                                   '<image x="20" y="62" w="50.8" h="50.8" src="middling.png"/>\n{% endblock %}')
    found, _ = lines(project)
    assert found[0] == ('templates/demo/action.xml.j2:7: error: image "tiny.png" (40 x 30 px over 55 x 20 mm) prints '
                        'at 18 dpi, under 150 dpi (4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)')
    assert ('templates/demo/action.xml.j2:8: warning: image "middling.png" (500 x 500 px over 50.8 x 50.8 mm) prints '
            'at 250 dpi, under 300 dpi (4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)') in found


def test_shop_safe_margin_bleed_sizes_and_backs(project):
    frame = project / "templates/demo/frame.xml.j2"
    edit(frame, 'x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}"',
         'x="-2" y="-2" w="{{ w + 4 }}" h="{{ h + 4 }}"')
    edit(project / "templates/demo/action.xml.j2", '<text name="body" x="5"', '<text name="body" x="3"')
    set_yaml = project / "data/demo/set.yaml"
    edit(set_yaml, "safe: 1\n", "safe: 1\n  plainback:\n    template: demo/action.xml.j2\n")
    (project / "data/demo/more.csv").write_text("name,count,text\nNo Back,2,x\n")
    edit(project / "data/demo/cards.yaml", "type: action\n  text: |-", "type: plainback\n  text: |-")
    found, report = lines(project, "drivethru")
    assert found == [
        'templates/demo/action.xml.j2:5: error: text box "body" reaches 0.17 mm into the 3.17 mm safe margin '
        '(cut drift may trim it) (3 cards: Quick Draw, Escape Artist, No Back)',
        'templates/demo/frame.xml.j2:2: error: <rect> reaches the trim on the left, top, right and bottom edges but '
        'stops 2.00 mm beyond it: the 3.17 mm bleed shows paper white (draw it to -bleed) (3 cards: Quick Draw, '
        'Escape Artist, No Back)',
        'data/demo/set.yaml:11: warning: card type "token": 20 x 20 mm circle is no size the shop makes; its 3 faces '
        'are left out of the export',
        'data/demo/set.yaml:17: warning: card type "plainback" has no back, and the shop prints both sides: a plain '
        'paper-white back is sent (1 card; name a back in set.yaml)']
    assert report.errors == 2


def test_ink_and_transparency_for_pdfx(project, cli):
    edit(project / "templates/demo/frame.xml.j2", 'fill="#27408b"', 'fill="cmyk(100,100,100,100)"')
    edit(project / "templates/demo/action.xml.j2", 'stroke-width="0.4"/>', 'stroke-width="0.4" opacity="0.5"/>')
    found, _ = lines(project, "drivethru")
    assert ('templates/demo/frame.xml.j2:2: error: <rect> fill totals 400% ink, over the 300% the printing '
            'condition allows (4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)') in found
    assert ('templates/demo/action.xml.j2:4: warning: <line> opacity 0.5: transparency is not allowed in PDF/X-1a; '
            'the export pre-mixes it against paper white (give a solid colour, e.g. mix(), to control it) '
            '(4 cards: Quick Draw, Escape Artist, Attack <12> & more and 1 more)') in found
    assert not [f for f in lines(project, "home")[0] if "ink" in f]  # an RGB home build is not inked


def test_written_pdfx_files_are_read(project, cli):
    export("demo", project, shop="drivethru")
    assert [f for f in lines(project, "drivethru")[0] if "output/" in f] == []
    path = project / "output/drivethru/demo/poker-plain.pdf"
    data = path.read_bytes().replace(b"/OutputIntents", b"/OutputIntentz")
    path.write_bytes(data)
    assert [f for f in lines(project, "drivethru")[0] if "output/" in f] == [
        "output/drivethru/demo/poker-plain.pdf: error: a PDF/X file needs exactly one OutputIntent: export it again"]


def test_a_cmyk_pictures_own_ink_is_read_in_the_written_file(project, cli):
    """A picture given in CMYK goes to the PDF/X file with its own inks: a 400% rich black in a
    CMYK JPEG was sent, and preflight, reading only the files' colour operators, passed it."""
    picture = Image.new("CMYK", (120, 80), (0, 0, 0, 0))
    picture.paste((255, 255, 255, 255), (0, 0, 60, 80))  # the left half 100% of every ink
    picture.save(project / "data/demo/rich.jpg", quality=95)
    edit(project / "templates/demo/action.xml.j2", "{% endblock %}",
         '<image x="10" y="40" w="10" h="6.6" src="rich.jpg"/>\n{% endblock %}')
    export("demo", project, shop="drivethru")
    assert [f for f in lines(project, "drivethru")[0] if "output/" in f] == [
        "output/drivethru/demo/poker-plain.pdf: error: an image's darkest colour totals 400% ink, over the 300% "
        "the printing condition allows (a picture given in CMYK is sent with its own inks)"]


def test_written_pdfx_files_are_read_whole_and_every_dictionary_in_them(project, cli):
    """A file cut short was opened "recovered" with some of its pages and passed; a page's
    transparency group, written inside the page, is no object of its own and was not looked
    at; /OutputIntents as a number stopped preflight with an internal error."""
    import pikepdf

    export("demo", project, shop="drivethru")
    path = project / "output/drivethru/demo/poker-plain.pdf"
    good = path.read_bytes()
    path.write_bytes(good[:len(good) // 2])
    assert [f for f in lines(project, "drivethru")[0] if "output/" in f] == [
        "output/drivethru/demo/poker-plain.pdf: error: cannot read the PDF (can't find startxref): a damaged or "
        "cut-short file? export it again"]
    path.write_bytes(good)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.pages[0].obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB)
        pdf.Root.OutputIntents = 1
        pdf.save(path)
    assert [f for f in lines(project, "drivethru")[0] if "output/" in f] == [
        "output/drivethru/demo/poker-plain.pdf: error: a PDF/X file needs exactly one OutputIntent: export it again",
        "output/drivethru/demo/poker-plain.pdf: error: transparency in a PDF/X-1a file (transparency group): "
        "export it again"]


def test_json_and_exit_code(project, cli):
    edit(project / "templates/demo/action.xml.j2", 'size="8" min-size="6" style="italic"',
         'size="5.5" min-size="5" style="italic"')
    result = cli(project, "preflight", "demo", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    (finding,) = data["sets"][0]["findings"]
    assert finding == {"check": "text-size", "severity": "error",
                       "message": 'text box "flavor" prints at 5.5 pt, under the 6 pt minimum for text',
                       "file": "templates/demo/action.xml.j2", "line": 6, "cards": ["Escape Artist"], "count": 1}
    assert cli(project, "preflight", "nope").exit_code == 2


@pytest.mark.parametrize("shop", ["home", "drivethru"])
def test_every_shipped_set_passes(shop, tmp_path):
    reports = preflight(None, REPO, shop, out=tmp_path)  # nothing written there: faces only
    assert {r.name: [str(f) for f in r.findings if f.severity == "error"] for r in reports} == {
        name: [] for name in ("death-mesa", "prisoners", "prisoners-warp", "prohibition", "skill-tokens")}
    notes = [note for r in reports for note in r.notes]
    # the reason is printed where the lowered minimum is used (labels are not sent to DriveThruCards)
    assert any('text box "skill" may print down to 4.2 pt' in note for note in notes) == (shop == "home")


def test_shop_products_for_tgc_and_mpc(project):
    for shop in ("tgc", "mpc"):
        found, report = lines(project, shop)
        assert found == ['data/demo/set.yaml:11: warning: card type "token": 20 x 20 mm circle is no size the shop '
                         "makes; its 3 faces are left out of the export"]
