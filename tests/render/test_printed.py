"""What a template prints goes through ``escaped`` (render/printable.py), which writes the text
markupsafe's ``escape`` writes, without making a Markup of it."""
from __future__ import annotations

import re
from decimal import Decimal

import pytest
from markupsafe import Markup, escape

from cardgen.render.environment import Templates
from cardgen.render.printable import PrintingTemplate, escaped

_MARKER = re.compile(r' _src="[^"]*"')
VALUES = ["plain", "", "a & b < c > d \"e\" 'f'", "caf\u00e9 \u2605", Markup("<b>kept</b>"), 0, -3, 10 ** 30,
          1.5, -0.0, 1e-7, 1e22, float("inf"), True, False, Decimal("2.50")]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_printed_value_is_the_text_escape_makes(value):
    assert escaped(value) == str(escape(value))
    if type(value) is Markup:
        assert type(escaped(value)) is Markup


TEMPLATE = """<card>
{%- macro box(v) %}<text>{{ v }}</text>{% endmacro %}
{%- set kept %}{{ value }}/{{ value ~ "&" }}{% endset %}
  <text>{{ value }}</text>{{ box(value) }}<text>{{ kept }}</text><text>{{ w + 2 * bleed }} {{ -bleed }} {{ n }}</text>
  {%- filter upper %}<text>{{ value }}</text>{% endfilter %}
  <text>{{ value | safe if value is string else value }} {{ [value, 1] | join(", ") }}</text>
</card>"""


@pytest.mark.parametrize("value", [v for v in VALUES if type(v) in (str, Markup, int, float)], ids=repr)
def test_a_template_prints_what_it_printed_with_markupsafe_escape(tmp_path, value):
    """Printed alone, in a macro, in a block set or filtered, joined: the same text either way."""
    path = tmp_path / "templates/t/card.xml.j2"
    path.parent.mkdir(parents=True)
    path.write_text(TEMPLATE)
    context = {"value": value, "w": 63.5, "bleed": 3.0, "n": 7}
    made = Templates(tmp_path)
    printed = made.render("t/card.xml.j2", context, "card", None)
    assert made._compiled["t/card.xml.j2"].root_render_func.__globals__["escape"] is escaped
    plain = Templates(tmp_path)
    plain.env.template_class = type("PlainTemplate", (PrintingTemplate.__mro__[1],), {})  # Jinja's own
    expected = plain.render("t/card.xml.j2", context, "card", None)
    assert plain._compiled["t/card.xml.j2"].root_render_func.__globals__["escape"] is escape
    assert _MARKER.sub("", printed) == _MARKER.sub("", expected)
    assert "&amp;" in printed  # (the joined "&" escaped)
