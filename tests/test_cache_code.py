"""The cache knows the code that made its entries: a build after a change to cardgen prints what
a build without the cache prints, byte for byte."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cardgen
from cardgen import cache_file
from cardgen import code_identity as identity
from cardgen.text import parsed

from projects import REPO

RECT_FORMAT = '    return f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re"\n'


def copy_package(tmp_path: Path) -> Path:
    """A copy of the cardgen package in its own folder, to be edited and put on PYTHONPATH, with
    the fonts it ships beside it, as in a checkout (text/fontfolders.py)."""
    code = tmp_path / "code"
    shutil.copytree(REPO / "cardgen", code / "cardgen", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "fonts", code / "fonts")
    return code


def build_with(code: Path, project: Path, out: str, *options: str) -> bytes:
    """`cardgen build demo` in a new process that imports cardgen from ``code``."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    result = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "build", "demo",
                             "--out", str(project / out), *options],
                            cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return (project / out / "demo.pdf").read_bytes()


def test_a_cached_build_after_a_change_to_the_drawing_code_equals_a_fresh_build(project, tmp_path):
    code = copy_package(tmp_path)
    before = build_with(code, project, "before")  # fills the cache, fonts included
    pdfops = code / "cardgen" / "draw" / "pdfops.py"
    source = pdfops.read_text(encoding="utf-8")
    assert source.count(RECT_FORMAT) == 1
    pdfops.write_text(source.replace(RECT_FORMAT, RECT_FORMAT.replace(".3f", ".2f")), encoding="utf-8")
    cached = build_with(code, project, "cached")
    fresh = build_with(code, project, "fresh", "--no-cache")
    assert cached != before  # the edit changes what is printed, so a stale face would show
    assert cached == fresh


def test_a_cache_written_by_other_code_is_not_used(project, monkeypatch):
    first = cardgen.build(["demo"], project, project / "first").sets[0]
    assert cardgen.build(["demo"], project, project / "again").sets[0].reused == first.laid_out == 6
    monkeypatch.setattr(cache_file, "code_identity", lambda: "0.1.0 other-code")
    other = cardgen.build(["demo"], project, project / "other").sets[0]
    assert (other.laid_out, other.reused) == (6, 0)
    assert other.pdf.read_bytes() == first.pdf.read_bytes()


def test_fonts_kept_by_other_code_are_read_again(project, monkeypatch):
    build_with(REPO, project, "first")  # in a new process: this one may have read the fonts already
    kept = [p for p in sorted((project / ".cardgen-cache").glob("font-*.marshal")) if len(p.stem) == 5 + 64]
    font = sorted((project / "fonts").rglob("*.ttf"))[0]
    assert kept
    assert all(parsed._revive("F", font, path, path.stem[5:]) is not None for path in kept)
    monkeypatch.setattr(parsed, "code_identity", lambda: "0.1.0 other-code")
    assert all(parsed._revive("F", font, path, path.stem[5:]) is None for path in kept)


def test_the_code_identity_is_the_version_and_a_digest_of_the_package():
    version, digest = identity.code_identity().split(" ")
    from importlib import metadata

    assert version == metadata.version("cardgen")
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert identity.code_identity.cache_info().misses == 1  # computed once per process


def test_the_version_is_read_as_importlib_reads_it_and_from_a_tree_never_installed(tmp_path, monkeypatch):
    """The version is read from the dist-info without importing importlib.metadata; where that is
    not plain (no dist-info at all, as when run from a source tree never installed, or two of
    them), importlib.metadata answers."""
    from importlib import metadata

    assert identity._installed_version() == metadata.version("cardgen")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert identity._installed_version() == "unknown"
    for version in ("1.0", "2.0"):
        info = tmp_path / f"cardgen-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: cardgen\nVersion: {version}\n\n")
    assert identity._installed_version() == metadata.version("cardgen") in ("1.0", "2.0")
    (tmp_path / "cardgen-2.0.dist-info/METADATA").unlink()
    (tmp_path / "cardgen-2.0.dist-info").rmdir()
    assert identity._installed_version() == "1.0"


def _small_package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "a.py").write_text("A = 1\n")
    (package / "sub" / "b.txt").write_text("data\n")
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"left out")
    settled = 1_600_000_000  # long ago: files old enough for their digest to be kept
    for path in (package / "a.py", package / "sub" / "b.txt"):
        os.utime(path, (settled, settled))
    return package


def test_the_package_digest_is_kept_by_the_files_stats_and_read_again_after_any_edit(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    package, kept = _small_package(tmp_path), tmp_path / "kept"
    # the change times (which no program sets back) are new: nothing is kept yet
    first = identity.package_digest(package, str(kept))
    assert not (kept / "code-digest.marshal").exists()
    monkeypatch.setattr(identity, "SETTLED_NS", -10**12)  # as if the files were written long ago
    assert identity.package_digest(package, str(kept)) == first
    assert (kept / "code-digest.marshal").is_file()
    assert identity.package_digest(package, str(kept)) == first  # from the kept digest

    # bytecode is not code: left out
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"other")
    assert identity.package_digest(package, str(kept)) == first

    # an edit of the same size, its modification time set back: the change time tells
    a = package / "a.py"
    times = a.stat()
    a.write_text("A = 2\n")
    os.utime(a, ns=(times.st_atime_ns, times.st_mtime_ns))
    edited = identity.package_digest(package, str(kept))
    assert edited != first
    assert edited == identity.package_digest(package, str(tmp_path / "elsewhere"))  # as read afresh

    (package / "sub" / "c.py").write_text("")  # a new file
    assert identity.package_digest(package, str(kept)) != edited

    # a damaged kept file is read as none
    (kept / "code-digest.marshal").write_bytes(b"\x00damaged")
    assert identity.package_digest(package, str(kept)) == identity.package_digest(package, str(tmp_path / "x"))


def test_the_package_digest_names_contents_and_names(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    package = _small_package(tmp_path)
    digest = identity.package_digest(package, str(tmp_path / "kept"))
    assert not (tmp_path / "kept").exists()  # Python writes no bytecode: nor is this kept
    (package / "sub" / "b.txt").rename(package / "sub" / "c.txt")
    assert identity.package_digest(package, str(tmp_path / "kept")) != digest


def test_fonts_kept_under_each_others_names_are_read_again(project):
    before = build_with(REPO, project, "before")  # in a new process: this one may have read the fonts already
    kept = [p for p in sorted((project / ".cardgen-cache").glob("font-*.marshal")) if len(p.stem) == 5 + 64]
    assert len(kept) >= 2
    readings = [path.read_bytes() for path in kept]
    for path, reading in zip(kept, readings[1:] + readings[:1]):  # a cache copied from another set's, in part
        path.write_bytes(reading)
    assert build_with(REPO, project, "after") == before


def test_a_kept_yaml_reading_changed_on_disk_is_read_again(project):
    before = build_with(REPO, project, "before")
    changed = 0
    for path in (project / ".cardgen-cache").glob("yaml-*.marshal"):
        data = path.read_bytes()
        if b".ttf" in data:  # the kept fonts.yaml: its file names, one byte off on disk
            path.write_bytes(data.replace(b".ttf", b".tpf"))
            changed += 1
    assert changed
    assert build_with(REPO, project, "after") == before  # was: 'font file "DejaVuSans.tpf" ... is not in fonts/'
