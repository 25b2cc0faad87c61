"""``cardgen preflight``: what a print shop would reject, before sending it."""
from __future__ import annotations

import json
from pathlib import Path

import click

from .outputfolder import OutputFolder


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--shop", type=click.Choice(["home", "drivethru", "tgc", "mpc"]), default="home", show_default=True,
              help="Whose rules: home printing (the set's bleed and safe zone) or a print shop's.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON, for other tools.")
@click.option("--out", type=OutputFolder(), default=None,
              help="Where the set's files were written (default: output/).")
@click.pass_context
def preflight(ctx, sets, shop, as_json, out):
    """Measure SETS (default: every set) for SHOP: type sizes, lines, image resolution, safe
    margin, bleed, ink, transparency, product sizes and backs. Exit 1 on errors."""
    from ..cli import run_reporting_errors
    from ..preflight import preflight as run_preflight

    reports = run_reporting_errors(ctx, lambda: run_preflight(sets, ctx.obj["root"], shop, out))
    if as_json:
        click.echo(json.dumps({"shop": shop, "sets": [r.as_json() for r in reports]}, indent=1, ensure_ascii=False))
    else:
        for report in reports:
            for finding in report.findings:
                click.echo(f"{report.name}: {finding}", err=finding.severity == "error")
            for note in report.notes:
                click.echo(f"{report.name}: {note}")
            click.echo(f"{report.name}: preflight for {shop}: {report.errors} error{'s' * (report.errors != 1)}, "
                       f"{report.warnings} warning{'s' * (report.warnings != 1)}")
    if any(r.errors for r in reports):
        ctx.exit(1)
