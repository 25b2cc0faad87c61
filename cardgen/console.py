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
    try:
        from .cli import run as run_command
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        sys.stderr.flush()
        os._exit(1)
    run_command()
