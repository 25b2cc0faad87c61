"""cardgen: printable cards from data, through Jinja layouts, to print-ready PDFs.

The Python API behind the command line::

    import cardgen
    card_set = cardgen.load_set("death-mesa", root=".")
    result = cardgen.build(["death-mesa"], root=".", out="output")
    problems = cardgen.check(["death-mesa"], root=".")
"""
import gc as _gc

from . import dataclass_code as _dataclass_code, regex_code as _regex_code


class collector_paused:
    """``with collector_paused():`` around imports. Importing makes tens of thousands of objects
    and no garbage, and every 700 new objects the cycle collector would scan the youngest
    (about 80 scans for the build stack: a tenth of its import time). Restores the collector
    as it was, so a program that imports cardgen keeps its own setting. Meanwhile the methods
    of the dataclasses defined and the regular expressions compiled come from an earlier run
    (see dataclass_code.py and regex_code.py)."""

    def __enter__(self):
        self.collecting = _gc.isenabled()
        _gc.disable()
        _dataclass_code.enter()
        _regex_code.enter()
        return self

    def __exit__(self, *exc_info):
        _regex_code.leave()
        _dataclass_code.leave()
        if self.collecting:
            _gc.enable()
        return False


with collector_paused():
    from .errors import CardgenError, Problem, Source, UsageError

# The API's names by their module, imported when first used: `import cardgen` (and so every
# `cardgen` command, `--help` included) does not pay for the build stack it may not need.
_LAZY = {"BuildOptions": "pipeline", "BuildResult": "results", "SetResult": "results", "build": "pipeline",
         "check": "pipeline", "load_set": "load.setfile", "set_names": "load.setfile"}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        with collector_paused():
            value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    if name == "__version__":  # read when asked: importlib.metadata costs a rebuild time
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("cardgen")
        except PackageNotFoundError:
            return "unknown"
    raise AttributeError(f"module 'cardgen' has no attribute {name!r}")


__all__ = ["BuildOptions", "BuildResult", "SetResult", "build", "check", "load_set", "set_names",
           "CardgenError", "Problem", "Source", "UsageError"]
