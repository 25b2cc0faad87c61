"""Python's and Jinja's names for the kinds of values, in a template's error, said in the words
of the data files and of cardgen's other messages ("'None' has no attribute 'name'", "'dict
object'", "can only concatenate str (not "int") to str")."""
from __future__ import annotations

import re

# Jinja names a value's kind as Python does ("'None' has no attribute 'name'", "'dict object'"):
# said in the words of the data files and of cardgen's other messages
_KIND_WORDS = {"None": "none (left empty in YAML, or nothing found)", "dict object": "a mapping",
               "list object": "a list", "str object": "text", "int object": "a number", "float object": "a number",
               "bool object": "true or false", "Markup object": "text", "date object": "a date",
               "datetime object": "a date"}
# Python's TypeError names the kinds of values as Python does ("can only concatenate str (not
# "int") to str", "unsupported operand type(s) for -: 'str' and 'int'"): said in the data's words
_PYTHON_KINDS = {"str": "text", "int": "a number", "float": "a number", "NoneType": "none", "list": "a list",
                 "tuple": "a list", "dict": "a mapping", "bool": "true or false", "Markup": "text",
                 "date": "a date", "datetime": "a date", "Undefined": "an undefined value"}
_TYPE_ERRORS = (
    (re.compile(r'^can only concatenate (\w+) \(not "(\w+)"\) to \w+$'),
     lambda m: f"{_kind(m[1])} and {_kind(m[2])} cannot be added with +: join them into text with ~"),
    (re.compile(r"^unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'$"),
     lambda m: f"{_kind(m[2])} {m[1]} {_kind(m[3])} cannot be worked out (a value of the wrong kind)"),
    (re.compile(r"^argument of type '(\w+)' is not iterable$"), lambda m: f"{_kind(m[1])} cannot be searched with in"),
    (re.compile(r"^object of type '(\w+)' has no len\(\)$"), lambda m: f"{_kind(m[1])} has no length"),
    (re.compile(r"^'(\w+)' object is not iterable$"), lambda m: f"{_kind(m[1])} cannot be looped over"),
    (re.compile(r"^'(\w+)' object cannot be interpreted as an integer$"),
     lambda m: f"{_kind(m[1])} is given where a whole number is needed"),
    (re.compile(r"^'([<>]=?)' not supported between instances of '(\w+)' and '(\w+)'$"),
     lambda m: f"{_kind(m[2])} and {_kind(m[3])} cannot be compared with {m[1]}"),
)


def _kind(python_name: str) -> str:
    return _PYTHON_KINDS.get(python_name, python_name)


def in_data_words(message: str) -> str:
    """A TypeError's message with the kinds of values in the data files' words."""
    for pattern, said in _TYPE_ERRORS:
        match = pattern.match(message)
        if match:
            return said(match)
    return message


_JINJA_KINDS = re.compile("'(" + "|".join(re.escape(kind) for kind in _KIND_WORDS) + ")'(?= has no attribute)")


def undefined_in_data_words(message: str) -> str:
    """An undefined-name message with Jinja's kind of the value ("'dict object'") in the data's words."""
    return _JINJA_KINDS.sub(lambda m: _KIND_WORDS[m.group(1)], message)


_UNDEFINED_NAME = re.compile(r"^'([^']+)' is undefined$")


def undefined_name_hint(message: str, names) -> str:
    """' (did you mean "label"?)' for Jinja's "'lable' is undefined" when a name the template
    could read (a field of the card, or another name of its context) is spelt nearly alike: a
    typo in the layout, or in the column's name in the card file; else ''."""
    import difflib

    match = _UNDEFINED_NAME.match(message)
    if not match:
        return ""
    close = difflib.get_close_matches(match[1], sorted(str(name) for name in names), n=1, cutoff=0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""
