"""cardgen/assets.py: what a face's markup names, read from its text for the face's content hash."""
from __future__ import annotations

import html

from cardgen.assets import Fingerprints


def test_the_image_sources_and_icons_a_markup_names_sorted_and_once_each():
    markup = ('<card><image src="b.png"/><text>:star: and :heart: :star:</text>'
              '<image x="1" src="a b.png"/><image src="b.png"/></card>')
    assert Fingerprints.refs(markup) == (("a b.png", "b.png"), ("heart", "star"))


def test_an_image_source_is_unescaped_as_html_unescapes_it():
    sources = ["fish&amp;chips.png", "a&#38;b.png", "&copy;&#x41;.png", "lone & sign.png", "&ampx;.png", "plain.png"]
    markup = "".join(f'<image src="{source}"/>' for source in sources)
    assert Fingerprints.refs(markup) == (tuple(sorted(html.unescape(source) for source in sources)), ())
    assert "fish&chips.png" in Fingerprints.refs(markup)[0]
