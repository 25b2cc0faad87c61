"""A `cardgen` stopped by SIGTERM (a service manager, `timeout`, `kill`) unwinds as Ctrl-C does:
its temporary folders and staged files are removed, and each set's PDF and manifest are both the
earlier build's or both the new one's. The exit status is 143, as a shell reports a process ended
by SIGTERM (Ctrl-C: 1, click's "Aborted!")."""
from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from forkserver import BUILD_IMPORTS, Forkserver
from projects import make_project, run_cli
from stopping import STOP_SIGNALS, Held, ours

FORKS = Forkserver(preload=BUILD_IMPORTS)


@pytest.fixture(scope="module", autouse=True)
def _forkserver():
    yield
    FORKS.close()


def test_a_proof_stopped_half_way_leaves_no_temporary_folder(tmp_path):
    """In a new interpreter: the `cardgen` process itself, ended by SIGTERM, says 143."""
    root = make_project(tmp_path)
    temp = tmp_path / "tmp"
    with Held(root, temp, "proof", "proof", "demo", "--jobs", "1") as proof:
        assert proof.reached() == str(temp)
        assert [p.name.startswith("cardgen-proof-") for p in temp.iterdir()] == [True]
        code, err = proof.stop(signal.SIGTERM)
    assert code == 143, err
    assert "Traceback" not in err
    assert ours(temp) == []
    assert [p.name for p in (root / "output").rglob("*.tmp")] == []


# --- a build stopped at any moment: each set's PDF and manifest both old or both new -----------

SET_CARDS = 8  # more cards, of their own text, in each set


def two_set_project(tmp_path: Path) -> Path:
    """The demo set with SET_CARDS more cards, and a copy of it named zeta: a build writes demo,
    then zeta."""
    root = make_project(tmp_path)
    rows = ["name,count,text"] + [f"Card {n},1,Card number {n} reads this text. :spade: {n * 7}" for n in range(SET_CARDS)]
    (root / "data" / "demo" / "more.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    shutil.copytree(root / "data" / "demo", root / "data" / "zeta")
    set_file = root / "data" / "zeta" / "set.yaml"
    set_file.write_text(set_file.read_text(encoding="utf-8").replace("name: demo", "name: zeta", 1), encoding="utf-8")
    return root


def outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def set_outputs(everything: dict[str, bytes], name: str) -> dict[str, bytes]:
    return {n: data for n, data in everything.items() if n.startswith(name + ".")}


def build(root: Path, *options: str) -> None:
    done = run_cli(root, "build", "--no-cache", *options)
    assert done.returncode == 0, done.stderr


def staged_pdf(out: Path, name: str) -> Path | None:
    return next((p for p in out.iterdir() if p.name.startswith(f".{name}.pdf.cardgen-")), None)


def _moments(out: Path, old: dict[str, bytes]):
    """When to stop the build (HELD), each with what ``out`` holds then, and what each set must
    then hold: "old", "new", or either (None)."""
    def pdf_staged(name):
        return lambda: staged_pdf(out, name) is not None

    def pdf_committed(name):  # renamed into place: no temporary, a PDF other than the earlier one
        return lambda: staged_pdf(out, name) is None and (out / f"{name}.pdf").read_bytes() != old[f"{name}.pdf"]

    return [
        ("staged demo", pdf_staged("demo"), {"demo": "old", "zeta": "old"}),
        ("committed demo", pdf_committed("demo"), {"demo": "new", "zeta": None}),
        ("staged zeta", pdf_staged("zeta"), {"demo": "new", "zeta": "old"}),
        ("committed zeta", pdf_committed("zeta"), {"demo": "new", "zeta": "new"}),
    ]


@pytest.fixture(scope="module")
def old_and_new(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The two-set project built, then its cards changed; the outputs of the earlier input (in
    its output folder) and of the changed one. Built once for the module: each test stops its
    builds in a copy."""
    tmp_path = tmp_path_factory.mktemp("old-and-new")
    root = two_set_project(tmp_path)
    build(root)
    old = outputs(root / "output")
    for name in ("demo", "zeta"):
        csv = root / "data" / name / "more.csv"
        csv.write_text(csv.read_text(encoding="utf-8").replace("reads this text", "reads another text"), encoding="utf-8")
    build(root, "--out", str(tmp_path / "fresh"))
    return root, old, outputs(tmp_path / "fresh")


@pytest.mark.parametrize("stop, status", STOP_SIGNALS)
def test_a_build_stopped_at_any_moment_leaves_each_set_old_or_new_never_mixed(old_and_new, tmp_path, stop, status):
    built, old, new = old_and_new
    root = tmp_path / "proj"
    shutil.copytree(built, root, symlinks=True)
    out = root / "output"
    assert outputs(out) == old
    assert sorted(old) == sorted(new) == ["demo.json", "demo.pdf", "zeta.json", "zeta.pdf"]
    for name in ("demo", "zeta"):
        assert set_outputs(old, name) != set_outputs(new, name)
    temp = tmp_path / "tmp"
    for moment, reached, expected in _moments(out, old):
        for name, data in old.items():  # every run starts from the earlier build's outputs
            (out / name).write_bytes(data)
        with Held(root, temp, moment, "build", "--no-cache", "--jobs", "1", forks=FORKS) as process:
            assert process.reached() == str(temp)
            assert reached(), moment
            code, err = process.stop(stop)
        left = outputs(out)
        for name, must in expected.items():
            held = set_outputs(left, name)
            state = "old" if held == set_outputs(old, name) else "new" if held == set_outputs(new, name) else "mixed"
            assert state in ((must,) if must else ("old", "new")), f"stopped when {moment}: {name} is {state}"
        assert code == status, (moment, code, err)  # stopped at the moment: not a finished build (0)
        assert "Traceback" not in err
        assert sorted(left) == sorted(old)  # no temporary left in the output folder
        assert ours(temp) == []
