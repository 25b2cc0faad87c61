"""The pipeline, end to end: load -> validate -> render -> lay out -> impose -> draw and write."""
from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from . import kept_cards, sheets, stops, unchanged, validate, workers
from .cache import FaceCache
from .draw.images import ImageStore
from .early_start import started_early
from .errors import CardgenError, Problem
from .known_faces import KnownFaces
from .load import yamlkept
from .load.setfile import load_set
from .model import Card, CardSet, copies_by_type
from .options import BuildOptions, build_paper, color_converter, output_stem, sheet_options
from .paths import CACHE_FOLDER, is_inside
from .project import resolve_names  # noqa: F401 - the API's name here (watch, serve, proof, ...)
from .rendered import lay_out_all, render_set
from .results import BuildResult, SetResult
from .steady_inputs import SteadyInputs
from .render.environment import Templates
from .streams import Latest, batches
from .text.fonts import FontBook
from .write.atomic import Batch, staged, together
from .write.manifest import ManifestWriter
from .write.temporary import remove_stale
from .write.info import document_info
from .write.pdf import write_pdf


BATCH = 256  # cards read, and faces rendered, at a time: a few hundred kilobytes
GC_THRESHOLD = 20_000  # new objects between two runs of the cycle collector during a build
CARD_LINES = 2 * BATCH + 512  # cards between the render stage and the manifest: two batches and a sheet, and more


@dataclass
class Session:
    """What one build or check reads once and shares across its sets: templates and fonts.
    With ``cache``, fonts are read through the project's cache (``.cardgen-cache/``)."""

    root: Path
    cache: bool = True
    templates: Templates = field(init=False)
    fonts: FontBook = field(init=False)
    images: ImageStore = field(init=False)

    def __post_init__(self):
        self.root = Path(self.root).resolve()
        if self.cache and not is_inside(self.root / CACHE_FOLDER, self.root):
            self.cache = False  # a cache folder that links out of the project is never read
        yamlkept.keep_in(self.root / CACHE_FOLDER if self.cache else None)  # set.yaml, fonts.yaml as last parsed
        self.templates = Templates(self.root)
        self.fonts = FontBook(self.root, self.root / CACHE_FOLDER if self.cache else None)
        self.images = ImageStore(self.root, self.root / CACHE_FOLDER if self.cache else None)


def check_problems(card_set: CardSet, deck: Path | None = None, rules_options: Sequence[str] = ()) -> list[Problem]:
    """All rule problems of a set (and of a deck list): errors and warnings. A set or deck that
    would print no card is an error; a card file that holds none, or an online card file read
    from its offline copy, a warning. ``rules_options`` turns on named readings that the set's
    rules files offer."""
    problems = list(card_set.warnings)  # found while loading (an online card file read offline)
    problems += getattr(card_set.cards, "warnings", ())
    if deck is None:
        if not card_set.copies():
            where = getattr(card_set.cards, "source", None) or card_set.source
            problems.append(Problem("the set has no card to print (its card files hold no cards, "
                                    "or every count is 0)", where))
        problems += validate.check_set(card_set, rules_options)
    else:
        loaded = validate.load_deck(card_set, Path(deck))
        if not sum(entry.copies for entry in loaded.main + loaded.bench):
            problems.append(Problem("the deck names no card to print", loaded.main_source or loaded.source))
        problems += validate.check_deck(card_set, loaded, rules_options)
    return problems


def write_set(card_set: CardSet, session: Session, pdf_path: Path, json_path: Path,
              options: BuildOptions = BuildOptions(),
              progress: Callable[[int, int], None] | None = None, batch: Batch | None = None,
              steady: SteadyInputs | None = None) -> SetResult:
    """Check, render, impose and write one loaded set to ``pdf_path`` and ``json_path``, whole or
    not at all. Cards stream through rendering, layout, imposition and writing a sheet at a
    time, so memory does not grow with the set. ``progress(done, total)`` counts card copies.
    With ``batch``, both files are put in place when the batch is (see write/atomic.py). With
    ``steady`` (noted before the set was loaded), a file of the project changed while the set
    was read fails it before anything is put in place (steady_inputs.py)."""
    with _collecting_seldom():
        return _write_set(card_set, session, pdf_path, json_path, options, progress, batch, steady)


