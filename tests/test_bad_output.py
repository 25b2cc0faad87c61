"""Bad output places made for real (folders that cannot be written, a file or a dangling link
where a folder should be, a full disk, a card file gone mid-build): one clear message each, the
right exit code, and the earlier output byte for byte as it was."""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

import cardgen
import cardgen.load.cards
from cardgen import CardgenError

from demobuild import built, demo_build, demo_bytes, intact  # noqa: F401 (built, demo_build: fixtures)


# --- 4: the operating system says no ----------------------------------------------------------

@contextmanager
def _immutable(folder: Path):
    """``folder`` unwritable for this process within the block: chmod for a user, chattr +i for root."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        undo = lambda: folder.chmod(0o755)  # noqa: E731
    elif not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("root, and this file system cannot make a folder immutable")
    else:
        undo = lambda: subprocess.run(["chattr", "-i", str(folder)], check=True)  # noqa: E731
    try:
        yield
    finally:
        undo()


def test_an_unwritable_output_folder(built, cli):
    project, before = built
    with _immutable(project / "output"):
        (project / "data/demo/cards.yaml").write_text((project / "data/demo/cards.yaml").read_text() + "\n")
        result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/demo.pdf: permission denied\n"
    intact(project, before)


def test_a_folder_refused_when_read_is_said_to_be_read_not_written(tmp_path, monkeypatch):
    """A folder of data/ the user may not open was said "cannot write data": it is read."""
    from cardgen.errors import os_message

    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    refused = PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "data"))
    assert os_message(refused) == "cannot open data: permission denied"
    made = PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "output"))
    assert os_message(made) == "cannot write output: permission denied"


def test_out_naming_a_file(built, cli):
    project, before = built
    result = cli(project, "build", "demo", "--out", "output/demo.pdf")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/demo.pdf/demo.pdf: output/demo.pdf is a file, not a folder\n"


def test_out_naming_a_named_pipe_says_what_it_is(built, cli):
    """A FIFO where the output folder goes was said to be "a file"."""
    import os

    project, before = built
    os.mkfifo(project / "pipe")
    result = cli(project, "build", "demo", "--out", "pipe")
    assert (result.exit_code, result.stderr) == (
        1, "cardgen: cannot write pipe/demo.pdf: pipe is a named pipe (FIFO), not a folder\n")
    intact(project, before)
    intact(project, before)


def test_a_manifest_that_cannot_replace_the_old_one_puts_the_old_pdf_back(built, cli):
    """The PDF is renamed into place first; when the manifest's rename then fails (a folder
    stands where it goes), the earlier PDF is put back: never a new PDF beside an old manifest."""
    project, before = built
    (project / "output/demo.json").unlink()
    (project / "output/demo.json").mkdir()
    (project / "data/demo/more.csv").write_text("name,count,text\nNew card,1,New text\n")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/demo.json: it is a folder, not a file\n"
    assert (project / "output/demo.pdf").read_bytes() == before["demo.pdf"]
    assert sorted(p.name for p in (project / "output").iterdir()) == ["demo.json", "demo.pdf"]  # no debris
    assert list((project / "output/demo.json").iterdir()) == []


def test_a_full_disk_in_process(built, cli, monkeypatch):
    project, before = built
    import cardgen.write.pdf as pdf_writer

    real_open = open

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    monkeypatch.setattr(pdf_writer, "open", lambda *a, **k: Full(real_open(*a, **k)), raising=False)
    result = cli(project, "build", "demo", "--no-cache")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/demo.pdf: no space left on device\n"
    intact(project, before)


def test_a_full_disk_for_real(project, cli, tmp_path, monkeypatch):
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a small file system needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("this machine cannot mount a tmpfs")
    try:
        (disk / "demo.pdf").write_bytes(b"%PDF earlier")
        result = cli(project, "build", "demo", "--no-cache", "--out", str(disk))
        assert result.exit_code == 1
        assert result.stderr == f"cardgen: cannot write {disk}/demo.pdf: no space left on device\n"
        assert (disk / "demo.pdf").read_bytes() == b"%PDF earlier"
        assert [p.name for p in disk.iterdir()] == ["demo.pdf"]
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_card_file_deleted_mid_build(built, monkeypatch):
    project, before = built
    monkeypatch.setattr(cardgen.load.cards, "KEPT_CARDS", 1)  # a large set: read again as it is built
    calls = []

    def delete_on_first_page(name, done, total):
        if not calls:
            (project / "data/demo/more.csv").unlink()
        calls.append(done)

    with pytest.raises(CardgenError) as error:
        cardgen.build(["demo"], project, progress=delete_on_first_page)
    assert [str(p) for p in error.value.problems] == [
        "data/demo/more.csv: cannot read the file: no such file or directory"]
    intact(project, before)


def test_an_output_folder_that_is_a_dangling_link(built, cli, tmp_path):
    project, _ = built
    shutil.rmtree(project / "output")
    (project / "output").symlink_to(tmp_path / "gone")
    result = cli(project, "build", "demo")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/demo.pdf: output is a link to a folder that does not exist\n"
    assert not (tmp_path / "gone").exists()


def test_an_unwritable_cache_folder_only_costs_time(built, cli):
    project, before = built
    cards = project / "data/demo/more.csv"
    cards.write_text(cards.read_text() + "Brand New,1,A fresh card\n")
    with _immutable(project / ".cardgen-cache"):
        result = cli(project, "build", "demo")
    assert result.exit_code == 0, result.stderr
    rebuilt = demo_bytes(project)
    assert rebuilt != before
    assert cli(project, "build", "demo", "--no-cache", "--out", "fresh").exit_code == 0
    assert rebuilt == {name: (project / "fresh" / name).read_bytes() for name in rebuilt}


def test_proofs_into_an_unwritable_folder(built, cli):
    project, before = built
    with _immutable(project / "output"):
        result = cli(project, "proof", "demo")
    assert result.exit_code == 1
    assert result.stderr == "cardgen: cannot write output/proofs: permission denied\n"
    intact(project, before)


@pytest.mark.parametrize("args, folder", [(("proof", "demo"), "output/proofs/demo"),
                                          (("export", "demo", "--tts"), "output/tts/demo")])
def test_proof_and_export_into_an_output_that_is_a_file_say_so_as_build_does(built, cli, args, folder):
    project, _ = built
    shutil.rmtree(project / "output")
    (project / "output").write_text("not a folder")
    result = cli(project, *args)
    assert (result.exit_code, result.stderr) == (1, f"cardgen: cannot write {folder}: output is a file, not a folder\n")
    assert (project / "output").read_text() == "not a folder"


@pytest.mark.parametrize("args, folder", [(("proof", "demo"), "output/proofs/demo"),
                                          (("export", "demo", "--shop", "tgc"), "output/tgc/demo")])
def test_proof_and_export_into_a_set_folder_that_is_a_file_say_so(built, cli, args, folder):
    """A file where the set's own proof or export folder goes was "cannot open ...: file exists"."""
    project, _ = built
    shutil.rmtree(project / "output")
    (project / folder).parent.mkdir(parents=True)
    (project / folder).write_text("not a folder")
    result = cli(project, *args)
    assert (result.exit_code, result.stderr) == (
        1, f"cardgen: cannot write {folder}: {folder} is a file, not a folder\n")
    assert (project / folder).read_text() == "not a folder"
