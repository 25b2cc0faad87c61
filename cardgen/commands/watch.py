"""``cardgen watch``: rebuild on every save, print which cards changed."""
from __future__ import annotations

from pathlib import Path

import click

from .outputfolder import OutputFolder


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder (default: output/).")
@click.option("--proofs", "proofs", is_flag=True, help="Also refresh the PNG proofs in <out>/proofs.")
@click.pass_context
def watch(ctx, sets, out, proofs):
    """Build SETS (default: every set), then rebuild on every save in data/, templates/ and
    fonts/, printing which cards changed. Ctrl-C stops."""
    from ..cli import run_reporting_errors
    from ..watch import watch as run_watch

    root = ctx.obj["root"]
    target = out if out is not None else Path(root) / "output"
    try:
        run_reporting_errors(ctx, lambda: run_watch(sets, root, target, proofs=target / "proofs" if proofs else None, echo=click.echo))
    except KeyboardInterrupt:
        click.echo("stopped")
