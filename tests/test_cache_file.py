"""The face cache's file (cache_file.py): read whole or entry by entry, values deflated against
its dictionary, a large index in arrays; and a file damaged on disk (a FIFO in its place, a byte
changed) is no cache, never another drawing."""
from __future__ import annotations

import os

import pytest

from projects import build_demo


@pytest.mark.parametrize("held", [True, False], ids=["read-whole", "entry-by-entry"])
def test_the_last_builds_file_is_read_entry_by_entry_and_a_truncated_one_is_empty(tmp_path, monkeypatch, held):
    """A small file is read whole at once, a larger one (HELD) entry by entry: both alike."""
    import random

    from cardgen import cache_file
    from cardgen.cache import FaceCache
    from cardgen.cache_file import key_digest

    if not held:
        monkeypatch.setattr(cache_file, "HELD", 0)

    path = tmp_path / "faces-x.bin"
    first = FaceCache(path)
    # some entries span chunks: bytes that do not deflate
    values = {f"key{n}": ("parts", n, random.Random(n).randbytes(n * 300)) for n in range(40)}
    for key, value in values.items():
        first.remember(key, value)
    first.save()
    again = FaceCache(path)
    assert again.last.index.count == 40 and (again.last._held is not None) == held
    assert again.recall("key7") == values["key7"] and again.recall("key39") == values["key39"]
    assert again.recall("nothing") is None
    assert sorted(digest for digest, _ in again.last.remaining()) == sorted(
        key_digest(key) for key in set(values) - {"key7", "key39"})
    again.discard()
    data = path.read_bytes()
    path.write_bytes(data[:-10])  # cut short: nothing of it is trusted
    assert FaceCache(path).last.index.count == 0 and FaceCache(path).recall("key0") is None
    path.write_bytes(b"cardgen-faces 0\n" + data[16:])  # another format
    assert FaceCache(path).last.index.count == 0


def test_long_values_are_deflated_against_the_files_dictionary_and_copied_as_they_are(tmp_path):
    """A drawing is kept deflated against the file's dictionary (the first long value kept);
    the next build keeps that dictionary, so that the entries it reuses are copied byte for
    byte, and each reads back exactly."""
    import marshal

    from cardgen.cache import PACK_FROM, FaceCache
    from cardgen.cache_file import FORMAT, key_digest

    path = tmp_path / "faces-x.bin"
    words = "kicker offense cone challenge base alien token moon".split()
    values = {f"face{n}": tuple(f"BT ({' '.join(words[(n + i) % 8:] + words[:(n + i) % 8])}) Tj ET"
                                for i in range(12)) for n in range(30)}
    values["small"] = ("q", "Q")
    values["page:1"] = bytes(range(256)) * 2  # compressed already: kept as it is
    first = FaceCache(path)
    for key, value in values.items():
        first.remember(key, value)
    first.save()
    again = FaceCache(path)
    dictionary = marshal.dumps(values["face0"])
    assert len(dictionary) >= PACK_FROM and again.dictionary == again.last.dictionary == dictionary
    stored = {digest: payload for digest, payload in again.last.remaining()}
    assert len(stored) == 32
    assert stored[key_digest("small")] == b"\0" + marshal.dumps(values["small"])
    assert stored[key_digest("page:1")] == b"\0" + marshal.dumps(values["page:1"])
    packed = stored[key_digest("face29")]
    assert packed[:1] == b"\1" and len(packed) * 4 < len(marshal.dumps(values["face29"]))
    assert path.read_bytes().startswith(FORMAT)
    assert again.holds("face3") and not again.holds("face31") and len(again.last.index) == 32
    for key in ("face29", "face3", "small", "page:1"):
        assert again.recall(key) == values[key]
    assert not again.holds("face3") and len(again.last.index) == 28  # taken: the new file has it
    again.save()
    third = FaceCache(path)
    assert third.last.dictionary == dictionary and third.last.index.count == 4
    kept = {digest: payload for digest, payload in third.last.remaining()}
    assert kept == {key_digest(key): stored[key_digest(key)] for key in ("face29", "face3", "small", "page:1")}
    assert third.get("face3") == values["face3"] and third.reused == 1


