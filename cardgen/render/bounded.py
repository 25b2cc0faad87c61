"""A Jinja sandbox whose renderings end: bounded in work, depth and the size of what they build.

Jinja's sandbox caps one ``range`` at 100,000 items, but not loops inside loops, a macro that
calls itself, a template that includes itself, or ``"x" * 10**9``. Here every rendering has a
budget of steps (``CARDGEN_MAX_TEMPLATE_STEPS``): each loop turn, over anything, and each call
takes one, and building a long string or list takes its length (a list's with what it holds, so
that lists holding one another twice over cannot double in a loop: ``[x, x]``); so does what a
rendering writes: the text a loop's turn, a macro, a call or a block writes as it is (counted
once, when the template is compiled), and each printed value. Templates and macros may sit
inside one another at most ``CARDGEN_MAX_TEMPLATE_DEPTH`` deep. Past either, the rendering stops
with a :class:`TemplateLimit` (a SecurityError, so it is reported at the template line).
"""
from __future__ import annotations

import operator
import sys
from typing import Any, Iterable, Iterator

from jinja2 import nodes, pass_context
from jinja2.exceptions import SecurityError
from jinja2.environment import Environment
from jinja2.nodes import EvalContext
from jinja2.runtime import Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from ..limits import TEMPLATE_DEPTH, TEMPLATE_STEPS, limit, limit_message
from .extending import refuse_writing_outside_blocks
from .printable import PrintingTemplate
from .sizes import (batch_size, center_size, depth, format_size, indent_size, nested_size, replace_size, slice_size,
                    string_method_size, urlize_size, wordwrap_size)

COUNTED = "cardgen_counted"  # the filter every for-loop's iterable is passed through
SIZED = "cardgen_sized"  # the filter every ``~`` (and ``+``) result is passed through
JOINED = "cardgen_joined"  # the filter every operand of ``~`` is passed through (render/printable.py: joined)
NESTED = "cardgen_nested"  # the filter every list, tuple and dict a template writes is passed through
WRITTEN = "cardgen_written"  # the filter that charges the text a macro, call, block or template writes as it is
_PLAIN_NUMBERS = frozenset({int, float})
_CONTEXTS = (EvalContext, Environment)  # what Jinja passes a filter before its value
_OPERATORS = {"+": operator.add, "*": operator.mul, "%": operator.mod, "**": operator.pow}


_PYTHON: dict[tuple, str] = {}  # (settings, source, name, defer_init) -> the Python code Jinja writes
_CODE: dict[tuple[str, str], Any] = {}  # (that code, file name) -> its compiled code object
_REMEMBERED = 512  # templates: a long watch or serve session edits them again and again


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= _REMEMBERED:
        memo.clear()
    memo[key] = value


class TemplateLimit(SecurityError):
    """A rendering passed one of the limits."""


