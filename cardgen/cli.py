"""The ``cardgen`` command: a thin layer over the Python API.

Exit codes: 0 success, 1 bad data or a failed check, 2 bad usage (unknown set, bad option).
"""
from __future__ import annotations

import gc
import os
import signal
import sys

from . import collector_paused, regex_code

with collector_paused():
    from . import stops
    from .commands.inputfile import InputFile
    from .commands.optiontypes import BACK_OFFSET, PAPERS, Margin, named
    from .commands.outputfolder import OutputFolder

    from dataclasses import replace
    from pathlib import Path
    from typing import Any

    import click

    from .commands import LazyGroup
    from .errors import CardgenError, UsageError, collapse, os_message, readable, tally
    from .paths import link_loop

# The build stack (cardgen.pipeline: reportlab, jinja2, the YAML loader) is imported by the
# commands that use it, when they run: `cardgen --help` and `cardgen list` start without it.


class ProgressBars:
    """A progress bar per set, over its card copies, for builds of at least ``MIN_CARDS``."""

    MIN_CARDS = 100

    def __init__(self):
        self.bars: dict[str, Any] = {}

    def update(self, name: str, done: int, total: int) -> None:
        if total < self.MIN_CARDS:
            return
        bar = self.bars.get(name)
        if bar is None:
            bar = self.bars[name] = click.progressbar(length=total, label=f"building {name}", file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)
        if done == total:
            bar.__exit__(None, None, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for bar in self.bars.values():
            if bar.pos < bar.length:
                bar.__exit__(None, None, None)


class Failure(click.ClickException):
    exit_code = 1

    def show(self, file=None):
        click.echo(self.message, err=True)


def _print_traceback() -> None:
    import traceback  # for --debug alone

    traceback.print_exc()


def run_reporting_errors(ctx: click.Context, action):
    """Run an action, turning bad input into ``file:line: message`` lines and an exit code."""
    try:
        return action()
    except CardgenError as error:
        problems = collapse(error.problems)
        for problem in problems:
            click.echo(str(problem), err=True)
        unlisted = getattr(error, "unlisted_warnings", {})
        for name, count in unlisted.items():  # a build lists its errors; `cardgen check` lists warnings
            click.echo(f"{name}: {count} warning{'s' * (count != 1)} (`cardgen check {name}` lists them)", err=True)
        raise Failure(f"cardgen: {tally(problems, sum(unlisted.values()))}") from None
    except UsageError as error:
        raise click.UsageError(readable(str(error)), ctx) from None
    except MemoryError:  # the limits keep the defaults far from this; a raised limit may not
        raise Failure("cardgen: out of memory (a limit raised too high? see README, Limits)") from None
    except OSError as error:  # the machine's refusal (permissions, a full disk), not a bug
        if ctx.find_root().params.get("debug"):
            _print_traceback()
        raise Failure(f"cardgen: {os_message(error)}") from None
    except Exception as error:
        looped = link_loop(error)  # a path Python resolved no further: the machine's refusal too
        if looped is not None:
            raise Failure(f"cardgen: {os_message(looped)}") from None
        if ctx.find_root().params.get("debug"):
            _print_traceback()
        else:
            click.echo("cardgen: internal error (run with --debug for the traceback)", err=True)
        raise Failure(f"cardgen: internal error: {sys.exc_info()[1]!r}") from None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--root", type=click.Path(file_okay=False), default=".",
              callback=named("the project folder (. for this one)", Path),
              help="The project folder holding data/, templates/ and fonts/.")
@click.option("--debug", is_flag=True, help="Show a traceback on internal errors.")
@click.version_option(package_name="cardgen", prog_name="cardgen", message="%(prog)s %(version)s")
@click.pass_context
def main(ctx: click.Context, root: Path, debug: bool) -> None:
    """Printable cards from data: build, check and list card sets."""
    try:
        os.getcwd()
    except FileNotFoundError:  # every relative path (the project, output/) starts from it
        click.echo("cardgen: the folder this command runs in no longer exists (deleted or moved?): cd into the "
                   "project folder again", err=True)
        ctx.exit(1)
    from .source_date import check_source_date

    try:
        check_source_date()  # before any command starts a PDF (reportlab reads it as well)
    except UsageError as error:
        raise click.UsageError(str(error), ctx) from None
    ctx.obj = {"root": root}


def _build_stack():
    """``cardgen.pipeline``, imported with what it imports (jinja2, lxml, reportlab) when a
    command first needs it. The ``cardgen`` command (``run``) froze what it had imported before
    it started: the build stack's modules are frozen too, for the same reason. They are never
    garbage, and the collector's scans after the import went through every object the import made
    (about 5 ms, a fortieth of a changed card's rebuild). Where nothing is frozen (cardgen's
    commands run inside another program, its tests), nothing is frozen here either."""
    with collector_paused():
        from . import pipeline
    if gc.get_freeze_count():
        gc.freeze()
    return pipeline


