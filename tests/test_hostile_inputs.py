"""Hostile inputs found by a sweep over every kind of file a project holds (images, card files,
markup, set.yaml, rules, fonts.yaml): each is one line ``file:line: card "X": message`` naming the
place to edit, exit 1, and the earlier output byte for byte as it was."""
from __future__ import annotations

from pathlib import Path

import pytest

from demobuild import built, demo_build, intact, refused  # noqa: F401 (built, demo_build: fixtures)

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
    cards.write_text(cards.read_text().replace("- name: Escape Artist\n", "- name: Escape Artist\n  art: icons/fake.png\n"))
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
