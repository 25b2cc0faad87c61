"""``cardgen export``: files for print shops and Tabletop Simulator."""
from __future__ import annotations

from pathlib import Path

import click

from .outputfolder import OutputFolder


@click.command()
@click.argument("set_name", metavar="SET")
@click.option("--shop", type=click.Choice(["tgc", "mpc", "drivethru"]), default=None,
              help="tgc, mpc: a 300 dpi PNG per face; drivethru: one PDF, a face a page.")
@click.option("--tts", is_flag=True, help="Tabletop Simulator deck sheets (10 x 7) and back images.")
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder (default: output/<shop>, output/tts).")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that rasterise PNGs (default: one a core).")
@click.pass_context
def export(ctx, set_name, shop, tts, out, jobs):
    """Export SET for a print shop (--shop) and/or Tabletop Simulator (--tts)."""
    from ..cli import run_reporting_errors
    from ..export import export_report
    from ..export.shops import SHOPS
    from ..proof.workers import rate_note

    if shop is None and not tts:
        raise click.UsageError("give --shop tgc|mpc|drivethru, --tts, or both", ctx)
    report = run_reporting_errors(ctx, lambda: export_report(set_name, ctx.obj["root"], out, shop, tts, jobs))
    for line in report.lines:
        click.echo(line)
    if tts or (shop is not None and SHOPS[shop].kind == "png"):
        click.echo(f"exported in {report.seconds:.2f} s: {rate_note(report.rasterised, report.seconds, report.jobs)}")
