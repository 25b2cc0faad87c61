"""reportlab's own settings, which it takes from outside the project when first imported (a
file in the home folder, a module on the path, RL_ environment variables), do not reach what
the `cardgen` command prints: the same project gives the same bytes on any account."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import main


def cardgen(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_reportlab_settings_from_the_home_folder_the_path_and_the_environment_are_left_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "game"]).exit_code == 0
    project = tmp_path / "game"
    plain = cardgen(project, "build", "--no-cache", "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr

    home = tmp_path / "home"
    home.mkdir()
    ran = tmp_path / "ran.txt"
    # each of these changed the PDF's bytes, or ran code, before the command left them out
    (home / ".reportlab_settings").write_text("pdfComments = 1\nttfAsciiReadable = 0\n")
    (home / ".reportlab_mods").write_text(f"open({str(ran)!r}, 'w').write('home')\n")
    (project / "reportlab_settings.py").write_text("pdfMultiLine = 1\n")  # `python -m` puts the folder on the path
    (project / "reportlab_mods.py").write_text(f"open({str(ran)!r}, 'w').write('path')\n")
    settled = cardgen(project, "build", "--no-cache", "--out", str(tmp_path / "settled"),
                      env={"HOME": str(home), "RL_pdfComments": "1", "RL_ttfAsciiReadable": "0"})
    assert settled.returncode == 0, settled.stderr
    assert not ran.exists()
    assert (tmp_path / "settled/game.pdf").read_bytes() == (tmp_path / "plain/game.pdf").read_bytes()
