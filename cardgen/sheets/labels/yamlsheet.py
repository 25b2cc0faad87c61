"""A set's own sheet template, written in YAML (for example ``data/<set>/sheets/tokens.yaml``).

    name: Token sprue          # shown in messages (default: the file name)
    paper: a4                  # letter, a4, a3 or {w: 300mm, h: 200mm} (default letter)
    orientation: portrait      # portrait (default) or landscape
    marks: crop                # crop (crop marks round the slots, default), outline (the cut
                               # outline of every used slot) or none (die-cut sheets)
    duplex: true               # true (default): back pages mirror the front page;
                               # false: single-sided, a face's back goes in the next slot
    grid:                      # a grid of slots (or a list of grids)
      shape: circle            # rect (default) or circle
      d: 25                    # circles: the diameter; rectangles: w and h
      nx: 7                    # columns
      ny: 10                   # rows
      x0: 10                   # from the sheet's LEFT edge to the first slot
      y0: 12                   # from the sheet's TOP edge to the first slot
      dx: 27                   # pitch (default: the slot size)
      dy: 27
      waste: 1                 # how far art may print beyond a slot (default: half the gap
                               # to the nearest slot, at most the bleed)
    slots:                     # and/or single slots, same coordinates (x, y: from the left
      - {x: 10, y: 12, w: 63.5, h: 88.9}           # and top edges to the slot's corner)
      - {x: 100, y: 200, d: 30, shape: circle}

Lengths are millimetres unless written with a unit ("0.5in", "10pt"). Faces fill the slots
row by row from the top-left; a face must fit its slot (it is centred in it).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ...errors import Source, fail
from ...spelled import quoted, spelled
from ...limits import SHEET_SLOTS, limit, limit_message
from ...load.yamlfile import line_of, read_yaml
from ...units import parse_length
from ..sizes import paper_size
from ..template import SheetTemplate, TemplateSlot

KEYS = {"name", "paper", "orientation", "marks", "duplex", "grid", "slots"}
GRID_KEYS = {"shape", "w", "h", "d", "nx", "ny", "x0", "y0", "dx", "dy", "waste"}
SLOT_KEYS = {"shape", "w", "h", "d", "x", "y", "waste"}


def read_sheet_yaml(path: Path, name: str, root: Path | None = None) -> SheetTemplate:
    data = read_yaml(path, root)
    where = Source(name, line_of(data) if data is not None else None)
    if not isinstance(data, dict):
        raise fail("a sheet template is a mapping with paper, grid and/or slots", where)
    _no_unknown(data, KEYS, name, "sheet template")
    paper = data.get("paper", "letter")
    if isinstance(paper, dict):
        paper = (_length(paper, "w", name), _length(paper, "h", name))
    page_w, page_h = paper_size(paper, Source(name, line_of(data, "paper")))
    orientation = _choice(data, "orientation", ("portrait", "landscape"), name)
    if orientation == "landscape":
        page_w, page_h = page_h, page_w
    marks = _choice(data, "marks", ("crop", "outline", "none"), name)
    duplex = data.get("duplex", True)
    if not isinstance(duplex, bool):
        raise fail(f"duplex must be true or false, got {spelled(duplex)}", Source(name, line_of(data, "duplex")))
    grids = data.get("grid", [])
    grids = [grids] if isinstance(grids, dict) else grids
    singles = data.get("slots", [])
    for key, value in (("grid", grids), ("slots", singles)):
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise fail(f"{key} must be a mapping or a list of mappings", Source(name, line_of(data, key)))
    cells: list[tuple[TemplateSlot, float | None]] = []
    for grid in grids:
        cells += _grid(grid, page_h, name)
    for entry in singles:
        _no_unknown(entry, SLOT_KEYS, name, "slot")
        w, h, shape = _size(entry, name)
        x, y = _length(entry, "x", name), _length(entry, "y", name)
        cells.append((TemplateSlot(x, page_h - y - h, w, h, shape), _waste(entry, name)))
    if not cells:
        raise fail("the sheet template has no slots (give grid or slots)", where)
    for slot, _ in cells:
        if slot.x < -1e-6 or slot.y < -1e-6 or slot.x + slot.w > page_w + 1e-6 or slot.y + slot.h > page_h + 1e-6:
            raise fail(f"a slot at {slot.x:g}, {page_h - slot.y - slot.h:g} mm lies off the "
                       f"{page_w:g} x {page_h:g} mm page", where)
    slots = _with_rooms(cells)
    slots.sort(key=lambda s: (-round(s.y + s.h, 6), round(s.x, 6)))
    title = str(data.get("name", Path(name).stem))
    return SheetTemplate(title, page_w, page_h, tuple(slots), marks, duplex, source=where)


def _grid(grid: dict, page_h: float, name: str) -> list[tuple[TemplateSlot, float | None]]:
    _no_unknown(grid, GRID_KEYS, name, "grid")
    w, h, shape = _size(grid, name)
    nx, ny = _count(grid, "nx", name), _count(grid, "ny", name)
    if nx * ny > limit(SHEET_SLOTS):
        raise fail(limit_message(SHEET_SLOTS, f"the grid has {nx} x {ny} = {nx * ny:,} slots"),
                   Source(name, line_of(grid, "ny")))
    x0, y0 = _length(grid, "x0", name), _length(grid, "y0", name)
    dx = _length(grid, "dx", name) if "dx" in grid else w
    dy = _length(grid, "dy", name) if "dy" in grid else h
    waste = _waste(grid, name)
    return [(TemplateSlot(x0 + ix * dx, page_h - (y0 + iy * dy) - h, w, h, shape), waste)
            for iy in range(ny) for ix in range(nx)]


def _with_rooms(cells: list[tuple[TemplateSlot, float | None]]) -> list[TemplateSlot]:
    """Room beyond each slot: its waste if given, never past half the gap to a neighbour."""
    out = []
    for slot, waste in cells:
        limit = math.inf if waste is None else waste
        room = [limit] * 4  # left, bottom, right, top
        for other, _ in cells:
            if other is slot:
                continue
            if slot.shape == "circle" or other.shape == "circle":
                gap = math.dist((slot.x + slot.w / 2, slot.y + slot.h / 2),
                                (other.x + other.w / 2, other.y + other.h / 2)) - (slot.w + other.w) / 2
                room = [min(r, max(gap, 0) / 2) for r in room]
                continue
            overlap_y = other.y < slot.y + slot.h - 1e-9 and slot.y < other.y + other.h - 1e-9
            overlap_x = other.x < slot.x + slot.w - 1e-9 and slot.x < other.x + other.w - 1e-9
            if overlap_y and other.x + other.w <= slot.x + 1e-9:
                room[0] = min(room[0], (slot.x - other.x - other.w) / 2)
            if overlap_y and other.x >= slot.x + slot.w - 1e-9:
                room[2] = min(room[2], (other.x - slot.x - slot.w) / 2)
            if overlap_x and other.y + other.h <= slot.y + 1e-9:
                room[1] = min(room[1], (slot.y - other.y - other.h) / 2)
            if overlap_x and other.y >= slot.y + slot.h - 1e-9:
                room[3] = min(room[3], (other.y - slot.y - slot.h) / 2)
        out.append(TemplateSlot(slot.x, slot.y, slot.w, slot.h, slot.shape, tuple(max(r, 0.0) for r in room)))
    return out


def _size(entry: dict, name: str) -> tuple[float, float, str]:
    shape = _choice(entry, "shape", ("rect", "circle"), name)
    if shape == "circle":
        d = _length(entry, "d", name)
        return d, d, shape
    return _length(entry, "w", name), _length(entry, "h", name), shape


def _length(entry: dict, key: str, name: str) -> float:
    if key not in entry:
        raise fail(f"missing {key}", Source(name, line_of(entry)))
    try:
        value = parse_length(entry[key])
    except ValueError as exc:
        raise fail(f"{key}: {exc}", Source(name, line_of(entry, key))) from None
    if value < 0 or (key in ("w", "h", "d") and value == 0):
        rule = "greater than 0" if key in ("w", "h", "d") else "0 or more"  # a slot may touch the edge
        raise fail(f"{key} must be {rule}, got {entry[key]}", Source(name, line_of(entry, key)))
    return value


def _waste(entry: dict, name: str) -> float | None:
    return _length(entry, "waste", name) if "waste" in entry else None


def _count(entry: dict, key: str, name: str) -> int:
    value: Any = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        where = Source(name, line_of(entry, key) if key in entry else line_of(entry))
        raise fail(f"{key} must be a whole number of 1 or more, got {spelled(value)}", where)
    return value


def _choice(entry: dict, key: str, allowed: tuple[str, ...], name: str) -> str:
    value = entry.get(key, allowed[0])
    if value not in allowed:
        raise fail(f'{key} must be one of {", ".join(allowed)}, got {quoted(value)}', Source(name, line_of(entry, key)))
    return value


def _no_unknown(entry: dict, keys: set[str], name: str, what: str) -> None:
    for key in entry:
        if key not in keys:
            raise fail(f'{what}: unknown key "{key}" (known: {", ".join(sorted(keys))})',
                       Source(name, line_of(entry, key)))
