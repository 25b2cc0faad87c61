"""Every markup attribute and every command-line option is documented in the README."""
from __future__ import annotations

import re
from pathlib import Path

import click
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


def leaf_commands(group: click.Group, prefix: str = ""):
    """Every command a user types, the subcommands of a group (`cardgen import ce-conv`) included."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from leaf_commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def command_rows() -> dict[str, str]:
    """The Command line table: each command's usage (after `cardgen `) and its whole row."""
    table = section("Command line").split("\n### ", 1)[0]  # not the table of where each build writes
    rows = re.findall(r"^\| `cardgen ([^`]*)` \|(.*)\|$", table, re.M)
    return {usage: usage + row for usage, row in rows}


def build_option_rows() -> str:
    table = re.search(r"^### `cardgen build` options\n(.*?)(?=^#)", README, re.S | re.M)
    assert table, "README has no section \"`cardgen build` options\""
    return table.group(1)


@pytest.mark.parametrize("name", [name for name, _ in leaf_commands(main)])
def test_each_command_row_names_its_own_options_and_their_choices(name):
    """Each command's row of the Command line table (`cardgen build`: its options table) names each
    of its options (or the negative form, `--no-cache`) and each value a choice option takes: an
    option documented only in another command's row, or a new value of --shop or --size, fails."""
    command = dict(leaf_commands(main))[name]
    rows = [row for usage, row in command_rows().items() if usage == name or usage.startswith(name + " ")]
    assert len(rows) == 1, f"cardgen {name} has no row of its own in the Command line table"
    for param in command.params:
        if not isinstance(param, click.Option) or param.name == "help":
            continue
        forms = [option for option in param.opts + param.secondary_opts if option.startswith("--")]
        text = rows[0]
        if name == "build":
            text = "\n".join(line for line in build_option_rows().splitlines()
                              if any(f"`{form}" in line for form in forms))
        assert any(form in text for form in forms), f"cardgen {name} {forms[0]}"
        if isinstance(param.type, click.Choice):
            for choice in param.type.choices:
                assert re.search(rf"(?<![\w-]){re.escape(choice)}(?![\w-])", text), f"cardgen {name} {forms[0]} {choice}"


def test_the_options_before_the_command_are_documented():
    commands = section("Command line")
    for param in main.params:
        for option in param.opts:
            if option.startswith("--") and option != "--help":
                assert option in commands, f"cardgen {option}"
    assert "`-h`" in commands  # click's short form of --help, on every command


def test_every_template_tag_of_cardgen_is_documented():
    from cardgen.render.environment import Templates

    layouts = section("Layouts: `templates/`")
    for extension in Templates(Path(__file__).resolve().parent / "fixtures/project").env.extensions.values():
        for tag in extension.tags:
            assert f"{{% {tag} " in layouts and f"{{% end{tag} %}}" in layouts, tag


def test_the_limits_table_is_the_code_s():
    """Limits: untrusted sets: a row for each limit of cardgen/limits.py, with its default as
    the code has it, and no row for a limit the code does not have."""
    from cardgen.limits import LIMITS

    rows = dict(re.findall(r"^\| `(CARDGEN_MAX_\w+)` \|.*\| (\d+) \|$", section("Limits: untrusted sets"), re.M))
    assert rows == {variable: str(limit.default) for variable, limit in LIMITS.items()}


def test_the_set_yaml_example_names_every_key_the_loader_takes():
    """Data: `data/<set>/set.yaml`: its example holds every key set.yaml and a card type may have
    (the set's keys documented in other sections named on its `# also:` lines); a key the loader
    takes and no example shows is one a user never finds."""
    import yaml

    from cardgen.load.setfile import SET_KEYS, TYPE_KEYS

    example = re.search(r"```yaml\n(.*?)```", section("Data: `data/<set>/set.yaml`"), re.S).group(1)
    data = yaml.safe_load(example)
    also = re.search(r"^# also: (.*?)```", example + "```", re.S | re.M).group(1)
    named = set(data) | {word for word in re.findall(r"[\w-]+", re.sub(r"\(see [^)]*\)", "", also))}
    assert named == SET_KEYS
    (spec,) = data["types"].values()
    assert set(spec) | {"safe"} == TYPE_KEYS  # safe: "(so does safe:)"


def test_the_rules_example_shows_every_key_of_every_kind_of_rule():
    """Rules: the example has a rule of each kind the rules files take, and each of them shows
    (or names in its comments) every key that kind takes."""
    from cardgen.validate.rulesfile import KIND_KEYS

    example = re.search(r"```yaml\n(.*?)```", section("Rules: `data/<set>/rules.yaml`"), re.S).group(1)
    shown: dict[str, str] = {}
    for chunk in re.split(r"^  - ", example, flags=re.M)[1:]:
        kind = re.match(r"rule: ([\w-]+)", chunk).group(1)
        shown[kind] = shown.get(kind, "") + chunk
    assert set(shown) == set(KIND_KEYS)
    for kind, keys in KIND_KEYS.items():
        for key in keys:
            assert f"{key}:" in shown[kind], f"rule: {kind} takes {key}:"


