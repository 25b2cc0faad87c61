"""``cardgen proof``: PNG proofs, a contact sheet and a gallery per set."""
from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: output/proofs).")
@click.option("--overlay", is_flag=True, help="Outline trim, bleed and safe zone on every face.")
@click.pass_context
def proof(ctx, sets, out, overlay):
    """300 dpi PNG proofs of SETS (default: every set): <out>/<set>/ with a PNG per face,
    contact.png and index.html (opens with no server). Unchanged faces are not rasterised again."""
    from ..cli import run_reporting_errors
    from ..proof import proof as make_proofs

    root = ctx.obj["root"]
    results, seconds = run_reporting_errors(ctx, lambda: make_proofs(sets, root, out, overlay))
    for result in results:
        click.echo(result.line)
    faces = sum(r.faces for r in results)
    click.echo(f"proofed {len(results)} set{'s' * (len(results) != 1)}, {faces} faces in {seconds:.2f} s")