@contextmanager
def _collecting_seldom() -> Iterator[None]:
    """Python's cycle collector runs every 700 new objects; a build makes millions, nearly all
    freed at once by their count, and the collections cost it a twentieth of its time. The
    build raises that threshold while it runs (as mypy does), and puts it back after."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], GC_THRESHOLD), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _write_set(card_set: CardSet, session: Session, pdf_path: Path, json_path: Path, options: BuildOptions,
               progress: Callable[[int, int], None] | None, batch: Batch | None = None,
               steady: SteadyInputs | None = None) -> SetResult:
    unchecked = not getattr(card_set.cards, "checked", True)  # (load_set(..., check_cards=False))
    cache_path = _faces_cache(session, card_set.name) if options.cache and session.cache else None
    started = started_early(card_set, session, options, cache_path) if unchecked else None
    try:
        if unchecked:
            card_set.cards.check()
        problems = check_problems(card_set, options.deck)
        errors = [p for p in problems if p.is_error]
        if errors:
            raise _counting_warnings(CardgenError(errors), card_set, problems)
    except BaseException:
        if started is not None:  # nothing drawn, nothing written: the workers' work is dropped
            started.abandon()
        raise
    if started is not None and started.late is not None:
        started.late.publish(card_set.cards)  # the workers pass over each other's rows from now on
    cards = card_set.cards
    if options.deck is not None:
        cards = validate.deck_cards(validate.load_deck(card_set, Path(options.deck)))
    if started is not None:
        cache = started.cache
    else:
        cache = FaceCache(cache_path) if cache_path is not None else None
    rendered = None
    try:  # from here a failure discards the cache's new file: nothing of it is left behind
        rendered = started.rendered if started is not None else render_set(card_set, session, cache)
        layout = sheet_options(card_set, options)
        by_type = copies_by_type(cards)  # a set's own cards: counted when they were loaded
        if layout.layout == "sheets" and any(card_set.types[name].back for name in by_type):
            layout = replace(layout, blank_backs=True)  # printed double-sided: every sheet a front and a back
        groups = dict.fromkeys(sheets.group_of(card_set.types[name], layout) for name in by_type)  # sheets, in order
        copies = sum(by_type.values())
        extra_pages, notes = [], {}
        card_lines = Latest(CARD_LINES)  # the manifest's lines of the cards of kept runs (kept_cards.py)
        if options.changed_since is not None:
            streams, copies, changelog = _reprinted(rendered, cards, layout, Path(options.changed_since))
            extra_pages.append(changelog.page)
            notes["changelog"] = changelog.as_json()
        else:
            streams = (_batched(kept_cards.pairs(rendered, _batched(_of(cards, group, card_set, layout), _batch(rendered)),
                                                 cache, card_lines), _batch(rendered)) for group in groups)
        stamp = None
        info = document_info(card_set, options.subject)
        if options.stamp:
            # the PDF's own date (write/info.py: set.yaml's date:, SOURCE_DATE_EPOCH, the files'
            # times), never the clock's: a rebuild of the same input prints the same stamp
            date = options.stamp_date or info.date.strftime("%Y-%m-%d")
            stamp = f"{card_set.title} v{card_set.version} · {date}"
        counts = {"faces": 0, "fronts": 0}
        tiled = [None]  # the face the last tile of a board showed: its other tiles are no more faces
        converter = color_converter(card_set, options)
        if options.changed_since is None and started is None:  # the streams above read ``rendered`` when iterated
            rendered = workers.on_workers(
                rendered, options.jobs, copies, cache,
                lambda: chain.from_iterable(_of(cards, group, card_set, layout) for group in groups),
                getattr(cards, "cursor", None) if len(groups) == 1 else None)  # (one group: the cards in order)
        with staged(pdf_path, json_path, batch=batch) as (pdf_tmp, json_tmp), \
                open(json_tmp, "w", encoding="utf-8") as out, ManifestWriter(out, card_set, card_lines) as manifest:

            def on_page(page, placements) -> None:
                stops.check()
                manifest.add(placements)
                if len(placements) == 1 and placements[0].slot.clip is not None:  # a tile of a board (sheets/tiles.py)
                    if placements[0].face is tiled[0]:
                        return
                    tiled[0] = placements[0].face
                counts["faces"] += len(placements)
                counts["fronts"] += sum(1 for p in placements if p.face.side == "front")
                if progress is not None:
                    progress(counts["fronts"], copies)

            try:
                pages = write_pdf(pdf_tmp, sheets.impose_groups(streams, layout), rendered.drawing, card_set.title,
                                  sheets.draw_marks, session.fonts.face(None).pdf_name, options.proof_boxes, stamp,
                                  extra_pages, on_page, cache, info,
                                  converter and converter.content_filter, sheets=layout.layout != "per-card",
                                  ready=rendered.ready_faces())
            except CardgenError as error:  # the renderer's own problems first, each once
                first = rendered.renderer.problems()
                raise CardgenError(first + [p for p in error.problems if p not in first]) from None
            if rendered.renderer.problems():
                raise CardgenError(rendered.renderer.problems())
            if not pages:  # never replace earlier output with an empty PDF
                raise CardgenError(Problem("nothing to print: no card of the set reached a page",
                                           getattr(card_set.cards, "source", None) or card_set.source))
            if converter is not None:
                converter.finish(pdf_tmp)  # images, drawn as RGB
            manifest.close(pages, notes)
            if steady is not None:  # before the files are put in place and the cache kept
                steady.check()
    except BaseException as failure:
        if cache is not None:
            cache.discard()
        if isinstance(failure, CardgenError):
            _counting_warnings(failure, card_set, problems)
        raise
    finally:
        if isinstance(rendered, workers.ParallelRendered):
            rendered.close()
        if started is not None and started.late is not None:
            started.late.close()
    if cache is not None:
        cache.save(keep_unused=options.deck is not None or options.changed_since is not None)
    return SetResult(card_set.name, Path(pdf_path), Path(json_path), faces=counts["faces"],
                     cards=counts["fronts"], pages=pages,
                     warnings=tuple(p for p in problems if not p.is_error),
                     laid_out=cache.laid_out if cache else rendered.laid_out,
                     reused=cache.reused if cache else 0)


def _counting_warnings(error: CardgenError, card_set: CardSet, problems: list[Problem]) -> CardgenError:
    """A failed build lists its errors; the set's warnings (``cardgen check`` lists them) are
    counted with them, as ``unlisted_warnings`` (set name -> how many)."""
    count = sum(1 for p in problems if not p.is_error)
    if count:
        error.unlisted_warnings = {**getattr(error, "unlisted_warnings", {}), card_set.name: count}
    return error


def _reprinted(rendered, cards: Iterable[Card], layout: sheets.SheetOptions, since: Path):
    """A reprint's pairs by sheet group, how many, and its changelog. A reprint compares every
    face with the earlier manifest, so it holds the set's faces (it is not streamed)."""
    from . import reprint  # only reprints need it

    pairs, changelog = reprint.changed_pairs(list(rendered.pairs(cards)), since)
    by_group: dict[tuple, list] = {}
    for pair in pairs:
        by_group.setdefault(sheets.group_of(pair[0].card_type, layout), []).append(pair)
    return list(by_group.values()), len(pairs), changelog


