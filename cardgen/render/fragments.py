"""``{% cache key, ... %}...{% endcache %}``: a fragment rendered once per build for each key.

A starfield or a pattern that depends only on the card's size repeats, character for
character, on every card of that size; a template says so by wrapping it in ``{% cache w, h,
bleed %}``. The text is kept in the build's environment (so in memory, in one process, and
never shared between projects or builds), keyed by the block's own source and line and the
values of its keys.

A kept fragment must be what rendering it again would give, whatever card comes first, so
that no output depends on the order cards render in (``--jobs``, a cached rebuild that renders
only the changed cards). So the block may read only its keys, names it sets itself, and the
environment's own functions (``range``, ``mix``, ...); reading anything else, or including,
importing or calling a block of another template, is a syntax error at the tag's line. A key
is a number, text, true/false or none. Reusing a fragment charges the steps rendering it took;
when those are more than the rendering has left, it is rendered again, so that the limit is
met at the same template line as without the tag.
"""
from __future__ import annotations

import hashlib
from typing import Any

from jinja2 import meta, nodes
from jinja2.exceptions import TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.runtime import Undefined
from markupsafe import Markup

_KEPT = 256  # fragments per build: a few sizes and bleeds, as a rule
_KEY_TYPES = (int, float, str, bool, type(None), Markup)
_UNCACHEABLE = {nodes.Include: "include", nodes.Import: "import", nodes.FromImport: "from", nodes.Extends: "extends",
                nodes.Macro: "macro", nodes.CallBlock: "call (or a cache inside it)", nodes.Block: "block"}


class FragmentCache(Extension):
    tags = {"cache"}

    def __init__(self, environment):
        super().__init__(environment)
        environment.extend(fragments={})

    def parse(self, parser):
        token = next(parser.stream)
        lineno = token.lineno
        keys = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            keys.append(parser.parse_expression())
        body = parser.parse_statements(("name:endcache",), drop_needle=True)
        functions = self._functions_read(body, keys, lineno, parser.name, parser.filename)
        identity = hashlib.sha256(f"{parser.name}\0{lineno}\0{body!r}".encode("utf-8")).hexdigest()
        call = self.call_method("_fragment", [
            nodes.Const(identity), nodes.Tuple(keys, "load"), nodes.Const(functions),
            nodes.Tuple([nodes.Name(name, "load") for name in functions], "load")])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _functions_read(self, body: list, keys: list, lineno: int, name, filename) -> tuple[str, ...]:
        """The environment's functions the block reads; it reads nothing else a key does not
        name (see the module's docstring)."""
        for node in body:
            kinds = tuple(_UNCACHEABLE)
            found = node if isinstance(node, kinds) else next(node.find_all(kinds), None)
            if found is not None:
                raise TemplateSyntaxError(
                    f"{{% cache %}} cannot hold {{% {_UNCACHEABLE[type(found)]} %}}"
                    " (a kept fragment renders nothing of another template)", lineno, name, filename)
        keyed = {key.name for key in keys if isinstance(key, nodes.Name)}
        template = nodes.Template(body, lineno=lineno)
        template.set_environment(self.environment)
        read = meta.find_undeclared_variables(template) - keyed  # Jinja leaves out the environment's globals
        if read:
            listed = ", ".join(sorted(read))
            raise TemplateSyntaxError(
                f"{{% cache %}} reads {listed}, which its keys do not name: a kept fragment may read only "
                f"its keys (add {listed} to them)", lineno, name, filename)
        globals_ = self.environment.globals
        return tuple(sorted({node.name for node in template.find_all(nodes.Name)
                             if node.ctx == "load" and node.name in globals_} - keyed))

    def _fragment(self, identity: str, keys: tuple, function_names: tuple, functions: tuple, caller) -> str:
        environment = self.environment
        if any(function is not environment.globals.get(name) for name, function in zip(function_names, functions)):
            return caller()  # a card's column named like a function (``mix``): not the same everywhere
        key = (identity,) + tuple(_key_value(value) for value in keys)
        kept = environment.fragments.get(key)
        if kept is not None and kept[1] <= environment.steps_left:
            environment.charge(kept[1])
            return kept[0]
        before = environment.steps_left
        text = caller()
        fragments = environment.fragments
        if len(fragments) >= _KEPT:
            fragments.clear()
        fragments[key] = (text, before - environment.steps_left)
        return text


def _key_value(value: Any) -> tuple:
    """A key as it renders: 1, 1.0 and true are different keys, and so are 0.0 and -0.0."""
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()
    if value.__class__ not in _KEY_TYPES:
        raise TypeError(f"a {{% cache %}} key is a number, text, true/false or none, not {type(value).__name__}")
    return (value.__class__, repr(value))