@pytest.mark.parametrize("title, keys", [
    ("Preflight", "cardgen.load.setfile:PREFLIGHT_KEYS"),
    ("Tuck boxes", "cardgen.load.setfile:BOX_KEYS"),
    ("Sheets", "cardgen.load.setfile:SHEET_KEYS"),
    ("Sheets", "cardgen.sheets.labels.yamlsheet:KEYS"),
    ("Sheets", "cardgen.sheets.labels.yamlsheet:GRID_KEYS"),
    ("Sheets", "cardgen.sheets.labels.yamlsheet:SLOT_KEYS"),
    ("Colour", "cardgen.color.settings:COLOR_KEYS"),
    ("Print shops: DriveThruCards PDF/X-1a", "cardgen.color.settings:INTENT_KEYS"),
    ("Sources and readings", "cardgen.validate.rulesfile:OPTION_KEYS"),
])
def test_every_key_of_a_settings_mapping_is_named_in_its_section(title, keys):
    """Each key the loader takes in a mapping of set.yaml, a sheet file or a rules file's options
    is named in the README's section on it (as `key` or `key:`): `output-intent:` took `condition`,
    `info` and `registry`, which no page named."""
    import importlib

    module, name = keys.split(":")
    text = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", README, re.S | re.M).group(1)
    for key in sorted(getattr(importlib.import_module(module), name)):
        assert re.search(rf"`{re.escape(key)}`|(?<![\w-]){re.escape(key)}:(?!\w)", text), f"{title}: {key}"


def test_every_option_a_command_line_of_the_readme_gives_is_one_of_that_command():
    """Each `cardgen ...` the README shows (inline or in a shell block) names a command that
    exists and only options that command (or cardgen itself, before the command) takes: an
    option moved to another command, or renamed, fails here as well as in the user's shell."""
    shown = re.findall(r"`(cardgen [^`]*)`", README)
    for block in re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M):
        shown += re.findall(r"^(cardgen [^\n#]*)", block, re.M)
    commands = dict(leaf_commands(main))
    own = {option for param in main.params for option in param.opts}
    checked = 0
    for line in shown:
        words = line.replace("\\|", "|").split()[1:]
        while words and words[0].startswith("-"):  # cardgen --root DIR build ...
            assert words[0].strip("[]") in own | {"--help"}, line
            words = words[2:] if words[0] == "--root" else words[1:]
        if not words:
            continue
        name = words[0] if words[0] in commands else " ".join(words[:2])
        assert name in commands, f"{line!r}: no command {name!r}"
        takes = own | {"--help"} | {option for param in commands[name].params
                                    for option in param.opts + getattr(param, "secondary_opts", [])}
        for option in re.findall(r"(?<![\w-])--[a-z][\w-]*", line):
            assert option in takes, f"{line!r}: cardgen {name} takes no {option}"
        checked += 1
    assert checked > 40


def test_every_file_of_the_repository_the_readme_names_is_there():
    """A path the README gives in `code` under cardgen/, tests/, bench/, templates/, fonts/,
    data/ or .ci/ is a file or folder of the repository, but for the projects its examples make
    (data/harbor, data/mygame, data/x ...) and patterns (<set>, NAME, *)."""
    repo = Path(__file__).resolve().parent.parent
    examples = ("data/harbor", "data/mygame", "templates/mygame", "data/x/", "templates/x/", "data/x.")
    named = set(re.findall(r"`((?:cardgen|tests|bench|templates|fonts|data|\.ci)/[^`\s:#]*)", README))
    checked = [path for path in sorted(named)
               if not path.startswith(examples) and not re.search(r"[<*]|NAME|SET|\.\.\.", path)]
    missing = [path for path in checked if not (repo / path).exists()]
    assert not missing
    assert len(checked) > 30


def test_every_section_the_readme_points_to_is_one_of_its_headings():
    """"see X", "(see X and Y for ...)" and `"X" below` name sections by their headings (or the
    start of one): "(see Print shops and colour)" named a section the README does not have."""
    headings = re.findall(r"^#+ (.*)$", README, re.M)
    named = []
    for reference in re.findall(r"\b[Ss]ee ([A-Z][^).;,]*)", " ".join(README.split())):
        reference = re.split(r" for | below| above", reference)[0]
        named += [part.strip() for part in reference.split(" and ")]
    named += re.findall(r'"([^"]+)" (?:below|above)', " ".join(README.split()))
    assert len(named) > 20
    for name in named:
        assert any(heading.startswith(name) or heading.startswith(f"`{name}`") for heading in headings), name
    for anchor in re.findall(r"\]\(#([^)]*)\)", README):
        slugs = {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}
        assert anchor in slugs, anchor


def test_every_section_a_message_of_cardgen_points_to_is_one_of_the_readme_s():
    """A message saying "see README, X" names a heading of the README (or the start of one)."""
    headings = re.findall(r"^#+ (.*)$", README, re.M)
    package = Path(__file__).resolve().parent.parent / "cardgen"
    named = [name for path in package.rglob("*.py")
             for name in re.findall(r"see README, ([A-Z][^\"')]*)", path.read_text(encoding="utf-8"))]
    assert named
    for name in named:
        assert any(heading.startswith(name) for heading in headings), name


def test_the_presets_no_shop_makes_are_the_ones_the_readme_names():
    """The export row says which size presets match no product of any shop: a new project of
    one of them cannot be exported (an error, nothing sent). Counted from products.yaml."""
    from types import SimpleNamespace

    from cardgen.export.products import _table, product_of
    from cardgen.sheets.sizes import CARD_SIZES

    row = " ".join(command_rows()["export SET --shop tgc\\|mpc\\|drivethru [--tts] [--out DIR] [--jobs N]"].split())
    named = re.search(r"of the presets, (.*?) match no product of any shop", row).group(1)
    unmade = {name for name, size in CARD_SIZES.items()
              if not any(product_of(SimpleNamespace(size=size), shop) for shop in _table()["shops"])}
    assert set(re.findall(r"`([\w-]+)`", named)) == unmade
