"""Markup parsed by its frame (render/markup.py): a card's elements, made from the frame its
layout renders for every card with the card's own text put back, are the elements a whole
parse of its markup gives, and a markup the frame cannot stand for says its problems as ever."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cardgen import CardgenError
from cardgen.errors import Source
from cardgen.render import markup

WHERE = Source("templates/t/card.xml.j2", 1)
FRAME = ('<card _src="templates/t/card.xml.j2:1">\n'
         '  <rect _src="templates/t/card.xml.j2:2" x="0" y="0" w="10" h="10"/>\n'
         '  <text _src="templates/t/card.xml.j2:3" name="{name}" x="1" y="1" w="8" h="4" size="9">{first}</text>\n'
         '  <group><text x="1" y="5" w="8" h="4" markup="plain">{second}</text></group>\n</card>')
# what card text may hold, the characters XML refuses, changes or reads as markup among them
PIECES = st.sampled_from(["word", " ", "\n", "\t", "é", "\U0001d11e", ">", "'", '"', "&amp;", "&lt;", "&gt;",
                          "&quot;", "&apos;", "&#34;", "&#39;", "&#65;", "&#x41;", "&nbsp;", "&", "]]>", "]]",
                          "\r", "\r\n", "\x01", "\x7f", "\x85", "\u2028", "\ufeff", "\ufffe", "\ufdd0",
                          "\U0001fffe", "<b/>", "<", "</text>", "**bold**"])
TEXTS = st.lists(PIECES, max_size=8).map("".join)


def outcome(parse, text: str):
    try:
        return parse(text, "Card", WHERE)
    except CardgenError as error:
        return [str(problem) for problem in error.problems]


@settings(max_examples=60, deadline=None)
@given(first=TEXTS, second=TEXTS, name=st.sampled_from(["body", "a>b", "x", "&amp;"]))
def test_a_card_parsed_by_its_frame_is_parsed_as_a_whole(first, second, name):
    text = FRAME.format(name=name, first=first, second=second)
    whole = outcome(markup._parsed, text)
    assert outcome(markup.parse_markup, text) == whole
    assert outcome(markup.parse_markup, text) == whole  # its frame known now


def test_cards_of_one_layout_parse_their_frame_once(monkeypatch):
    parsed = []
    real = markup._parsed
    monkeypatch.setattr(markup, "_frames", {})
    monkeypatch.setattr(markup, "_parsed", lambda text, *rest: parsed.append(text) or real(text, *rest))
    cards = [FRAME.format(name="body", first=f"card {n} &amp; **more** text", second=f"Card {n}") for n in range(5)]
    elements = [markup.parse_markup(text, f"Card {n}", WHERE) for n, text in enumerate(cards)]
    assert len(parsed) == 1 and "card 0" not in parsed[0]  # the frame, its boxes emptied
    assert [[e.content for e in card if e.tag == "text"] for card in elements] == [
        [f"card {n} & **more** text", f"Card {n}"] for n in range(5)]
    assert elements == [real(text, f"Card {n}", WHERE) for n, text in enumerate(cards)]


@pytest.mark.parametrize("content, read_as", [
    ("a\r\nb\rc", "a\nb\nc"),  # XML reads a carriage return as a line feed
    ("&#65;", "A"),
    ("&#x42; &amp;lt;", "B &lt;"),
    ("x &gt; y ]] z", "x > y ]] z"),
])
def test_a_card_whose_text_the_parser_changes_reads_as_the_parser_reads_it(content, read_as):
    markup.parse_markup(FRAME.format(name="body", first="fine", second="x"), "First", WHERE)  # the frame is known
    elements = markup.parse_markup(FRAME.format(name="body", first=content, second="x"), "Second", WHERE)
    assert [e.content for e in elements if e.tag == "text"] == [read_as, "x"]


@pytest.mark.parametrize("content, problem", [
    ("a\x01b", "a value here holds U+0001 (a control character)"),
    ("<b>x</b>", "<text> cannot contain other elements"),
    ("a ]]> b", "the template does not produce valid card markup: Sequence ']]>' not allowed in content"),
    ("a &nbsp; b", "the template does not produce valid card markup: Entity 'nbsp' not defined"),
])
def test_a_card_whose_text_is_not_plain_characters_says_its_problem(content, problem):
    markup.parse_markup(FRAME.format(name="body", first="fine", second="x"), "First", WHERE)  # the frame is known
    with pytest.raises(CardgenError) as excinfo:
        markup.parse_markup(FRAME.format(name="body", first=content, second="x"), "Second", WHERE)
    (said,) = excinfo.value.problems
    assert said.card == "Second" and problem in said.message
