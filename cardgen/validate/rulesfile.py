"""Reading a rules file into :class:`Rule` objects, rejecting anything malformed.

A mistake in a rules file (an unknown rule kind or key, a missing bound, a bad value) is a
:class:`CardgenError` naming the rules file and line: all mistakes of the file at once.

The schema (README, "Rules"): the file is ``{rules: [rule, ...]}``; every rule has ``rule``
(its kind) and optionally ``name``, ``severity`` (error | warning), ``message``, ``scope``
(set | main | bench | deck; none: the set check and the main deck) and ``where``
(``{field: value | [values] | {not: value | [values]}}``, all entries must hold). Kinds:

- ``count``: total copies of the selected cards; ``equals`` or ``min``/``max``; ``per: field``
  counts per value; ``over: list`` takes the values from the ``name`` of each item of that list
  in the set's variables (an item missing counts 0; values outside the list are not counted).
- ``distinct``: number of different values of ``field`` (default ``name``); bounds as count.
- ``copies``: copies of each card (by name); bounds as count; ``across: deck`` (with scope main
  or bench) counts each checked card's copies over main and bench together.
- ``unique``: no two cards (nor two copies of one row) share all of ``fields``.
- ``values``: ``field`` must be one of ``allowed``; ``unknown``: error | warning | ignore.
- ``present``: every one of ``values`` appears as ``field`` of some selected card.
- ``allowed-from``: ``field`` must be a value that ``from: {where, field, scope}`` cards have
  (field defaults to the rule's, scope to the rule's), or one of ``plus``; ``unknown`` as values.

Every rule may name the source text it comes from: ``source`` (a quotation, or a list of them;
not checked by cardgen, read by the set's own tests). A rules file may declare named readings
of its source, ``options: {name: {about: text, enabled: false}}``; a rule with ``option: name``
runs only when that option is on, one with ``option: {not: name}`` only when it is off. An
option is on when its ``enabled`` is true or when the check is asked for it
(``cardgen check SET --rules-option name``).

Fields may be dotted paths (``item.name``); a missing or empty value, or ``unknown``, is unknown.
``message`` replaces the text after ``rule "<name>": `` and may use {card}, {value}, {field},
{actual}, {expected}, {other}.
"""
from __future__ import annotations

import string
from pathlib import Path
from typing import Any, Mapping

from ..errors import CardgenError, Problem, Source
from ..load.yamlfile import line_of, read_yaml, relative_name
from ..spelled import quoted
from .fields import Condition, as_text
from .rules import MESSAGE_NAMES, Bounds, Option, Rule, RulesFile

SCOPES = ("set", "main", "bench", "deck")
SEVERITIES = ("error", "warning")
UNKNOWN_TREATMENT = ("error", "warning", "ignore")
COMMON_KEYS = ("rule", "name", "severity", "message", "scope", "where", "source", "option")
FILE_KEYS = ("rules", "options")
OPTION_KEYS = ("about", "enabled")
BOUND_KEYS = ("equals", "min", "max")
KIND_KEYS = {
    "count": BOUND_KEYS + ("per", "over"),
    "distinct": BOUND_KEYS + ("field",),
    "copies": BOUND_KEYS + ("across",),
    "unique": ("fields",),
    "values": ("field", "allowed", "unknown"),
    "present": ("field", "values"),
    "allowed-from": ("field", "from", "plus", "unknown"),
}
FROM_KEYS = ("where", "field", "scope")


def load_rules(path: Path, root: Path | None) -> list[Rule]:
    """Read one rules file; raise CardgenError listing every mistake in it."""
    return list(load_rules_file(path, root).rules)


def load_rules_file(path: Path, root: Path | None) -> RulesFile:
    """Read one rules file with its options; raise CardgenError listing every mistake in it."""
    file = relative_name(path, root)
    data = read_yaml(path, root)
    reader = _Reader(file)
    rules = reader.read_file(data)
    if reader.problems:
        raise CardgenError(reader.problems)
    return RulesFile(tuple(rules), tuple(reader.options.values()))