def _build_options(paper, orientation, per_card, gutter_fold, duplex, spacing, crop_marks, cut_lines, sheet,
                   proof_boxes, stamp, deck, changed_since=None, cache=True, color=None, margin=None,
                   back_offset=(0.0, 0.0), mix_backs=False, jobs=None) -> BuildOptions:
    from .options import BuildOptions

    if per_card and gutter_fold:
        raise click.UsageError("--per-card and --gutter-fold exclude each other")
    layout = "per-card" if per_card else "gutter-fold" if gutter_fold else "sheets"
    # options that would be silently ignored are errors: they do not apply to this layout
    pages = "--per-card pages (one face a page, no sheet)" if per_card else "--gutter-fold pages (no back pages)"
    not_applying = [name for name, given, applies in (
        ("--sheet", sheet is not None, not per_card), ("--margin", margin is not None, not per_card),
        ("--mix-backs", mix_backs, not per_card),
        ("--back-offset", tuple(back_offset) != (0.0, 0.0), layout == "sheets")) if given and not applies]
    if not_applying:
        raise click.UsageError(f"{not_applying[0]} does not apply to {pages}")
    sheet = _typed_sheet_file(sheet)
    return BuildOptions(paper=paper, orientation=orientation, layout=layout, duplex=duplex,
                        spacing=spacing, crop_marks=crop_marks, cut_lines=cut_lines, sheet=sheet,
                        proof_boxes=proof_boxes, stamp=stamp, deck=deck, changed_since=changed_since,
                        cache=cache, color=color, margin=margin, back_offset=back_offset,
                        mix_backs=mix_backs, jobs=jobs)


def _typed_sheet_file(sheet: str | None) -> str | None:
    """``--sheet FILE`` is a path the user typed: from the working folder when it is there (a
    set.yaml's sheet file is found from the set's folder instead)."""
    if not sheet:
        return sheet
    from .sheets.labels import is_path  # the sheet readers: only when a sheet is named

    if not is_path(sheet):
        return sheet
    file, hash_, part = sheet.partition("#")
    typed = Path(file)
    if not typed.is_absolute() and typed.is_file():
        return str(typed.resolve()) + hash_ + part
    return sheet


@main.command()
@click.argument("sets", nargs=-1)
@click.option("--paper", type=PAPERS, default=None,
              help="Paper: letter, a4, a3, or W x H such as 300x200 (mm) or 11x17in (default: the set's "
                   "sheet: paper:, else letter).")
@click.option("--out", type=OutputFolder(file_okay=True), default=None,
              help="Output folder (default: output/).")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default=None,
              help="Page orientation (default: whichever fits the most faces).")
@click.option("--per-card", is_flag=True, help="One face per page at trim plus bleed, TrimBox and BleedBox set (print shops).")
@click.option("--gutter-fold", is_flag=True, help="Fronts and backs on one page, mirrored across a fold line.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The edge a duplex printer turns the sheet over.")
@click.option("--margin", type=Margin(), default=None,
              help="mm along every paper edge where nothing is printed (default 4, or the set's sheet margin).")
@click.option("--back-offset", type=BACK_OFFSET, default="0,0",
              help="X,Y in mm: shift every back page to correct the printer's drift (`cardgen calibrate` measures it).")
@click.option("--mix-backs", is_flag=True,
              help="Let cards of one size with different backs (decks) share sheets.")
@click.option("--spacing", type=click.Choice(["butt", "bleed"]), default=None,
              help="butt: cards touch; bleed: full bleed around every card.")
@click.option("--crop-marks/--no-crop-marks", default=None, help="Crop marks outside the cut area (default on).")
@click.option("--cut-lines", is_flag=True, default=None, help="Full-length cut lines across the sheet.")
@click.option("--sheet", default=None, callback=named("a sheet template (OL32, circle-cut, ...) or a file"),
              help="Sheet template: OL32, OL5275, 'Endisch 6500012x', circle-cut, or a gLabels/YAML file.")
@click.option("--proof-boxes", is_flag=True, help="Outline trim, bleed and safe zone on every face.")
@click.option("--stamp", is_flag=True, help="Print the set's version and the PDF's date (set.yaml's date:, else SOURCE_DATE_EPOCH, else the set's newest file) in each face's bleed.")
@click.option("--deck", type=InputFile(), default=None,
              help="Print exactly the cards of this deck list.")
@click.option("--changed-since", type=InputFile(), default=None,
              help="An earlier manifest: print only the faces changed since, with a changelog page.")
@click.option("--cache/--no-cache", default=True,
              help="Reuse the renderings and drawings of unchanged faces from the last build (default on).")
@click.option("--color", type=click.Choice(["rgb", "cmyk"]), default=None,
              help="cmyk: convert RGB colours and images to CMYK inks (default: the set's `color:`, else rgb).")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that lay out faces (default: every usable core; 1: this process alone).")
