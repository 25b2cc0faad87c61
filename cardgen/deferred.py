"""Modules that a library imports when it is imported, but that a build may never use, loaded
when first used instead.

reportlab imports Pillow's ``PIL.Image`` at its own import (``reportlab.lib.utils``), a
twentieth of a rebuild's CPU, yet a build uses Pillow only to decode a raster image, and a
rebuild finds its images' PDF streams in the cache (draw/kept_images.py). ``defer`` puts a
stand-in in ``sys.modules`` (the standard library's ``importlib.util.LazyLoader``) that runs
the module the first time anything of it is asked for: every user of it gets the real module.
Only in a process with one thread (the command line's build): the stand-in is not made for
threads that might first use it at once.
"""
from __future__ import annotations

import importlib.util
import sys
import threading


def defer(name: str) -> None:
    """Import module ``name`` (a submodule of a package) when first used; nothing if it is
    imported already, cannot be found, or the process has other threads."""
    if name in sys.modules or threading.active_count() != 1:
        return
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:  # as the import system does: the package names its submodule
        setattr(sys.modules[parent], child, module)
