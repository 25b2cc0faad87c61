"""Nothing outside the project is read: every path named by data, set.yaml, rules, fonts.yaml or a
template resolves (symlinks followed) inside the project, else one error at the line naming it,
exit 1, and the earlier output byte for byte as it was."""
from __future__ import annotations

from pathlib import Path

import shutil
import sys

import pytest
from PIL import Image

OUTSIDE = "only files inside the project folder are read"
OPENED: list[str] | None = None  # while a build runs: every file it opens (Python's audit hook)


def _record_opens(event: str, args: tuple) -> None:
    if OPENED is not None and event == "open" and isinstance(args[0], (str, bytes, Path)):
        OPENED.append(str(Path(args[0] if not isinstance(args[0], bytes) else args[0].decode()).resolve()))


sys.addaudithook(_record_opens)  # cannot be removed: it records only while OPENED is a list


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def _demo_built(tmp_path_factory):
    """The demo project built once for the module (the cache on); each test breaks a copy."""
    from click.testing import CliRunner

    from cardgen.cli import main
    from projects import make_project

    project = make_project(tmp_path_factory.mktemp("demo"))
    result = CliRunner().invoke(main, ["--root", str(project), "build", "demo"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return project


@pytest.fixture
def built(_demo_built, tmp_path):
    """A copy of the built demo project (its output and cache included) where ``project`` would
    be, a folder of files outside it, and the output's bytes."""
    project = tmp_path / "proj"
    shutil.copytree(_demo_built, project, symlinks=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    Image.new("RGB", (8, 8), "red").save(outside / "x.png")
    (outside / "secret.txt").write_text("secret\n")
    (outside / "cards.yaml").write_text("- {name: Stolen, type: action, text: secret}\n")
    (outside / "t.xml.j2").write_text("<card></card>\n")
    before = {name: (project / "output" / name).read_bytes() for name in ("demo.pdf", "demo.json")}
    return project, outside, before


def fails_with(cli, project, before, lines):
    global OPENED
    OPENED = []
    try:
        result = cli(project, "build", "demo")
        opened = OPENED
    finally:
        OPENED = None
    outside = str((project.parent.parent / "outside").resolve())
    assert opened and not [path for path in opened if path.startswith(outside)]
    assert result.exit_code == 1
    assert result.stderr.splitlines() == lines
    for name, content in before.items():
        assert (project / "output" / name).read_bytes() == content


def test_an_icon_image_outside_the_project(built, cli):
    project, outside, before = built
    edit(project / "data/demo/set.yaml", "icons/star.svg", "../../../outside/x.png")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:22: icon "star": image "../../../outside/x.png" is outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_an_icon_image_that_links_outside(built, cli):
    project, outside, before = built
    (project / "data/demo/icons/link.png").symlink_to(outside / "x.png")
    edit(project / "data/demo/set.yaml", "icons/star.svg", "icons/link.png")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:22: icon "star": image "icons/link.png" is a link to outside the project folder: '
        f"{OUTSIDE}", "cardgen: 1 error, 0 warnings"])


def test_an_absolute_icon_path(built, cli):
    project, outside, before = built
    edit(project / "data/demo/set.yaml", "icons/star.svg", str(outside / "x.png"))
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:22: icon "star": image "{outside / "x.png"}" is outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_template_image_outside_the_project(built, cli):
    project, outside, before = built
    edit(project / "templates/demo/token.xml.j2", "</card>",
         '<image x="1" y="1" w="3" h="3" src="../../outside/x.png"/>\n</card>')
    fails_with(cli, project, before, [
        f'templates/demo/token.xml.j2:4: card "Marker": image "../../outside/x.png" is outside the project folder: '
        f"{OUTSIDE}", "cardgen: 1 error, 0 warnings"])


def test_an_image_named_by_a_card_value_names_the_row_first(built, cli):
    project, outside, before = built
    edit(project / "templates/demo/token.xml.j2", "</card>",
         '<image x="1" y="1" w="3" h="3" src="{{ card.art or \'icons/star.svg\' }}"/>\n</card>')
    edit(project / "data/demo/cards.yaml", "  label: M\n", "  label: M\n  art: ../../../outside/x.png\n")
    fails_with(cli, project, before, [
        f'data/demo/cards.yaml:16: card "Marker": field "art": image "../../../outside/x.png" is outside the '
        f"project folder: {OUTSIDE} (drawn by templates/demo/token.xml.j2:4)", "cardgen: 1 error, 0 warnings"])


def test_a_card_file_that_links_outside(built, cli):
    project, outside, before = built
    (project / "data/demo/cards.yaml").unlink()
    (project / "data/demo/cards.yaml").symlink_to(outside / "cards.yaml")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:24: card file "cards.yaml" is a link to outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_card_file_named_outside(built, cli):
    project, outside, before = built
    edit(project / "data/demo/set.yaml", "  - cards.yaml", "  - ../../../outside/cards.yaml")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:24: card file "../../../outside/cards.yaml" is outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_set_folder_that_links_outside(built, cli):
    project, outside, before = built
    stolen = outside / "stolen"
    stolen.mkdir()
    for name in ("set.yaml", "cards.yaml", "more.csv"):
        (stolen / name).write_text((project / "data/demo" / name).read_text())
    (project / "data/demo").rename(project / "demo-old")
    (project / "data/demo").symlink_to(stolen)
    fails_with(cli, project, before, [
        f"data/demo: the set folder \"demo\" is a link to outside the project folder: {OUTSIDE}",
        "cardgen: 1 error, 0 warnings"])


def test_a_set_yaml_that_links_outside(built, cli):
    project, outside, before = built
    (outside / "set.yaml").write_text((project / "data/demo/set.yaml").read_text())
    (project / "data/demo/set.yaml").unlink()
    (project / "data/demo/set.yaml").symlink_to(outside / "set.yaml")
    fails_with(cli, project, before, [
        f'data/demo: file "set.yaml" is a link to outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_rules_file_outside(built, cli):
    project, outside, before = built
    (project / "data/demo/set.yaml").write_text((project / "data/demo/set.yaml").read_text()
                                               + "rules: [../../../outside/secret.txt]\n")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:26: rules file "../../../outside/secret.txt" is outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_template_that_links_outside(built, cli):
    project, outside, before = built
    (project / "templates/demo/token.xml.j2").unlink()
    (project / "templates/demo/token.xml.j2").symlink_to(outside / "t.xml.j2")
    fails_with(cli, project, before, [
        'data/demo/set.yaml:11: card "Marker": template "templates/demo/token.xml.j2" is a link to outside the '
        "project folder: only files inside the project folder are read", "cardgen: 1 error, 0 warnings"])


def test_an_include_that_links_outside_names_the_including_line(built, cli):
    project, outside, before = built
    (project / "templates/demo/part.xml.j2").symlink_to(outside / "t.xml.j2")
    edit(project / "templates/demo/token.xml.j2", "</card>", '{% include "demo/part.xml.j2" %}\n</card>')
    fails_with(cli, project, before, [
        'templates/demo/token.xml.j2:4: card "Marker": template "templates/demo/part.xml.j2" is a link to outside '
        "the project folder: only files inside the project folder are read", "cardgen: 1 error, 0 warnings"])


def test_a_font_file_outside(built, cli):
    project, outside, before = built
    (outside / "font.ttf").write_bytes((project / "fonts/DejaVuSans.ttf").read_bytes())
    index = project / "fonts/fonts.yaml"
    text = index.read_text()
    first = next(line for line in text.splitlines() if "regular:" in line)
    index.write_text(text.replace(first, first.split("regular:")[0] + "regular: ../../outside/font.ttf", 1))
    line = text.splitlines().index(first) + 1
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith(f"fonts/fonts.yaml:{line}: font file of family ")
    assert result.stderr.splitlines()[0].endswith(f'"../../outside/font.ttf" is outside the project folder: {OUTSIDE}')
    assert [(project / "output" / n).read_bytes() for n in before] == list(before.values())


def test_an_svg_reference_outside(built, cli):
    project, outside, before = built
    edit(project / "data/demo/icons/star.svg", "</svg>",
         '\n<image href="../../../../outside/x.png" width="5" height="5"/></svg>')
    fails_with(cli, project, before, [
        f'data/demo/icons/star.svg:2: card "Escape Artist": the SVG\'s reference "../../../../outside/x.png" is '
        f"outside the project folder: {OUTSIDE}", "cardgen: 1 error, 0 warnings"])


def test_an_svg_reference_by_url(built, cli):
    project, outside, before = built
    edit(project / "data/demo/icons/star.svg", "</svg>",
         f'\n<image xlink:href="file://{outside}/x.png" width="5" height="5"/></svg>')
    fails_with(cli, project, before, [
        f'data/demo/icons/star.svg:2: card "Escape Artist": the SVG refers to "file://{outside}/x.png": {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])


def test_a_sheet_file_outside(built, cli):
    project, outside, before = built
    (project / "data/demo/set.yaml").write_text((project / "data/demo/set.yaml").read_text()
                                               + "sheet:\n  template: ../../../outside/sheet.yaml\n")
    fails_with(cli, project, before, [
        'data/demo/set.yaml:27: sheet template file "../../../outside/sheet.yaml" is outside the project folder: '
        f"{OUTSIDE}", "cardgen: 1 error, 0 warnings"])


def test_links_inside_the_project_are_followed(built, cli):
    project, outside, before = built
    (project / "art").mkdir()
    Image.new("RGB", (8, 8), "blue").save(project / "art/x.png")
    (project / "data/demo/icons/x.png").symlink_to(project / "art/x.png")
    edit(project / "templates/demo/token.xml.j2", "</card>", '<image x="1" y="1" w="3" h="3" src="icons/x.png"/>\n</card>')
    result = cli(project, "build", "demo")
    assert result.exit_code == 0, result.stderr


def test_command_line_paths_stay_the_users_own(built, cli, monkeypatch):
    project, outside, before = built
    (outside / "sheet.yaml").write_text("paper: a4\ngrid: {w: 63.5, h: 88.9, nx: 3, ny: 3, x0: 10, y0: 10}\n")
    (outside / "deck.yaml").write_text("main:\n  Quick Draw: 2\n")
    monkeypatch.chdir(outside)
    result = cli(project, "build", "demo", "--out", "out", "--sheet", "sheet.yaml", "--deck", "deck.yaml")
    assert result.exit_code == 0, result.stderr
    assert (outside / "out/demo.deck-deck.pdf").is_file()
    from pypdf import PdfReader
    width, height = PdfReader(outside / "out/demo.deck-deck.pdf").pages[0].mediabox.upper_right
    assert (round(float(width) / 72 * 25.4), round(float(height) / 72 * 25.4)) == (210, 297)


def test_a_cache_folder_that_links_outside_is_not_used(built, cli):
    global OPENED
    project, outside, before = built
    shutil.rmtree(project / ".cardgen-cache")
    (outside / "cache").mkdir()
    (project / ".cardgen-cache").symlink_to(outside / "cache")
    OPENED = []
    try:
        result = cli(project, "build", "demo")
        opened = OPENED
    finally:
        OPENED = None
    assert result.exit_code == 0, result.stderr
    assert opened and not [path for path in opened if path.startswith(str(outside.resolve()))]
    assert list((outside / "cache").iterdir()) == []
    assert [(project / "output" / n).read_bytes() for n in before] == list(before.values())


def test_an_svg_that_uses_an_svg_that_refers_outside(built, cli):
    project, outside, before = built
    (outside / "evil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>\n')
    (project / "data/demo/icons/inner.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n'
        '<use xlink:href="../../../../outside/evil.svg#a"/></svg>\n')
    edit(project / "data/demo/icons/star.svg", "</svg>", '\n<use xlink:href="inner.svg"/></svg>')
    fails_with(cli, project, before, [
        'data/demo/icons/inner.svg:2: card "Escape Artist": the SVG\'s reference "../../../../outside/evil.svg" is '
        f"outside the project folder: {OUTSIDE}", "cardgen: 1 error, 0 warnings"])


def test_an_icc_profile_outside(built, cli):
    project, outside, before = built
    (outside / "x.icc").write_bytes(b"not really a profile")
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "color: {mode: cmyk, profile: ../../../outside/x.icc}\n")
    fails_with(cli, project, before, [
        f'data/demo/set.yaml:26: file "../../../outside/x.icc" is outside the project folder: {OUTSIDE}',
        "cardgen: 1 error, 0 warnings"])
