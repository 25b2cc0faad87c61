"""A file named on the command line to be read: it exists, and is no folder, pipe or device."""
from __future__ import annotations

import os
from pathlib import Path

import click

from ..paths import kind_of


class InputFile(click.Path):
    """An existing file given on the command line (--deck, --changed-since, an import's FILE). A
    device reads without end: ``--deck`` naming the zero device read until memory ran out."""

    def __init__(self):
        super().__init__(dir_okay=False, exists=True, path_type=Path)

    def convert(self, value, param, ctx):
        root = ctx.find_root().params.get("root") if ctx is not None else None
        typed = Path(os.fsdecode(value))
        if root is not None and not typed.is_absolute() and not os.path.lexists(typed) and (Path(root) / typed).is_file():
            # a path typed from the project's folder, given with --root from elsewhere: it is read
            # from the working folder, as every path typed on the command line is
            self.fail(f"File '{value}' does not exist here; it is in the project folder: give it as "
                      f"{Path(root) / typed}", param, ctx)
        path = super().convert(value, param, ctx)
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return path  # said where it is read, in the reader's words
        kind = kind_of(mode)
        if kind is not None:  # a named pipe read waits for a writer for ever: --deck naming one hung
            self.fail(f'"{value}" is {kind}, not a file', param, ctx)
        return path
