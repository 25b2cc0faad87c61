"""Jinja in a sandbox: templates from ``templates/``, strict about undefined names.

Every element tag in a template is marked with the template file and line it was written on
(``_src``), so errors found later in the markup can name the template line, even through
``{% extends %}`` and ``{% include %}``.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Mapping

import jinja2
from jinja2 import FileSystemLoader, StrictUndefined, TemplateNotFound, TemplateSyntaxError, meta
from jinja2.exceptions import SecurityError, TemplateError, UndefinedError
from jinja2.filters import do_float, do_int
from jinja2.sandbox import MAX_RANGE

from ..errors import CardgenError, Problem, Source, os_reason
from ..limits import LimitReached
from ..paths import OutsideProject, confined, is_inside, not_a_file
from .bounded import JOINED, BoundedEnvironment, TemplateLimit
from .colors import contrast, mix
from .extending import refuse_blocks_no_parent_has
from .syntaxerrors import template_file, where_to_edit
from .fragments import FragmentCache
from .referenced import walk_templates
from .printable import (TEXT_FILTERS, formatted_values, joined, joined_items, joining_checked, listing, printable,
                        refusing_none)

# What marking looks for: an element's start tag, to mark; or the start of a stretch whose ``<``
# opens no element (a Jinja expression, statement or comment, whose strings and comparisons are
# Jinja's; an XML comment, CDATA section or processing instruction, which hold text), to skip.
_TAG_OR_SKIPPED = re.compile(r"<([A-Za-z][\w-]*)|\{[{%#]|<!--|<!\[CDATA\[|<\?")
_STRING = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^"'])*?"""  # a Jinja string is passed whole
_SKIPPED_END = {"{{": re.compile(_STRING + r"\}\}", re.S), "{%": re.compile(_STRING + r"%\}", re.S),
                "{#": re.compile(r".*?#\}", re.S), "<!--": re.compile(r".*?-->", re.S),
                "<![CDATA[": re.compile(r".*?\]\]>", re.S), "<?": re.compile(r".*?\?>", re.S)}


def marked_source(source: str, name: str) -> str:
    """``source`` with each element's start tag marked ``_src="NAME:LINE"``: the tags of the
    markup only, never a ``<`` in a Jinja expression (``{% if a<b %}``), a Jinja string, or the
    text of a CDATA section or comment, where a marker would break the template or be printed."""
    parts, done, line, counted = [], 0, 1, 0
    found = _TAG_OR_SKIPPED.search(source)
    while found is not None:
        if found.group(1) is not None:
            line += source.count("\n", counted, found.start())
            counted = found.start()
            parts.append(f'{source[done:found.end()]} _src="{name}:{line}"')
            done = found.end()
            found = _TAG_OR_SKIPPED.search(source, done)
            continue
        end = _SKIPPED_END[found.group(0)].match(source, found.end())
        if end is None:  # never closed: Jinja or the XML parser says so at its line; nothing after is marked
            break
        found = _TAG_OR_SKIPPED.search(source, end.end())
    parts.append(source[done:])
    return "".join(parts)


class OutsideTemplate(TemplateNotFound):
    """A template that resolves (through a link) outside the project folder: never read."""


class TemplateNotAFile(TemplateNotFound):
    """A template name that names a folder or a named pipe, not a file: said what it is."""


class TemplateNotText(TemplateSyntaxError):
    """A template file that is not UTF-8 text."""


class MarkedLoader(FileSystemLoader):
    def __init__(self, folder: Path, root: Path):
        super().__init__(str(folder))
        self.root = root
        self.prefix = Path(folder).relative_to(root).as_posix()  # not resolved: templates/ may be a link

    def get_source(self, environment, template):
        if not isinstance(template, str):  # {% extends none %}, {% include 5 %}: a value, not a name
            raise ValueError(f"a template is named by text, such as \"demo/frame.xml.j2\", got {template!r}")
        name = f"{self.prefix}/{template}"
        try:
            confined(self.root, self.root, name, "template")
        except OutsideProject as exc:
            raise OutsideTemplate(template, str(exc)) from None
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except TemplateNotFound:
            said = not_a_file(self.root / name)
            if said != "not found":  # Jinja looks for files only: a pipe or folder there was "not found"
                raise TemplateNotAFile(template, f'template "{name}" {said}') from None
            raise
        except PermissionError as exc:
            raise TemplateNotText(f"cannot read the template: {os_reason(exc)}", None, template) from None
        except UnicodeDecodeError as exc:
            raise TemplateNotText(f"the template is not UTF-8 text: byte 0x{exc.object[exc.start:exc.start + 1].hex().upper()}"
                                  f" at byte offset {exc.start} (save it as UTF-8)",
                                  exc.object.count(b"\n", 0, exc.start) + 1, template) from None
        if source.startswith("\ufeff"):  # the byte-order mark some editors save UTF-8 with: not the template's text
            source = source[1:]
        return marked_source(source, name), filename, uptodate


