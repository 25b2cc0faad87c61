"""A card's field that no layout of its type reads, spelt nearly like one that a layout does
read: a typo in a card file (``elemnt: fire`` in YAML, where the layout reads ``element``) or in
a default of set.yaml. Without this the layout printed the default (or failed on a name it
reads, far from the typo) and the check passed. Each is a warning at the field's line."""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import Problem
from ..model import Card, CardSet

# columns cardgen itself reads: never a layout's
OWN_COLUMNS = frozenset({"name", "type", "count", "each", "added", "excerpt", "rebuilt"})


def misspelt_fields(card_set: CardSet, templates) -> list[Problem]:
    """A warning for each field (once per type and field name, at the first card giving it) and
    each default that the type's layouts (front and back, with what they extend or include) do
    not read, and that is spelt nearly like a name they read. Types whose layouts compute a
    template's name, or cannot be read, are left to the render, which says what is wrong."""
    firsts = _field_firsts(card_set)
    read_by_type = {type_name: _names_read(card_set, type_name, templates) for type_name in firsts}
    read_elsewhere = _ReadElsewhere(card_set, templates)
    problems = []
    for type_name, fields in firsts.items():
        read = read_by_type[type_name]
        if read is None:
            continue
        names, template = read
        for field_name, card in fields.items():
            close = _lookalike(field_name, names)
            if close and not read_elsewhere.reads(field_name, type_name):
                problems.append(Problem(
                    f'field "{field_name}" is read by no layout of type "{type_name}" (did you mean '
                    f'"{close}", which templates/{template} reads?)',
                    card.source_of(field_name), card.name, severity="warning"))
    return problems + _misspelt_defaults(card_set, read_by_type, read_elsewhere)


def _field_firsts(card_set: CardSet) -> Mapping[str, Mapping[str, Card]]:
    """type -> field -> the first card giving it: gathered by the card files' check
    (load/cards.py), or here from a plain list of cards."""
    firsts = getattr(card_set.cards, "field_firsts", None)
    if firsts is not None and getattr(card_set.cards, "checked", False):
        return firsts
    from ..load.cards import _note_fields

    gathered: dict[str, dict[str, Card]] = {}
    for card in card_set.cards:
        card_type = card_set.types.get(card.type)
        _note_fields(gathered, card, card_type.defaults if card_type is not None else {})
    return gathered


def _lookalike(field_name: Any, names: frozenset[str]) -> str | None:
    if not isinstance(field_name, str) or field_name in names or field_name in OWN_COLUMNS:
        return None
    import difflib  # only for a field no layout reads: every build would import it otherwise

    close = difflib.get_close_matches(field_name, sorted(names), n=1, cutoff=0.8)
    return close[0] if close else None


def _misspelt_defaults(card_set: CardSet, read_by_type, read_elsewhere: "_ReadElsewhere") -> list[Problem]:
    """A default (the set's, or a card type's) that no layout of the types it applies to (those
    with cards) reads, spelt nearly like a name one of them reads: a warning at its line."""
    readers: dict[tuple, list[tuple[frozenset[str], str]]] = {}
    types_of: dict[tuple, list[str]] = {}
    for type_name, read in read_by_type.items():
        card_type = card_set.types.get(type_name)
        if read is None or card_type is None:
            continue
        for key in card_type.defaults:
            where = card_type.default_sources.get(key, card_type.source)
            readers.setdefault((key, where), []).append(read)
            types_of.setdefault((key, where), []).append(type_name)
    problems = []
    for (key, where), reads in readers.items():
        close = _lookalike(key, frozenset().union(*(names for names, _ in reads)))
        if close and not any(read_elsewhere.reads(key, t) for t in types_of[(key, where)]):
            template = next(template for names, template in reads if close in names)
            problems.append(Problem(f'default "{key}" is read by no layout (did you mean "{close}", which '
                                    f'templates/{template} reads?)', where, severity="warning"))
    return problems


def _names_read(card_set: CardSet, type_name: str, templates) -> tuple[frozenset[str], str] | None:
    card_type = card_set.types.get(type_name)
    if card_type is None:
        return None
    names = templates.names_used(card_type.template)
    if names is None:
        return None
    back = card_set.backs.get(card_type.back) if card_type.back else None
    if back is not None:
        back_names = templates.names_used(back.template)
        if back_names is None:
            return None
        names |= back_names
    return names, card_type.template


