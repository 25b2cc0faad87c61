"""Modules that a library imports when it is imported, but that a build may never use, loaded
when first used instead.

reportlab imports Pillow's ``PIL.Image`` at its own import (``reportlab.lib.utils``), a
twentieth of a rebuild's CPU, yet a build uses Pillow only to decode a raster image, and a
rebuild finds its images' PDF streams in the cache (draw/kept_images.py). The modules of
``UNUSED_BY_BUILDS`` are the same kind. ``defer`` puts the module in ``sys.modules`` made but
not run, with a module ``__getattr__`` (PEP 562) that runs it the first time anything it does
not have yet is asked for: every user of it gets the real module. (The standard library's
``LazyLoader`` runs it on any attribute, and ``import name`` itself reads ``__spec__``.) Only
in a process with one thread (the command line's build): two threads could ask at once.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import threading

# What the libraries a build imports import with a plain ``import`` (a ``from`` import would
# load the module at once), and what uses it: nothing a build does
UNUSED_BY_BUILDS = (
    "PIL.Image",  # reportlab.lib.utils, to read raster images (draw/raster.py imports it when it does)
    "shutil",  # tempfile, to remove temporary folders (and with it bz2 and lzma, for archives)
    "pprint",  # jinja2.ext, for its debug tag
    "textwrap",  # reportlab.lib.rl_safe_eval, for code it checks (and traceback, for exception groups)
    "traceback",  # logging (Pillow's plugins), to print an exception (cardgen itself: --debug, a failing template)
)


def defer(name: str) -> None:
    """Run module ``name`` (Python source) when first used; nothing if it is imported already,
    cannot be found, or the process has other threads."""
    if name in sys.modules or threading.active_count() != 1:
        return
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if not isinstance(getattr(spec, "loader", None), importlib.machinery.SourceFileLoader) or name in sys.modules:
        return  # a module in C is made when found; a package may import its submodule itself
    module = importlib.util.module_from_spec(spec)

    def load(attribute: str):
        if module.__dict__.pop("__getattr__", None) is load:
            spec.loader.exec_module(module)
        return getattr(module, attribute)

    module.__getattr__ = load  # asked only for what the module does not have yet (PEP 562)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:  # as the import system does: the package names its submodule
        setattr(sys.modules[parent], child, module)


def defer_unused_by_builds() -> None:
    for name in UNUSED_BY_BUILDS:
        defer(name)
