"""Greedy line breaking at any width, by binary search over running word widths.

Line breaking at size s depends only on (box width / s), so auto-fit (fit.py) tries sizes by
breaking the same measured words at other widths; nothing is measured again.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from itertools import accumulate
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .fit import MeasuredLine

PARAGRAPH_GAP = 0.5  # extra space between paragraphs, in lines


class Lines:
    """Word widths of each hard line as running sums of (width + space), so that greedy line
    breaking at any width is one binary search per line, not one step per word: the words i..j-1
    fit a line of width W exactly when ``sums[j] - sums[i] <= W + space``."""

    def __init__(self, measured: list[list[MeasuredLine]], space: float):
        self.space = space
        self.paragraph_sizes = list(map(len, measured))
        # one pass over the hard lines (a text has one or two: comprehensions cost more to start
        # than to run)
        self.lines = lines = []
        self.sums = sums = []
        add = space.__add__
        widest = 0.0
        first = True  # the widest word: the first line's, then any wider one's
        for paragraph in measured:
            for hard_line in paragraph:
                widths = hard_line.widths
                lines.append(hard_line)
                sums.append(list(accumulate(map(add, widths), initial=0.0)))
                if widths:
                    line_widest = max(widths)
                    if first or line_widest > widest:
                        widest, first = line_widest, False
        self.widest = widest

    def count(self, width1: float) -> int | None:
        """How many lines greedy breaking needs at a line width of ``width1`` (1-pt units); None
        if a word is wider than a line."""
        if self.widest > width1 + 1e-9:
            return None
        limit = width1 + self.space + 1e-9
        count = 0
        for sums in self.sums:
            start, last = 0, len(sums) - 1
            count += start == last  # an empty line still takes its place
            while start < last:
                end = bisect_right(sums, sums[start] + limit, start + 1) - 1
                start = end if end > start else start + 1  # a word always starts its own line
                count += 1
        return count

    def largest_possible(self, box_w: float, box_h: float, leading: float, gaps: float) -> float:
        """A size above which the text cannot fit, however its lines break: L lines of width
        ``box_w / s`` hold at most L * (box_w / s + space) of the running sums, so L >= T * s /
        (box_w + space * s) for the sums' total T; the size at which that many lines fill the
        box is the root of a quadratic."""
        total = sum(sums[-1] for sums in self.sums)
        if total <= 0:
            return float("inf")
        a = leading * (total + gaps * self.space)
        b = leading * gaps * box_w - box_h * self.space
        c = -box_h * box_w
        return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a) + 1e-9

    def broken(self, width1: float):
        """Paragraph -> [(hard line, first word, end word, width at 1 pt, ends its hard line)]."""
        limit = width1 + self.space + 1e-9
        hard_lines = iter(zip(self.lines, self.sums))
        out = []
        for size in self.paragraph_sizes:
            para_lines = []
            for _ in range(size):
                hard_line, sums = next(hard_lines)
                start, last = 0, len(sums) - 1
                if start == last:
                    para_lines.append((hard_line, 0, 0, 0.0, True))
                while start < last:
                    end = bisect_right(sums, sums[start] + limit, start + 1) - 1
                    if end <= start:
                        end = start + 1
                    para_lines.append((hard_line, start, end, sums[end] - sums[start] - self.space, end == last))
                    start = end
            out.append(para_lines)
        return out


def height_in_lines(broken, leading: float) -> float:
    """Height in 1-pt units."""
    lines = sum(map(len, broken))
    return leading * (lines + PARAGRAPH_GAP * (len(broken) - 1))
