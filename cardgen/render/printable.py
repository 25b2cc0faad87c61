"""What Jinja may write into a card's markup: text, numbers, dates; never none, a container or an
object Python writes as "<Macro 'm'>", whether printed (``{{ ... }}``) or joined into text
(``~``, ``%``, ``join``, ``format``, ``.format()``): each is an error at its template line where
Jinja wrote "None" or "['a', 'b']" onto the card."""
from __future__ import annotations

import datetime
import numbers
from typing import Any, Mapping

import jinja2
import markupsafe
from jinja2.nodes import EvalContext
from markupsafe import Markup

NONE_PRINTED = ('the value printed here is none (left empty in YAML, or nothing found), which would print as '
                '"None": give it a value, or test it with `is none`')
_PRINTS_AS_ITSELF = frozenset({str, Markup, int, float, bool})
_TEXT = frozenset({str, Markup})
_CONTAINERS = ((list, tuple, set, frozenset, "list", 'print its items in a loop, or join them with | join(", ")'),
               (Mapping, "mapping", "print one of its values"))
_TEXT_LIKE = (str, numbers.Number, datetime.date, datetime.time)  # a YAML date prints as written: 2024-05-01


def _not_text(value: Any) -> str | None:
    """Why ``value`` would print as something no one wrote (after "the value printed here"),
    or None: none, a container, or an object Python writes as "<Macro 'm'>"."""
    if value is None:
        return NONE_PRINTED.removeprefix("the value printed here ")
    for *kinds, name, instead in _CONTAINERS:
        if isinstance(value, tuple(kinds)):
            return f'is a {name}, which would print as Python writes it, "{value!r}": {instead}'
    if isinstance(value, (_TEXT_LIKE, jinja2.Undefined)) or hasattr(value, "__html__"):
        return None  # Undefined: the empty text of `a if b` without an else (a strict one raises itself)
    instead = "call it, with ()" if callable(value) else "print one of its values"
    return f'is a {type(value).__name__}, which would print as Python writes it, "{value}": {instead}'


@jinja2.pass_eval_context
def printable(eval_context: Any, value: Any) -> Any:
    """What ``{{ ... }}`` prints: anything but none, the containers and the objects Python would
    write out. Jinja wrote None as the word "None": on a card as text, and in an attribute as the
    colour "none", which paints nothing; a list from a YAML card file as "['a', 'b']"; a macro
    named without its () as "<Macro 'm'>". It takes the evaluation context (unused) so that Jinja
    calls it at every rendering: a finalize without one is applied to a constant (``{{ none }}``,
    ``{{ [1, 2] }}``) when the template is compiled, after autoescape has made it the text
    "None", which it then lets through. Printed text costs its length in the rendering's steps
    (render/bounded.py): a value printed in a loop is written again at every turn."""
    if value.__class__ in _PRINTS_AS_ITSELF:
        if value.__class__ in _TEXT:
            eval_context.environment.charge(len(value))
        return value
    problem = _not_text(value)
    if problem is not None:
        raise ValueError(f"the value printed here {problem}")
    return value


def joined(value: Any) -> Any:
    """An operand of ``~`` (or a value ``%`` formats), refused as ``printable`` refuses a
    printed one: ``"Cost: " ~ cost`` printed "Cost: None" for a cost left empty."""
    if value.__class__ in _PRINTS_AS_ITSELF:
        return value
    problem = _not_text(value)
    if problem is not None:
        raise ValueError(f"a value joined into text here (with ~, %, join or format) {problem}")
    return value


def joining_checked(original: Any, values: Any) -> Any:
    """Jinja's ``join`` or ``format`` filter, each value it joins into text refused as ``~``
    refuses one: ``[a, b] | join(", ")`` printed "a, None" for a b left empty."""
    def checked(*args: Any, **kwargs: Any) -> Any:
        given = args[1:] if args and isinstance(args[0], EvalContext) else args
        for value in values(given, kwargs):
            joined(value)
        return original(*args, **kwargs)

    if hasattr(original, "jinja_pass_arg"):
        checked.jinja_pass_arg = original.jinja_pass_arg
    return checked


# Jinja's filters that make text of their value: of none, the text "None" ("NONE" in capitals,
# "none" in lower case, which an attribute reads as the colour that paints nothing).
TEXT_FILTERS = ("capitalize", "center", "e", "escape", "forceescape", "format", "indent", "lower", "pprint", "replace",
                "safe", "striptags", "title", "trim", "truncate", "upper", "urlize", "wordcount", "wordwrap")


def refusing_none(name: str, original: Any) -> Any:
    """Jinja's text filter ``name``, refusing a none it would make the text "None" of."""
    def checked(*args: Any, **kwargs: Any) -> Any:
        given = args[1:] if args and isinstance(args[0], (EvalContext, jinja2.Environment)) else args
        if (given[0] if given else kwargs.get("value", kwargs.get("s"))) is None:
            raise ValueError(f"| {name} of a value that is none (left empty in YAML, or nothing found), which Jinja "
                             'makes the text "None" first: give it a value, or test it with `is none`')
        return original(*args, **kwargs)

    if hasattr(original, "jinja_pass_arg"):
        checked.jinja_pass_arg = original.jinja_pass_arg
    return checked


def listing(original: Any) -> Any:
    """``join`` given a list of what it was given (a generator from ``map`` or ``select``, a
    range): so that its items are checked (``map(attribute="cost") | join`` wrote "None" for a
    cost left empty) and charged, as a list's are."""
    def listed(*args: Any, **kwargs: Any) -> Any:
        at = 1 if args and isinstance(args[0], EvalContext) else 0
        if len(args) > at and not isinstance(args[at], (str, list, tuple, Mapping)) and hasattr(args[at], "__iter__"):
            args = (*args[:at], list(args[at]), *args[at + 1:])
        return original(*args, **kwargs)

    if hasattr(original, "jinja_pass_arg"):
        listed.jinja_pass_arg = original.jinja_pass_arg
    return listed


def joined_items(given: tuple, kwargs: dict) -> tuple:
    """The items ``join`` writes out: those of a list, unless it joins one attribute of each."""
    if not given or not isinstance(given[0], (list, tuple)) or len(given) > 2 or "attribute" in kwargs:
        return ()
    return tuple(given[0])


def formatted_values(given: tuple, kwargs: dict) -> tuple:
    return tuple(given[1:]) + tuple(kwargs.values())


_escape_text = getattr(markupsafe, "_escape_inner", None)  # (markupsafe 3: escape's own, giving a str)


def escaped(value: Any) -> Any:
    """What autoescape prints for ``value``: ``markupsafe.escape(value)``'s text, without making it
    a Markup for text and numbers (Jinja's compiled templates call it for each value they print,
    and each Markup made costs a call of Python). What a template prints is only ever joined into
    the text it writes, where a Markup and a str of the same characters are the same: a number's
    text has nothing to escape, and text is escaped as escape() escapes it."""
    kind = type(value)
    if kind is str and _escape_text is not None:
        return _escape_text(value)
    if kind is float or kind is int:
        return str(value)
    return markupsafe.escape(value)


class PrintingTemplate(jinja2.Template):
    """A template whose printed values go through ``escaped`` where Jinja's code calls markupsafe's
    ``escape`` (its module's own name for it: only printed values go through it)."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__
        if namespace.get("escape") is markupsafe.escape:
            namespace["escape"] = escaped
        return template
