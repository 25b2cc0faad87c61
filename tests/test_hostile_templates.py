"""Bad input from the sweep over templates and layouts, rules files and deck lists: each is said
as ``file:line: card "X": message`` at the place to edit, never as a hang, memory run out, an
internal error or a silent misprint, and a failing build keeps the earlier output."""
from __future__ import annotations

from demobuild import built, demo_build, edit, refused  # noqa: F401 (built, demo_build: fixtures)

ONE = "cardgen: 1 error, 0 warnings"
STEPS = ("the template takes too many steps (loops inside loops, or a very long value); limit: loop turns and calls in "
         "one template rendering, CARDGEN_MAX_TEMPLATE_STEPS=1000000 (set that environment variable higher to raise it)")


def test_the_text_a_loop_writes_as_it_is_counts_against_the_steps(built, cli):
    """100,000 turns (200,000 steps) over 10 KB of the template's own text (a comment) built a gigabyte: the
    build ran out of memory after 15 s, and said so without a place. Each turn now costs the text
    it writes, and the loop stops at its line."""
    project, _ = built
    edit(project / "templates/demo/action.xml.j2", "{% endblock %}",
         "{% for i in range(100000) %}\n<!-- " + "x" * 10_000 + " -->{% endfor %}\n{% endblock %}")
    refused(cli, built, f'templates/demo/action.xml.j2:7: card "Quick Draw": {STEPS}', ONE)
