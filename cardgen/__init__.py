"""cardgen: printable cards from data, through Jinja layouts, to print-ready PDFs.

The Python API behind the command line::

    import cardgen
    card_set = cardgen.load_set("death-mesa", root=".")
    result = cardgen.build(["death-mesa"], root=".", out="output")
    problems = cardgen.check(["death-mesa"], root=".")
"""
from .pipeline import BuildOptions, BuildResult, SetResult, build, check
from .errors import CardgenError, Problem, Source, UsageError
from .load.setfile import load_set, set_names


def __getattr__(name: str):
    if name == "__version__":  # read when asked: importlib.metadata costs a rebuild time
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("cardgen")
        except PackageNotFoundError:
            return "unknown"
    raise AttributeError(f"module 'cardgen' has no attribute {name!r}")


__all__ = ["BuildOptions", "BuildResult", "SetResult", "build", "check", "load_set", "set_names",
           "CardgenError", "Problem", "Source", "UsageError"]
