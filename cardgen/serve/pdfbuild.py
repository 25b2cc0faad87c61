"""The set's PDF, built as ``cardgen build`` builds it, in a process of its own: the preview
stays quick while a large set's PDF is written (no lock shared with it), and stopping the
server interrupts the build as Ctrl-C does, which removes its unfinished files.

    python -m cardgen.serve.pdfbuild ROOT SET OUT    # prints one JSON line: the result
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..page.data import problem_json


def run(root: Path, name: str, out: Path) -> dict:
    from .. import pipeline
    from ..errors import CardgenError, os_message

    started = time.perf_counter()
    try:
        result = pipeline.build_set(name, pipeline.Session(root), out)
    except CardgenError as error:
        return {"ok": False, "problems": [problem_json(p) for p in error.problems]}
    except OSError as error:  # the machine's refusal (an --out that is a file or a pipe), not a bug
        message = os_message(error)
        return {"ok": False, "problems": [{"severity": "error", "message": message, "where": "", "card": None,
                                           "text": message}]}
    return {"ok": True, "pages": result.pages, "seconds": round(time.perf_counter() - started, 2), "problems": []}


class Builder:
    """One child build at a time; ``stop`` interrupts it (SIGINT) and waits for it."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.stopped = False

    def build(self, root: Path, name: str, out: Path) -> dict | None:
        """The child's result; None when stopped."""
        if self.stopped:
            return None
        self.process = subprocess.Popen([sys.executable, "-m", __name__, str(root), name, str(out)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        output, errors = self.process.communicate()
        code, self.process = self.process.returncode, None
        if self.stopped:
            return None
        try:
            return json.loads(output.strip().splitlines()[-1])
        except (ValueError, IndexError):
            message = f"internal error: the PDF build stopped (exit code {code}): {errors.strip()[-500:]}"
            return {"ok": False, "problems": [{"severity": "error", "message": message, "where": "", "card": None,
                                               "text": message}]}

    def stop(self) -> None:
        self.stopped = True
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # unwinds the build: its staged files are removed


def main() -> None:
    root, name, out = sys.argv[1:4]
    try:
        result = run(Path(root), name, Path(out))
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # a bug: the server says so and keeps serving
        message = f"internal error: {error!r}"
        result = {"ok": False, "problems": [{"severity": "error", "message": message, "where": "", "card": None,
                                             "text": message}]}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
