"""Rich text parsed into groups of plain words and words of several runs (text/rich.py): the
shape later stages measure and join lines by."""
from __future__ import annotations

from cardgen.text.rich import Group, Run, Style, parse

PLAIN, BOLD, ITALIC = Style(), Style(bold=True), Style(italic=True)


def test_words_of_one_style_side_by_side_are_one_group_across_markers():
    assert parse("a b **c d** e") == (((Group(PLAIN, ("a", "b")), Group(BOLD, ("c", "d")), Group(PLAIN, ("e",))),),)
    assert parse("**a** **b** c") == (((Group(BOLD, ("a", "b")), Group(PLAIN, ("c",))),),)


def test_a_word_of_several_runs_or_an_icon_stands_alone_between_groups():
    assert parse("a x**y**z b :star: c *d*", icons={"star"}) == (((
        Group(PLAIN, ("a",)), (Run("x", PLAIN), Run("y", BOLD), Run("z", PLAIN)), Group(PLAIN, ("b",)),
        (Run("", PLAIN, "star"),), Group(PLAIN, ("c",)), Group(ITALIC, ("d",))),),)


def test_lines_and_paragraphs_end_the_group_being_gathered():
    assert parse("a **b\nc** d\n\ne") == (
        ((Group(PLAIN, ("a",)), Group(BOLD, ("b",))), (Group(BOLD, ("c",)), Group(PLAIN, ("d",)))),
        ((Group(PLAIN, ("e",)),),))
    assert parse("a\n\n**b**\nc") == (((Group(PLAIN, ("a",)),),), ((Group(BOLD, ("b",)),), (Group(PLAIN, ("c",)),)))
