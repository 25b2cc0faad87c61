"""``cardgen export``: files for print shops and Tabletop Simulator."""
from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("set_name", metavar="SET")
@click.option("--shop", type=click.Choice(["tgc", "mpc", "drivethru"]), default=None,
              help="tgc, mpc: a 300 dpi PNG per face; drivethru: one PDF, a face a page.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (10 x 7) and back images.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: output/<shop>, output/tts).")
@click.pass_context
def export(ctx, set_name, shop, tts, out):
    """Export SET for a print shop (--shop) and/or Tabletop Simulator (--tts)."""
    from ..cli import run_reporting_errors
    from ..export import export as run_export

    if shop is None and not tts:
        raise click.UsageError("give --shop tgc|mpc|drivethru, --tts, or both", ctx)
    for line in run_reporting_errors(ctx, lambda: run_export(set_name, ctx.obj["root"], out, shop, tts)):
        click.echo(line)
