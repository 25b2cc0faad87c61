"""build --changed-since: only the changed cards' faces, and a changelog page, from the real PDF."""
from __future__ import annotations

import json
import shutil

import pytest
from pypdf import PdfReader

import cardgen
from cardgen.errors import CardgenError
from cardgen.pipeline import BuildOptions
from cardgen.write.manifest import load_manifest
from pdftext import page_texts

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def build(project, **options):
    (result,) = cardgen.build(["demo"], project, options=BuildOptions(**options)).sets
    return result, load_manifest(result.manifest)


def keep_manifest(project, tmp_path):
    build(project)
    old = tmp_path / "old.json"
    shutil.copy(project / "output/demo.json", old)
    return old


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_reprint_holds_exactly_the_changed_and_added_cards(project, tmp_path):
    old = keep_manifest(project, tmp_path)
    edit(project / "data/demo/cards.yaml", "then discard *one*", "then discard *two*")
    edit(project / "data/demo/more.csv", "Long Winded,1,", "Brand New,1,A fresh card\nLong Winded,1,")
    result, manifest = build(project, layout="per-card", changed_since=old)
    faces = [(f["card"], f["copy"], f["side"]) for f in manifest["faces"]]
    assert sorted(faces) == sorted([("Quick Draw", 1, "front"), ("Quick Draw", 1, "back"),
                                    ("Quick Draw", 2, "front"), ("Quick Draw", 2, "back"),
                                    ("Brand New", 1, "front"), ("Brand New", 1, "back")])
    assert manifest["changelog"]["added"] == ["Brand New"]
    assert manifest["changelog"]["changed"] == ["Quick Draw"]
    assert manifest["changelog"]["removed"] == []
    reader = PdfReader(result.pdf)
    assert len(reader.pages) == manifest["pages"] == len(faces) + 1  # one face a page, then the changelog
    texts = [" ".join(text.split()) for text in page_texts(result.pdf)]
    fronts = [texts[f["page"] - 1] for f in manifest["faces"] if f["side"] == "front"]
    assert sum("discard two" in text for text in fronts) == 2 and sum("A fresh card" in text for text in fronts) == 1
    everything = "\n".join(texts[:-1])
    assert "Escape Artist" not in everything and "Long Winded" not in everything


def test_changelog_page_lists_added_removed_and_changed(project, tmp_path):
    old = keep_manifest(project, tmp_path)
    edit(project / "data/demo/more.csv", "Long Winded,1,\"This text", "Long Winded,1,\"That text")
    edit(project / "data/demo/more.csv", "Attack <12> & more,1,Attack <12> & more\n", "")
    edit(project / "data/demo/cards.yaml", "- name: Marker\n  type: token\n  count: 3",
         "- name: Marker\n  type: token\n  count: 4")
    result, manifest = build(project, changed_since=old)
    page = PdfReader(result.pdf).pages[-1]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (612, 792)
    lines = [line.strip() for line in page.extract_text().splitlines()]
    assert lines[0] == "Reprint changelog"
    assert lines[1] == "since old.json (version 0.3): 3 faces reprinted"  # Long Winded front+back, Marker 4
    assert lines[2:] == ["Added (0)", "none", "Removed (1)", "Attack <12> & more", "Changed (2)", "Marker",
                         "Long Winded"]
    faces = [(f["card"], f["copy"], f["side"]) for f in manifest["faces"]]
    assert sorted(faces) == [("Long Winded", 1, "back"), ("Long Winded", 1, "front"), ("Marker", 4, "front")]


def test_nothing_changed_gives_only_the_changelog(project, tmp_path):
    old = keep_manifest(project, tmp_path)
    result, manifest = build(project, changed_since=old)
    assert manifest["faces"] == [] and manifest["pages"] == 1
    assert manifest["changelog"] == {"since": "old.json", "since_version": "0.3", "added": [], "removed": [],
                                     "changed": [], "faces": 0}
    assert "Added (0)" in page_texts(result.pdf)[0]


