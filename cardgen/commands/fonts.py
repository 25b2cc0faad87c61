"""``cardgen fonts``: the font families a project can use, their faces and where they come from."""
from __future__ import annotations

from pathlib import Path

import click

from ..load.yamlfile import relative_name
from ..text.fontfolders import STYLES, project_families


def font_lines(root: Path) -> list[str]:
    """One line per family (name, origin, default), then one per face: style and file."""
    root = Path(root).resolve()
    found = project_families(root)
    lines = []
    for name in sorted(found.families, key=str.casefold):
        family = found.families[name]
        tags = [family.origin] + (["default"] if name == found.default else [])
        lines.append(f"{name}  ({', '.join(tags)})")
        for style in STYLES:
            path = family.faces.get(style)
            if path is None:
                shown = "-  (" + family.missing.get(style, "none: asking for it is an error") + ")"
            elif family.origin == "project":
                shown = relative_name(path, root)
            elif family.origin == "shipped":
                shown = path.name
            else:
                shown = str(path)
            lines.append(f"  {style:<12} {shown}")
    return lines


def system_family_names() -> list[str]:
    """The families fontconfig knows on this machine (for `system` entries in fonts.yaml)."""
    import shutil
    import subprocess

    if shutil.which("fc-list") is None:
        return []
    done = subprocess.run(["fc-list", "--format=%{family[0]}\\n"], capture_output=True, text=True,
                          timeout=30, check=False)
    return sorted({line.strip() for line in done.stdout.splitlines() if line.strip()}, key=str.casefold)


@click.command(name="fonts")
@click.option("--system", "system", is_flag=True,
              help="Also list the families installed on this machine, which fonts/fonts.yaml can declare `system`.")
@click.pass_context
def fonts(ctx, system):
    """List the font families layouts can use: cardgen's own, the project's fonts/, and
    declared system fonts, with the file of each style."""
    from ..cli import run_reporting_errors

    for line in run_reporting_errors(ctx, lambda: font_lines(ctx.obj["root"])):
        click.echo(line)
    if system:
        names = system_family_names()
        click.echo("")
        click.echo(f"installed on this system ({len(names)}; declare one as `Name: system` in fonts/fonts.yaml):"
                   if names else "installed on this system: none found (fontconfig's fc-list is not available)")
        for name in names:
            click.echo(f"  {name}")
