"""The figures preflight measures against (thresholds.yaml), with their sources."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ruamel.yaml import YAML

from ..units import MM_PER_INCH

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")
SHOPS = ("home", "drivethru", "tgc", "mpc")


@dataclass(frozen=True)
class Thresholds:
    min_text_pt: float
    min_text_light_pt: float
    min_line_pt: float
    warn_dpi: float
    error_dpi: float
    max_ink: float
    shop: str
    bleed_mm: float | None  # None: the set's own
    safe_mm: float | None
    pdfx: bool


@lru_cache(maxsize=1)
def _table() -> dict:
    return YAML(typ="safe").load(THRESHOLDS_FILE.read_text(encoding="utf-8"))


def thresholds(shop: str) -> Thresholds:
    table = _table()
    entry = table["shops"][shop]

    def mm(value):
        return None if value is None else float(value) * MM_PER_INCH

    return Thresholds(float(table["text"]["min_pt"]), float(table["text"]["min_pt_light_on_dark"]),
                      float(table["lines"]["min_pt"]), float(table["images"]["warn_below_dpi"]),
                      float(table["images"]["error_below_dpi"]), float(table["ink"]["max_percent"]), shop,
                      mm(entry["bleed_in"]), mm(entry["safe_in"]), bool(entry["pdfx"]))
