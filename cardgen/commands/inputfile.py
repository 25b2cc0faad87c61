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
        path = super().convert(value, param, ctx)
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return path  # said where it is read, in the reader's words
        kind = kind_of(mode)
        if kind is not None:  # a named pipe read waits for a writer for ever: --deck naming one hung
            self.fail(f'"{value}" is {kind}, not a file', param, ctx)
        return path
