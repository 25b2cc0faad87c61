"""Any Unicode card text either prints every character or fails with a clear, located error."""
from __future__ import annotations

import csv
import io
import re
from collections import Counter

import pdfplumber
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardgen
from cardgen import CardgenError

from pdftext import page_texts
from projects import make_project

_TEXT_PROBLEM = (r'(the font DejaVu Sans has no character U\+[0-9A-F]{4,6} \(.+\)'
                 r'|U\+[0-9A-F]{4,6} \(.+\) is \w+ script, written right to left or with its letters joined: '
                 r'cardgen lays text out left to right, a letter at a time, and would misprint it'
                 r'|the text does not fit at the minimum size 2 pt .*|unknown icon ":[a-z][a-z0-9_-]*:" .*)')
CLEAR = re.compile(r'^data/notes/notes\.csv:2: card "Note": text contains the control character U\+[0-9A-F]{4}$'
                   r'|^templates/(plain|rich)\.xml\.j2:2: card "Note": text box "body": ' + _TEXT_PROBLEM + '$'
                   r'|^data/notes/notes\.csv:2: card "Note": field "text": ' + _TEXT_PROBLEM
                   + r' \(drawn by templates/(plain|rich)\.xml\.j2:2\)$', re.S)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("unicode"), "unicode")


def write_card(root, kind: str, text: str) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(["name", "type", "text"])
    writer.writerow(["Note", kind, text])
    (root / "data/notes/notes.csv").write_text(buffer.getvalue(), encoding="utf-8", newline="")


def printed_or_clear_error(root, kind: str, text: str, read=None) -> Counter | None:
    """Build one card: the characters printed (read by ``read``, pdfplumber's by default), or
    None after checking every error is clear."""
    write_card(root, kind, text)
    try:
        result = cardgen.build(["notes"], root)
    except CardgenError as error:
        for problem in error.problems:
            assert CLEAR.match(str(problem)), str(problem)
        return None
    return (read or pdf_chars)(result.sets[0].pdf)


def pdf_chars(path) -> Counter:
    """Every character printed, as pdfplumber reads each glyph's ToUnicode entry. Not pdfium:
    it reads a soft hyphen as a line-end mark and a character beyond U+FFFF as two, and any
    text reaches the plain test."""
    with pdfplumber.open(path) as pdf:
        return Counter(c["text"] for page in pdf.pages for c in page.chars if not c["text"].isspace())


def pdf_letters(path) -> Counter:
    """The characters printed, read by pdfium (a hundred times faster): for the rich test, which
    counts only ASCII letters."""
    return Counter(c for text in page_texts(path) for c in text if not c.isspace())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example("\U0001F030")  # beyond U+FFFF: reportlab wrote its ToUnicode entry wrongly
@example("Super\xadman \xad")  # soft hyphens: in plain text they print as they are
@given(st.text(max_size=80))
def test_plain_text_prints_every_character_or_fails_clearly(root, text):
    printed = printed_or_clear_error(root, "plain", text)
    if printed is not None:
        assert printed == Counter(c for c in text.replace("\r\n", "\n") if not c.isspace())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(list("ab *[]:/\\\n#=colrspade") + ["[color=#c00000]", "[/color]", ":spade:", "**"]),
                max_size=25).map("".join))
def test_rich_markup_never_loses_text(root, text):
    printed = printed_or_clear_error(root, "rich", text, pdf_letters)
    if printed is None:
        return
    # every letter typed prints: markup characters may be consumed, letters never
    letters = Counter(c for c in text if c in "ablrsd")
    letters_in_markup = Counter()
    for marker in re.findall(r"\[color=#c00000\]|\[/color\]|:spade:", text):
        letters_in_markup.update(c for c in marker if c in "ablrsd")
    for letter, count in letters.items():
        assert count - letters_in_markup[letter] <= printed[letter] <= count, (text, letter)


@pytest.mark.parametrize("text, char, script", [("مرحبا بالعالم", "U+0645 (م)", "Arabic"),
                                                ("שלום", "U+05E9 (ש)", "Hebrew"),
                                                ("नमस्ते", "U+0928 (न)", "Devanagari")])
def test_text_of_a_script_written_right_to_left_or_joined_is_refused_not_misprinted(root, text, char, script):
    # DejaVu Sans has these letters: they printed reversed and apart ("مرحبا" as "ابحرم"), without a word
    write_card(root, "plain", f"Hello {text}")
    with pytest.raises(CardgenError) as caught:
        cardgen.build(["notes"], root)
    assert [str(p) for p in caught.value.problems] == [
        f'data/notes/notes.csv:2: card "Note": field "text": {char} is {script} script, written right to left '
        "or with its letters joined: cardgen lays text out left to right, a letter at a time, and would misprint it "
        "(drawn by templates/plain.xml.j2:2)"]


def test_latin_accents_and_ligatures_still_print(root):
    assert printed_or_clear_error(root, "plain", "Café naïve ﬁne") == Counter("Cafénaïveﬁne")