def test_changing_the_back_reprints_every_card_with_that_back(project, tmp_path):
    old = keep_manifest(project, tmp_path)
    edit(project / "templates/demo/back.xml.j2", 'rx="20"', 'rx="21"')
    _, manifest = build(project, changed_since=old)
    cards = {f["card"] for f in manifest["faces"]}
    assert cards == {"Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded"}  # not the tokens
    assert manifest["changelog"]["changed"] == ["Quick Draw", "Escape Artist", "Attack <12> & more", "Long Winded"]


@pytest.mark.parametrize("content, message", [
    ("not json", "not a cardgen manifest (not JSON: Expecting value: line 1 column 1 (char 0))"),
    ('{"name": "package", "version": "1.0"}', 'not a cardgen manifest (no "set" and "faces")'),
    ('{"set": "demo", "faces": [{"card": "Quick Draw"}]}', "face 1: not a cardgen manifest entry (needs card, copy, side)"),
    ('{"set": "demo", "faces": [{"card": "Quick Draw", "copy": 1, "side": "front"}]}',
     'face 1 ("Quick Draw") has no content hash: the manifest is from an older cardgen; rebuild it first'),
    ('{"set": "other", "faces": []}', 'is the manifest of set "other", not of "demo"'),
    ('{"set": "demo", "format": 2, "faces": [[0, 1, "front", 1, 0, 0]], "slots": [], "hashes": [], "cards": []}',
     "not a cardgen manifest (its faces and tables do not agree: list index out of range)"),
    ('{"set": "demo", "format": 7, "faces": []}',
     "a manifest of format 7, which this cardgen does not read (1 and 2): rebuild it first"),
])
def test_a_bad_or_foreign_manifest_is_an_error_naming_the_file(project, tmp_path, cli, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(CardgenError) as error:
        build(project, changed_since=bad)
    assert str(error.value) == f"{bad}: {message}"
    result = cli(project, "build", "demo", "--changed-since", str(bad))
    assert result.exit_code == 1
    assert f"{bad}: {message}" in result.output
    # the cache's new file, begun before the manifest was read, is not left behind
    assert [p.name for p in (project / ".cardgen-cache").iterdir() if p.name.endswith(".tmp")] == []


def test_a_reprint_manifest_is_refused_as_the_base(project, tmp_path):
    old = keep_manifest(project, tmp_path)
    build(project, changed_since=old)
    reprint = tmp_path / "reprint.json"
    shutil.copy(project / "output/demo.reprint.json", reprint)
    with pytest.raises(CardgenError, match="is the manifest of a reprint"):
        build(project, changed_since=reprint)


def test_a_reprint_writes_its_own_files_and_runs_again_against_the_same_manifest(project, cli):
    assert cli(project, "build", "demo").exit_code == 0
    full_pdf, full_json = (project / "output/demo.pdf").read_bytes(), (project / "output/demo.json").read_bytes()
    edit(project / "data/demo/cards.yaml", "then discard *one*", "then discard *two*")
    for _ in range(2):
        result = cli(project, "build", "demo", "--changed-since", str(project / "output/demo.json"))
        assert result.exit_code == 0, result.output
        assert (project / "output/demo.pdf").read_bytes() == full_pdf
        assert (project / "output/demo.json").read_bytes() == full_json
        reprint = load_manifest(project / "output/demo.reprint.json")
        assert reprint["changelog"]["changed"] == ["Quick Draw"]
        assert len(PdfReader(project / "output/demo.reprint.pdf").pages) == reprint["pages"]


def test_a_format_1_manifest_is_still_the_base_of_a_reprint(project, tmp_path):
    """A manifest written before format 2 (every field on every face) is compared as well."""
    old = keep_manifest(project, tmp_path)
    full = load_manifest(old)
    old.write_text(json.dumps(full), encoding="utf-8")  # format 1: its faces in full, no tables
    edit(project / "data/demo/cards.yaml", "then discard *one*", "then discard *two*")
    _, manifest = build(project, changed_since=old)
    assert manifest["changelog"]["changed"] == ["Quick Draw"] and manifest["changelog"]["since"] == "old.json"
    assert {f["card"] for f in manifest["faces"]} == {"Quick Draw"}
