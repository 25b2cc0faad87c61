"""YAML parser errors in plain words, at the line the designer has to edit.

The parser reports where it gave up ("expected ',' or '}', but got ':'" a line after the
bracket left open); a designer needs where the unclosed bracket or quote began, and what to do.
"""
from __future__ import annotations

import re

_OPENERS = {"flow mapping": ("{", "}"), "flow sequence": ("[", "]")}


def explain(exc, text: str) -> tuple[int | None, str]:
    """(1-based line, message) for a ruamel MarkedYAMLError raised while parsing ``text``."""
    problem = str(exc.problem or exc.context or "invalid YAML")
    context = str(exc.context or "")
    problem_mark, context_mark = exc.problem_mark, exc.context_mark
    began = _position(context_mark)
    at = _position(problem_mark) or began or (None, 0)

    for kind, (opener, closer) in _OPENERS.items():
        if kind in context and began is not None:
            reached = "the file ends" if "<stream end>" in problem else f"line {at[0]} was reached"
            return began[0], f'the "{opener}" opened at column {began[1]} is never closed ({reached} without a "{closer}")'
    if "quoted scalar" in context and began is not None:
        quote = _char(text, context_mark) or '"'
        return began[0], (f"the quote {quote} at column {began[1]} is never closed (the file ends "
                          f"inside it): add the closing {quote}")
    if "mapping values are not allowed" in problem:
        return at[0], ('a ":" at column %d where no new key can start: put quotes round a value that '
                       'holds ": ", or check this line\'s indentation' % at[1])
    if "cannot start any token" in problem and "\\t" in problem:
        return at[0], "a tab character: YAML indents with spaces only"
    if "duplicate key" in problem:
        key = re.search(r'duplicate key "([^"]*)"', problem)
        return at[0], f'the key "{key.group(1) if key else "?"}" is given twice in one mapping'
    if "undefined alias" in problem:
        name = re.search(r"alias '([^']*)'", problem)
        shown = name.group(1) if name else "?"
        return at[0], f'"*{shown}" names no "&{shown}" earlier in the file'
    if "could not find expected ':'" in problem and began is not None:
        return began[0], "this line is neither a list item nor key: value (a \":\" is missing?)"
    if "expected <block end>" in problem:
        found = re.search(r"but found '([^']*)'", problem)
        token = found.group(1) if found else ""
        opened = f" (the list or mapping it belongs to began on line {began[0]})" if began else ""
        if token in ("}", "]"):
            return at[0], f'a "{token}" at column {at[1]} that closes no bracket'
        if token == "<scalar>" and _char(text, problem_mark, -1) == " " and _quoted_before(text, problem_mark):
            return at[0], f"text after a closing quote at column {at[1]}: quote the whole value"
        return at[0], f"this line's indentation does not fit the lines before it{opened}"
    if "<stream end>" in problem or "end of stream" in problem:
        unclosed = _unclosed(text)
        if unclosed is not None:
            line, column, opener = unclosed
            closer = {"[": "]", "{": "}"}.get(opener, opener)
            return line, f'the "{opener}" opened at column {column} is never closed (the file ends without a "{closer}")'
        return at[0], "the file ends where a value was expected"
    where = f" ({context} on line {began[0]})" if context and began else ""
    return at[0], f"{problem}{where}"


def _unclosed(text: str) -> tuple[int, int, str] | None:
    """The first bracket or quote left open in ``text``, as (line, column, character): a plain
    scan that knows quotes and comments, enough to point at what the parser missed."""
    stack: list[tuple[int, int, str]] = []
    quote = None
    for number, line in enumerate(text.split("\n"), start=1):
        column = 0
        while column < len(line):
            char = line[column]
            if quote is not None:
                if char == quote[2]:
                    if quote[2] == "'" and line[column + 1:column + 2] == "'":
                        column += 1
                    else:
                        quote = None
                elif char == "\\" and quote[2] == '"':
                    column += 1
            elif char == "#" and (column == 0 or line[column - 1] in " \t"):
                break
            elif char in "\"'" and (column == 0 or line[column - 1] in " \t[{,:-"):
                quote = (number, column + 1, char)
            elif char in "[{":
                stack.append((number, column + 1, char))
            elif char in "]}" and stack:
                stack.pop()
            column += 1
    if quote is not None:
        return quote
    return stack[0] if stack else None


def _position(mark) -> tuple[int | None, int] | None:
    if mark is None:
        return None
    return mark.line + 1, mark.column + 1


def _char(text: str, mark, shift: int = 0) -> str:
    if mark is None:
        return ""
    index = getattr(mark, "index", None)
    if index is None:
        return ""
    index += shift
    return text[index] if 0 <= index < len(text) else ""


def _quoted_before(text: str, mark) -> bool:
    index = getattr(mark, "index", None)
    return index is not None and text[:index].rstrip()[-1:] in ('"', "'")