class BoundedEnvironment(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "%", "+"})
    template_class = PrintingTemplate

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.filters[COUNTED] = self._counted
        self.filters[SIZED] = self._sized
        self.filters[NESTED] = self._sized
        self.filters[JOINED] = _as_is
        self.filters[WRITTEN] = self._written
        for name, size in (("center", center_size), ("indent", indent_size), ("format", format_size),
                           ("replace", replace_size), ("batch", batch_size), ("slice", slice_size),
                           ("join", self._join_size), ("sum", self._sum_size), ("wordwrap", wordwrap_size),
                           ("tojson", self._tojson_size), ("urlize", urlize_size)):
            self.filters[name] = _charging(self, self.filters[name], size)
        self.max_steps = limit(TEMPLATE_STEPS)  # read once: a build's environment is made for it
        self.max_depth = limit(TEMPLATE_DEPTH)
        self.start()

    def start(self) -> None:
        """Give the next rendering its whole budget."""
        self.steps_left = self.max_steps
        self.macro_depth = 0
        self.templates_fetched = 0

    def charge(self, steps: int) -> None:
        self.steps_left -= steps
        if self.steps_left < 0:
            self.steps_left = 0
            raise TemplateLimit(limit_message(TEMPLATE_STEPS, "the template takes too many steps "
                                                              "(loops inside loops, or a very long value)"))

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        """Jinja's compile, remembering in this process the Python code it writes for a source:
        every build makes its own environment, and watch, serve and the tests build many times
        in one process. The code does not depend on the file name (``compile`` is given it)."""
        if not isinstance(source, str):
            return super().compile(source, name, filename, raw, defer_init)
        key = (self.settings(), source, name, defer_init)
        python = _PYTHON.get(key)
        if python is None:
            steps_left = self.steps_left
            try:
                python = super().compile(source, name, filename, raw=True, defer_init=defer_init)
            finally:  # Jinja computes constants while compiling ("x" | center(10 ** 9)): not the rendering's work
                self.steps_left = steps_left
            _remember(_PYTHON, key, python)
        if raw:
            return python
        filename = "<template>" if filename is None else filename
        code = _CODE.get((python, filename))
        if code is None:
            code = self._compile(python, filename)
            _remember(_CODE, (python, filename), code)
        return code

    def settings(self) -> tuple:
        """What the code Jinja writes for a template depends on besides its source."""
        return (type(self), self.block_start_string, self.block_end_string, self.variable_start_string,
                self.variable_end_string, self.comment_start_string, self.comment_end_string,
                self.line_statement_prefix, self.line_comment_prefix, self.trim_blocks, self.lstrip_blocks,
                self.newline_sequence, self.keep_trailing_newline, self.optimized, self.autoescape,
                getattr(self.finalize, "__qualname__", None), tuple(sorted(self.filters)), tuple(sorted(self.tests)), tuple(sorted(self.extensions)))

    def _parse(self, source, name, filename):
        """Every for-loop's iterable goes through the ``COUNTED`` filter (each turn is a step),
        and every ``~`` result through ``SIZED`` (its length is steps: doubling a string in a
        loop or a recursive macro is stopped while it is still small)."""
        tree = super()._parse(source, name, filename)
        refuse_writing_outside_blocks(tree, name, filename)
        return _Guard().visit(tree)

    def _sized(self, value):
        if isinstance(value, str):
            self.charge(len(value))
        elif isinstance(value, (list, tuple, dict)):
            self.charge(self.size_of(value))
        return value

    def size_of(self, value) -> int:
        """What ``value`` holds, everything inside it counted again wherever it is held (a
        string its length), counted no further than the steps left."""
        return nested_size(value, self.steps_left + 1)

    def _join_size(self, *args, **kwargs) -> int:
        """What it joins, and its separator between each two (range(99999) | join("x" * 99999)
        built ten billion characters): render/printable.py makes a list of what is not one."""
        value = args[0] if args else kwargs.get("value", ())
        if not isinstance(value, (list, tuple, dict, str)):
            return 0
        separator = kwargs.get("d", args[1] if len(args) > 1 else "")
        return self.size_of(value) + len(str(separator)) * max(len(value) - 1, 0)

    def _tojson_size(self, value=None, indent=None, **_) -> int:
        """Its value written out, and with ``indent`` the spaces before each of its items, as
        many times as the item is deep: {"a": 1} | tojson(indent=10 ** 9) built a gigabyte."""
        size = self.size_of(value)
        if indent is None:
            return size
        width = indent if isinstance(indent, int) and not isinstance(indent, bool) else len(str(indent))
        return size * (1 + max(width, 0) * depth(value, self.steps_left + 1))

    def _sum_size(self, *args, **kwargs) -> int:
        """Adding lists or strings copies the total so far at each item."""
        iterable = args[0] if args else kwargs.get("iterable", ())
        if not isinstance(iterable, (list, tuple)) or all(item.__class__ in _PLAIN_NUMBERS for item in iterable):
            return 0
        return self.size_of(iterable) * len(iterable)

    def _counted(self, iterable: Iterable, written: int = 0) -> Iterator:
        """Each turn a step, and the text the loop's body writes as it is (``written``)."""
        charge, steps = self.charge, 1 + written
        for item in iterable:
            charge(steps)
            yield item

    @pass_context  # so that Jinja never calls it while compiling, with a constant
    def _written(self, _context, written: int) -> str:
        if written > self.max_steps:  # no loop of the designer's: the layout's own text is that long
            self.steps_left = 0
            raise TemplateLimit(limit_message(TEMPLATE_STEPS, "the template's own text here is longer than one "
                                                              "rendering may write (it is not a loop's)"))
        self.charge(written)
        return ""

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        __self.charge(1)
        if not isinstance(__obj, Macro):
            owner = getattr(__obj, "__self__", getattr(getattr(__obj, "__wrapped__", None), "__self__", None))
            if isinstance(owner, str):  # what a string method builds: "a".ljust(10 ** 9)
                __self.charge(string_method_size(__self, owner, getattr(__obj, "__name__", ""), args, kwargs))
                if getattr(__obj, "__name__", "") == "format":  # "{} coins".format(cost) wrote "None coins"
                    for value in (*args, *kwargs.values()):
                        if value is None:  # (a container is passed: "{m[k]}" reads a field of it)
                            __self.filters[JOINED](value)
            elif __obj is __self.globals.get("lipsum"):
                n = kwargs.get("n", args[0] if args else 5)
                __self.charge(n * 100 if isinstance(n, int) else 0)
            result = super().call(__context, __obj, *args, **kwargs)
            if isinstance(result, dict):  # dict(a=x, b=x): held twice over, as a [x, x]
                __self._sized(result)
            if isinstance(result, range):  # what goes over it (sum, join, a loop) takes its length
                __self.charge(len(result))
            return result
        __self.macro_depth += 1
        try:
            if __self.macro_depth > __self.max_depth:
                raise TemplateLimit(limit_message(TEMPLATE_DEPTH, "macros call one another too deeply "
                                                                  "(a macro that calls itself?)"))
            return super().call(__context, __obj, *args, **kwargs)
        finally:
            __self.macro_depth -= 1

    def make_globals(self, d):
        """A template's globals as a plain dict, not Jinja's ChainMap over the environment's:
        every rendering copies them into its context key by key (a Python call a key through a
        ChainMap). This environment's globals are all set before a template loads (Jinja asks
        that they are), so nothing a ChainMap would pass on is missed."""
        return {**self.globals, **(d or {})}

    def get_template(self, name, parent=None, globals=None):
        """A template that includes or extends others: refused past the depth limit (the
        templates being rendered are counted on the stack, so nothing has to be undone)."""
        self.templates_fetched += 1  # the stack is looked at only when a rendering fetches many
        if self.templates_fetched > self.max_depth and _template_depth() >= self.max_depth:
            raise TemplateLimit(limit_message(TEMPLATE_DEPTH, f'templates include or extend one another too '
                                                              f'deeply (at "{name}": one that includes itself?)'))
        return super().get_template(name, parent, globals)

    def call_binop(self, context, op: str, left: Any, right: Any) -> Any:
        if left.__class__ in _PLAIN_NUMBERS and right.__class__ in _PLAIN_NUMBERS and op != "**":
            return _OPERATORS[op](left, right)  # the common case (card geometry): nothing to charge
        if op == "+":
            return self._sized(operator.add(left, right))
        if op == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) and times > 0:
                    self.charge(len(sequence) * times)
                    if not isinstance(sequence, str):  # each copy holds the same: what it holds, again
                        self.charge(max(self.size_of(sequence) - len(sequence), 0) * times)
            return operator.mul(left, right)
        if op == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                self.charge(right * max(abs(left).bit_length() - 1, 0) // 64)  # the result's size, in words
            return operator.pow(left, right)
        if isinstance(left, str):  # "%" formats: a width or precision is a length to build, and the values
            self.charge(format_size(left, right) + self.size_of(right))
            for value in right if isinstance(right, tuple) else () if isinstance(right, dict) else (right,):
                self.filters[JOINED](value)
        return operator.mod(left, right)


class _Guard(NodeTransformer):
    """Jinja wrote the text of a template as it is without counting it: a loop of 100,000 turns
    over 10 KB of it built a gigabyte, in steps well inside the limit."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        written = nodes.Const(_text_written(node.body))
        node.iter = nodes.Filter(node.iter, COUNTED, [written], [], None, None, lineno=node.iter.lineno)
        return node

    def _writes(self, node: nodes.Node) -> nodes.Node:
        """A macro, call, block or template: charged what it writes as it is, whenever it runs."""
        self.generic_visit(node)
        written = _text_written(node.body)
        if written:
            charge = nodes.Filter(nodes.Const(written), WRITTEN, [], [], None, None, lineno=node.lineno)
            node.body.insert(0, nodes.ExprStmt(charge, lineno=node.lineno))
        return node

    visit_Macro = visit_CallBlock = visit_Block = visit_Template = _writes

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        # a constant is text or a number as written, but for `none`: "Gather" ~ none wrote "GatherNone"
        node.nodes = [part if isinstance(part, nodes.Const) and part.value is not None else
                      nodes.Filter(part, JOINED, [], [], None, None, lineno=part.lineno) for part in node.nodes]
        return nodes.Filter(node, SIZED, [], [], None, None, lineno=node.lineno)

    def _nested(self, node: nodes.Node) -> nodes.Node:
        self.generic_visit(node)
        if getattr(node, "ctx", "load") != "load" or all(isinstance(n, nodes.Const) for n in _items(node)):
            return node  # a target of an assignment, or constants (folded once, when compiled)
        return nodes.Filter(node, NESTED, [], [], None, None, lineno=node.lineno)

    visit_List = visit_Tuple = visit_Dict = _nested


_CHARGED_ITSELF = (nodes.For, nodes.Macro, nodes.CallBlock, nodes.Block)


def _text_written(body: list) -> int:
    """The length of the template text ``body`` writes as it is, but for that of its loops,
    macros, calls and blocks, which charge their own."""
    total, pending = 0, list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, nodes.TemplateData):
            total += len(node.data)
        elif not isinstance(node, _CHARGED_ITSELF):
            pending.extend(node.iter_child_nodes())
    return total


def _as_is(value: Any) -> Any:
    return value


def _items(node: nodes.Node) -> list:
    if isinstance(node, nodes.Dict):
        return [part for pair in node.items for part in (pair.key, pair.value)]
    return list(node.items)


def _template_depth() -> int:
    """Templates being rendered: one ``root`` function frame of compiled template code each."""
    depth = 0
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "root" and "environment" in code.co_varnames:
            depth += 1
        frame = frame.f_back
    return depth


def _charging(environment: BoundedEnvironment, original, size):
    """A filter that first charges the length it will build."""
    def charged(*args, **kwargs):
        given = args[1:] if args and isinstance(args[0], _CONTEXTS) else args  # what the filter is passed
        environment.charge(size(*given, **kwargs))
        return original(*args, **kwargs)

    for attribute in ("jinja_pass_arg",):
        if hasattr(original, attribute):
            setattr(charged, attribute, getattr(original, attribute))
    return charged
