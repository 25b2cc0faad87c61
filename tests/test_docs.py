"""Every markup attribute and every command-line option is documented in the README."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.cli import main
from cardgen.draw import PRIMITIVES

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no section {title!r}"
    return match.group(1)


@pytest.mark.parametrize("tag", sorted(PRIMITIVES))
def test_every_attribute_of_every_element_is_documented(tag):
    markup = section("Card markup")
    block = re.search(rf"`<{tag}>`:(.*?)(?=\n`<|\Z)", markup, re.S)
    assert block, f"<{tag}> is not documented"
    for name, attr in PRIMITIVES[tag].ATTRIBUTES.items():
        assert f"| `{name}` | {attr.doc} |" in block.group(1), f"<{tag}> {name}"


def test_every_command_and_option_is_documented():
    commands = section("Command line")
    for name, command in main.commands.items():
        assert f"`cardgen {name}" in commands, name
        for param in command.params:
            for option in param.opts:
                if option.startswith("--") and option != "--help":
                    assert option in commands, f"cardgen {name} {option}"


def test_every_template_tag_of_cardgen_is_documented():
    from cardgen.render.environment import Templates

    layouts = section("Layouts: `templates/`")
    for extension in Templates(Path(__file__).resolve().parent / "fixtures/project").env.extensions.values():
        for tag in extension.tags:
            assert f"{{% {tag} " in layouts and f"{{% end{tag} %}}" in layouts, tag
