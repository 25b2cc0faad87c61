"""Paper sizes and card size presets (millimetres)."""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import Source, fail
from ..model import CardSize
from ..spelled import spelled
from ..units import parse_length

# Portrait (width <= height).
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
}

CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize(63.5, 88.9, "poker"),
    "bridge": CardSize(57.15, 88.9, "bridge"),
    "mini-usa": CardSize(41.0, 63.0, "mini-usa"),
    "mini-euro": CardSize(44.0, 68.0, "mini-euro"),
    "tarot": CardSize(70.0, 120.0, "tarot"),
    "square": CardSize(70.0, 70.0, "square"),
}


def card_size(value: object, source: Source | None = None) -> CardSize:
    """A preset name (``poker``) or a mapping ``{w: 63.5, h: 88.9}`` (lengths may carry units)."""
    if isinstance(value, str):
        preset = CARD_SIZES.get(value.strip().lower())
        if preset is None:
            raise fail(f'unknown card size "{value}" (presets: {", ".join(CARD_SIZES)}; '
                       "or give {w: ..., h: ...})", source)
        return preset
    if isinstance(value, Mapping):
        extra = sorted(str(key) for key in value if key not in ("w", "h"))
        if extra:
            raise fail(f'card size: unknown key "{extra[0]}" (a size takes w and h)', source)
        lengths = []
        for key in ("w", "h"):
            if key not in value:
                raise fail(f"card size: missing {key} (a size takes w and h)", source)
            try:
                length = parse_length(value[key])
            except ValueError as exc:
                raise fail(f"card size {key}: {exc}", source) from None
            if length <= 0:
                raise fail(f"card size {key} must be greater than 0, got {value[key]}", source)
            lengths.append(length)
        return CardSize(lengths[0], lengths[1], "custom")
    raise fail(f"card size must be a preset name or {{w: ..., h: ...}}, got {spelled(value)}", source)


def paper_size(paper: object, source: Source | None = None) -> tuple[float, float]:
    """The paper as (w, h) in mm, portrait (a custom size is normalised to w <= h)."""
    if isinstance(paper, str):
        size = PAPER_SIZES.get(paper.strip().lower())
        if size is None:
            raise fail(f'unknown paper "{paper}" (choose {", ".join(PAPER_SIZES)} or give (w, h) in mm)',
                       source)
        return size
    if isinstance(paper, (tuple, list)) and len(paper) == 2:
        try:
            w, h = (parse_length(v) for v in paper)
        except ValueError as exc:
            raise fail(f"paper: {exc}", source) from None
        if w <= 0 or h <= 0:
            raise fail(f"paper sides must be greater than 0, got {paper[0]} x {paper[1]}", source)
        return (min(w, h), max(w, h))
    raise fail(f"paper must be a name or (w, h) in mm, got {spelled(paper)}", source)


def paper_name(paper: object) -> str:
    """The paper as messages name it: its name, or its sides in mm (set.yaml gives numbers, the
    command line lengths such as "11in")."""
    if isinstance(paper, str):
        return paper
    return f"{fmt(parse_length(paper[0]))} x {fmt(parse_length(paper[1]))} mm"


def fmt(value: float) -> str:
    """A length for messages: at most two decimals, no trailing zeros."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")
