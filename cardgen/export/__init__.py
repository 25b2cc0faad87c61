"""Exports for print shops (The Game Crafter, MakePlayingCards, DriveThruCards) and for
Tabletop Simulator, all drawn by the build's own pipeline. See shops.py, shop_files.py, tts.py."""
from __future__ import annotations

import errno
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .. import pipeline
from ..errors import file_on_the_way
from .shop_files import export_pngs
from .shops import SHOPS
from .tts import export_tts


@dataclass(frozen=True)
class ExportReport:
    lines: list[str]  # a line per file group written
    rasterised: int  # distinct faces rasterised (PNG shops and Tabletop Simulator; copies are not counted)
    seconds: float
    jobs: int  # processes that rasterised


def export_report(name: str, root: Path | str = ".", out: Path | str | None = None, shop: str | None = None,
                  tts: bool = False, jobs: int | None = None) -> ExportReport:
    """Export one set, rasterising in ``jobs`` processes (default: one a core). ``out``
    defaults to ``<root>/output/<shop>`` (and ``<root>/output/tts``)."""
    from ..proof.workers import default_jobs

    started = time.perf_counter()
    jobs = default_jobs() if jobs is None else jobs
    root = Path(root).resolve()
    (name,) = pipeline.resolve_names([name], root)
    session = pipeline.Session(root)
    lines = []
    rasterised = 0
    tts_target = Path(out) if out is not None else root / "output" / "tts"
    if shop is not None and tts:
        _refuse_blocked(tts_target / name)  # before the shop's files: a failed export writes none
    if shop is not None:
        chosen = SHOPS[shop]
        target = Path(out) if out is not None else root / "output" / shop
        if chosen.kind == "pdf":
            from .drivethru import export_drivethru  # pikepdf: paid only by PDF/X exports

            files, warnings = export_drivethru(name, session, chosen, target)
            lines.extend(f"warning: {problem}" if not problem.source else str(problem) for problem in warnings)
            for path, pages in files:
                lines.append(f"{chosen.title}: {path} ({pages} page{'s' * (pages != 1)}, PDF/X-1a:2003, each front followed by its back)")
        else:
            folder, files, made, warnings, products = export_pngs(name, session, chosen, target, jobs)
            rasterised += made
            lines.extend(str(problem) for problem in warnings)
            lines.append(f"{chosen.title}: {files} PNGs in {folder} ({made} rasterised), a folder per product "
                         f"with upload.csv: {', '.join(products) or 'none'}")
    if tts:
        folder, decks, made = export_tts(name, session, tts_target, jobs)
        rasterised += made
        lines.append(f"Tabletop Simulator: {len(decks)} deck sheet{'s' * (len(decks) != 1)} in {folder}")
    return ExportReport(lines, rasterised, time.perf_counter() - started, jobs)


def _refuse_blocked(folder: Path) -> None:
    """Fail as writing ``folder`` would, if a file (or a pipe) stands where it or a folder above goes."""
    blocking = file_on_the_way(folder / "-")
    if blocking is not None:
        error = NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), os.fspath(folder))
        error.cardgen_folder = Path(blocking)
        error.cardgen_writing = folder
        raise error


def export(name: str, root: Path | str = ".", out: Path | str | None = None, shop: str | None = None,
           tts: bool = False, jobs: int | None = None) -> list[str]:
    """Export one set; return a line per file group written (see ``export_report``)."""
    return export_report(name, root, out, shop, tts, jobs).lines
