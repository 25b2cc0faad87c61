"""cardgen export --shop: pixel sizes, where the trim sits, the DriveThruCards PDF's boxes and fonts."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from cardgen.export import export

BLUE = (0x27, 0x40, 0x8B)  # the demo frame, drawn to the bleed edge
CREAM = (0xFD, 0xF6, 0xE3)  # its panel, 3 mm inside the trim
PX_PER_MM = 300 / 25.4


def near(pixel, colour, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def pngs(folder: Path):
    return sorted(p for p in folder.glob("*.png"))


@pytest.mark.parametrize("shop, poker, bleed_px", [("tgc", (825, 1125), 37.5), ("mpc", (822, 1122), 36)])
def test_png_shops_have_the_shops_pixel_sizes(project, shop, poker, bleed_px):
    lines = export("demo", project, shop=shop)
    folder = project / "output" / shop / "demo"
    title = "The Game Crafter" if shop == "tgc" else "MakePlayingCards"
    assert lines == [
        f'data/demo/set.yaml:11: warning: {title} makes no 20 x 20 mm circle cards: 3 faces of type "token" left out '
        "of the export",
        f"{title}: 5 PNGs in {folder} (5 rasterised), a folder per product with upload.csv: poker-plain"]
    files = pngs(folder / "poker-plain")
    assert [p.name for p in files] == ["attack-12-more.png", "back.png", "escape-artist.png", "long-winded.png",
                                       "quick-draw.png"]
    for path in files:
        with Image.open(path) as image:
            assert image.mode == "RGB"
            assert [round(d) for d in image.info["dpi"]] == [300, 300]
            assert image.size == poker, path.name
    with Image.open(folder / "poker-plain/escape-artist.png") as image:
        # the set has 3 mm of bleed, less than the shop's: it is drawn again with more, so the
        # whole bleed is the card's colour, to the corner
        for corner in ((0, 0), (poker[0] - 1, 0), (0, poker[1] - 1), (poker[0] - 1, poker[1] - 1)):
            assert near(image.getpixel(corner), BLUE), corner
        panel_edge = bleed_px + 3 * PX_PER_MM  # the trim sits exactly bleed_px in
        row = poker[1] // 2
        assert near(image.getpixel((round(panel_edge) - 4, row)), BLUE)
        assert near(image.getpixel((round(panel_edge) + 6, row)), CREAM)
        assert near(image.getpixel((poker[0] - round(panel_edge) + 3, row)), BLUE)
        assert near(image.getpixel((poker[0] - round(panel_edge) - 7, row)), CREAM)


def test_the_upload_list_counts_copies_of_each_face(project):
    export("demo", project, shop="tgc")
    assert (project / "output/tgc/demo/poker-plain/upload.csv").read_text() == (
        "front,back,copies,card\n"
        "quick-draw.png,back.png,2,Quick Draw\n"
        "escape-artist.png,back.png,1,Escape Artist\n"
        "attack-12-more.png,back.png,1,Attack <12> & more\n"
        "long-winded.png,back.png,1,Long Winded\n")


def test_a_type_without_a_back_gets_a_plain_back(project):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace("    back: plain\n", "", 1))
    lines = export("demo", project, shop="tgc")
    assert ('data/demo/set.yaml:8: warning: card type "action" has no back: The Game Crafter prints both sides, so '
            "a plain paper-white back is sent (name a back in set.yaml)") in lines
    with Image.open(project / "output/tgc/demo/poker-plain-back/back.png") as image:
        assert image.size == (825, 1125) and image.getcolors() == [(825 * 1125, (255, 255, 255))]


def test_a_set_with_more_bleed_is_cropped_to_the_same_size(project):
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("size: poker\n", "size: poker\nbleed: 6\n"))
    export("demo", project, shop="tgc")
    with Image.open(project / "output/tgc/demo/poker-plain/quick-draw.png") as image:
        assert image.size == (825, 1125)
        assert near(image.getpixel((round(37.5 + 3 * PX_PER_MM) + 6, 562)), CREAM)
        assert near(image.getpixel((round(37.5 + 3 * PX_PER_MM) - 4, 562)), BLUE)


def test_a_card_within_the_tolerance_of_a_product_is_drawn_at_the_products_size(project):
    """A 64.1 x 88.9 mm card is the shop's poker card (products.yaml: within 0.6 mm), but it was
    drawn at its own size: 832 x 1125 pixels for The Game Crafter's 825 x 1125 template."""
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("size: poker\n", "size: {w: 64.1, h: 88.9}\n"))
    lines = export("demo", project, shop="tgc")
    assert lines[0] == ('data/demo/set.yaml:8: warning: card type "action": 64.1 x 88.9 mm is drawn 63.5 x 88.9 mm, '
                        "the size of The Game Crafter poker cards")
    for path in pngs(project / "output/tgc/demo/poker-plain"):
        with Image.open(path) as image:
            assert image.size == (825, 1125), path.name


