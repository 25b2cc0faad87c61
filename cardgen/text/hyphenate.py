"""Hyphenation for auto-fit: words broken at a line's end, with a hyphen, before a text box
has to shrink its size.

Break points come from pyphen's dictionaries (Hunspell's patterns) for a language, and from
soft hyphens (U+00AD) in the data, which always count and never print unless a word breaks
there. Only plain words (one style, no icon) break.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

SOFT_HYPHEN = "\u00ad"
HYPHEN = "-"
MIN_PART = 2  # letters each side of a break that pyphen offers


class Hyphenator(NamedTuple):
    language: str | None  # None: soft hyphens only

    def points(self, word: str) -> tuple[int, ...]:
        return _points(self.language, word)


@lru_cache(maxsize=64)
def dictionary(language: str):
    import pyphen  # imported here: only sets that hyphenate pay for it

    if language not in pyphen.LANGUAGES:
        short = language.split("_")[0].split("-")[0]
        matches = sorted(name for name in pyphen.LANGUAGES if name.split("_")[0] == short)
        if not matches:
            raise ValueError(f'no hyphenation dictionary for "{language}" (known: '
                             f'{", ".join(sorted(pyphen.LANGUAGES))})')
        language = matches[0]
    return pyphen.Pyphen(lang=language, left=MIN_PART, right=MIN_PART)


@lru_cache(maxsize=8192)
def _points(language: str | None, word: str) -> tuple[int, ...]:
    """Where ``word`` (soft hyphens removed) may break: indexes into the word without them."""
    if SOFT_HYPHEN in word:
        points, at = [], 0
        for piece in word.split(SOFT_HYPHEN)[:-1]:
            at += len(piece)
            if 0 < at:
                points.append(at)
        return tuple(p for p in points if p < len(word.replace(SOFT_HYPHEN, "")))
    if language is None:
        return ()
    core_start = len(word) - len(word.lstrip("\"'(“‘"))
    core_end = len(word.rstrip("\"').,;:!?”’"))
    core = word[core_start:core_end]
    if len(core) < 2 * MIN_PART or not core.isalpha():
        # compound words with hard hyphens break after their hyphens
        return tuple(i + 1 for i, char in enumerate(word[:-1]) if char == "-" and i > 0)
    return tuple(core_start + p for p in dictionary(language).positions(core))


def hyphenated(measured, width1: float, space: float, hyphen_width, word_width, hyphenator: Hyphenator):
    """``measured`` (see fit.measure) with each plain word that greedy breaking at ``width1``
    (1-pt units) would push to the next line broken where the most of it still fits, with a
    hyphen: the result breaks at that width as greedy breaking does, but with the words split.
    ``word_width(key, text)`` measures a piece at 1 pt; ``hyphen_width(key)`` a hyphen."""
    from .fit import MeasuredLine

    out = []
    for paragraph in measured:
        new_paragraph = []
        for line in paragraph:
            widths, texts, keys, pieces = [], [], [], {}
            used = None  # width of the line being filled, None when it is empty
            for index, width in enumerate(line.widths):
                text = line.texts[index]
                while True:
                    needed = width if used is None else used + space + width
                    if needed <= width1 + 1e-9:
                        used = needed
                        break
                    room = width1 - (0.0 if used is None else used + space)
                    split = None
                    if text is not None:
                        split = _best_split(text, line.keys[index], room, hyphen_width, word_width, hyphenator)
                    if split is None:
                        if used is None:  # alone and too wide: it stays (auto-fit shrinks)
                            used = width
                            break
                        used = None  # to the next line, and look again there
                        continue
                    head, head_width, tail = split
                    widths.append(head_width)
                    texts.append(head)
                    keys.append(line.keys[index])
                    text, width = tail, word_width(line.keys[index], tail)
                    used = None
                widths.append(width)
                texts.append(text)
                keys.append(line.keys[index])
                if text is None:
                    pieces[len(widths) - 1] = line.pieces[index]
            new_paragraph.append(MeasuredLine(widths, texts, keys, pieces))
        out.append(new_paragraph)
    return out


def _best_split(text: str, key, room: float, hyphen_width, word_width, hyphenator: Hyphenator):
    points = hyphenator.points(text)
    plain = text.replace(SOFT_HYPHEN, "")
    for point in reversed(points):
        head = plain[:point]
        if head.endswith("-"):  # a compound's own hyphen
            head_width = word_width(key, head)
        else:
            head_width = word_width(key, head) + hyphen_width(key)
            head += HYPHEN
        if head_width <= room + 1e-9:
            return head, head_width, _tail(text, point)
    return None


def _tail(text: str, point: int) -> str:
    """The rest of ``text`` after ``point`` letters (soft hyphens not counted), soft hyphens kept."""
    seen = 0
    for index, char in enumerate(text):
        if seen == point:
            return text[index:].lstrip(SOFT_HYPHEN)
        if char != SOFT_HYPHEN:
            seen += 1
    return ""