class _Reader:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.options: dict[str, Option] = {}

    def problem(self, container: Any, key: Any, message: str) -> None:
        self.problems.append(Problem(message, Source(self.file, line_of(container, key))))

    def read_file(self, data: Any) -> list[Rule]:
        if not isinstance(data, Mapping) or "rules" not in data:
            self.problems.append(Problem('a rules file is a mapping with a "rules:" list', Source(self.file, 1)))
            return []
        for key in data:
            if key not in FILE_KEYS:
                self.problem(data, key, f'unknown key "{key}" (a rules file has "rules:" and "options:")')
        self.read_options(data)
        items = data["rules"]
        if not isinstance(items, list):
            self.problem(data, "rules", '"rules" must be a list of rules')
            return []
        rules = []
        for index, item in enumerate(items):
            rule = self.read_rule(items, index, item)
            if rule is not None:
                rules.append(rule)
        return rules

    def read_options(self, data: Mapping) -> None:
        options = data.get("options")
        if options is None:
            return
        if not isinstance(options, Mapping):
            self.problem(data, "options", '"options" must map option names to {about: text, enabled: false}')
            return
        for name, spec in options.items():
            if not isinstance(spec, Mapping):
                self.problem(options, name, f'option "{name}" must be a mapping {{about: text, enabled: false}}')
                continue
            for key in spec:
                if key not in OPTION_KEYS:
                    self.problem(spec, key, f'unknown key "{key}" in option "{name}" (allowed: {", ".join(OPTION_KEYS)})')
            about = self.required_text(spec, "about", f'option "{name}"')
            enabled = spec.get("enabled", False)
            if not isinstance(enabled, bool):
                self.problem(spec, "enabled", f'"enabled" must be true or false, got {quoted(as_text(enabled))}')
                enabled = False
            self.options[str(name)] = Option(str(name), about, enabled, Source(self.file, line_of(options, name)))

    def read_rule(self, items: list, index: int, item: Any) -> Rule | None:
        source = Source(self.file, line_of(items, index))
        if not isinstance(item, Mapping):
            self.problems.append(Problem("a rule must be a mapping with a \"rule:\" kind", source))
            return None
        before = len(self.problems)
        kind = item.get("rule")
        if not isinstance(kind, str) or kind not in KIND_KEYS:  # a list or mapping cannot be looked up
            known = ", ".join(KIND_KEYS)
            where = ("rule" if "rule" in item else None)
            what = f"unknown rule kind {quoted(kind)}" if "rule" in item else 'missing "rule:"'
            self.problem(item, where, f"{what} (one of {known})")
            return None
        allowed = COMMON_KEYS + KIND_KEYS[kind]
        for key in item:
            if key not in allowed:
                self.problem(item, key, f'unknown key "{key}" for a {kind} rule (allowed: {", ".join(allowed)})')
        name = self.text(item, "name") if "name" in item else f"{kind} at {source}"
        fields: dict[str, Any] = dict(
            kind=kind,
            name=name,
            source=source,
            severity=self.choice(item, "severity", SEVERITIES, "error"),
            scope=self.choice(item, "scope", SCOPES, None),
            where=self.where(item, "where"),
            message=self.message(item),
            quotes=self.text_list(item, "source", required=False),
        )
        self.read_option(item, fields)
        getattr(self, "read_" + kind.replace("-", "_"))(item, fields)
        if len(self.problems) > before:
            return None
        return Rule(**fields)

    def read_option(self, item: Mapping, fields: dict) -> None:
        if "option" not in item:
            return
        value = item["option"]
        negated = isinstance(value, Mapping)
        if negated:
            if list(value) != ["not"]:
                self.problem(item, "option", '"option" is an option name or {not: name}')
                return
            value = value["not"]
        if not isinstance(value, str) or not value.strip():
            self.problem(item, "option", '"option" is an option name or {not: name}')
            return
        if value not in self.options:
            declared = ", ".join(self.options) or "none"
            self.problem(item, "option", f'option "{value}" is not declared under "options:" (declared: {declared})')
            return
        fields["option"] = value
        fields["option_negated"] = negated

    # --- the kinds -------------------------------------------------------------------------

    def read_count(self, item: Mapping, fields: dict) -> None:
        fields["bounds"] = self.bounds(item)
        if "per" in item:
            fields["per"] = self.text(item, "per")
            fields["per_source"] = Source(self.file, line_of(item, "per"))
        if "over" in item:
            fields["over"] = self.text(item, "over")
            fields["over_source"] = Source(self.file, line_of(item, "over"))
            if "per" not in item:
                self.problem(item, "over", '"over" needs "per" (the field whose values it lists)')

    def read_distinct(self, item: Mapping, fields: dict) -> None:
        fields["bounds"] = self.bounds(item)
        fields["field"] = self.text(item, "field") if "field" in item else "name"

    def read_copies(self, item: Mapping, fields: dict) -> None:
        fields["bounds"] = self.bounds(item)
        if "across" in item:
            fields["across"] = self.choice(item, "across", ("deck",), None)
            if (fields["scope"] or "main") not in ("main", "bench"):
                self.problem(item, "across", '"across: deck" needs "scope: main" or "scope: bench"')

    def read_unique(self, item: Mapping, fields: dict) -> None:
        fields["fields"] = self.text_list(item, "fields", required=True)

    def read_values(self, item: Mapping, fields: dict) -> None:
        fields["field"] = self.required_text(item, "field")
        fields["allowed"] = self.text_list(item, "allowed", required=True)
        fields["unknown"] = self.choice(item, "unknown", UNKNOWN_TREATMENT, "error")

    def read_present(self, item: Mapping, fields: dict) -> None:
        fields["field"] = self.required_text(item, "field")
        fields["values"] = self.text_list(item, "values", required=True)

    def read_allowed_from(self, item: Mapping, fields: dict) -> None:
        fields["field"] = self.required_text(item, "field")
        fields["plus"] = self.text_list(item, "plus", required=False)
        fields["unknown"] = self.choice(item, "unknown", UNKNOWN_TREATMENT, "error")
        origin = item.get("from")
        if not isinstance(origin, Mapping):
            self.problem(item, "from" if "from" in item else None,
                         '"from" must be a mapping such as {where: {type: Building}, field: faction}')
            return
        for key in origin:
            if key not in FROM_KEYS:
                self.problem(origin, key, f'unknown key "{key}" in "from" (allowed: {", ".join(FROM_KEYS)})')
        fields["from_where"] = self.where(origin, "where")
        fields["from_field"] = self.text(origin, "field") if "field" in origin else fields["field"]
        fields["from_scope"] = self.choice(origin, "scope", SCOPES, None)

    # --- values ----------------------------------------------------------------------------

    def text(self, item: Mapping, key: str) -> str:
        value = item.get(key)
        if not isinstance(value, (str, int, float)) or isinstance(value, bool) or not str(value).strip():
            self.problem(item, key, f'"{key}" must be a text')
            return ""
        return str(value).strip()

    def required_text(self, item: Mapping, key: str, what: str | None = None) -> str:
        if key not in item:
            self.problem(item, None, f'{what or (str(item.get("rule")) + " rule")} needs "{key}"')
            return ""
        return self.text(item, key)

    def text_list(self, item: Mapping, key: str, required: bool) -> tuple[str, ...]:
        if key not in item:
            if required:
                self.problem(item, None, f'{item.get("rule")} rule needs "{key}" (a list)')
            return ()
        value = item[key]
        values = value if isinstance(value, list) else [value]
        if not values or any(isinstance(v, (Mapping, list)) or v is None for v in values):
            self.problem(item, key, f'"{key}" must be a value or a list of values')
            return ()
        return tuple(as_text(v) for v in values)

    def choice(self, item: Mapping, key: str, options: tuple[str, ...], default: str | None) -> str | None:
        if key not in item:
            return default
        value = item[key]
        if value not in options:
            self.problem(item, key, f'"{key}" must be one of {", ".join(options)}, got {quoted(as_text(value))}')
            return default
        return value

    def bounds(self, item: Mapping) -> Bounds | None:
        numbers: dict[str, int] = {}
        for key in BOUND_KEYS:
            if key not in item:
                continue
            value = item[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                self.problem(item, key, f'"{key}" must be a whole number (0 or more), got {quoted(value)}')
                return None
            numbers[key] = int(value)
        if not numbers:
            self.problem(item, None, f'{item["rule"]} rule needs a bound: "equals", "min" or "max"')
            return None
        if "equals" in numbers and len(numbers) > 1:
            self.problem(item, "equals", '"equals" cannot be combined with "min" or "max"')
            return None
        if "min" in numbers and "max" in numbers and numbers["min"] > numbers["max"]:
            self.problem(item, "min", f'"min" ({numbers["min"]}) is larger than "max" ({numbers["max"]})')
            return None
        return Bounds(**numbers)

    def where(self, item: Mapping, key: str) -> tuple[Condition, ...]:
        if key not in item:
            return ()
        where = item[key]
        if not isinstance(where, Mapping) or not where:
            self.problem(item, key, f'"{key}" must be a mapping of field: value or [values]')
            return ()
        conditions = []
        for field, wanted in where.items():
            negated = isinstance(wanted, Mapping)
            if negated:
                if list(wanted) != ["not"]:
                    self.problem(where, field, f'"{field}": a mapping here can only be {{not: value or [values]}}')
                    continue
                wanted = wanted["not"]
            values = wanted if isinstance(wanted, list) else [wanted]
            if not values or any(isinstance(v, (Mapping, list)) for v in values):
                self.problem(where, field, f'"{field}" must be a value or a list of values')
                continue
            conditions.append(Condition(str(field), tuple(as_text(v) for v in values), negated,
                                        Source(self.file, line_of(where, field))))
        return tuple(conditions)

    def message(self, item: Mapping) -> str | None:
        if "message" not in item:
            return None
        text = self.text(item, "message")
        try:
            fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(text)
                      if name is not None]
        except ValueError as exc:
            self.problem(item, "message", f'"message" is not a valid template: {exc}')
            return None
        for name, spec, conversion in fields:
            if name not in MESSAGE_NAMES:
                self.problem(item, "message",
                             f'"message" uses {{{name}}}; it may use {", ".join("{" + n + "}" for n in MESSAGE_NAMES)}')
            elif spec or conversion:  # a width of a billion ({card:>1000000000}) was built for every failure
                shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
                self.problem(item, "message", f'"message" uses {shown}; write the name alone: {{{name}}}')
        return text
