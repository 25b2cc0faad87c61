"""A set whose inputs and output are as its last build left them is not built again, and a
change anywhere in them (content, size or time) builds it as a build without the cache would."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import cardgen
from cardgen import BuildOptions

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def build(project, out="output", **options):
    """A build as `cardgen build` runs it: an unchanged set is not built again."""
    return cardgen.build(["demo"], project, project / out, BuildOptions(**{"skip_unchanged": True, **options})).sets[0]


def written(result) -> tuple:
    """Which files a build left: a build that writes replaces them (a new inode)."""
    return tuple((os.stat(path).st_ino, os.stat(path).st_mtime_ns) for path in (result.pdf, result.manifest))


def fresh(project, out="fresh") -> bytes:
    return build(project, out, cache=False).pdf.read_bytes()


def test_an_unchanged_set_is_not_written_again(project):
    first = build(project)
    before = written(first)
    again = build(project)
    assert (again.laid_out, again.reused) == (0, first.laid_out)
    assert (again.faces, again.cards, again.pages) == (first.faces, first.cards, first.pages)
    assert written(again) == before
    assert again.pdf.read_bytes() == fresh(project)


def test_an_edit_that_keeps_the_size_and_time_is_built(project):
    first = build(project)
    before = written(first)
    path = project / "data/demo/more.csv"
    stat = path.stat()
    text = path.read_text()
    assert "Attack <12> & more,1,Attack" in text
    path.write_text(text.replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    again = build(project)
    assert again.laid_out == 1
    assert written(again) != before
    assert again.pdf.read_bytes() == fresh(project)


def test_a_font_swapped_for_one_of_its_size_and_time_is_built(tmp_path):
    """Fonts are told by their size, times and inode (not read): by size and modification time
    alone, a font swapped for another of its size with its time put back skipped the build."""
    from projects import make_project
    from test_cache import swap_font

    project = make_project(tmp_path)  # with its own fonts/
    first = build(project)
    before, old = written(first), first.pdf.read_bytes()
    swap_font(project / "fonts/DejaVuSans.ttf", project / "fonts/DejaVuSansCondensed.ttf")
    again = build(project)
    assert written(again) != before
    assert again.pdf.read_bytes() == fresh(project) != old


def test_a_touched_file_is_built_again_with_its_new_date(project):
    first = build(project)
    before = written(first)
    old = first.pdf.read_bytes()
    path = project / "data/demo/more.csv"
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 3_600 * 10**9))  # the PDF's dates come from it
    again = build(project)
    assert written(again) != before
    assert again.pdf.read_bytes() == fresh(project) != old


def test_a_changed_output_is_written_again(project):
    first = build(project)
    before = written(first)
    expected = first.pdf.read_bytes()
    first.pdf.write_bytes(expected.replace(b"Demo Deck", b"Demo Dock"))
    again = build(project)
    assert again.pdf.read_bytes() == expected
    first.manifest.unlink()
    assert build(project).manifest.is_file()


def test_a_new_file_anywhere_in_the_project_builds_again(project):
    first = build(project)
    before = written(first)
    (project / "templates/demo/unused.xml.j2").write_text("<card/>")
    assert written(build(project)) != before


def test_a_damaged_cache_builds_again(project):
    first = build(project)
    before = written(first)
    (project / ".cardgen-cache/faces-demo.bin").write_bytes(b"not a cache")
    again = build(project)
    assert (again.laid_out, again.reused) == (first.laid_out, 0)


def test_warnings_are_counted_as_the_build_counted_them(project):
    (project / "data/demo/empty.csv").write_text("name,title\n")
    set_file = project / "data/demo/set.yaml"
    set_file.write_text(set_file.read_text().replace("  - {file: more.csv, type: action}",
                                                     "  - {file: more.csv, type: action}\n"
                                                     "  - {file: empty.csv, type: action}"))
    first = build(project)
    before = written(first)
    assert first.warnings
    again = build(project)
    assert written(again) == before
    assert again.warnings == first.warnings


def test_builds_that_read_more_than_the_project_always_run(project, tmp_path):
    for options in ({"stamp": True, "stamp_date": "2026-01-01"}, {"color": "cmyk"}):
        out = f"out-{len(options)}-{options.get('color', 'stamp')}"
        first = build(project, out, **options)
        before = written(first)
        assert written(build(project, out, **options)) != before
    deck = tmp_path / "deck.yaml"
    deck.write_text("main: {Quick Draw: 2}\n")
    first = build(project, "deck", deck=deck)
    before = written(first)
    assert written(build(project, "deck", deck=deck)) != before


def test_the_command_line_skips_an_unchanged_set_and_the_api_builds(project, cli):
    assert cli(project, "build", "demo").exit_code == 0
    pdf = project / "output/demo.pdf"
    before = os.stat(pdf).st_ino
    result = cli(project, "build", "demo")
    assert result.exit_code == 0
    assert result.stdout.startswith("built 1 set, 8 cards, 4 pages in ")
    assert os.stat(pdf).st_ino == before
    again = cardgen.build(["demo"], project).sets[0]  # the Python API: built, from the cache
    assert (again.laid_out, again.reused) == (0, 6)
    assert os.stat(pdf).st_ino != before


def test_an_output_folder_among_the_inputs_leaves_them_in_view(project):
    """Written into the project's own folder (or any folder holding inputs), a build still sees
    every input there: only what builds write is left out."""
    first = cardgen.build(["demo"], project, project, BuildOptions(skip_unchanged=True)).sets[0]
    before = written(first)
    assert written(cardgen.build(["demo"], project, project, BuildOptions(skip_unchanged=True)).sets[0]) == before
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    again = cardgen.build(["demo"], project, project, BuildOptions(skip_unchanged=True)).sets[0]
    assert again.laid_out == 1
    assert written(again) != before


def test_a_file_is_hashed_a_piece_at_a_time_to_the_digest_of_its_whole_content(tmp_path):
    # a large set's card file, PDF and manifest are hashed in pieces (held whole, they were a
    # 100,000-card build's peak memory); the digest is still the whole content's, so what an
    # earlier build recorded is still recognised
    import hashlib

    from cardgen import unchanged

    data = bytes(range(256)) * 12_289  # some 3 MB: many pieces, the last one short
    path = tmp_path / "big.bin"
    path.write_bytes(data)
    size, _, digest = unchanged._file_digest(path)
    assert size == len(data)
    assert digest == hashlib.sha256(data).hexdigest()
    path.write_bytes(data[:-1] + b"\0")
    assert unchanged._file_digest(path)[2] != digest
    assert unchanged._file_digest(tmp_path / "missing.bin") is None


def look(names, root, out, options):
    """What `cardgen build` finds before it imports the build stack (None: it builds)."""
    from cardgen import unchanged

    with unchanged.looked(names, root, out, options) as skipped:
        return skipped


def test_a_build_that_skips_every_set_says_what_the_build_says(project):
    """`cardgen build` looks for unchanged sets before importing the build stack
    (unchanged.looked): what it finds is the result the build finds."""
    options = BuildOptions(skip_unchanged=True)
    assert look([], project, None, options) is None  # never built
    first = cardgen.build(None, project, None, options)
    skipped = look([], project, None, options)
    built = cardgen.build(None, project, None, options)
    assert skipped.sets == built.sets
    assert skipped.sets[0].pdf == first.sets[0].pdf and skipped.sets[0].reused == first.sets[0].laid_out
    assert skipped.summary.split(" in ")[0] == first.summary.split(" in ")[0] == "built 1 set, 8 cards, 4 pages"
    for names, out, changed in ((["nope"], None, {}), (["demo"], None, {"cache": False}),
                                (["demo"], None, {"stamp": True}), (["demo"], project / "elsewhere", {})):
        # an unknown set, a build that reads more: the build decides; a new output folder: built
        assert look(names, project, out, BuildOptions(skip_unchanged=True, **changed)) is None


def test_the_digest_the_look_took_serves_the_build_in_its_block_once(project, monkeypatch):
    """A set found changed is built with the digest the look took (the project is walked and
    hashed once); a digest taken of another build (other options, another output folder), or
    left from a look whose block has ended (the project may have changed since), is not used,
    and the record the build keeps is its own."""
    from cardgen import unchanged

    walks = []
    walk = unchanged._walk

    def counted(folder, *rest):  # the project's walks (the fonts cardgen ships are walked apart)
        if Path(folder) == project.resolve():
            walks.append(folder)
        return walk(folder, *rest)

    monkeypatch.setattr(unchanged, "_walk", counted)
    options = BuildOptions(skip_unchanged=True)
    cardgen.build(["demo"], project, None, options)
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    walks.clear()
    with unchanged.looked(["demo"], project, None, options) as skipped:
        assert skipped is None
        assert cardgen.build(["demo"], project, None, options).sets[0].laid_out == 1
    assert len(walks) == 1
    with unchanged.looked(["demo"], project, None, options) as skipped:
        assert skipped is not None  # the record holds the digest the look took
    assert skipped.sets[0].reused == 6 and skipped.sets[0].laid_out == 0

    path.write_text(path.read_text().replace("Attack <12> & more,1,Defend", "Attack <12> & more,1,Attack"))
    walks.clear()
    other = project / "other"
    with unchanged.looked(["demo"], project, None, options) as skipped:
        assert skipped is None
        cardgen.build(["demo"], project, other, options)  # not the build the digest was taken for
    assert len(walks) == 2
    with unchanged.looked(["demo"], project, other, options) as skipped:
        assert skipped is not None

    walks.clear()
    with unchanged.looked(["demo"], project, None, options) as skipped:
        assert skipped is None and unchanged._taken is not None
    assert unchanged._taken is None  # let go with its block
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    cardgen.build(["demo"], project, None, options)  # after the edit: its own digest, walked again
    assert len(walks) == 2
    with unchanged.looked(["demo"], project, None, options) as skipped:
        assert skipped is not None
    assert skipped.sets[0].pdf.read_bytes() == fresh(project)
