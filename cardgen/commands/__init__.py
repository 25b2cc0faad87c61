"""Extra click commands, each in its own module, registered on the ``cardgen`` group by cli.py."""
from __future__ import annotations

import importlib

# module name -> attribute: a click command (kept as names so that a slow import is only paid
# by the command that needs it... and a missing module is reported, not fatal to the others).
COMMAND_MODULES: tuple[tuple[str, str], ...] = (("proof", "proof"), ("export", "export"), ("watch", "watch"))


def commands():
    for module_name, attribute in COMMAND_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        yield getattr(module, attribute)
