"""Run mutants against chosen tests, each in a fresh process (no fork from a process whose
module caches the clean code filled): how a survivor of bench/mutation.sh is checked.

    python bench/mutation_fresh.py COPY "MUTANT GLOB" [...] -- TESTS...

COPY is the copy bench/mutation.sh made (its ``mutants/`` folder holds the mutated code);
globs are fnmatch patterns of mutmut's names, such as ``cardgen.write.info.x_input_date__mutmut_*``
or ``cardgen.write.stream.xǁPageStreamǁfinish__mutmut_1?``. Copy new or changed test files
into ``COPY/mutants/tests`` first. Prints one line a mutant: killed, survived or timeout.
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
        module = ".".join(source.relative_to(mutants).with_suffix("").parts)
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


if __name__ == "__main__":
    main()
