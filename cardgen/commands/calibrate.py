"""``cardgen calibrate``: a two-sided test sheet from which the user reads ``--back-offset``."""
from __future__ import annotations

import math
from pathlib import Path

import click


MOST_OFFSET = 100.0  # mm: a printer drifts by a few; beyond the paper's own size means nothing


class BackOffset(click.ParamType):
    """X,Y in mm ("0.5,-1"): how far every back page is shifted (right and up, as seen on the back)."""

    name = "X,Y"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = str(value).replace(" ", "").split(",")
        try:
            x, y = (float(part.removesuffix("mm")) for part in parts)
        except ValueError:
            self.fail(f'"{value}" is not two lengths in mm such as 0.5,-1', param, ctx)
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > MOST_OFFSET:
            self.fail(f'"{value}" is not two lengths in mm such as 0.5,-1 (at most {MOST_OFFSET:g} mm either way)',
                      param, ctx)
        return (x + 0.0, y + 0.0)


BACK_OFFSET = BackOffset()


class _Paper(click.ParamType):
    """The build command's paper (letter, a4, a3 or W x H), read by cli.py's own type."""

    name = "letter|a4|a3|WxH"

    def convert(self, value, param, ctx):
        from ..cli import PAPERS

        return PAPERS.convert(value, param, ctx)


@click.command()
@click.option("--paper", type=_Paper(), default="letter", show_default=True,
              help="Paper: letter, a4, a3, or W x H such as 300x200 (mm) or 11x17in.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The edge the printer turns the sheet over (as for cardgen build).")
@click.option("--back-offset", type=BACK_OFFSET, default="0,0",
              help="Print the back shifted by this offset (to read drifts beyond the scales' 3 mm); "
                   "the numbers read are still the whole offset to build with.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
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
