"""The layout cache: a rebuild lays out only what changed, and prints the same bytes."""
from __future__ import annotations

import os

import pytest

import cardgen
from cardgen import BuildOptions


def build(project, out="output", **options):
    return cardgen.build(["demo"], project, project / out, BuildOptions(**options)).sets[0]


def test_a_rebuild_lays_out_only_the_changed_card(project):
    first = build(project)
    distinct = first.laid_out
    assert (first.reused, distinct) == (0, 6)  # 4 distinct action cards, 1 token, 1 shared back
    again = build(project)
    assert (again.laid_out, again.reused) == (0, distinct)
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    changed = build(project)
    assert (changed.laid_out, changed.reused) == (1, distinct - 1)


def test_cached_and_fresh_layouts_print_the_same_bytes(project):
    build(project)  # fills the cache
    cached = build(project, "cached")
    fresh = build(project, "fresh", cache=False)
    assert cached.reused == 6 and fresh.reused == 0
    assert cached.pdf.read_bytes() == fresh.pdf.read_bytes()


def test_a_font_change_lays_everything_out_again(project):
    build(project)
    index = project / "fonts/fonts.yaml"
    index.write_text(index.read_text() + "\n# edited\n")
    assert build(project).laid_out == 6


def swap_font(path, other) -> None:
    """Put the font ``other`` (padded to the size) in place of ``path``, its time put back."""
    stat = path.stat()
    data = other.read_bytes()
    assert len(data) < stat.st_size
    path.write_bytes(data + bytes(stat.st_size - len(data)))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_font_swapped_for_one_of_its_size_and_time_prints_the_new_font(project, monkeypatch):
    """A font's digest is kept for the next build by its path, size, times and inode: kept by size
    and modification time alone, a font swapped for another of its size with its time put back
    (touch -r, a tool keeping times) kept the old digest, and the next process printed the old
    font's kept faces and subsets."""
    from cardgen.text import fonts

    build(project)
    swap_font(project / "fonts/DejaVuSans.ttf", project / "fonts/DejaVuSansCondensed.ttf")
    for memo in ("_DIGESTS", "_SEEN", "_READS"):  # a new process
        monkeypatch.setattr(fonts, memo, {}, raising=False)
    again = build(project)
    assert again.laid_out == 6
    assert again.pdf.read_bytes() == build(project, "fresh", cache=False).pdf.read_bytes()


def test_a_kept_face_that_cannot_be_drawn_now_says_why_as_a_fresh_build_does(project, monkeypatch):
    """A face kept in the cache whose image or image icon cannot be used now (a limit lowered
    since) is laid out afresh, which says the problem as a build without the cache does. It
    was said at the icon's line with no card, the build stopping at the first such face, and an
    image named by a card's value at the template line, the value unnamed."""
    from cardgen.errors import CardgenError

    token = project / "templates/demo/token.xml.j2"
    token.write_text(token.read_text().replace("</card>", '<image x="5" y="5" w="4" h="4" src="{{ picture }}"/>\n</card>'))
    cards = project / "data/demo/cards.yaml"
    cards.write_text(cards.read_text().replace("  label: M", "  label: M\n  picture: icons/star.svg"))
    build(project)
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    monkeypatch.setenv("CARDGEN_MAX_SVG_ELEMENTS", "1")  # star.svg draws a polygon in its <svg>
    said = []
    for out, cache in (("output", True), ("fresh", False)):
        with pytest.raises(CardgenError) as failed:
            build(project, out, cache=cache)
        said.append([str(problem) for problem in failed.value.problems])
    assert said[0] == said[1]
    assert [line.split(": SVG")[0] for line in said[0]] == [
        'data/demo/set.yaml:22: card "Escape Artist": icon "star"',
        'data/demo/cards.yaml:16: card "Marker": field "picture"']


def test_a_damaged_cache_is_only_a_slower_build(project):
    build(project)
    cache = project / ".cardgen-cache/faces-demo.bin"
    cache.write_bytes(b"not a cache")
    result = build(project)
    assert (result.laid_out, result.reused) == (6, 0)
    assert build(project).reused == 6


def count_renders(monkeypatch) -> list[str]:
    """Every template rendering from now on, by card name."""
    from cardgen.render.environment import Templates

    rendered: list[str] = []
    original = Templates.render

    def render(self, name, context, card, declared_at):
        rendered.append(card)
        return original(self, name, context, card, declared_at)

    monkeypatch.setattr(Templates, "render", render)
    return rendered


