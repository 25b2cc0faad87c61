"""``cardgen proof``: PNG proofs, a contact sheet and a gallery per set."""
from __future__ import annotations

from pathlib import Path

import click

from .outputfolder import OutputFolder


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder (default: output/proofs).")
@click.option("--overlay", is_flag=True, help="Outline trim, bleed and safe zone on every face.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that rasterise (default: one a core).")
@click.pass_context
def proof(ctx, sets, out, overlay, jobs):
    """300 dpi PNG proofs of SETS (default: every set): <out>/<set>/ with a PNG per face,
    contact.png and index.html (opens with no server). Unchanged faces are not rasterised again."""
    from ..cli import run_reporting_errors
    from ..proof import proof as make_proofs
    from ..proof.workers import default_jobs, rate_note

    root = ctx.obj["root"]
    jobs = jobs or default_jobs()
    results, seconds = run_reporting_errors(ctx, lambda: make_proofs(sets, root, out, overlay, jobs))
    for result in results:
        click.echo(result.line)
    faces = sum(r.faces for r in results)
    rasterised = sum(r.rasterised for r in results)
    click.echo(f"proofed {len(results)} set{'s' * (len(results) != 1)}, {faces} faces in {seconds:.2f} s: "
               f"{rate_note(rasterised, seconds, jobs)}")
