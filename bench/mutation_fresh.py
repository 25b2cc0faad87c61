"""Run mutants against chosen tests, each in a fresh process (no fork from a process whose
module caches the clean code filled): how a survivor of bench/mutation.sh is checked.

    python bench/mutation_fresh.py COPY "MUTANT GLOB" [...] -- TESTS...

COPY is the copy bench/mutation.sh made (its ``mutants/`` folder holds the mutated code);
globs are fnmatch patterns of mutmut's names, such as ``cardgen.write.info.x_input_date__mutmut_*``
or ``cardgen.write.stream.xǁPageStreamǁfinish__mutmut_1?``. Copy new or changed test files
into ``COPY/mutants/tests`` first. Prints one line a mutant: killed, survived or timeout.

MUTATION_FORK=1 runs each mutant's pytest in a child forked from this process, which has
imported pytest and a few third-party libraries but never cardgen (so cardgen and its caches are
still imported anew for each mutant): the same verdicts without an interpreter's start-up a
mutant, which on a loaded machine is most of the time. No time-out in that mode.
"""
from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

_NAME = re.compile(r"^def (x[_ǁ]\w*?__mutmut_\d+)\(|^    def (xǁ\w+ǁ\w*?__mutmut_\d+)\(", re.M)


def mutant_names(mutants: Path) -> list[str]:
    names = []
    for source in sorted((mutants / "cardgen").rglob("*.py")):
        module = ".".join(source.relative_to(mutants).with_suffix("").parts).removesuffix(".__init__")
        for found in _NAME.finditer(source.read_text(encoding="utf-8")):
            names.append(f"{module}.{found.group(1) or found.group(2)}")
    return names


def _number(name: str) -> tuple:
    head, _, number = name.rpartition("__mutmut_")
    return head, int(number)


def main() -> None:
    copy = Path(sys.argv[1])
    split = sys.argv.index("--")
    globs, tests = sys.argv[2:split], sys.argv[split + 1:]
    mutants = copy / "mutants"
    chosen = sorted({n for n in mutant_names(mutants) for g in globs if fnmatch.fnmatchcase(n, g)}, key=_number)
    if os.environ.get("MUTATION_FORK") == "1":
        _run_forked(chosen, tests, mutants)
        return
    python = os.environ.get("PYTHON", sys.executable)
    for name in chosen:
        try:
            done = subprocess.run([python, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *tests],
                                  cwd=mutants, env={**os.environ, "MUTANT_UNDER_TEST": name},
                                  capture_output=True, text=True, timeout=float(os.environ.get("MUTATION_TIMEOUT", 300)))
            verdict = "survived" if done.returncode == 0 else "killed"
            if done.returncode not in (0, 1):
                verdict += f" (pytest exit {done.returncode})"
        except subprocess.TimeoutExpired:
            verdict = "timeout"
        print(f"{name}: {verdict}", flush=True)


def _run_forked(names: list[str], tests: list[str], mutants: Path) -> None:
    import importlib

    import pytest

    os.chdir(mutants)
    sys.path.insert(0, str(mutants))
    for library in ("pypdf", "pdfplumber", "pypdfium2", "ruamel.yaml", "jinja2", "hypothesis", "PIL.Image"):
        try:
            importlib.import_module(library)
        except ImportError:
            pass
    assert not any(m == "cardgen" or m.startswith("cardgen.") for m in sys.modules)
    for name in names:
        pid = os.fork()
        if pid == 0:
            os.environ["MUTANT_UNDER_TEST"] = name
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            os._exit(int(pytest.main(["-x", "-q", "-n", "0", "-p", "no:cacheprovider", *tests])))
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        verdict = "survived" if code == 0 else "killed" if code == 1 else f"killed (pytest exit {code})"
        print(f"{name}: {verdict}", flush=True)


if __name__ == "__main__":
    main()
