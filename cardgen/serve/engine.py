"""What the live preview shows, kept up to date from the project's files: for every set its
cards (each face's image, its data fields with their ``file:line``), its problems, its deck
lists with their rule results, and its last PDF.

A refresh reads and renders the whole set (a few hundredths of a second for 1,000 cards),
then lays out, draws and rasterises only the faces whose content hash it has not drawn yet, so
one changed card costs one face. Face images are named by their content hash, so they never go
stale in the browser. A refresh that fails keeps the last good cards and says why.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .. import pipeline
from ..errors import CardgenError, Problem, os_message
from ..load.setfile import load_set
from ..model import Face
from ..rendered import render_set
from ..same_values import same
from ..page.data import card_json, card_keys, problem_hits, problem_json, types_json
from .pdfbuild import Builder
from .faces import RenderMemo, draw_faces, grid_dpi
from .store import FaceStore

PRINT_DPI = 300  # the detail view: what the printer gets
BATCH = 48  # faces drawn between two updates of the page, when many changed (a template was saved)
DECKS = "decks"  # data/<set>/decks/*.yaml: deck lists checked against the set's rules
MAX_LISTED = 60  # output files listed per set


def _shown(card: dict | None) -> tuple | None:
    """What marks a card changed: its faces, copies and problems."""
    return None if card is None else (card["faces"], card["count"], card["problems"])


def _named_by(face: Face) -> tuple:
    """What a face's problems say of where it is: its card, that card's lines, its copy and side."""
    card = face.card
    return card.name, card.source, tuple(card.field_sources.items()), face.copy, face.side


class Stopped(Exception):
    """The server is stopping: a long refresh ends between two batches of faces."""


@dataclass
class SetState:
    name: str
    title: str = ""
    version: str = ""
    cards: list[dict] = field(default_factory=list)
    types: list[dict] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)
    decks: list[dict] = field(default_factory=list)
    failed: list[dict] = field(default_factory=list)  # the last refresh's problems when it failed
    changed: list[str] = field(default_factory=list)  # cards changed by the last refresh
    pdf: dict = field(default_factory=dict)
    files: list[dict] = field(default_factory=list)  # output files of the set (PDF, manifest, exports)
    ready: bool = False
    updated: float = 0.0
    progress: str = ""  # while many faces are drawn: how many are done
    def as_json(self) -> dict:
        return {"name": self.name, "title": self.title, "version": self.version, "cards": self.cards,
                "types": self.types, "problems": self.problems, "decks": self.decks, "failed": self.failed,
                "changed": self.changed, "pdf": self.pdf, "files": self.files, "ready": self.ready,
                "updated": self.updated, "progress": self.progress}


class Engine:
    """Every set's preview; ``refresh`` and ``build_pdf`` are called by one worker thread, the
    readers (the HTTP handlers) take ``state_json`` and the images."""

    def __init__(self, root: Path, names: Iterable[str], out: Path):
        self.root = Path(root).resolve()
        self.out = Path(out)
        self.names = list(names)
        self.preview = self.out / ".preview"
        self.lock = threading.RLock()  # one drawing at a time (pdfium is not thread-safe)
        self.changes = threading.Condition()
        self.generation = 0
        self.sets: dict[str, SetState] = {}
        self.stores: dict[str, FaceStore] = {}
        self._faces: dict[str, dict[str, Face]] = {}  # hash -> a face of it
        self._face_problems: dict[str, dict[str, list[Problem]]] = {}
        self._problems_of: dict[str, dict[str, tuple]] = {}  # hash -> the card (and place) its problems name
        self._rendered: dict[str, Any] = {}
        self._memos: dict[str, RenderMemo] = {}
        self._known_cards: dict[str, dict[str, Any]] = {}  # key -> (values, faces, json)
        self._known_prefix: dict[str, str] = {}
        self._full_owed: set[str] = set()  # sets whose last full refresh failed or stopped: the next is full too
        for name in self.names:
            self._add(name)
        self._json: str | None = None  # the whole state as JSON, made when first asked for
        self._delta: tuple[int, str] | None = None  # the last change alone (see next_event)

    def _add(self, name: str) -> None:
        self.sets[name] = SetState(name)
        self.stores[name] = FaceStore(self.preview / name)
        self._faces[name], self._face_problems[name], self._problems_of[name] = {}, {}, {}
        self._memos[name] = RenderMemo()
        self._known_cards[name], self._known_prefix[name] = {}, ""

    def show(self, names: Iterable[str]) -> bool:
        """Show the sets ``names`` from now on, in that order (the sets of data/ read again): a
        new one comes with nothing to show until it is refreshed, one gone is dropped with all
        it holds (its images stay in output/.preview/). Whether the list changed; when it did,
        a new generation whose event is the whole state (a page knows no delta of a set it has
        not got). Under both locks: no handler or build reads a set half added or removed."""
        names = list(dict.fromkeys(names))
        with self.lock, self.changes:
            if names == self.names:
                return False
            for name in names:
                if name not in self.sets:
                    self._add(name)
            for name in [n for n in self.names if n not in names]:
                for held in (self.sets, self.stores, self._faces, self._face_problems, self._problems_of, self._rendered,
                             self._memos, self._known_cards, self._known_prefix):
                    held.pop(name, None)
            self.names = names
            self.generation += 1
            self._json = None
            self._delta = None  # next_event sends the whole state
            self.changes.notify_all()
        return True

    # ---- reading -------------------------------------------------------------------------

    def state_json(self) -> tuple[int, str]:
        """The generation and every set's whole state, as JSON."""
        with self.changes:
            if self._json is None:
                self._json = json.dumps({"generation": self.generation,
                                         "sets": [self.sets[n].as_json() for n in self.names]}, ensure_ascii=False)
            return self.generation, self._json

    def next_event(self, sent: int) -> tuple[int, str, str]:
        """(generation, event name, JSON) for a page that has the state of generation ``sent``:
        the last change alone ("delta": the set's cards that changed, the order of all, the
        rest of its state) when the page is one generation behind, else the whole state."""
        with self.changes:
            if self._delta is not None and sent != -1 and self._delta[0] == self.generation == sent + 1:
                return self.generation, "delta", self._delta[1]
        generation, whole = self.state_json()
        return generation, "state", whole

    def wait(self, generation: int, timeout: float) -> bool:
        """Wait until the state is newer than ``generation``; False on timeout."""
        with self.changes:
            return self.changes.wait_for(lambda: self.generation != generation, timeout)

    def grid_image(self, name: str, face_hash: str) -> Path | None:
        face = self._faces.get(name, {}).get(face_hash)
        return None if face is None else self._image(name, face_hash, grid_dpi(face.card_type))

    def print_image(self, name: str, face_hash: str) -> Path | None:
        """The face at print resolution, rasterised when first asked for."""
        return self._image(name, face_hash, PRINT_DPI)

    def _image(self, name: str, face_hash: str, dpi: int) -> Path | None:
        """The face's image at ``dpi``, drawn when it is not on disk: first asked for at print
        resolution, or removed (the output folder deleted) since it was drawn."""
        store = self.stores.get(name)
        if store is None:
            return None
        store.look_again()
        if store.has(face_hash, dpi):
            return store.path(face_hash, dpi)
        with self.lock:
            face = self._faces.get(name, {}).get(face_hash)  # none: the set was removed meanwhile
            rendered = self._rendered.get(name)
            if face is None or rendered is None:
                return None
            try:
                draw_faces(store, rendered, [face], dpi)
            except (CardgenError, OSError):  # the refresh says why (an output folder that is a file)
                return None
        return store.path(face_hash, dpi) if store.has(face_hash, dpi) else None

    # ---- updating ------------------------------------------------------------------------

    def _publish(self, name: str, before: dict[str, dict]) -> None:
        """A new generation: set ``name`` changed; ``before`` is its cards by key as they were."""
        state = self.sets[name]
        rest = state.as_json()
        cards = rest.pop("cards")
        delta = {"set": name, "cards": [c for c in cards if before.get(c["key"]) != c],
                 "order": [c["key"] for c in cards], "rest": rest}
        with self.changes:
            self.generation += 1
            self._json = None  # made when asked for
            self._delta = (self.generation, json.dumps({"generation": self.generation, **delta}, ensure_ascii=False))
            self.changes.notify_all()

    def refresh(self, name: str, rows_only: bool = False, stop: threading.Event | None = None) -> bool:
        """Read the set again; draw and rasterise its new faces; publish. Return whether the
        cards or problems changed (so the PDF needs building). ``rows_only``: only card rows
        were saved since the last refresh, so unchanged cards keep their faces. ``stop`` set
        ends a long refresh between two batches of faces (Stopped)."""
        state = self.sets[name]
        cards_before = {c["key"]: c for c in state.cards}
        # a save of more than card rows (an image, set.yaml) whose refresh failed is still owed a
        # full one: the save that then mends a card file alone kept the faces drawn before both
        if not rows_only:
            self._full_owed.add(name)
        rows_only = rows_only and name not in self._full_owed
        with self.lock:
            try:
                before = (state.cards, state.problems)
                self._refresh(name, state, rows_only, stop)
                self._full_owed.discard(name)
                state.failed = []
                changed = (before != (state.cards, state.problems) or not state.pdf.get("ok")
                           or not (self.out / f"{name}.pdf").is_file())  # removed with the output folder
            except Stopped:
                return False
            except CardgenError as error:
                state.failed = [problem_json(p) for p in error.problems]
                state.changed = []
                changed = False
            except OSError as error:  # the machine's refusal (an output folder that is a file), not a bug
                message = os_message(error)
                state.failed = [{"severity": "error", "message": message, "where": "", "card": None, "text": message}]
                state.changed = []
                changed = False
            except Exception as error:  # a bug, not bad input: say so and keep serving
                state.failed = [{"severity": "error", "message": f"internal error: {error!r}", "where": "",
                                 "card": None, "text": f"internal error: {error!r}"}]
                state.changed = []
                changed = False
            state.ready = True
            state.progress = ""
            state.updated = time.time()
        self._publish(name, cards_before)
        return changed

    def _refresh(self, name: str, state: SetState, rows_only: bool, stop: threading.Event | None) -> None:
        previous = {card["key"]: card for card in state.cards}
        session = pipeline.Session(self.root)  # new each time: templates and fonts may have changed
        card_set = load_set(name, self.root)
        cards = list(card_set.cards)
        problems = pipeline.check_problems(card_set)
        decks = self._decks(card_set)
        rendered = render_set(card_set, session, self._memos[name], preview=True)
        problems += pipeline.misspelt_fields(card_set, session.templates)
        keys = card_keys(cards)
        # after a save of card rows only, a card whose values and lines are unchanged keeps its
        # faces: they depend on nothing else that changed (templates, fonts, images, set.yaml)
        known_cards = self._known_cards[name] if rows_only and self._known_prefix[name] == session.templates.digest else {}
        kept: dict[str, Any] = {}
        for key, card in zip(keys, cards):
            old = known_cards.get(key)
            # by kind as well as value: 1, 1.0 and True are equal to ==, but print as they are
            if old is not None and same(old[0], (card.fields, card.field_sources, card.count, card.type, card.source)):
                kept[key] = old
        fresh: dict[int, list[tuple[str, Face]]] = {}
        for front, back in rendered.pairs(card for key, card in zip(keys, cards) if key not in kept):
            labelled = fresh.setdefault(id(front.card), [])
            for face in (front, back):
                if face is None:
                    continue
                label = face.side if face.copy == 1 else f"copy {face.copy} {face.side}"
                if all(known.content_hash != face.content_hash for _, known in labelled):
                    labelled.append((label, face))  # copies that look alike are shown once
        faces_by_card: list[tuple[Any, str, list[tuple[str, Face]]]] = []
        for key, card in zip(keys, cards):
            labelled = kept[key][1] if key in kept else fresh.get(id(card))
            if labelled is not None:  # None: its template failed (a problem below)
                faces_by_card.append((card, key, labelled))
        template_problems = rendered.renderer.problems()
        if any(p.is_error for p in template_problems):
            raise CardgenError(template_problems)
        faces: dict[str, Face] = {}
        for _, _, labelled in faces_by_card:
            for _, face in labelled:
                faces.setdefault(face.content_hash, face)
        known = self._face_problems[name]
        store = self.stores[name]
        store.look_again()
        # a face's problems (text that does not fit) are a function of its content, but they name
        # its card and the lines of its values: a face met again on a card moved or renamed is
        # drawn again for its problems' words (rows inserted above it named the old line)
        named = self._problems_of[name]
        new = [face for h, face in faces.items() if h not in known or not store.has(h, grid_dpi(face.card_type))
               or (known[h] and named.get(h) != _named_by(face))]
        found: dict[str, list[Problem]] = {}
        self._faces[name] = {**self._faces[name], **faces}  # the images of old and new cards, while both show
        for start in range(0, len(new), BATCH):
            if stop is not None and stop.is_set():
                raise Stopped
            found.update(draw_faces(store, rendered, new[start:start + BATCH]))
            if start + BATCH < len(new):
                state.progress = f"drawing faces: {start + BATCH} of {len(new)}"
                self._publish_drawn(name, state, faces_by_card, previous)
        face_problems = {h: (found[h] if h in found else known.get(h, [])) for h in faces}
        self._face_problems[name] = face_problems
        self._problems_of[name] = {h: _named_by(face) for h, face in faces.items() if face_problems[h]}
        self._faces[name] = faces
        self._rendered[name] = rendered
        store.keep(faces)
        all_problems = list(problems) + template_problems
        for face_list in face_problems.values():
            all_problems.extend(p for p in face_list if p not in all_problems)
        state.title, state.version = card_set.title, card_set.version
        state.problems = [problem_json(p) for p in all_problems]
        state.cards = self._cards(faces_by_card, all_problems, kept)
        self._known_prefix[name] = session.templates.digest
        self._known_cards[name] = {
            key: ((card.fields, card.field_sources, card.count, card.type, card.source), labelled, shown)
            for (card, key, labelled), shown in zip(faces_by_card, state.cards)}
        state.types = types_json(card_set, state.cards)
        state.decks = decks
        state.changed = [c["key"] for c in state.cards if previous and _shown(previous.get(c["key"])) != _shown(c)]

    def _publish_drawn(self, name: str, state: SetState, faces_by_card, previous: dict[str, dict]) -> None:
        """While many faces are drawn: the cards whose faces are all drawn, the others as they
        were (a card never names an image that is not there yet)."""
        store = self.stores[name]
        shown = self.sets[name].cards
        cards = []
        for card, key, labelled in faces_by_card:
            if all(store.has(face.content_hash, grid_dpi(face.card_type)) for _, face in labelled):
                cards.append(card_json(card, key, [{"label": label, "side": face.side, "hash": face.content_hash}
                                                   for label, face in labelled], [],
                                       labelled[0][1].card_type if labelled else None))
            elif key in previous:
                cards.append(previous[key])
        state.cards = cards
        self._publish(name, {c["key"]: c for c in shown})

    def _decks(self, card_set) -> list[dict]:
        from .. import validate

        folder = card_set.directory / DECKS
        decks = []
        for path in sorted(folder.glob("*.y*ml")) if folder.is_dir() else []:
            cards = 0
            try:
                deck = validate.load_deck(card_set, path)
                cards = sum(entry.copies for entry in deck.main + deck.bench)
                problems = validate.check_deck(card_set, deck)
            except CardgenError as error:
                problems = list(error.problems)
            decks.append({"name": path.stem, "file": path.relative_to(self.root).as_posix(),
                          "problems": [problem_json(p) for p in problems], "cards": cards,
                          "ok": not any(p.is_error for p in problems)})
        return decks

    @staticmethod
    def _cards(faces_by_card, problems: list[Problem], kept: dict[str, Any]) -> list[dict]:
        hits = problem_hits(problems)
        shown = []
        for card, key, labelled in faces_by_card:
            if key in kept:  # unchanged: only its problems are new
                shown.append({**kept[key][2], "problems": hits.get(card.name, [])})
            else:
                shown.append(card_json(card, key, [{"label": label, "side": face.side, "hash": face.content_hash}
                                                   for label, face in labelled], hits.get(card.name, []),
                                       labelled[0][1].card_type if labelled else None))
        return shown

    def build_pdf(self, name: str, builder: Builder) -> dict | None:
        """Build the set's PDF into the output folder, as ``cardgen build`` does; publish.
        The build's result (None: stopped, or the set removed from data/ meanwhile)."""
        result = builder.build(self.root, name, self.out)
        if result is None:  # stopped
            return None
        pdf = self.out / f"{name}.pdf"
        pdf_state = {**result, "file": pdf.name if pdf.is_file() else None, "finished": time.time()}
        files = self._files(name)
        with self.changes:
            state = self.sets.get(name)
            if state is None:  # its folder was removed from data/ while it was built
                return None
            state.pdf, state.files = pdf_state, files
            self._publish(name, {c["key"]: c for c in state.cards})
        return result

    def _files(self, name: str) -> list[dict]:
        """The set's files in the output folder: its PDF and manifest, and its exports."""
        found = []
        if not self.out.is_dir():
            return found
        for path in sorted(self.out.rglob("*")):
            relative = path.relative_to(self.out)
            if any(part.startswith(".") for part in relative.parts) or not path.is_file():
                continue
            if relative.parts[0] == "proofs" and len(relative.parts) > 2 and relative.parts[1] == name:
                if relative.name != "index.html":
                    continue
            elif not any(part == name or part.startswith((f"{name}.", f"{name}-", f"{name}_"))
                         for part in relative.parts):
                continue
            found.append({"path": relative.as_posix(), "size": path.stat().st_size})
            if len(found) >= MAX_LISTED:
                break
        return found
