"""The ``cardgen`` command's entry point (pyproject's ``[project.scripts]``, ``python -m cardgen``).

A Ctrl-C that lands while the command line's modules are still being imported (its first tenth
of a second) ends the command as one during the command does: click's "Aborted!" and status 1,
not Python's traceback. ``cli.run`` puts its stop handlers in place only once ``cli`` is
imported, and putting them in place when cardgen is imported would change them for any program
that imports cardgen as a library."""
from __future__ import annotations

import os
import sys


def run() -> None:
    _reportlab_settings_left_out()
    try:
        from .cli import run as run_command
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        sys.stderr.flush()
        os._exit(1)
    run_command()


def _reportlab_settings_left_out() -> None:
    """reportlab, when first imported, takes settings from outside the project: it reads
    ``~/.reportlab_settings``, runs ``~/.reportlab_mods`` as Python, imports
    ``reportlab_settings`` and ``reportlab_mods`` from anywhere on the module path (the working
    folder, under ``python -m cardgen``) and reads an ``RL_<setting>`` environment variable for
    each setting. Some change the PDF's bytes (``pdfComments``, ``ttfAsciiReadable``,
    ``pdfMultiLine``), so the same project built on another account printed differently. The
    command runs reportlab with its own defaults: empty modules stand for the two it would
    import, and the variables are dropped before it is imported (the workers, forked, inherit
    both). Done here and not on ``import cardgen``: a program using cardgen as a library keeps
    its own reportlab configuration."""
    import types

    for name in ("reportlab_settings", "reportlab_mods"):
        sys.modules.setdefault(name, types.ModuleType(name))
    for variable in [variable for variable in os.environ if variable.startswith("RL_")]:
        del os.environ[variable]
