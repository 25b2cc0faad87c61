"""``cardgen`` commands in processes of their own, forked from one that has already loaded
cardgen: a new interpreter a command spends most of its time importing (a fifth of a second),
which a module that runs thirty small commands would pay thirty times.

Each command still runs in a new process, under its own limits, with its own environment,
working folder, standard streams and exit status; what it does not get is an interpreter of its
own (the hash seed and the modules loaded are the server's). Tests of the process itself (signals,
the interpreter's start, one command's bytes against another's) start a real one.
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

SERVER = r"""
import json, os, resource, sys
import cardgen.cli, cardgen.pipeline  # what every command loads, loaded once
import importlib
for name in sys.argv[1:]:  # and what the caller asked for (Forkserver's preload)
    importlib.import_module(name)

def child(request):
    try:
        if request["session"]:  # as subprocess.Popen(start_new_session=True): a process group of its own
            os.setsid()
        if request["memory"]:
            resource.setrlimit(resource.RLIMIT_AS, (request["memory"], request["memory"]))
        os.chdir(request["cwd"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        os.environ.clear()
        os.environ.update(request["env"])
        if request["code"] is None:
            sys.argv = ["cardgen", *request["args"]]
            cardgen.cli.run()  # ends the process itself (os._exit)
        else:  # python -c CODE ARGS
            sys.argv = ["-c", *request["args"]]
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as exit_:  # as the interpreter ends on it
        code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
        if not isinstance(exit_.code, (int, type(None))):
            print(exit_.code, file=sys.stderr)
    except BaseException:
        sys.excepthook(*sys.exc_info())  # as the interpreter says an uncaught exception
        code = 1
    else:
        code = 0
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

answers = sys.stdout
for line in sys.stdin:
    request = json.loads(line)
    answers.flush()
    pid = os.fork()
    if pid == 0:
        child(request)
    print(pid, file=answers, flush=True)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), file=answers, flush=True)
"""


# What a build of a small set imports as it goes (reportlab's drawing, the SVG reader, hyphenation,
# YAML): a command forked from a server that loaded them does not import them again, a tenth of
# a second a command.
BUILD_IMPORTS = ("cardgen.color.settings", "cardgen.draw.circle", "cardgen.draw.ellipse", "cardgen.draw.gradient",
                 "cardgen.draw.line", "cardgen.draw.rect", "cardgen.draw.shape", "cardgen.draw.svgsize",
                 "cardgen.load.remote", "svglib.svglib", "pyphen", "ruamel.yaml", "yaml", "reportlab.pdfgen.canvas",
                 "reportlab.graphics.renderPDF")


class Forkserver:
    """``run`` is ``subprocess.run([cardgen, *args], capture_output=True, text=True)`` (with
    ``code``: ``[python, -c, code, *args]``) under a memory limit (0: none), in a process forked
    from the server; ``start`` is ``subprocess.Popen`` of the same. The server loads the modules
    of ``preload`` besides cardgen's command line (see BUILD_IMPORTS)."""

    def __init__(self, preload: tuple[str, ...] = ()):
        self.process: subprocess.Popen | None = None  # started by the first ``run``
        self.scratch: tempfile.TemporaryDirectory | None = None  # the commands' stdout and stderr
        self.preload = preload

    def run(self, args: list[str], env: dict[str, str], memory: int = 0, timeout: float | None = None,
            code: str | None = None) -> subprocess.CompletedProcess:
        command, pid, out, err = self._begin(args, env, memory, code)
        if not select.select([self.process.stdout], [], [], timeout)[0]:
            os.kill(pid, signal.SIGKILL)
            self.process.stdout.readline()
            raise subprocess.TimeoutExpired(command, timeout)
        status = int(self.process.stdout.readline())
        return subprocess.CompletedProcess(command, status, out.read_text(), err.read_text())

    def start(self, args: list[str], env: dict[str, str], code: str | None = None, session: bool = False) \
            -> "Started":
        """The command of ``run``, not waited for: signal it (its ``pid``), ``poll`` or
        ``communicate`` as a Popen's. The server runs one command at a time: the next ``run``
        or ``start`` comes after this one has ended (``communicate``). ``session``: in a new
        session, whose process group's id is the command's ``pid`` (``start_new_session``)."""
        return Started(self, *self._begin(args, env, 0, code, session))

    def _begin(self, args: list[str], env: dict[str, str], memory: int, code: str | None, session: bool = False) \
            -> tuple[list[str], int, Path, Path]:
        """Have the server fork the command: its words, its process id, its stdout and stderr files."""
        if self.process is None:
            self.scratch = tempfile.TemporaryDirectory(prefix="cardgen-forkserver-")
            # unbuffered: the status is waited for on the pipe itself (select), never in a buffer
            self.process = subprocess.Popen([sys.executable, "-c", SERVER, *self.preload], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, bufsize=0)
        out, err = Path(self.scratch.name, "stdout"), Path(self.scratch.name, "stderr")
        for stream in (out, err):  # never the last command's, should this one fail before it writes
            stream.unlink(missing_ok=True)
        request = {"args": args, "code": code, "env": env, "memory": memory, "cwd": os.getcwd(),
                   "stdout": str(out), "stderr": str(err), "session": session}
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        command = ["cardgen", *args] if code is None else [sys.executable, "-c", code, *args]
        return command, int(self.process.stdout.readline()), out, err

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process.stdout.close()
            self.process = None
            self.scratch.cleanup()


class Started:
    """A command a Forkserver started: ``pid``, ``send_signal``, ``poll``, ``communicate`` and
    ``returncode`` as a ``subprocess.Popen``'s with text streams."""

    def __init__(self, server: Forkserver, command: list[str], pid: int, out: Path, err: Path):
        self.server, self.args, self.pid, self.out, self.err = server, command, pid, out, err
        self.returncode: int | None = None

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:  # (once the server has told its end, the process id may be another's)
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:  # ended, and its status not told yet
                pass

    def poll(self) -> int | None:
        return self._ended(0)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        if self._ended(timeout) is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.out.read_text(), self.err.read_text()

    def _ended(self, timeout: float | None) -> int | None:
        """Its exit status, once the server has told it within ``timeout`` seconds; else None."""
        answers = self.server.process.stdout
        if self.returncode is None and select.select([answers], [], [], timeout)[0]:
            self.returncode = int(answers.readline())
        return self.returncode
