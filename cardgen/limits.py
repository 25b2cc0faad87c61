"""Limits that keep a build of an untrusted set finite: in time, memory and disk.

A set folder may come from anyone. Each limit has a default large enough for any real game and
is raised, for one run or for good, with an environment variable (``CARDGEN_MAX_COPIES_PER_CARD=
50000 cardgen build``): never from the set's own files, which a hostile set would simply raise.
A limit that is hit is one problem naming the place in the data or template, the limit and the
variable that raises it (``limit_message``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import CardgenError, UsageError


@dataclass(frozen=True)
class Limit:
    """A bound on what the input may ask for, raised by an environment variable."""

    variable: str  # the environment variable that raises it
    default: int
    what: str  # what is limited, as the README and messages say it


LIMITS: dict[str, Limit] = {limit.variable: limit for limit in (
    Limit("CARDGEN_MAX_COPIES_PER_CARD", 10_000, "copies of one card"),
    Limit("CARDGEN_MAX_COPIES_PER_SET", 200_000, "card copies in one set or deck list"),
    Limit("CARDGEN_MAX_YAML_EXPANSION", 10,
          "expansion of a YAML file by its aliases, in times the values written in it (at least 100,000 values)"),
    Limit("CARDGEN_MAX_TEMPLATE_DEPTH", 40, "depth of templates and macros inside one another (include, extends, macro calls)"),
    Limit("CARDGEN_MAX_TEMPLATE_STEPS", 1_000_000, "loop turns and calls in one template rendering"),
    Limit("CARDGEN_MAX_IMAGE_PIXELS", 150_000_000, "pixels in one image (width x height)"),
    Limit("CARDGEN_MAX_SVG_ELEMENTS", 100_000, "elements one SVG draws, <use> references expanded"),
    Limit("CARDGEN_MAX_SHEET_SLOTS", 10_000, "slots on one sheet template (nx x ny)"),
    Limit("CARDGEN_MAX_GRID_SLOTS", 250_000, "faces on one page of a built-in sheet"),
    Limit("CARDGEN_MAX_BOARD_TILES", 1_000, "pages one face larger than the paper is tiled over"),
)}

COPIES_PER_CARD = "CARDGEN_MAX_COPIES_PER_CARD"
COPIES_PER_SET = "CARDGEN_MAX_COPIES_PER_SET"
YAML_EXPANSION = "CARDGEN_MAX_YAML_EXPANSION"
TEMPLATE_DEPTH = "CARDGEN_MAX_TEMPLATE_DEPTH"
TEMPLATE_STEPS = "CARDGEN_MAX_TEMPLATE_STEPS"
IMAGE_PIXELS = "CARDGEN_MAX_IMAGE_PIXELS"
SHEET_SLOTS = "CARDGEN_MAX_SHEET_SLOTS"
GRID_SLOTS = "CARDGEN_MAX_GRID_SLOTS"  # a 0.5 mm card fills a page with 225,720: still placed
SVG_ELEMENTS = "CARDGEN_MAX_SVG_ELEMENTS"
BOARD_TILES = "CARDGEN_MAX_BOARD_TILES"  # a 1 m board on letter paper takes 24; a 100 m one 200,000

YAML_EXPANSION_FLOOR = 100_000  # values any YAML file may expand to: a few megabytes


class LimitReached(CardgenError):
    """A limit was hit: the stage stops at once rather than hit it again for every card."""


def limit(variable: str) -> int:
    """The limit's value: its environment variable if set, else its default."""
    text = os.environ.get(variable, "").strip().replace("_", "")
    if not text:
        return LIMITS[variable].default
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"{variable} must be a whole number above 0, got {os.environ[variable]!r}")
    return int(text)


def limit_message(variable: str, detail: str) -> str:
    """``detail``, then which limit it passes and how to raise it."""
    return (f"{detail}; limit: {LIMITS[variable].what}, {variable}={limit(variable)} "
            f"(set that environment variable higher to raise it)")