def _batched(items: Iterable, size: int = BATCH) -> Iterator:
    """``items`` as they were, taken from their source ``size`` at a time: reading a batch of
    cards, then rendering a batch of faces, then drawing them, runs each stage's code hot (the
    same templates rendered one card between layouts run a third slower)."""
    return chain.from_iterable(batches(items, size))


def _batch(rendered) -> int:
    """Cards, and faces, taken at a time (see ``_batched``): ``BATCH``, or on workers a chunk's
    worth (workers.py), so that the build's process draws a chunk's cards once it has them. A
    batch of ``BATCH`` cards waited for the last of its chunks: when the workers were done, the
    whole last batch (a quarter of a 1,000-card set) was left to draw, on one core."""
    feed = getattr(rendered, "feed", None)
    return min(BATCH, feed.chunk) if feed is not None else BATCH


def _of(cards: Iterable[Card], group: tuple, card_set: CardSet, layout: sheets.SheetOptions) -> Iterator[Card]:
    """The cards whose faces go on the sheets of ``group``."""
    types = card_set.types
    groups = {name: sheets.group_of(card_type, layout) for name, card_type in types.items()}  # a type's, once
    return (card for card in cards if groups[card.type] == group)


def build_set(name: str, session: Session, out: Path, options: BuildOptions = BuildOptions(),
              progress: Callable[[int, int], None] | None = None, steady: SteadyInputs | None = None) -> SetResult:
    """Build the set ``name`` into ``<out>/<stem>.pdf`` and ``<out>/<stem>.json`` (see ``output_stem``).
    A set whose inputs and output are as its last build left them is not built again (see
    unchanged.py). ``steady``: the project's files as noted before ``session`` read any (its
    templates are compiled once for all its sets); else as they are now (steady_inputs.py)."""
    stem = output_stem(name, options)
    record = digest = None
    if steady is None:
        steady = SteadyInputs(session.root, Path(out), session.root / CACHE_FOLDER)  # before anything is read
    if session.cache and unchanged.may_skip(options):
        cache_folder = session.root / CACHE_FOLDER
        record = unchanged.record_path(cache_folder, stem)
        digest = unchanged.inputs_digest(name, session.root, Path(out), cache_folder, options)
        if digest is not None:
            kept = unchanged.recall(record, digest, _faces_cache(session, card_set_name=name), SetResult)
            if kept is not None:
                return kept
    with _said_as_a_save(steady), _collecting_seldom(), together() as batch:  # PDF, manifest, boxes, record: all or none
        card_set = load_set(name, session.root, check_cards=False)  # (checked by write_set, see early_start.py)
        boxes_due = card_set.boxes and options.layout == "sheets" and options.deck is None and (
            options.changed_since is None)
        if card_set.boxes or options.deck is not None or options.changed_since is not None:
            card_set.cards.check()
        if boxes_due:
            from .components.boxes import check_boxes  # only sets with boxes pay for the import

            check_boxes(card_set, build_paper(card_set, options))
        result = write_set(card_set, session, Path(out) / f"{stem}.pdf", Path(out) / f"{stem}.json", options,
                           progress, batch, steady)
        if boxes_due:
            from .components.boxes import build_boxes

            boxes = build_boxes(card_set, session, Path(out), build_paper(card_set, options), batch,
                                color_converter(card_set, options))
            result = replace(result, boxes=tuple(boxes))
            steady.check()  # (the boxes read their templates after the set's check)
        if record is not None:
            if digest is not None:
                unchanged.keep(record, digest, _faces_cache(session, card_set.name), result, card_set, session.fonts,
                               batch)
            else:
                unchanged.forget(record)
    return result


