"""``cardgen calibrate``: a two-sided test sheet from which the user reads ``--back-offset``."""
from __future__ import annotations

from pathlib import Path

import click

from .outputfolder import OutputFolder
from .optiontypes import BACK_OFFSET, PAPERS


@click.command()
@click.option("--paper", type=PAPERS, default="letter", show_default=True,
              help="Paper: letter, a4, a3, or W x H such as 300x200 (mm) or 11x17in.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The edge the printer turns the sheet over (as for cardgen build).")
@click.option("--back-offset", type=BACK_OFFSET, default="0,0",
              help="Print the back shifted by this offset (to read drifts beyond the scales' 3 mm); "
                   "the numbers read are still the whole offset to build with.")
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder (default: output/).")
@click.pass_context
def calibrate(ctx, paper, duplex, back_offset, out):
    """Write <out>/calibration-<paper>.pdf: print it double-sided, hold it against a light, and
    read on its two scales the X,Y to pass as `cardgen build --back-offset X,Y`."""
    from ..cli import run_reporting_errors
    from ..sheets.calibration import write_calibration
    from ..sheets.sizes import fmt
    from ..text.fonts import FontBook
    from ..write.atomic import staged

    root = Path(ctx.obj["root"])
    folder = Path(out) if out is not None else root / "output"
    name = paper if isinstance(paper, str) else "x".join(str(side) for side in paper)
    target = folder / f"calibration-{name}.pdf"

    def action():
        font = FontBook(root).face(None).pdf_name
        with staged(target) as (temporary,):
            write_calibration(temporary, paper, duplex, back_offset, font)
        return target

    path = run_reporting_errors(ctx, action)
    click.echo(f"wrote {path} (print it double-sided, flip on {duplex} edge, at actual size; "
               f"printed with back offset {fmt(back_offset[0])},{fmt(back_offset[1])} mm)")
