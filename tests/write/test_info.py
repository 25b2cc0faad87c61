"""The PDF's Title, Author, Subject and dates: from set.yaml, fixed by the input."""
from __future__ import annotations

import dataclasses
import datetime
import os

import pytest
from pypdf import PdfReader

import cardgen
from cardgen.write.info import document_info

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


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


def _info(project, given_subject=None, version="0.3", **meta):
    card_set = dataclasses.replace(cardgen.load_set("demo", project), version=version, meta=meta)
    return document_info(card_set, given_subject)


def test_a_date_and_time_is_turned_to_utc_and_one_without_a_zone_is_utc(project):
    assert _info(project, date="2024-05-01T12:30:05+02:00").pdf_date == "D:20240501103005+00'00'"
    assert _info(project, date="2024-05-01T23:30:00-01:00").pdf_date == "D:20240502003000+00'00'"
    assert _info(project, date="2024-05-01T12:30:05").pdf_date == "D:20240501123005+00'00'"
    assert _info(project, date="2024-05-01").date == datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)


def test_the_subject_is_the_sets_then_the_builds_then_cardgens_and_no_version_no_v(project):
    assert _info(project, "Print file", subject="Playtest").subject == "Playtest"
    assert _info(project, "Print file").subject == "Print file"
    assert _info(project).subject == "Demo Deck: cards printed by cardgen"
    plain = _info(project, version="")
    assert (plain.title, plain.author) == ("Demo Deck", "Demo Deck")
    assert _info(project, author="Jane").author == "Jane"


def test_the_newest_input_file_below_the_set_dates_it_to_the_second(project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " 1700000000 ")  # spaces round it are allowed
    assert _info(project).pdf_date == "D:20231114221320+00'00'"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")  # unset: the files date it
    for path in (project / "data/demo").rglob("*"):
        os.utime(path, (1600000000, 1600000000))
    star = project / "data/demo/icons/star.svg"  # in a folder of the set's own
    os.utime(star, (1650000000.75, 1650000000.75))
    assert _info(project).date == datetime.datetime(2022, 4, 15, 5, 20, tzinfo=datetime.timezone.utc)
    empty = dataclasses.replace(cardgen.load_set("demo", project), meta={}, directory=project / "nothing")
    (project / "nothing").mkdir()
    assert document_info(empty).pdf_date == "D:19700101000000+00'00'"


@pytest.fixture
def local_zone():
    """The machine's local time zone set for the test (POSIX TZ), the old one put back after."""
    import time

    before = os.environ.get("TZ")

    def set_zone(zone):
        os.environ["TZ"] = zone
        time.tzset()

    yield set_zone
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.mark.parametrize("zone", ["JST-9", "EST+5"])  # east and west of Greenwich
def test_dates_are_utc_whatever_the_machines_time_zone(project, monkeypatch, local_zone, zone):
    local_zone(zone)
    assert datetime.datetime(2024, 5, 1, 12).astimezone().utcoffset() != datetime.timedelta(0)  # the zone took
    assert _info(project, date="2024-05-01T12:30:05").pdf_date == "D:20240501123005+00'00'"
    assert _info(project, date="2024-05-01T12:30:05+02:00").pdf_date == "D:20240501103005+00'00'"
    assert _info(project, date="2024-05-01").pdf_date == "D:20240501000000+00'00'"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert _info(project).pdf_date == "D:20231114221320+00'00'"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    for path in (project / "data/demo").rglob("*"):
        os.utime(path, (1650000000, 1650000000))
    newest = _info(project)
    assert newest.pdf_date == "D:20220415052000+00'00'"
    assert newest.date.utcoffset() == datetime.timedelta(0)


def test_a_date_and_hour_in_the_compact_iso_form_is_read(project):
    """set.yaml's check takes ISO 8601's basic form too (20240501T12, eleven characters)."""
    assert _info(project, date="20240501T12").pdf_date == "D:20240501120000+00'00'"
    assert _info(project, date="20240501").pdf_date == "D:20240501000000+00'00'"


@pytest.mark.parametrize("value", ["soon", "1.5", "1700000000s", "-", "\u0663\u0664\u0665", "253402300800"])
def test_a_malformed_source_date_epoch_is_an_error_naming_it(project, monkeypatch, value):
    """A value that is no whole number of seconds was ignored here (the files' times dated the
    PDF, though the variable was set to fix it) while reportlab, reading it for the same PDF,
    failed with an internal error; a date past 9999 failed both. Now every command stops at
    once (exit 2) naming the variable, and the API raises UsageError."""
    from cardgen.errors import UsageError

    from projects import run_cli

    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(UsageError, match="^SOURCE_DATE_EPOCH must be"):
        _info(project)
    result = run_cli(project, "build", "demo")
    assert result.returncode == 2 and not (project / "output").exists()
    assert "Error: SOURCE_DATE_EPOCH must be" in result.stderr and repr(value) in result.stderr
    assert "internal error" not in result.stderr


def test_a_source_date_epoch_before_1970_dates_the_pdf(project, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "-86400")  # `date +%s` of 1969-12-31
    assert _info(project).pdf_date == "D:19691231000000+00'00'"


def test_files_older_than_1970_date_the_pdf_before_1970(project, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    for path in (project / "data/demo").rglob("*"):
        os.utime(path, (-86400 * 30, -86400 * 30))  # 1969-12-02
    assert _info(project).pdf_date == "D:19691202000000+00'00'"
