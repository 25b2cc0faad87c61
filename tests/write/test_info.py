"""The PDF's Title, Author, Subject and dates: from set.yaml, fixed by the input."""
from __future__ import annotations

import os

from pypdf import PdfReader

import cardgen


def build(project):
    return PdfReader(cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0].pdf).metadata


def test_title_author_subject_and_a_given_date(project):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "author: Jane Doe\nsubject: Playtest deck\ndate: 2024-05-01\n")
    info = build(project)
    assert info["/Title"] == "Demo Deck v0.3"
    assert info["/Author"] == "Jane Doe"
    assert info["/Subject"] == "Playtest deck"
    assert info["/CreationDate"] == info["/ModDate"] == "D:20240501000000+00'00'"


def test_source_date_epoch_then_the_newest_input_file(project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    info = build(project)
    assert info["/Author"] == "Demo Deck"  # no author: the set's title
    assert info["/CreationDate"] == "D:20231114221320+00'00'"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    for path in (project / "data/demo").rglob("*"):
        os.utime(path, (1600000000, 1600000000))
    os.utime(project / "data/demo/cards.yaml", (1650000000, 1650000000))
    first = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0].pdf.read_bytes()
    assert PdfReader(project / "output/demo.pdf").metadata["/CreationDate"] == "D:20220415052000+00'00'"
    second = cardgen.build(["demo"], project, options=cardgen.BuildOptions(cache=False)).sets[0].pdf.read_bytes()
    assert first == second


def test_a_bad_date_names_its_line(project):
    set_yaml = project / "data/demo/set.yaml"
    set_yaml.write_text(set_yaml.read_text() + "date: yesterday\n")
    problems = [str(p) for p in cardgen.check(["demo"], project)]
    assert problems == ['data/demo/set.yaml:26: date must be a date such as 2024-05-01 (or 2024-05-01T12:00:00), '
                        'got "yesterday"']
