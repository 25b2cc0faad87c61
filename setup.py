"""Packaging hook (everything else is in pyproject.toml): a wheel carries the repository's
``fonts/`` as ``cardgen/fonts/``, so that an installed cardgen has its fonts wherever a project
lives. A checkout or an editable install uses ``fonts/`` where it is
(cardgen/text/fontfolders.py looks in both places)."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithFonts(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "cardgen" / "fonts"
        self.mkpath(str(target))
        for source in sorted(Path("fonts").iterdir()):
            if source.is_file() and source.suffix.lower() in (".ttf", ".otf", ".yaml", ".txt"):
                self.copy_file(str(source), str(target / source.name))


setup(cmdclass={"build_py": BuildWithFonts})
