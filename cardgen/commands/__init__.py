"""Extra click commands, each in its own module, registered on the ``cardgen`` group by cli.py."""
from __future__ import annotations

import importlib

# module name -> attribute holding a click command or group.
COMMAND_MODULES: tuple[tuple[str, str], ...] = (("proof", "proof"), ("export", "export"), ("watch", "watch"),
                                                ("importer", "import_group"), ("clean", "clean"),
                                                ("preflight", "preflight"), ("serve", "serve"),
                                                ("calibrate", "calibrate"), ("fonts", "fonts"), ("new", "new"))


def commands():
    for module_name, attribute in COMMAND_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        yield getattr(module, attribute)
