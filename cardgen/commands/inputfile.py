"""A file named on the command line to be read: it exists, is no folder, and is no device."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import click


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
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            self.fail(f'"{value}" is a device, not a file', param, ctx)
        return path