@click.pass_context
def build(ctx, sets, paper, out, orientation, per_card, gutter_fold, duplex, margin, back_offset, mix_backs, spacing,
          crop_marks, cut_lines, sheet, proof_boxes, stamp, deck, changed_since, cache, color, jobs):
    """Build SETS (default: every set) into output/<set>.pdf and output/<set>.json."""
    root = ctx.obj["root"]
    with collector_paused():
        options = _build_options(paper, orientation, per_card, gutter_fold, duplex, spacing, crop_marks,
                                 cut_lines or None, sheet, proof_boxes, stamp, deck, changed_since, cache, color,
                                 margin, back_offset, mix_backs, jobs)
        from .unchanged import looked
    options = replace(options, skip_unchanged=True)  # a set as its last build left it is not built again

    def action():
        with looked(sets, root, out, options) as skipped:
            if skipped is not None:  # every set as its last build left it: said without the build stack
                return skipped
            with collector_paused():
                from .deferred import defer_unused_by_builds

                defer_unused_by_builds()
            pipeline = _build_stack()
            names = pipeline.resolve_names(sets, root)
            if not sys.stderr.isatty():
                return pipeline.build(names, root, out, options)
            with ProgressBars() as bars:
                return pipeline.build(names, root, out, options, bars.update)

    result = run_reporting_errors(ctx, action)
    for set_result in result.sets:
        if set_result.warnings:  # the list is `cardgen check`'s job; a build only counts them
            count = len(set_result.warnings)
            click.echo(f"{set_result.name}: {count} warning{'s' * (count != 1)} "
                       f"(`cardgen check {set_result.name}` lists them)", err=True)
    click.echo(result.summary)


@main.command()
@click.argument("sets", nargs=-1)
@click.option("--deck", type=InputFile(), default=None,
              help="Check this deck list against the set's rules.")
@click.option("--rules-option", "rules_options", multiple=True, metavar="NAME",
              callback=named("an option of the set's rules files (their `options:`)"),
              help="Turn on a named reading that the set's rules file offers (repeatable).")
@click.option("--cache/--no-cache", default=True,
              help="Take the faces the last build drew, with this same code, as fitting (default on).")
@click.pass_context
def check(ctx, sets, deck, rules_options, cache):
    """Load and validate SETS (default: every set) and lay out every card; write nothing."""
    pipeline = _build_stack()
    root = ctx.obj["root"]
    problems = collapse(run_reporting_errors(ctx, lambda: pipeline.check(sets, root, deck, rules_options, cache)))
    for problem in problems:
        click.echo(str(problem), err=True)
    if any(p.is_error for p in problems):
        raise Failure(f"cardgen: {tally(problems)}")
    warnings = len(problems)
    click.echo(f"ok: no errors, {warnings} warning{'s' * (warnings != 1)}")


@main.command(name="list")
@click.pass_context
def list_sets(ctx):
    """List the sets with their card types and card counts."""
    root = ctx.obj["root"]

    def action():
        from .load.setfile import load_set, set_names
        from .load.yamlfile import small_files_through_libyaml
        from .model import copies_by_type

        from .project import require_project

        require_project(root)
        lines = []
        names = set_names(root)
        if len(names) > 1:  # two set.yaml files through ruamel cost more than importing libyaml
            small_files_through_libyaml()
        for name in names:
            card_set = load_set(name, root)
            copies = card_set.copies()
            lines.append(f"{name}  {card_set.title} (version {card_set.version}): {copies} card{'s' * (copies != 1)}")
            counts = copies_by_type(card_set.cards)
            for type_name, card_type in card_set.types.items():
                count = counts.get(type_name, 0)
                size = card_type.size
                lines.append(f"  {type_name:<16} {count:>5}  {size.w:g} x {size.h:g} mm {size.shape}")
        return lines

    # Most of `list` is importing: the loaders, and what they import when first used (the sheet
    # sizes, colour settings, PyYAML). Paused, the collector does not scan those modules' objects
    # and their dataclasses' methods come compiled (dataclass_code.py); what the sets' files make
    # is freed as it is dropped, not through the collector (no cycles).
    with collector_paused():
        lines = run_reporting_errors(ctx, action)
    for line in lines:
        click.echo(line)


def run() -> None:
    """The ``cardgen`` command: ``main``, then an immediate exit. After a large build Python's
    own shutdown frees every object one at a time, a sixth of a rebuild's time; by then every
    file is written and closed, so the process ends at once (as mypy's does). What is loaded
    before the command starts (modules, mostly) is never garbage, so the collector is told to
    leave it out of its scans."""
    gc.freeze()
    # Stopped by a service manager, `timeout` or `kill`, or Ctrl-C: unwind, so that staged files
    # and temporary folders are removed and earlier outputs stay as they were (see stops.py)
    stops.unwind_on_stops()
    code = 1  # a stop that cuts short the command's own exit (click says 1 for Ctrl-C)
    regex_code.enter()  # the command's patterns (jinja2's lexer, Pillow's, ...) compiled as at the last run
    try:
        try:
            main(prog_name="cardgen")
            code = 0
        except SystemExit as exit_:
            code = exit_.code
        finally:
            stops.note_stops_only()  # the command is over and its files whole: only the status changes
    except KeyboardInterrupt:  # it came before the handlers above were in place
        pass
    regex_code.leave()  # (keeps the patterns compiled anew)
    if signal.SIGTERM in stops.asked():
        code = 128 + signal.SIGTERM  # as a shell reports a process ended by SIGTERM
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


if __name__ == "__main__":  # pragma: no cover
    run()
