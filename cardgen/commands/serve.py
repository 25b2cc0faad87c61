"""``cardgen serve``: a live preview of the sets in the browser."""
from __future__ import annotations

import click

from .outputfolder import OutputFolder

MOST_DELAY = 86400.0  # s: a day; a longer wait overflows the clock the PDF thread sleeps on


class Seconds(click.FloatRange):
    """A wait from 0 to a day: click's FloatRange lets nan and inf through, and the PDF thread
    then never builds (nan) or dies with a traceback (inf, 1e308)."""

    def __init__(self):
        super().__init__(min=0)

    def convert(self, value, param, ctx):
        seconds = super().convert(value, param, ctx)
        if not seconds <= MOST_DELAY:
            self.fail(f'"{value}" is not a number of seconds from 0 to {MOST_DELAY:.0f}', param, ctx)
        return seconds


@click.command()
@click.argument("sets", nargs=-1)
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port to listen on (default 8642; 0 picks a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but 127.0.0.1 shows the project to the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--out", type=OutputFolder(), default=None,
              help="Output folder the PDFs are built into (default: output/).")
@click.option("--pdf-delay", type=Seconds(), default=None, metavar="SECONDS",
              help="Seconds after the last refresh of the preview before the set's PDF is built (default "
                   "0.5: the page's new images load first, and a burst of saves builds one PDF).")
@click.pass_context
def serve(ctx, sets, port, host, open_browser, out, pdf_delay):
    """Preview SETS (default: every set) in the browser at http://127.0.0.1:PORT/: every face
    by type with search and filters, problems with their file:line, deck lists, the PDF. The
    page updates itself on every save in data/, templates/ and fonts/. Ctrl-C stops."""
    from ..cli import run_reporting_errors
    from ..serve import DEFAULT_PORT, PDF_DELAY, serve as run_serve

    root = ctx.obj["root"]
    run_reporting_errors(ctx, lambda: run_serve(sets, root, out, DEFAULT_PORT if port is None else port, host,
                                                open_browser, echo=click.echo,
                                                complain=lambda line: click.echo(line, err=True),
                                                pdf_delay=PDF_DELAY if pdf_delay is None else pdf_delay))
    click.echo("stopped")
