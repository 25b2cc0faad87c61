"""``cardgen clean``: remove what killed builds left behind, and nothing else."""
from __future__ import annotations

from pathlib import Path

import click

from .outputfolder import OutputFolder


@click.command()
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder (default: output/).")
@click.pass_context
def clean(ctx, out):
    """Remove the temporary files of builds that were killed half-way (in output/ and the
    cache, .cardgen-cache/): files named .<name>.cardgen-<process>-<random>.tmp whose process
    no longer runs. Finished output and the cache stay."""
    from ..cli import run_reporting_errors
    from ..pipeline import CACHE_FOLDER
    from ..write.temporary import remove_stale

    root = Path(ctx.obj["root"])
    target = out if out is not None else root / "output"
    removed = run_reporting_errors(ctx, lambda: remove_stale(target, root / CACHE_FOLDER, below=True))
    for path in removed:
        click.echo(f"removed {path}")
    click.echo(f"{len(removed)} stale temporary file{'s' * (len(removed) != 1)} removed")
