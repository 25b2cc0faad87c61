"""The faces of runs of cards kept from the last build: a rebuild after an edit to one card
renders (finds the render key of) only the faces of that card's run, not of every card.

A face's rendering is a function of its template, its card type and the values the template
reads (render/faces.py: the render key); its content hash adds the fonts, the set's language
and the files its markup names (assets.py). So a run of ``RUN`` consecutive cards is kept under
a digest of everything their faces' render keys cover and more: the render memo's prefix (every
template, the set's values, the renderer's code and limits), each card's name, type, count and
every field (plain data only: its ``repr`` tells all of it), and each card type's template,
size, margins and back (its template and fields). A run met under the same digest has the same
faces, in the same order; their content hashes are those kept when the fonts' fingerprint, the
language and what each face's named files add to a hash are as they were (checked as one
digest). Anything else (a card or back with other data, a template fault) goes through the
renderer face by face, as before, and the run is kept for the next build when every face of it
rendered. A build on worker processes takes no run (the workers are fed every card) but keeps
them all the same, from the workers' record of each face (its refs and render key's digest go
along, see workers.py): the first rebuild after it is as quick as later ones.

The faces' own render entries, which a run kept whole does not look up, are carried into the
new cache file as they are, so that a later edit in the run finds its other cards rendered.
Each card's line in the manifest's table of cards (a function of its name, type and fields) is
kept with the run, and told to the manifest.
"""
from __future__ import annotations

import hashlib
import marshal
from itertools import islice
from typing import Iterable, Iterator

from .cache_file import key_digest
from .model import Card, new_face
from .render.faces import Pair, plain_data
from .streams import Latest
from .write.manifest import card_line

RUN = 16  # cards a run: an edit renders face by face the cards of one run
_PREFIX = "cards:"


def pairs(rendered, cards: Iterable[Card], cache, card_lines: Latest | None = None) -> Iterator[Pair]:
    """``rendered.pairs(cards)``, the same pairs, taking each run of cards whose faces the last
    build kept from the cache (``cache``: the build's FaceCache, or None), and keeping the rest.
    ``card_lines``: where the manifest's line of each card of a kept run is told (id of the card
    -> (the card, its line), see write/manifest.py)."""
    renderer = rendered.renderer
    memo = renderer.memo
    if cache is None or memo is None or not memo.prefix or memo is not cache:
        yield from rendered.pairs(cards)
        return
    runs = _Runs(rendered, cache, card_lines)
    cards = iter(cards)
    if not _one_process(rendered):  # the workers are fed every card, in order: runs are kept, not taken
        while run := list(islice(cards, RUN)):
            yield from runs.rendered(runs.key(run), run)
        return
    while run := list(islice(cards, RUN)):
        key = runs.key(run)
        if key is not None:
            kept = runs.recall(key, run)
            if kept is not None:
                yield from kept
                continue
        yield from runs.rendered(key, run)


def _one_process(rendered) -> bool:
    """A build whose faces this process renders (a build on workers feeds them every card; their
    records of each face carry what a run keeps, see workers.py)."""
    from .worker_feed import ParallelRendered

    return not isinstance(rendered, ParallelRendered)


