"""``cardgen import FORMAT FILE --set NAME``: bring card data from other tools' formats."""
from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from .inputfile import InputFile
from ..load.setfile import set_names


@click.group(name="import")
def import_group():
    """Import card data written for other tools into a set's data/ folder."""


@import_group.command(name="ce-conv")
@click.argument("file", type=InputFile())
@click.option("--set", "set_name", required=True, help="The set whose data/<set>/ receives powers.yaml.")
@click.pass_context
def ce_conv(ctx: click.Context, file: Path, set_name: str) -> None:
    """Import Cosmic Encounter powers in the 1991 ce-conv text format into data/<set>/powers.yaml."""
    from ..cli import run_reporting_errors
    from ..importers.ceconv import import_ceconv

    root = ctx.find_root().obj["root"]

    def action():
        from ..project import require_project, unknown_set

        require_project(root)
        if set_name not in set_names(root):
            raise UsageError(unknown_set(set_name, set_names(root), root))
        return import_ceconv(file, Path(root) / "data" / set_name)

    written = run_reporting_errors(ctx, action)
    click.echo(f"wrote {written}")
