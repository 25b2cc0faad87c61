"""The types and checks of the command line's own options: paper sizes, back offsets, margins,
and text an option may not be left empty of."""
from __future__ import annotations

import math
import re
from typing import Callable

import click


def named(what: str, convert: Callable = lambda text: text) -> Callable:
    """A click callback refusing an option given as empty text (a shell variable left unset:
    ``--root ''`` meant the working folder, ``--sheet ''`` the set's own sheet and
    ``--rules-option ''`` was blamed on set.yaml's first line, each without a word), as
    "empty text: name WHAT"; the value, or each of a repeated option's, passes through ``convert``."""
    def check(ctx, param, value):
        if value is None:
            return None
        values = value if isinstance(value, tuple) else (value,)
        if any(not text.strip() for text in values):
            raise click.BadParameter(f"empty text: name {what}", ctx, param)
        return tuple(map(convert, value)) if isinstance(value, tuple) else convert(value)
    return check


class Paper(click.ParamType):
    """letter, a4, a3, or a custom size W x H ("300x200", "11x17in", "210mmx297mm")."""

    name = "letter|a4|a3|WxH"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        text = value.strip().lower()
        if text in ("letter", "a4", "a3"):
            return text
        match = re.fullmatch(r"([\d.]+)(mm|in|pt)?x([\d.]+)(mm|in|pt)?", text)
        if not match:
            self.fail(f'"{value}" is not letter, a4, a3 or a size such as 300x200 (mm) or 11x17in', param, ctx)
        w, w_unit, h, h_unit = match.groups()
        unit = w_unit or h_unit or "mm"
        sides = (f"{w}{w_unit or unit}", f"{h}{h_unit or unit}")
        from ..units import parse_length

        try:  # said here, as the option's problem: later it would be blamed on set.yaml's first line
            lengths = [parse_length(side) for side in sides]
        except ValueError:
            self.fail(f'"{value}" is not letter, a4, a3 or a size such as 300x200 (mm) or 11x17in', param, ctx)
        if min(lengths) <= 0:
            self.fail(f'"{value}": paper sides must be greater than 0', param, ctx)
        return sides


PAPERS = Paper()


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


class Margin(click.ParamType):
    """mm along the paper's edges: a number from 0 (nan, which click's own FloatRange lets
    through, fails deep in the imposition)."""

    name = "MM"

    def convert(self, value, param, ctx):
        try:
            margin = float(value)
        except (TypeError, ValueError):
            margin = math.nan
        if not 0 <= margin <= 1000:
            self.fail(f'"{value}" is not a margin in mm from 0 to 1000', param, ctx)
        return margin