def test_the_tarot_preset_is_the_shops_tarot_card(project):
    """``size: tarot`` (70 x 120 mm) is 0.65 mm short of the shops' 2.75 x 4.75 in tarot card: every
    face was left out ("The Game Crafter makes no 70 x 120 mm rect cards")."""
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("size: poker\n", "size: tarot\n"))
    lines = export("demo", project, shop="tgc")
    assert lines[0] == ('data/demo/set.yaml:8: warning: card type "action": 70 x 120 mm is drawn 69.85 x 120.65 mm, the '
                        "size of The Game Crafter tarot cards")
    for path in pngs(project / "output/tgc/demo/tarot-plain"):
        with Image.open(path) as image:
            assert image.size == (900, 1500), path.name  # (2.75 + 2 x 1/8) x (4.75 + 2 x 1/8) in at 300 dpi


def test_an_export_that_sends_no_face_is_an_error_and_keeps_the_earlier_one(project):
    """When the shop makes none of the set's sizes the export said "0 PNGs" with exit 0 and
    emptied the folder of the earlier good export (DriveThruCards kept a stale file)."""
    from cardgen import CardgenError

    export("demo", project, shop="tgc")
    folder = project / "output/tgc/demo"
    before = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("size: poker\n", "size: {w: 70, h: 100}\n"))
    with pytest.raises(CardgenError) as error:
        export("demo", project, shop="tgc")
    assert str(error.value).splitlines() == [
        'data/demo/set.yaml:8: The Game Crafter makes no 70 x 100 mm rect cards: 5 faces of type "action" left out of '
        "the export, and no other face is sent: nothing to export",
        'data/demo/set.yaml:11: The Game Crafter makes no 20 x 20 mm circle cards: 3 faces of type "token" left out of '
        "the export, and no other face is sent: nothing to export"]
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == before


def test_a_rerun_rasterises_only_what_changed_and_drops_removed_cards(project):
    export("demo", project, shop="tgc")
    assert "(0 rasterised)" in export("demo", project, shop="tgc")[-1]
    csv = project / "data/demo/more.csv"
    csv.write_text("name,count,text\nAttack <12> & more,1,Hit\n")
    assert "(1 rasterised)" in export("demo", project, shop="tgc")[-1]
    names = [p.name for p in pngs(project / "output/tgc/demo/poker-plain")]
    assert names == ["attack-12-more.png", "back.png", "escape-artist.png", "quick-draw.png"]


def test_a_rerun_after_an_upgrade_drops_the_files_of_cards_removed(project):
    # export.json of other code was dropped whole: its faces were made again, but the files of
    # a card removed since stayed in the product's folder, beside an upload list without them
    import json

    export("demo", project, shop="tgc")
    index = project / "output/tgc/demo/export.json"
    document = json.loads(index.read_text())
    document["made by"] = "cardgen 0.0.1 (an older one)"
    index.write_text(json.dumps(document))
    csv = project / "data/demo/more.csv"
    csv.write_text("name,count,text\nAttack <12> & more,1,Hit\n")
    export("demo", project, shop="tgc")
    names = [p.name for p in pngs(project / "output/tgc/demo/poker-plain")]
    assert names == ["attack-12-more.png", "back.png", "escape-artist.png", "quick-draw.png"]


def test_a_card_of_another_cards_name_keeps_its_own_back(project):
    """Fronts were paired with backs by card name and copy: of two cards named "Quick Draw" of
    two types with two backs, the action took the other type's back, in its PNG and upload list."""
    import csv as csv_module

    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "  token:\n", "  ploy:\n    template: demo/action.xml.j2\n    back: bold\n  token:\n").replace(
        "  plain: {template: demo/back.xml.j2}\n",
        "  plain: {template: demo/back.xml.j2}\n  bold: {template: demo/action.xml.j2}\n").replace(
        "{file: more.csv, type: action}", "{file: more.csv, type: ploy}"))
    more = project / "data/demo/more.csv"
    more.write_text(more.read_text() + "Quick Draw,1,Another card of the name.\n")
    export("demo", project, shop="tgc")
    plain = project / "output/tgc/demo/poker-plain"
    rows = list(csv_module.DictReader((plain / "upload.csv").open()))
    assert [(row["card"], row["back"]) for row in rows] == [("Quick Draw", "back.png"), ("Escape Artist", "back.png")]
    bold = project / "output/tgc/demo/poker-bold"
    assert (bold / "quick-draw-back.png").read_bytes() != (plain / "back.png").read_bytes()