@contextmanager
def _said_as_a_save(steady: SteadyInputs) -> Iterator[None]:
    """A build that fails for no problem of its input (an internal error, a file the machine
    would not read) while a file of the project was saved fails for that save (half a card file
    read, a count that no longer holds): said as the save. A problem of the input (a row of the
    file as it now is, a file gone) is said as it is."""
    try:
        yield
    except CardgenError:
        raise
    except Exception:
        steady.check()
        raise


def _faces_cache(session: Session, card_set_name: str) -> Path:
    """The face cache file of a set (see FaceCache)."""
    return session.root / CACHE_FOLDER / f"faces-{card_set_name}.bin"


def build(names: Sequence[str] | None = None, root: Path | str = ".", out: Path | str | None = None,
          options: BuildOptions = BuildOptions(),
          progress: Callable[[str, int, int], None] | None = None) -> BuildResult:
    """Build sets into ``out`` (default ``<root>/output``): ``<set>.pdf`` and ``<set>.json`` each.

    Raises CardgenError (bad input) or UsageError (unknown set). A failing set leaves its earlier
    output untouched.
    """
    started = time.perf_counter()
    root = Path(root).resolve()
    out = Path(out) if out is not None else root / "output"
    steady = SteadyInputs(root, out, root / CACHE_FOLDER)  # before the session reads anything
    session = Session(root, cache=options.cache)
    remove_stale(out, root / CACHE_FOLDER)  # what builds killed half-way left
    results = []
    try:
        for name in resolve_names(names, root):
            stops.check()
            report = (lambda done, total, _name=name: progress(_name, done, total)) if progress else None
            results.append(build_set(name, session, out, options, report, steady))
    finally:
        yamlkept.keep_in(None)  # this project's cache only while it is built
    return BuildResult(tuple(results), time.perf_counter() - started)


def check(names: Sequence[str] | None = None, root: Path | str = ".", deck: Path | None = None,
          rules_options: Sequence[str] = (), cache: bool = True) -> list[Problem]:
    """Load, validate and lay out sets without writing anything; return errors and warnings.
    ``rules_options`` turns on named readings of the rules files (see validate): each set takes
    the ones its rules offer, and an option that no checked set offers is an error. With
    ``cache``, a face the last build drew with this same code is known to fit, and is not
    rendered or laid out again (known_faces.py): the problems are the same."""
    root = Path(root).resolve()
    session = Session(root, cache=False)  # check writes nothing
    cache = cache and is_inside(root / CACHE_FOLDER, root)  # as Session: a cache linking out is never read
    problems: list[Problem] = []
    names = resolve_names(names, root)
    offered: set[str] = set()
    for name in names:
        try:
            card_set = load_set(name, root)
            options = rules_options
            if rules_options and len(names) > 1:
                own = {option.name for option in validate.rules_options(card_set)}
                offered |= own
                options = [option for option in rules_options if option in own]
            problems += check_problems(card_set, deck, options)
            known = KnownFaces.read(_faces_cache(session, card_set.name)) if cache else None
            try:
                lay_out_all(render_set(card_set, session, known=known), card_set.cards, known)
            finally:
                if known is not None:
                    known.close()
        except CardgenError as error:
            problems += error.problems
    if len(names) > 1:
        problems += [Problem(f'unknown rules option "{option}" (no set checked offers it)')
                     for option in dict.fromkeys(rules_options) if option not in offered]
    return problems