class _ReadElsewhere:
    """Names read other than as a layout's own variable: through ``card`` (``card.get("art2")``,
    ``card["art2"]``, ``"art2" in card``), by a rules file (``field:``, ``fields:``, ``where:``,
    ``per:``, ``from:``) or by a tuck box's ``cards:``. Such a field is no typo, and a warning at it could not be
    silenced. Worked out only when a lookalike is met (most builds have none)."""

    def __init__(self, card_set: CardSet, templates):
        self._card_set, self._templates = card_set, templates
        self._by_rules: frozenset[str] | None = None
        self._through_card: dict[str, frozenset[str] | None] = {}

    def reads(self, field_name: str, type_name: str) -> bool:
        if self._by_rules is None:
            boxes = self._card_set.boxes.values()
            self._by_rules = _read_by_rules(self._card_set) | {key for box in boxes for key in box.where}
        if field_name in self._by_rules:
            return True
        card_type = self._card_set.types.get(type_name)
        if card_type is None:
            return False
        back = self._card_set.backs.get(card_type.back) if card_type.back else None
        for template in (card_type.template, back.template if back is not None else None):
            if template is None:
                continue
            if template not in self._through_card:
                self._through_card[template] = _read_through_card(self._templates, template)
            through = self._through_card[template]
            if through is None or field_name in through:  # None: a computed key, anything may be read
                return True
        return False


def _read_by_rules(card_set: CardSet) -> frozenset[str]:
    """The fields (their first dotted part) the set's rules files select, count or compare by; a
    rules file that cannot be read reads nothing here (the check says what is wrong with it)."""
    from ..errors import CardgenError
    from .rulesfile import load_rules

    names: set[str] = set()
    for path in card_set.rules:
        try:
            rules = load_rules(path, card_set.root)
        except (CardgenError, OSError):
            continue
        for rule in rules:
            paths = [rule.field, *rule.fields, rule.per, rule.from_field,
                     *(condition.field for condition in (*rule.where, *rule.from_where))]
            names.update(path.split(".")[0] for path in paths if isinstance(path, str))
    return frozenset(names)


class _AnyField(Exception):
    """The layout may read any field through ``card``."""


def _read_through_card(templates, name: str) -> frozenset[str] | None:
    """The names a layout (with what it extends or includes) may read through ``card``: its
    attribute names on ``card`` and every text constant (keys given to ``card.get``, ``card[...]``
    or ``in card``); empty when the layout does not read ``card``; None when it may read any field
    (a computed key, ``card.items()``, ``card`` handed to a macro or filter)."""
    from jinja2 import meta

    from ..render.referenced import walk_templates

    env = templates.env
    names: set[str] = set()
    reads_card = False

    def visit(source: str):
        nonlocal reads_card
        tree = env.parse(source)
        reads_card |= _card_reads(tree, names)
        return meta.find_referenced_templates(tree)

    try:
        if not walk_templates(env, name, visit):
            return None
    except Exception:  # noqa: BLE001 - _AnyField; or a layout that cannot be read, the render's to report
        return None
    return frozenset(names) if reads_card else frozenset()


def _card_reads(tree, names: set[str]) -> bool:
    """Add to ``names`` what one template's tree may read through ``card`` (see above); whether
    it reads ``card`` at all; raise _AnyField when it may read any field."""
    from jinja2 import nodes

    names.update(node.value for node in tree.find_all(nodes.Const) if isinstance(node.value, str))
    keyed = set()  # ids of the `card` names read by a constant key
    for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Call, nodes.Compare)):
        if isinstance(node, nodes.Call):
            target = node.node
            if _is_card(target.node if isinstance(target, nodes.Getattr) else None) and target.attr == "get":
                if not node.args or not isinstance(node.args[0], nodes.Const):
                    raise _AnyField
                keyed.add(id(target.node))
        elif isinstance(node, nodes.Compare):
            keyed.update(id(op.expr) for op in node.ops if op.op in ("in", "notin") and _is_card(op.expr))
        elif _is_card(node.node):
            if isinstance(node, nodes.Getattr):
                if node.attr in ("items", "values", "keys"):
                    raise _AnyField
                names.add(node.attr)
                if node.attr != "get":
                    keyed.add(id(node.node))
            elif isinstance(node.arg, nodes.Const):
                keyed.add(id(node.node))
            else:
                raise _AnyField
    reads_card = False
    for node in tree.find_all(nodes.Name):
        if node.name == "card" and node.ctx == "load":
            reads_card = True
            if id(node) not in keyed and not _get_called(tree, node):
                raise _AnyField  # handed whole to a filter, a macro or a loop
    return reads_card


def _is_card(node) -> bool:
    from jinja2 import nodes

    return isinstance(node, nodes.Name) and node.name == "card" and node.ctx == "load"


def _get_called(tree, name_node) -> bool:
    """Whether ``name_node`` is the ``card`` of a ``card.get(...)`` (its key checked above)."""
    from jinja2 import nodes

    return any(isinstance(call.node, nodes.Getattr) and call.node.node is name_node and call.node.attr == "get"
               for call in tree.find_all(nodes.Call))
