"""``cardgen preflight``: measure every laid-out face of a set, and the files written for it,
against what print shops reject (thresholds.yaml), before anything is sent.

Faces are laid out by the build's own stages with the shop's bleed (as the export draws them);
``faces.py`` measures them, ``files.py`` reads the written files, ``report.py`` groups the
findings: each once, with the element's template line, the cards it hits and their count.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from .. import pipeline
from ..errors import CardgenError
from ..export.perface import with_bleed
from ..export.products import at_product_sizes, product_of
from ..load.setfile import load_set
from ..model import copies_by_type
from ..rendered import render_set
from .faces import FaceMeasures, lay_out_faces
from .files import check_files
from .report import Finding, Findings
from .thresholds import SHOPS, thresholds

__all__ = ["SHOPS", "SetReport", "preflight"]


@dataclass
class SetReport:
    name: str
    shop: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lowered minimums, with their reasons

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

    def as_json(self) -> dict:
        return {"set": self.name, "shop": self.shop, "errors": self.errors, "warnings": self.warnings,
                "notes": list(self.notes), "findings": [f.as_json() for f in self.findings]}


class _Measure:
    """Measures first meetings of a face, and repeats their findings for copies."""

    def __init__(self, measures: FaceMeasures, findings: Findings, sent=lambda card_type: True):
        self.measures, self.findings, self.sent = measures, findings, sent
        self.keys: dict[str, list] = {}

    def first(self, face, laid) -> None:
        if not self.sent(face.card_type):  # a size the shop does not make: not sent, not measured
            self.keys[face.markup_key] = []
            return
        self.findings.record()
        self.measures.face(face.card_type, face.card.name, laid)
        self.keys[face.markup_key] = self.findings.recorded()

    def repeat(self, face) -> None:
        self.findings.repeat(self.keys.get(face.markup_key, []), face.card.name)


def preflight(names: Sequence[str] | None = None, root: Path | str = ".", shop: str = "home",
              out: Path | str | None = None) -> list[SetReport]:
    """Preflight sets for ``shop`` (home, drivethru, tgc, mpc); ``out`` is where their files
    were written (default ``<root>/output``). Raises UsageError for an unknown set."""
    root = Path(root).resolve()
    limits = thresholds(shop)
    session = pipeline.Session(root, cache=False)
    reports = []
    for name in pipeline.resolve_names(names, root):
        report = SetReport(name, shop)
        findings = Findings()
        try:
            card_set = load_set(name, root)
        except CardgenError as error:
            for problem in error.problems:
                findings.add("input", "error", (problem.message,), problem.card, problem.source, problem.message)
            report.findings = findings.all()
            reports.append(report)
            continue
        if limits.bleed_mm is not None:
            card_set = with_bleed(card_set, lambda t: limits.bleed_mm)
        if shop != "home":  # laid out as the export draws them: at the product's size
            from ..export.shops import SHOPS as SHOP_FILES

            card_set, resized = at_product_sizes(card_set, shop, SHOP_FILES[shop].title)
            for problem in resized:
                findings.add("size", "warning", (problem.message,), None, problem.source, problem.message)
        settings = card_set.color
        cmyk = limits.pdfx or bool(settings and settings.cmyk)
        measures = FaceMeasures(card_set, limits, findings, cmyk)
        sent = (lambda card_type: True) if shop == "home" else (lambda card_type: product_of(card_type, shop) is not None)
        measure = _Measure(measures, findings, sent)
        for problem in lay_out_faces(render_set(card_set, session), card_set.cards, measure):
            findings.add("layout", "error", (problem.message,), problem.card, problem.source, problem.message)
        measures.types(copies_by_type(card_set.cards))
        check_files(card_set, limits, Path(out) if out is not None else root / "output", findings, cmyk)
        for entry in card_set.preflight:
            if entry["element"] in measures.used_lowered:
                report.notes.append(f'{entry["source"]}: note: text box "{entry["element"]}" may print down to '
                                    f'{entry["min-size"]:g} pt: {entry["reason"]}')
        report.findings = findings.all()
        reports.append(report)
    return reports
