"""Jinja's syntax errors said at the line to edit: a block never closed at the tag that opens it
(Jinja said the line it was reading when the template ended), a ``{{`` or ``{%`` never closed at
the line it opens on (Jinja said the line where the next lines stopped making an expression),
without Jinja's offsets into the source, and the template named as a path in the project."""
from __future__ import annotations

import re
from pathlib import Path

from jinja2.exceptions import TemplateSyntaxError

_UNCLOSED = re.compile(r"Unexpected end of template\. Jinja was looking for the following tags: (.*?)\. "
                       r"The innermost block that needs to be closed is '(\w+)'\.")
_NESTING = re.compile(r"You probably made a nesting mistake\..*The innermost block that needs to be closed is '(\w+)'\.")
_OFFSET = re.compile(r"^(unexpected char '.*?') at \d+$")
_ESCAPED = re.compile(r"^unexpected char '(\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}))'")
_NOT_ENDED = ("expected token 'end of print statement'", "expected token 'end of statement block'")
_OPENING = frozenset({"if", "for", "block", "macro", "call", "filter", "with", "set", "autoescape", "trans", "cache"})
_BEGINS = {"variable_begin": "{{", "block_begin": "{%"}
_ENDS = ("variable_end", "block_end")


def template_file(exc: TemplateSyntaxError, name: str, folder: Path, root: Path) -> tuple[str, str]:
    """The template's name below templates/ and its path in the project. Jinja's lexer gives its
    own errors ("Missing end of comment tag") the file's absolute path for a name."""
    said = exc.name or name
    if Path(said).is_absolute():
        try:
            said = Path(said).relative_to(folder).as_posix()
        except ValueError:
            return said, said
    return said, f"{Path(folder).relative_to(root).as_posix()}/{said}"


def where_to_edit(exc: TemplateSyntaxError, source: str | None, environment) -> tuple[str, int | None]:
    """The message and line of a syntax error, moved to the tag to edit where Jinja's line is
    where it noticed, not where the mistake is."""
    message, line = exc.message or "", exc.lineno
    offset = _OFFSET.match(message)
    if offset:  # an offset into the source as cardgen marked it: no one's column
        message = offset.group(1) + (" (a quote never closed?)" if message[17:18] in "\"'" else "")
    message = _ESCAPED.sub(_character_named, message)
    if source is None:
        return message, line
    unclosed = _UNCLOSED.match(message)
    if unclosed:
        opened = _innermost_open(source, environment, unclosed.group(2))
        if opened is not None:
            kind = unclosed.group(2)
            return (f"{{% {kind} %}} is never closed: Jinja reached the end of the template looking for "
                    f"{unclosed.group(1)}", opened)
    nesting = _NESTING.search(message)
    if nesting and line is not None:  # a stray end tag, or the end tag of a block left open: say both
        opened = _innermost_open(source, environment, nesting.group(1), before=line)
        if opened is not None:
            return f"{message} (the {{% {nesting.group(1)} %}} left open is at line {opened})", line
    if message.startswith(_NOT_ENDED) and line is not None:
        opened = _tag_open_at(source, environment, line)
        if opened is not None:
            begin, at = opened
            return f"this {begin} is not closed before line {line}, where Jinja found: {message}", at
    return message, line


def _tokens(source: str, environment):
    try:
        yield from environment.lex(source)
    except TemplateSyntaxError:
        return


def _innermost_open(source: str, environment, kind: str, before: int | None = None) -> int | None:
    """The line of the last ``{% kind %}`` left open at the end of the template (or at the
    first tag on line ``before``)."""
    stack: list[tuple[str, int]] = []
    tag: list = []
    for line, token, value in _tokens(source, environment):
        if token == "block_begin" and before is not None and line >= before:
            break
        if token == "block_begin":
            tag = [line]
        elif tag and token not in ("whitespace", "block_end"):
            tag.append((token, value))
        elif tag and token == "block_end":
            if len(tag) > 1 and tag[1][0] == "name":
                name = tag[1][1]
                if name.startswith("end") and stack and stack[-1][0] == name[3:]:
                    stack.pop()
                elif name in _OPENING and (name != "set" or ("operator", "=") not in tag):  # {% set x = 1 %}: none
                    stack.append((name, tag[0]))
            tag = []
    return next((at for name, at in reversed(stack) if name == kind), None)


def _tag_open_at(source: str, environment, line: int) -> tuple[str, int] | None:
    """The ``{{`` or ``{%`` still open at ``line`` and opened before it, and its line."""
    opened = None
    for at, token, _ in _tokens(source, environment):
        if at > line:
            break
        if token in _BEGINS:
            opened = (_BEGINS[token], at)
        elif token in _ENDS:
            opened = None
    return opened if opened is not None and opened[1] < line else None


def _character_named(match: re.Match) -> str:
    """Jinja's "unexpected char '\\x07'" is Python's escape of an invisible character, which the
    designer cannot search for: its code point and what it is instead."""
    character = chr(int(match.group(1)[2:], 16))
    kind = ("a control character" if character < " " or "\x7f" <= character <= "\x9f"
            else "a byte order mark" if character == "\ufeff" else "an invisible character")
    return f"unexpected character U+{ord(character):04X} ({kind}): delete it"