class _Runs:
    def __init__(self, rendered, cache, card_lines: Latest | None = None):
        self.rendered_by, self.renderer = rendered, rendered.renderer
        self.cache, self.card_lines = cache, card_lines
        renderer = self.renderer
        self.card_set = renderer.card_set
        self.types: dict[str, tuple | None] = {}  # type name -> (its text, has a back) or None: not kept
        self.environments: dict[tuple, str] = {}  # refs of a run -> what they add to content hashes

    def _type(self, name: str) -> tuple | None:
        known = self.types.get(name, False)
        if known is not False:
            return known
        card_type = self.card_set.types.get(name)
        described = None
        if card_type is not None:
            size = card_type.size
            back = None
            if card_type.back is not None:
                back = self.card_set.backs.get(card_type.back)
            if card_type.back is None or (back is not None and plain_data(back.fields)):
                # what each template reads is kept in the cache as the renderer keeps it (for a
                # later edit in the run: see render/environment.py), though no face here asks
                templates = self.renderer.templates
                templates.names_used(card_type.template)
                if back is not None:
                    templates.names_used(back.template)
                text = repr((card_type.name, card_type.template, card_type.back, size.w, size.h, size.shape,
                             card_type.bleed, card_type.safe,
                             None if back is None else (back.template, dict(back.fields))))
                described = (text, card_type.back is not None)
        self.types[name] = described
        return described

    def key(self, run: list[Card]) -> str | None:
        """The run's key, or None when a card's data is not plain (or its type cannot be told)."""
        types, values = [], []
        known = self.types
        for card in run:
            described = known.get(card.type, False)
            if described is False:
                described = self._type(card.type)
            if described is None or card.count.__class__ is not int or not plain_data(card.fields):
                return None
            types.append(described[0])
            values.append((card.name, card.type, card.count, tuple(card.fields.items())))
        try:
            # marshal's version 2 writes a value by its type and content alone (no references to
            # objects met before): equal bytes, equal values of the same types
            data = marshal.dumps(values, 2)
        except ValueError:
            return None
        # SHA-256 by the processor's own instructions: twice blake2b's speed on a run's kilobytes
        digest = hashlib.sha256(self.renderer.memo.prefix.encode("ascii"))
        digest.update(data)
        digest.update("\0".join(types).encode("utf-8", "surrogatepass"))
        return _PREFIX + digest.hexdigest()[:40]

    def _environment(self, refs_list) -> str:
        """What the fonts, the language and each of ``refs_list``'s named files add to content
        hashes, as one digest."""
        known = self.environments.get(refs_list)
        if known is not None:
            return known
        fingerprints = self.renderer.fingerprints
        if fingerprints is None:
            return ""
        if len(self.environments) >= 256:  # memory stays flat
            self.environments.clear()
        parts = [repr(fingerprints.added(refs)) for refs in refs_list]  # (each holds the fonts and language)
        known = self.environments[refs_list] = hashlib.blake2b(
            "\n".join(parts).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
        return known

    def recall(self, key: str, run: list[Card]) -> list[Pair] | None:
        kept = self.cache.recall(key)
        if not _shaped(kept):
            return None
        environment, distinct, refs_list, faces, carried, lines = kept
        if len(lines) != len(run):
            return None
        if environment != self._environment(refs_list):
            return None
        types = self.card_set.types
        pairs: list[Pair] = []
        at = 0
        try:
            for card in run:
                card_type = types[card.type]
                backed = self.types[card.type][1]
                for copy in range(1, card.count + 1):
                    key_, content_hash = distinct[faces[at]]
                    front = new_face(card, card_type, copy, "front", key_, content_hash)
                    at += 1
                    back = None
                    if backed:
                        key_, content_hash = distinct[faces[at]]
                        back = new_face(card, card_type, copy, "back", key_, content_hash)
                        at += 1
                    pairs.append((front, back))
        except (IndexError, TypeError, ValueError):
            return None
        if at != len(faces):
            return None
        self.cache.carry(carried)
        if self.card_lines is not None:
            self.card_lines.set_all((id(card), (card, line)) for card, line in zip(run, lines))
        return pairs

    def rendered(self, key: str | None, run: list[Card]) -> Iterator[Pair]:
        """The run's pairs from the renderer, face by face; kept under ``key`` when every face
        rendered."""
        renderer, rendered = self.renderer, self.rendered_by
        if key is None:
            yield from rendered.pairs(run)
            return
        noted: list = []
        renderer.noting = noted
        try:
            made = list(rendered.pairs(run))
        finally:
            renderer.noting = None
        self._keep(key, run, made, noted)
        yield from made

    def _keep(self, key: str, run: list[Card], made: list[Pair], noted: list) -> None:
        """Keep the run under ``key`` when every face of it rendered (``noted``: each face's
        entry, as the renderer or a worker noted it)."""
        types = self.types
        expected = sum(card.count * (2 if types[card.type][1] else 1) for card in run)
        if len(noted) != expected or len(made) + sum(1 for _, back in made if back is not None) != expected:
            return  # a face failed: its problem is met again next time
        index: dict[tuple, int] = {}
        distinct, refs_of, faces, carried = [], {}, [], {}
        for markup_key, content_hash, refs, render_key in noted:
            pair = (markup_key, content_hash)
            at = index.get(pair)
            if at is None:
                if refs is None:
                    return  # (a worker's record without them)
                at = index[pair] = len(distinct)
                distinct.append(pair)
                refs_of[refs] = None
            faces.append(at)
            if render_key is not None:  # a worker's record gives its digest
                carried[render_key if render_key.__class__ is bytes else key_digest(render_key)] = None
        refs_list = tuple(refs_of)
        lines = tuple(card_line(card) for card in run)
        if self.card_lines is not None:  # the manifest's lines, made once
            self.card_lines.set_all((id(card), (card, line)) for card, line in zip(run, lines))
        # kept as it is: deflating it would cost a build (on workers too) what keeping the run saves
        # a rebuild, and reading it back costs a fifth of unpacking it
        self.cache.remember(key, (self._environment(refs_list), tuple(distinct), refs_list, tuple(faces),
                                  tuple(carried), lines), pack=False)


def _shaped(kept) -> bool:
    return (kept.__class__ is tuple and len(kept) == 6 and kept[0].__class__ is str
            and all(kept[i].__class__ is tuple for i in range(1, 6)) and all(line.__class__ is str for line in kept[5]))
