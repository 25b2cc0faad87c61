#!/usr/bin/env bash
# Mutation testing of cardgen/sheets/ and cardgen/write/ with mutmut (issue 21).
#
#     bash bench/mutation.sh [SECONDS] [MUTANTS...]
#
# SECONDS (default 3600): stop after that long and keep what ran. MUTANTS: mutmut's names or
# globs, run in that order (default: all), for example "cardgen.sheets.marks*".
#
# mutmut changes the code one small edit at a time (a mutant) and runs the tests that reach the
# edited function; a mutant that no test fails "survived". It runs in a throw-away copy of the
# repository's tracked files (nothing is written here), on one core (the machine is shared),
# with the fast tests that reach sheets and writing: tests/sheets, tests/write, the pipeline,
# reprint, print-shop and stamp tests. The copy stays (its path is printed) so that
# `cd COPY && mutmut results` and `mutmut show NAME` can be read afterwards; a second run in the
# same copy (MUTATION_COPY=COPY) goes on where the first stopped. MUTATION_CHILDREN=2 runs two
# mutants at a time when the machine has a core to spare. The suite's own ``-n auto`` (xdist) is
# turned off: mutmut sees only the tests that run in its own process (with xdist its stats run
# finds no test reaching any mutant, and nothing is run).
set -euo pipefail

limit="${1:-3600}"
shift || true
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$repo/.venv/bin/python}"
"$python" -m pip install -q 'mutmut>=3.3,<4'
mutmut="$(dirname "$python")/mutmut"

copy="${MUTATION_COPY:-}"
if [ -z "$copy" ]; then
    copy="$(mktemp -d -t cardgen-mutation-XXXXXX)"
    (cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$copy")
    cat >> "$copy/pyproject.toml" <<'EOF'

[tool.mutmut]
source_paths = ["cardgen/"]
only_mutate = ["cardgen/sheets/*", "cardgen/write/*"]
also_copy = ["fonts/", "data/", "templates/", "README.md"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-n", "0"]  # xdist workers would hide what each test reaches
pytest_add_cli_args_test_selection = ["tests/sheets", "tests/write", "tests/test_pipeline.py",
                                      "tests/test_reprint.py", "tests/export/test_shops.py",
                                      "tests/proof/test_stamp.py", "tests/test_kept_pages.py"]
EOF
    # mutmut runs each mutant in a child forked from a process that ran the clean tests: module
    # caches (a slot's operators in write/pdf.py, an element's in write/face.py) come filled, and
    # the mutated code behind them is never called. Every test starts with them empty.
    cat >> "$copy/tests/conftest.py" <<'EOF'


@pytest.fixture(autouse=True)
def _empty_module_caches_for_mutmut():
    from cardgen.write import face as _face, pdf as _pdf

    _pdf._POSITIONS.clear()
    _face._DRAWN.clear()
EOF
fi
echo "mutation copy: $copy"
cd "$copy"
status=0
timeout --signal=INT --kill-after=60 "$limit" "$mutmut" run --max-children "${MUTATION_CHILDREN:-1}" "$@" || status=$?
[ "$status" = 124 ] && echo "stopped after $limit s: the counts below are of the mutants run so far"
"$mutmut" results --all true > mutation-results.txt 2>&1 || "$mutmut" results > mutation-results.txt 2>&1 || true
grep -c ': killed' mutation-results.txt | sed 's/^/killed: /' || true
grep -c ': survived' mutation-results.txt | sed 's/^/survived: /' || true
echo "results: $copy/mutation-results.txt"