def test_a_rebuild_renders_only_the_changed_card(project, monkeypatch):
    build(project)
    rendered = count_renders(monkeypatch)
    build(project)
    assert rendered == []  # every face known from the last build
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    build(project)
    assert rendered == ["Attack <12> & more"]


def test_a_template_change_renders_every_card_again(project, monkeypatch):
    rendered = count_renders(monkeypatch)
    build(project)
    first = sorted(rendered)
    assert len(first) == 6  # copies and the shared back are rendered once within a build
    template = project / "templates/demo/frame.xml.j2"  # the frame every card type extends
    stat = template.stat()
    before = template.read_bytes()
    assert before.count(b'fill="#fdf6e3"') == 1
    # The same size and modification time: only the content tells the edit.
    template.write_bytes(before.replace(b'fill="#fdf6e3"', b'fill="#e3f6fd"'))
    os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (template.stat().st_size, template.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    rendered.clear()
    edited = build(project, "edited")
    assert sorted(rendered) == first
    fresh = build(project, "fresh", cache=False)
    assert edited.pdf.read_bytes() == fresh.pdf.read_bytes() != (project / "output/demo.pdf").read_bytes()


def test_what_a_template_reads_is_kept_for_the_next_build_by_its_source(project, monkeypatch):
    """A rebuild knows which values each template reads without parsing it (each build is a new
    process: the process's own memory of it is emptied here before each build); a template
    whose source changed is read again, and a back that now reads the card's name is then one
    rendering a card, as a build without the cache makes it."""
    import jinja2.meta

    from cardgen.render import environment
    from cardgen.write.manifest import load_manifest

    parsed: list[int] = []
    original = jinja2.meta.find_undeclared_variables
    monkeypatch.setattr(jinja2.meta, "find_undeclared_variables",
                        lambda tree: parsed.append(1) or original(tree))

    def build_anew(out="output", **options):
        monkeypatch.setattr(environment, "_NAMES", {})
        parsed.clear()
        return build(project, out, **options)

    build_anew()
    assert len(parsed) == 4  # action, token, back, and frame (both card types extend it: one source)
    build_anew()
    assert parsed == []
    back = project / "templates/demo/back.xml.j2"
    back.write_text(back.read_text().replace("{{ set.title }}", "{{ name[:1] }}"))
    edited = build_anew("edited")
    assert len(parsed) == 1
    fresh = build_anew("fresh", cache=False)
    assert edited.pdf.read_bytes() == fresh.pdf.read_bytes()
    backs = {face["hash"] for face in load_manifest(edited.manifest)["faces"] if face["side"] == "back"}
    assert len(backs) == len({face["card"] for face in load_manifest(edited.manifest)["faces"]
                              if face["side"] == "back"}) > 1


@pytest.fixture(scope="module")
def shipped_first(tmp_path_factory):
    """A copy of the shipped sets built once, the cache on (into first/): the project and the
    build's result. Tests that edit it work on a copy."""
    import shutil

    from projects import REPO

    root = tmp_path_factory.mktemp("shipped") / "shipped"
    for folder in ("fonts", "data", "templates"):
        shutil.copytree(REPO / folder, root / folder)
    return root, cardgen.build(None, root, root / "first")


def test_every_shipped_set_replays_to_the_same_bytes(shipped_first):
    """Images, SVG icons, opacity, lines and polygons: a build from the cache prints exactly what
    a build without it prints (the PDF version included)."""
    root, first = shipped_first
    cached = cardgen.build(None, root, root / "cached")
    fresh = cardgen.build(None, root, root / "fresh", BuildOptions(cache=False))
    assert len(first.sets) == 5
    for one, again, new in zip(first.sets, cached.sets, fresh.sets):
        assert again.laid_out == 0 and again.reused == one.laid_out > 0, one.name
        assert again.pdf.read_bytes() == new.pdf.read_bytes() == one.pdf.read_bytes(), one.name
        assert again.manifest.read_bytes() == new.manifest.read_bytes(), one.name


def test_a_failed_build_keeps_the_last_cache(project):
    import pytest

    build(project)
    before = sorted(p.name for p in (project / ".cardgen-cache").iterdir())
    cache = project / ".cardgen-cache/faces-demo.bin"
    kept = cache.read_bytes()
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,:nosuchicon:"))
    with pytest.raises(cardgen.CardgenError, match="unknown icon"):
        build(project)
    assert sorted(p.name for p in (project / ".cardgen-cache").iterdir()) == before  # no temporary left
    assert cache.read_bytes() == kept


def test_a_face_known_only_by_its_rendering_is_rendered_when_it_must_be_laid_out(project, monkeypatch):
    """The cache may know how a face renders but not how it draws (its drawing was dropped):
    the face is then rendered after all, laid out, and prints the same."""
    from cardgen.cache import FaceCache
    from cardgen.cache_file import key_digest
    from cardgen.write.manifest import load_manifest

    first = build(project)
    cache = FaceCache(project / ".cardgen-cache/faces-demo.bin")
    entries = list(cache.last.remaining())
    drawings = {key_digest(face["hash"]): face["hash"] for face in load_manifest(first.manifest)["faces"]}
    assert sum(1 for digest, _ in entries if digest in drawings) == 6
    for digest, stored in entries:
        if digest in drawings:
            cache.remember(drawings[digest], "not a drawing")  # damaged: the face must be laid out again
        else:
            cache._put(digest, stored)
    cache.save()
    rendered = count_renders(monkeypatch)
    again = build(project, "again")
    assert (again.laid_out, again.reused) == (6, 0)
    assert len(rendered) == 6
    assert again.pdf.read_bytes() == first.pdf.read_bytes()


def test_an_edited_icon_lays_out_only_the_faces_that_show_it(shipped_first, tmp_path):
    import shutil

    built, whole = shipped_first
    root = tmp_path / "shipped"
    for folder in ("fonts", "data/death-mesa", "templates/death-mesa", ".cardgen-cache"):
        shutil.copytree(built / folder, root / folder)
    first = next(one for one in whole.sets if one.name == "death-mesa")
    icon = root / "data/death-mesa/icons/living.svg"  # shown by some cards, not all
    icon.write_text(icon.read_text().replace("</svg>", "<!-- edited --></svg>"))
    again = cardgen.build(["death-mesa"], root).sets[0]
    assert 0 < again.laid_out < first.laid_out
    assert again.laid_out + again.reused == first.laid_out


def test_fonts_read_from_the_cache_print_the_same_bytes(project, tmp_path):
    """reportlab's reading of each font is kept in the cache; a build in a new process that
    reads it from there prints what a build that reads the font files prints."""
    import subprocess
    import sys

    script = ("import sys, cardgen; cardgen.build(['demo'], sys.argv[1], sys.argv[2], "
              "cardgen.BuildOptions(cache=sys.argv[3] == 'on'))")

    def build_in_new_process(out, cache):
        subprocess.run([sys.executable, "-c", script, str(project), str(project / out), cache], check=True)
        return (project / out / "demo.pdf").read_bytes()

    fresh = build_in_new_process("fresh", "off")
    assert not (project / ".cardgen-cache").exists()  # --no-cache writes no cache at all
    build_in_new_process("first", "on")
    kept = sorted(p.name for p in (project / ".cardgen-cache").iterdir() if p.name.startswith("font-"))
    assert kept  # the fonts the set uses
    (project / ".cardgen-cache" / "faces-demo.bin").unlink()  # drawings laid out anew, fonts from the cache
    assert build_in_new_process("again", "on") == fresh


def test_a_cache_that_cannot_be_written_only_slows_the_build(project):
    (project / ".cardgen-cache").write_text("a file where the cache folder would be")
    first = build(project)
    again = build(project, "again")
    assert (again.laid_out, again.reused) == (first.laid_out, 0)
    assert again.pdf.read_bytes() == first.pdf.read_bytes()


def test_a_reprint_keeps_the_cache_of_the_whole_set(project, tmp_path):
    first = build(project)
    old = tmp_path / "old.json"
    old.write_bytes(first.manifest.read_bytes())
    path = project / "data/demo/more.csv"
    path.write_text(path.read_text().replace("Attack <12> & more,1,Attack", "Attack <12> & more,1,Defend"))
    reprint = build(project, "reprint", changed_since=old)
    assert (reprint.laid_out, reprint.reused) == (1, 1)  # the changed card: its front, and its back
    again = build(project)
    assert (again.laid_out, again.reused) == (0, first.laid_out)