def test_command_line(project, cli, tmp_path):
    result = cli(project, "export", "demo", "--shop", "mpc", "--out", str(tmp_path / "mpc"))
    assert result.exit_code == 0, result.output
    assert len(pngs(tmp_path / "mpc/demo/poker-plain")) == 5
    assert cli(project, "export", "demo").exit_code == 2
    bad = cli(project, "export", "nope", "--shop", "tgc")
    assert bad.exit_code == 2 and 'unknown set "nope"' in bad.output
    assert cli(project, "export", "demo", "--shop", "ebay").exit_code == 2


def test_a_failing_rule_stops_the_export(project, cli):
    (project / "data/demo/rules.yaml").write_text(
        "rules:\n  - rule: count\n    name: Quick Draw copies\n    where: {name: Quick Draw}\n    equals: 3\n")
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text() + "rules: [rules.yaml]\n")
    result = cli(project, "export", "demo", "--shop", "tgc")
    assert result.exit_code == 1
    assert "Quick Draw copies" in result.output
    assert not (project / "output/tgc").exists()


def add_landscape_cards(project):
    """A landscape poker card (88.9 x 63.5 mm) with its own back: a red square at the front's
    top-left corner inside the trim, a blue one at the back's."""
    for name, colour in (("wide", "#ff0000"), ("wideback", "#0000ff")):
        (project / f"templates/demo/{name}.xml.j2").write_text(
            '<card><rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" '
            f'fill="#ffffff"/><rect x="0" y="0" w="12" h="12" fill="{colour}"/></card>')
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text().replace(
        "backs:\n", "  wide:\n    template: demo/wide.xml.j2\n    back: wideback\n    size: {w: 88.9, h: 63.5}\n"
                    "backs:\n  wideback: {template: demo/wideback.xml.j2}\n").replace(
        "  - {file: more.csv, type: action}\n", "  - {file: more.csv, type: action}\n  - {file: wide.csv, type: wide}\n"))
    (project / "data/demo/wide.csv").write_text("name\nWide One\n")


def red(pixel) -> bool:
    return pixel[0] > 180 and pixel[1] < 90 and pixel[2] < 90


def blue(pixel) -> bool:
    return pixel[2] > 120 and pixel[0] < 90


@pytest.mark.parametrize("shop, size, bleed", [("tgc", (825, 1125), 37.5), ("mpc", (822, 1122), 36),
                                               ("drivethru", (825, 1125), 37.5)])
def test_a_landscape_card_is_sent_turned_as_the_shop_takes_it(project, shop, size, bleed):
    """A landscape poker card went to the shop landscape, a 1125 x 825 px PNG (a 3.75 x 2.75 in
    page) beside the product's 825 x 1125 px (2.75 x 3.75 in) template size. Now its front is
    turned clockwise and its back counter-clockwise: the back stays behind its front when the
    shop turns the upright card over left to right."""
    add_landscape_cards(project)
    export("demo", project, shop=shop)
    inside = bleed + 6 * PX_PER_MM  # the middle of the 12 mm square, from the trim's corner
    if shop == "drivethru":
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(str(project / "output/drivethru/demo/poker-wideback.pdf"))
        front, back = (document[i].render(scale=300 / 72).to_pil().convert("RGB").crop((0, 0) + size)
                       for i in (0, 1))  # (pdfium counts a partial pixel whole: 826 px)
        from pypdf import PdfReader

        for page in PdfReader(project / "output/drivethru/demo/poker-wideback.pdf").pages:
            assert [round(float(v), 3) for v in page.mediabox] == [0, 0, 198, 270]
            assert [round(float(v), 3) for v in page.trimbox] == [9, 9, 189, 261]
    else:
        folder = project / "output" / shop / "demo/poker-wideback"
        front, back = Image.open(folder / "wide-one.png"), Image.open(folder / "back.png")
    w, h = size
    assert front.size == back.size == (w, h)
    corners = {"top-left": (inside, inside), "top-right": (w - inside, inside),
               "bottom-left": (inside, h - inside), "bottom-right": (w - inside, h - inside)}
    assert [name for name, (x, y) in corners.items() if red(front.getpixel((round(x), round(y))))] == ["top-right"]
    assert [name for name, (x, y) in corners.items() if blue(back.getpixel((round(x), round(y))))] == ["bottom-left"]