def test_a_large_index_is_kept_in_arrays_and_finds_every_entry(monkeypatch):
    """Past SMALL entries the index is an open-addressing table: every key is found once, a key
    written twice gives its later offset, and a key it never held is not found."""
    from array import array

    from cardgen.cache_file import _Index, key_digest

    monkeypatch.setattr(_Index, "SMALL", 10)
    digests = [key_digest(f"key{n}") for n in range(300)]
    keys = array("q", [_Index.number(d) for d in digests] + [_Index.number(digests[5])])
    index = _Index(keys, array("q", list(range(1, 301)) + [999]))
    assert index.table is None and len(index) == 300 and index.size == 301 * 3 // 2 + 8
    assert index.holds(digests[7]) and not index.holds(key_digest("other"))
    assert index.pop(digests[5]) == 999 and index.pop(digests[5]) is None and not index.holds(digests[5])
    assert [index.pop(d) for d in digests[:5]] == [1, 2, 3, 4, 5] and len(index) == 294
    assert sorted(index.remaining()) == list(range(7, 301))  # key5's first offset (6): its later copy won


def test_remember_all_keeps_a_chunks_renderings_as_remember_and_remember_stored_keep_them(tmp_path):
    """A worker's chunk brings its renderings stored for the cache (or, for a long one before the
    file has a dictionary, as values): kept as one call a rendering keeps them, each once."""
    import marshal

    from cardgen.cache import FaceCache, stored
    from cardgen.cache_file import key_digest

    path = tmp_path / "faces-x.bin"
    first = FaceCache(path)
    made = [(f"render:{n}", ("markup", n), (key_digest(f"render:{n}"), stored(marshal.dumps(("markup", n)), None)))
            for n in range(3)]
    made.append(("render:long", ("words " * 100,), None))  # the first long value: the file's dictionary
    made.append(made[0])  # met again at hand: not written twice
    first.remember_all(made)
    assert first.recall("render:1") == ("markup", 1) and first.recall("render:long") == ("words " * 100,)
    first.save()
    assert path.read_bytes().count(key_digest("render:0")) == 1
    again = FaceCache(path)
    assert again.last.index.count == 4
    assert [again.recall(f"render:{n}") for n in range(3)] == [("markup", n) for n in range(3)]
    assert again.recall("render:long") == ("words " * 100,)



def test_a_fifo_in_place_of_a_kept_file_is_read_as_no_file(project):
    import subprocess
    import sys

    expected = build_demo(project, "output").pdf.read_bytes()
    cache = project / ".cardgen-cache"
    kept = sorted(path for path in cache.iterdir() if path.is_file())
    assert any(path.name.startswith("font-") for path in kept) and (cache / "faces-demo.bin") in kept
    for path in kept:
        path.unlink()
        os.mkfifo(path)  # opening one for reading waited for a writer: the build hung for good
    # in a process of its own: a build waiting on a FIFO cannot be stopped from inside
    done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(project), "build", "demo", "--out", str(project / "again")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert (project / "again/demo.pdf").read_bytes() == expected


def test_a_byte_changed_in_a_kept_drawing_is_laid_out_again(project):
    import re

    expected = build_demo(project, "output").pdf.read_bytes()
    cache = project / ".cardgen-cache/faces-demo.bin"
    data = cache.read_bytes()
    colour = re.search(rb"(\d)\.\d+ \d\.\d+ \d\.\d+ rg", data)
    assert colour
    digit = colour.start(1)
    cache.write_bytes(data[:digit] + (b"1" if data[digit:digit + 1] == b"0" else b"0") + data[digit + 1:])
    result = build_demo(project, "again")  # the changed drawing was printed as it was read: another colour
    assert result.laid_out >= 1
    assert result.pdf.read_bytes() == expected
