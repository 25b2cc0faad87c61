"""``{% cache %}``: a fragment kept per build prints what rendering it again would, errors and
limits included."""
from __future__ import annotations

import re

import pytest

from cardgen import CardgenError
from cardgen.limits import LimitReached
from cardgen.render.environment import Templates

_MARKER = re.compile(r' _src="[^"]*"')
STARS = """<card>
{%- cache w, bleed %}{% set field = w + 2 * bleed %}
{%- for i in range((field / 10) | int) %}
  <circle cx="{{ (i * 7 % 11 / 11 * field) | round(2) }}" fill="{{ mix("#ffffff", "#000000", i / 10) }}"/>
{%- endfor %}{{ tick() }}{% endcache %}
  <text>{{ name }}</text>
</card>"""


def templates(tmp_path, **files) -> Templates:
    for name, text in files.items():
        path = tmp_path / "templates" / "t" / f"{name}.xml.j2"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    made = Templates(tmp_path)
    made.ticks = 0

    def tick():
        made.ticks += 1
        return ""

    made.env.globals["tick"] = tick
    return made


def render(made: Templates, template: str, **context) -> str:
    """The markup without its template-line markers."""
    return _MARKER.sub("", made.render(f"t/{template}.xml.j2", context, "C", None))


def problem(made: Templates, template: str, **context) -> str:
    with pytest.raises(CardgenError) as excinfo:
        render(made, template, **context)
    (found,) = excinfo.value.problems
    return str(found)


def test_a_kept_fragment_renders_the_same_as_without_the_tag(tmp_path):
    plain = STARS.replace("{%- cache w, bleed %}", "{%- if true %}").replace("{% endcache %}", "{% endif %}")
    made = templates(tmp_path, stars=STARS, plain=plain)
    first = render(made, "stars", w=63, bleed=3, name="A")
    again = render(made, "stars", w=63, bleed=3, name="B")
    assert made.ticks == 1  # the second card reused the fragment
    assert first == render(made, "plain", w=63, bleed=3, name="A")
    assert again == render(made, "plain", w=63, bleed=3, name="B")
    assert first.count("<circle") == 6 and "<text>B</text>" in again


def test_a_different_key_renders_anew(tmp_path):
    made = templates(tmp_path, stars=STARS, keyed="<card><text>{% cache w %}{{ w }}{{ tick() }}{% endcache %}</text></card>")
    wide = render(made, "stars", w=90, bleed=3, name="A")
    narrow = render(made, "stars", w=63, bleed=3, name="A")
    assert made.ticks == 2 and wide.count("<circle") == 9 and narrow.count("<circle") == 6
    # a key as it prints: 1, 1.0, true and -0.0 / 0.0 are different fragments
    assert [render(made, "keyed", w=w) for w in (1, 1.0, True, 0.0, -0.0, 1)] == [
        f"<card><text>{w}</text></card>" for w in ("1", "1.0", "True", "0.0", "-0.0", "1")]
    assert made.ticks == 2 + 5


def test_a_fragment_per_build_and_per_template(tmp_path):
    other = STARS.replace("<circle", "<rect")
    made = templates(tmp_path, stars=STARS, other=other)
    assert "<rect" not in render(made, "stars", w=63, bleed=3, name="A")
    assert "<circle" not in render(made, "other", w=63, bleed=3, name="A")
    assert made.ticks == 2
    again = Templates(tmp_path)  # the next build starts with nothing kept
    assert again.env.fragments == {}


def test_an_error_inside_the_tag_names_its_template_line(tmp_path):
    made = templates(tmp_path, div="<card>\n{% cache n %}\n<text>{{ 10 // n }}</text>\n{% endcache %}\n</card>")
    assert render(made, "div", n=5) == "<card>\n<text>2</text>\n</card>"
    line = 'templates/t/div.xml.j2:3: card "C": integer division or modulo by zero'
    assert problem(made, "div", n=0) == line
    assert problem(made, "div", n=0) == line  # a failed fragment is not kept
    assert problem(made, "div", n=[1]).startswith(
        'templates/t/div.xml.j2:2: card "C": a {% cache %} key is a number, text, true/false or none, not list')
    assert problem(made, "div") == "templates/t/div.xml.j2:2: card \"C\": undefined name: 'n' is undefined"


def test_a_fragment_that_reads_a_name_its_keys_do_not_name_is_refused(tmp_path):
    made = templates(tmp_path, unkeyed="<card>\n{% cache w %}\n<text>{{ name }}</text>{% endcache %}\n</card>",
                     included="<card>\n{% cache w %}{% include 't/x.xml.j2' %}{% endcache %}</card>",
                     called="<card>\n\n{% cache w %}{% call tick() %}x{% endcall %}{% endcache %}</card>")
    assert problem(made, "unkeyed", w=1, name="A") == (
        'templates/t/unkeyed.xml.j2:2: card "C": template syntax error: {% cache %} reads name, which its keys do '
        'not name: a kept fragment may read only its keys (add name to them)')
    assert problem(made, "included", w=1) == (
        'templates/t/included.xml.j2:2: card "C": template syntax error: {% cache %} cannot hold {% include %} '
        '(a kept fragment renders nothing of another template)')
    assert problem(made, "called", w=1).startswith(
        'templates/t/called.xml.j2:3: card "C": template syntax error: {% cache %} cannot hold {% call (or a cache')


def test_a_function_a_card_replaces_is_not_kept(tmp_path):
    made = templates(tmp_path, keyed="<card><text>{% cache w %}{{ tick() }}{% endcache %}</text></card>")
    assert render(made, "keyed", w=1, tick=lambda: "mine") == "<card><text>mine</text></card>"
    assert render(made, "keyed", w=1) == "<card><text></text></card>" and made.ticks == 1
    assert render(made, "keyed", w=1, tick=lambda: "other") == "<card><text>other</text></card>"


# steps before the fragment, then in it: a kept fragment that would pass the limit is rendered
# again, so the limit is met at the same line as by a build that kept nothing
LOOPS = "<card>\n{% for i in range(more) %}{% endfor %}\n{% cache n %}\n{% for i in range(n) %}{% endfor %}\n{% endcache %}\n</card>"


def test_limits_apply_to_a_kept_fragment_as_to_a_fresh_one(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_MAX_TEMPLATE_STEPS", "3000")
    made = templates(tmp_path, loops=LOOPS)
    with pytest.raises(LimitReached) as inside:
        render(made, "loops", n=2000, more=0)
    assert str(inside.value.problems[0]).startswith('templates/t/loops.xml.j2:4: card "C": the template takes too many')
    render(made, "loops", n=600, more=300)  # kept: about 1,200 steps
    render(made, "loops", n=600, more=800)
    for more, line in ((1000, 4), (1300, 4), (1600, 2)):
        warm = _limit_line(made, more)
        cold = _limit_line(templates(tmp_path / f"cold{more}", loops=LOOPS), more)
        assert warm == cold and warm.startswith(f"templates/t/loops.xml.j2:{line}:"), (more, warm, cold)


def _limit_line(made: Templates, more: int) -> str:
    with pytest.raises(LimitReached) as excinfo:
        render(made, "loops", n=600, more=more)
    return str(excinfo.value.problems[0])
