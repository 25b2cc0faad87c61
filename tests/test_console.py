"""The `cardgen` command's entry point (pyproject's [project.scripts]): a Ctrl-C that lands while
the command line's modules are still being imported ends it as a Ctrl-C during the command
does, click's "Aborted!" and status 1. It printed Python's traceback (KeyboardInterrupt in the
middle of an import), as the stop handlers come into place only once cardgen.cli is imported."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

STOPPED_IN_IMPORTS = """
import builtins, importlib, sys
module, function = sys.argv[1].split(":")
entry = getattr(importlib.import_module(module), function)
real_import = builtins.__import__

def stopped_at_click(name, *args, **kwargs):  # Ctrl-C while the command line's modules load
    if name == "click":
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)

builtins.__import__ = stopped_at_click
sys.argv = ["cardgen", "list"]
entry()
"""


def test_ctrl_c_while_the_command_imports_its_modules_says_aborted_not_a_traceback():
    entry = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]["cardgen"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", STOPPED_IN_IMPORTS, entry], capture_output=True, text=True,
                          timeout=60, env=env, cwd=REPO)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "\nAborted!\n")


def test_python_dash_m_cardgen_is_the_same_entry():
    """`python -m cardgen` runs what the installed `cardgen` command runs."""
    entry = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]["cardgen"]
    module, function = entry.split(":")
    assert (REPO / "cardgen/__main__.py").read_text() == f"from .{module.split('.', 1)[1]} import {function}\n\n{function}()\n"