_NAMES: dict[tuple, tuple[frozenset[str], tuple[str | None, ...]]] = {}


def _names_in(env: BoundedEnvironment, source: str, memo=None) -> tuple[frozenset[str], tuple[str | None, ...]]:
    """The names a template's source reads and the templates it names (None: a computed name),
    remembered in this process: each build has its own environment, and the same sources; and
    in ``memo`` (the face cache, see render/faces.py) for the next build, which then does not
    parse a template it does not render (a rebuild renders only the cards that changed)."""
    key = (env.settings(), source)
    if key not in _NAMES:
        kept = memo_key = None
        if memo is not None:
            memo_key = "names:" + hashlib.sha256(f"{jinja2.__version__}\0{key!r}".encode("utf-8")).hexdigest()
            kept = memo.recall(memo_key)
        if _names_shape(kept):
            found = (frozenset(kept[0]), kept[1])
        else:
            tree = env.parse(source)
            found = (frozenset(meta.find_undeclared_variables(tree)), tuple(meta.find_referenced_templates(tree)))
            if memo_key is not None:
                memo.remember(memo_key, (tuple(sorted(found[0])), found[1]))
        if len(_NAMES) >= 512:
            _NAMES.clear()
        _NAMES[key] = found
    return _NAMES[key]


def _names_shape(kept) -> bool:
    return (kept.__class__ is tuple and len(kept) == 2 and kept[0].__class__ is tuple and kept[1].__class__ is tuple
            and all(name.__class__ is str for name in kept[0])
            and all(name is None or name.__class__ is str for name in kept[1]))


def _no_random(*_: Any) -> None:
    """Jinja's ``random`` picked anew at every build: cardgen's output is the same for the same input."""
    raise ValueError("the random filter picks anew at every build, and the same input must print the same: "
                     "pick by something of the card, such as items[copy % items | length]")


def _steady_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja's ``lipsum``, the same text at every build: it drew its words at random."""
    import random

    from jinja2.utils import generate_lorem_ipsum

    kept = random.getstate()
    random.seed(0)
    try:
        return generate_lorem_ipsum(n, html, min, max)
    finally:
        random.setstate(kept)


_NO_DEFAULT = object()


def _whole_number(value: Any, default: Any = _NO_DEFAULT, base: int = 10) -> Any:
    """Jinja's ``int``, but text that is no number is an error unless a default is given: Jinja
    made "three" (or "3 coins") 0, printed, or added to, without a word. Empty is 0, as a blank
    cell is."""
    if default is not _NO_DEFAULT:
        return do_int(value, default, base)
    number = do_int(value, _NO_DEFAULT, base)
    if number is _NO_DEFAULT:
        return _not_a_number(value, "int", "a whole number")
    return number


def _number(value: Any, default: Any = _NO_DEFAULT) -> Any:
    """Jinja's ``float``, refusing text that is no number as ``_whole_number`` does."""
    if default is not _NO_DEFAULT:
        return do_float(value, default)
    number = do_float(value, _NO_DEFAULT)
    if number is _NO_DEFAULT:
        return _not_a_number(value, "float", "a number")
    return number


def _not_a_number(value: Any, name: str, what: str) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    # the value is not quoted: one message for every card a template's slip hits ("and 9 more cards")
    raise ValueError(f"| {name} of text that is not {what}, which Jinja makes 0: give a number, or say what "
                     f"it makes instead: | {name}(0)")


