"""Extra click commands, each in its own module, listed in COMMAND_MODULES; the ``cardgen``
group (cli.py) is a ``LazyGroup`` over them.

A command's module is imported only when that command runs (or its own ``--help`` is asked
for): ``cardgen --help`` lists the commands from ``SUMMARIES`` below, plain data, so that it
starts without importing any of them (and, through them, the build stack).
"""
from __future__ import annotations

import importlib
from collections.abc import MutableMapping
from typing import Iterator

import click

# module name -> attribute holding a click command or group.
COMMAND_MODULES: tuple[tuple[str, str], ...] = (("proof", "proof"), ("export", "export"), ("watch", "watch"),
                                                ("importer", "import_group"), ("clean", "clean"),
                                                ("preflight", "preflight"), ("serve", "serve"),
                                                ("calibrate", "calibrate"), ("fonts", "fonts"), ("new", "new"))

# module name -> (the command's name, the first paragraph of its help): what `cardgen --help`
# shows of it. tests/test_cli_lazy.py checks these against the commands themselves. A module
# of COMMAND_MODULES missing here still works; it is imported whenever the commands are listed.
SUMMARIES: dict[str, tuple[str, str]] = {
    "proof": ("proof", "300 dpi PNG proofs of SETS (default: every set): <out>/<set>/ with a PNG per face, "
                       "contact.png and index.html (opens with no server). Unchanged faces are not rasterised "
                       "again."),
    "export": ("export", "Export SET for a print shop (--shop) and/or Tabletop Simulator (--tts)."),
    "watch": ("watch", "Build SETS (default: every set), then rebuild on every save in data/, templates/ and "
                       "fonts/, printing which cards changed. Ctrl-C stops."),
    "importer": ("import", "Import card data written for other tools into a set's data/ folder."),
    "clean": ("clean", "Remove the temporary files of builds that were killed half-way (in output/ and the "
                       "cache, .cardgen-cache/): files named .<name>.cardgen-<process>-<random>.tmp whose "
                       "process no longer runs. Finished output and the cache stay."),
    "preflight": ("preflight", "Measure SETS (default: every set) for SHOP: type sizes, lines, image "
                               "resolution, safe margin, bleed, ink, transparency, product sizes and backs. "
                               "Exit 1 on errors."),
    "serve": ("serve", "Preview SETS (default: every set) in the browser at http://127.0.0.1:PORT/: every "
                       "face by type with search and filters, problems with their file:line, deck lists, the "
                       "PDF. The page updates itself on every save in data/, templates/ and fonts/. Ctrl-C "
                       "stops."),
    "calibrate": ("calibrate", "Write <out>/calibration-<paper>.pdf: print it double-sided, hold it against a "
                               "light, and read on its two scales the X,Y to pass as `cardgen build "
                               "--back-offset X,Y`."),
    "fonts": ("fonts", "List the font families layouts can use: cardgen's own, the project's fonts/, and "
                       "declared system fonts, with the file of each style."),
    "new": ("new", "Lay out a new project in PATH: a set with two card types, a layout, a back, rules and a "
                   "deck list. Then: cd PATH && cardgen build."),
}


def _load(module_name: str, attribute: str) -> click.Command:
    from .. import collector_paused

    with collector_paused():
        return getattr(importlib.import_module(f"{__name__}.{module_name}"), attribute)


def commands():
    for module_name, attribute in COMMAND_MODULES:
        yield _load(module_name, attribute)


class LazyCommands(MutableMapping):
    """A group's commands by name, as click keeps them (``group.commands``), where the commands
    of COMMAND_MODULES are known by name and imported when first looked up."""

    def __init__(self, modules: tuple[tuple[str, str], ...] = COMMAND_MODULES):
        self._loaded: dict[str, click.Command] = {}
        self._named: dict[str, tuple[str, str]] = {}  # command name -> (module, attribute), not yet imported
        self._unnamed: list[tuple[str, str]] = []  # modules whose command's name only importing tells
        for module_name, attribute in modules:
            if module_name in SUMMARIES:
                self._named[SUMMARIES[module_name][0]] = (module_name, attribute)
            else:
                self._unnamed.append((module_name, attribute))

    def summary(self, name: str) -> str | None:
        """The help ``cardgen --help`` shows for a command not imported yet (else None)."""
        if name in self._loaded or name not in self._named:
            return None
        return SUMMARIES[self._named[name][0]][1]

    def _load_unnamed(self) -> None:
        while self._unnamed:
            command = _load(*self._unnamed.pop(0))
            self._loaded.setdefault(command.name, command)

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            where = self._named.pop(name, None)
            if where is not None:
                self._loaded[name] = _load(*where)
            else:
                self._load_unnamed()
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._named.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self[name]  # noqa: B018 - raises KeyError for an unknown name
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        self._load_unnamed()
        yield from list(self._loaded)
        yield from [name for name in list(self._named) if name not in self._loaded]

    def __len__(self) -> int:
        self._load_unnamed()
        return len(self._loaded) + len(self._named)

    def __contains__(self, name: object) -> bool:
        if name in self._loaded or name in self._named:
            return True
        self._load_unnamed()
        return name in self._loaded


class LazyGroup(click.Group):
    """A click group whose COMMAND_MODULES commands are imported only when used; its help
    lists them from SUMMARIES, exactly as the commands' own help would."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        lazy = LazyCommands()
        for name, command in self.commands.items():
            lazy[name] = command
        self.commands = lazy

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            summary = self.commands.summary(name)
            command = click.Command(name, help=summary) if summary is not None else self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])
