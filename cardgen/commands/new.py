"""``cardgen new PATH``: a new project that builds at once (see scaffolding.py)."""
from __future__ import annotations

import shlex
from pathlib import Path

import click

from .outputfolder import OutputFolder
from ..sheets.sizes import CARD_SIZES


@click.command(name="new")
@click.argument("path", type=OutputFolder())
@click.option("--size", type=click.Choice(list(CARD_SIZES)), default="poker", show_default=True,
              help="The cards' size.")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True,
              help="The paper `cardgen build` prints on.")
@click.option("--title", default=None, help="The game's title (default: from the folder's name).")
@click.pass_context
def new(ctx, path, size, paper, title):
    """Lay out a new project in PATH: a set with two card types, a layout, a back, rules and a
    deck list. Then: cd PATH && cardgen build."""
    from ..cli import run_reporting_errors
    from ..scaffolding import new_project

    made = run_reporting_errors(ctx, lambda: new_project(path, size, paper, title))
    click.echo(f"made {path}/ with the set \"{made.set_name}\" ({size} cards, {paper} paper):")
    for file in made.files:
        click.echo(f"  {file.as_posix()}")
    click.echo("  fonts/   (empty: your own fonts, optional)")
    here = path.resolve() == Path.cwd().resolve()
    # quoted as a shell needs it: `cd My Game` would go nowhere (or somewhere else)
    click.echo(f"next: {'' if here else f'cd {shlex.quote(str(path))} && '}cardgen build   "
               f"(then open output/{made.set_name}.pdf)")