class Templates:
    """The project's templates, compiled once per build."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.folder = self.root / "templates"
        self.env = BoundedEnvironment(
            loader=MarkedLoader(self.folder, self.root), autoescape=True, undefined=StrictUndefined,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False, extensions=[FragmentCache],
            finalize=printable)
        self.env.filters["random"] = _no_random
        self.env.filters["join"] = listing(joining_checked(self.env.filters["join"], joined_items))
        self.env.filters["format"] = joining_checked(self.env.filters["format"], formatted_values)
        self.env.filters[JOINED] = joined
        for text_filter in TEXT_FILTERS:
            self.env.filters[text_filter] = refusing_none(text_filter, self.env.filters[text_filter])
        self.env.globals["lipsum"] = _steady_lipsum
        self.env.filters["int"] = _whole_number
        self.env.filters["float"] = _number
        self.env.filters["contrast"] = contrast
        self.env.filters["mix"] = mix
        self.env.globals["mix"] = mix
        self._compiled: dict[str, Any] = {}
        self._used: dict[str, frozenset[str]] = {}
        self._digest: str | None = None
        self._memo, self._memo_process = None, None  # see keep_names_in

    @property
    def digest(self) -> str:
        """One hash of every file under templates/ (names and contents)."""
        if self._digest is None:
            hashed = hashlib.sha256()
            if self.folder.is_dir():
                for path in sorted(p for p in self.folder.rglob("*") if p.is_file()):
                    if not is_inside(path, self.root):  # never read: a template naming it is refused
                        hashed.update(f"{path.relative_to(self.folder).as_posix()}\0outside\0".encode())
                        continue
                    hashed.update(f"{path.relative_to(self.folder).as_posix()}\0{path.stat().st_size}\0".encode())
                    hashed.update(path.read_bytes())
            self._digest = hashed.hexdigest()
        return self._digest

    def keep_names_in(self, memo) -> None:
        """Keep what each template reads in ``memo`` (a set's face cache, or None), in this
        process only: a worker forked from it never writes to the build's cache file."""
        self._memo, self._memo_process = memo, os.getpid()

    def names_used(self, name: str) -> frozenset[str] | None:
        """The context names a template (with the templates it extends or includes) reads, so
        that identical inputs can share one rendering; None when that cannot be known."""
        if name not in self._used:
            used: set[str] = set()
            memo = self._memo if self._memo_process == os.getpid() else None

            def visit(source: str) -> tuple[str | None, ...]:
                names, referenced_templates = _names_in(self.env, source, memo)
                used.update(names)
                return referenced_templates

            try:
                # a computed template name: anything may be read
                self._used[name] = frozenset(used) if walk_templates(self.env, name, visit) else None
            except (TemplateNotFound, TemplateSyntaxError):
                self._used[name] = None  # render() reports it
        return self._used[name]

    def render(self, name: str, context: Mapping[str, Any], card: str | None, declared_at: Source | None) -> str:
        try:
            template = self._compiled.get(name)
            self.env.start()
            if template is None:
                template = self.env.get_template(name)
                refuse_blocks_no_parent_has(self.env, name)
                self._compiled[name] = template
            return template.render(context)
        except TemplateNotFound as exc:
            # a missing include or parent is the including line's problem; a missing layout, set.yaml's
            frames = self._template_frames(exc)
            where = Source(frames[-1].file, frames[-1].line) if frames else declared_at
            if isinstance(exc, (OutsideTemplate, TemplateNotAFile)):
                message = exc.message
            elif exc.name is None:  # {% include none %}, {% include nothing_set %}: no name at all
                message = INCLUDE_NAMES
            else:
                message = f'template "templates/{exc.name}" not found{self._near_template(exc.name)}'
            raise CardgenError(Problem(message + _included_from(frames[:-1]), where, card)) from None
        except TemplateSyntaxError as exc:
            template, file = template_file(exc, name, self.folder, self.root)
            frames = [f for f in self._template_frames(exc) if f.file != file]
            if isinstance(exc, TemplateNotText):
                said, line = exc.message, exc.lineno
            else:
                message, line = where_to_edit(exc, self._source_of(template), self.env)
                said = f"template syntax error: {message}"
            raise CardgenError(Problem(f"{said}{_included_from(frames)}", Source(file, line), card)) from None
        except TemplateLimit as exc:  # an included template's text can be what passes it: the loop including it says
            frames = self._template_frames(exc)
            where = Source(frames[-1].file, frames[-1].line) if frames else Source(f"templates/{name}")
            raise LimitReached(Problem(str(exc) + _included_from(frames[:-1]), where, card)) from None
        except RecursionError as exc:  # the depth limit comes first; this is what reaches past it
            frames = self._template_frames(exc)
            where = Source(frames[-1].file, frames[-1].line) if frames else Source(f"templates/{name}")
            raise CardgenError(Problem("the template calls itself without end (too deep)", where, card)) from None
        except (UndefinedError, SecurityError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            frames = self._template_frames(exc)
            where = Source(frames[-1].file, frames[-1].line) if frames else Source(f"templates/{name}")
            message = str(exc)
            if isinstance(exc, UndefinedError):
                from .pythonwords import undefined_in_data_words, undefined_name_hint  # (only a template that fails)

                hint = undefined_name_hint(message, [*context, *(context.get("card") or ())])
                message = undefined_in_data_words(f"undefined name: {message}".replace(f"'{_SET_VIEW} object'", "set"))
                message += hint
            elif isinstance(exc, ValueError) and "integer string conversion" in message:
                message = "a number of more than 4300 digits cannot be written"
            elif isinstance(exc, OverflowError) and message.startswith("Range too big."):
                message = f"range() of more than {MAX_RANGE:,} numbers: no card needs a loop that long"
            elif isinstance(exc, TypeError) and frames and isinstance(frames[-1], _IncludingSource):
                message = INCLUDE_NAMES
            elif isinstance(exc, TypeError):
                from .pythonwords import in_data_words

                message = in_data_words(message)
            raise CardgenError(Problem(message + _included_from(frames[:-1]), where, card)) from None
        except TemplateError as exc:  # a runtime fault of Jinja's own (an unknown filter or test)
            frames = self._template_frames(exc)
            where = Source(frames[-1].file, frames[-1].line) if frames else Source(f"templates/{name}")
            raise CardgenError(Problem(f"{exc.message or exc}{_included_from(frames[:-1])}", where, card)) from None
        except CardgenError:
            raise
        except Exception as exc:  # anything else a template can make Python raise
            where = self._template_frame(exc) or Source(f"templates/{name}")
            raise CardgenError(Problem(f"{type(exc).__name__}: {exc}", where, card)) from None

    def _near_template(self, name: str) -> str:
        """' (did you mean "templates/game/base.xml.j2"?)' for a misspelt template name, else ''."""
        import difflib

        names = []
        for folder, _, files in os.walk(self.folder):  # (links to folders are not followed: no loop)
            names += [(Path(folder) / file).relative_to(self.folder).as_posix() for file in files if file.endswith(".j2")]
            if len(names) > 10_000:
                break
        # by the file's own name in its folder ("bse" for "base"; the shared ".xml.j2" would make
        # "nope" look like "token"), else by the whole path, closer still ("gmae/base.xml.j2")
        folder, _, file = str(name).rpartition("/")
        stems = {n.rpartition("/")[2].split(".")[0]: n for n in names if n.rpartition("/")[0] == folder}
        close = [stems[c] for c in difflib.get_close_matches(file.split(".")[0], sorted(stems), n=1, cutoff=0.75)]
        close = close or difflib.get_close_matches(str(name), names, n=1, cutoff=0.9)
        return f' (did you mean "templates/{close[0]}"?)' if close else ""

    def _source_of(self, name: str) -> str | None:
        """A template's text as Jinja read it (lines as in the file), or None if it cannot be read."""
        try:
            return self.env.loader.get_source(self.env, name)[0]
        except Exception:  # noqa: BLE001 - only to place a message better: the message stands without it
            return None

    def _template_frame(self, exc: BaseException) -> Source | None:
        frames = self._template_frames(exc)
        return Source(frames[-1].file, frames[-1].line) if frames else None

    def _template_frames(self, exc: BaseException) -> list[Source]:
        """The template lines the exception passed through, outermost first; a line that
        includes another template is marked ``included`` (see ``_included_from``)."""
        import traceback  # for a template that fails alone

        folder = str(self.folder)
        found: list[Source] = []
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename.startswith(folder):
                relative = Path(frame.filename).relative_to(self.root).as_posix()
                source = _IncludingSource(relative, frame.lineno) if "include" in (frame.line or "") else Source(
                    relative, frame.lineno)
                if found and found[-1].file == relative:
                    found[-1] = source
                else:
                    found.append(source)
        return found


INCLUDE_NAMES = 'include names a template: text such as "cosmic/stars.xml.j2", or a list of them'
_SET_VIEW = "cardgen.render.faces.SetView"  # how Jinja names the template's `set` in a message


class _IncludingSource(Source):
    """A template line holding an ``{% include %}``."""

    __slots__ = ()


def _included_from(frames: list[Source]) -> str:
    """`` (included from templates/a.xml.j2:5)``, innermost include first; nothing if none."""
    lines = [str(f) for f in reversed(frames) if isinstance(f, _IncludingSource)]
    return f" (included from {', '.join(lines)})" if lines else ""
