"""A folder a command writes into (``--out``, ``new``'s PATH): given as empty text, it is refused
rather than read as the current folder (``--out ''``, or ``--out "$UNSET"``, wrote beside the
project's own files without a word)."""
from __future__ import annotations

from pathlib import Path

import click


class OutputFolder(click.Path):
    def __init__(self, file_okay: bool = False):
        super().__init__(file_okay=file_okay, path_type=Path)

    def convert(self, value, param, ctx):
        if value == "":
            self.fail('empty text: name a folder ("." for the current one)', param, ctx)
        return super().convert(value, param, ctx)
