"""Layouts that extend others print only their blocks, and only the blocks their parents have:
Jinja dropped anything else without a word, and the card printed without it (a block whose name
was mistyped, ``{% block contnet %}``, left the card's content blank). Both are errors at the
line of what would be dropped."""
from __future__ import annotations

from jinja2 import nodes
from jinja2.exceptions import TemplateNotFound, TemplateSyntaxError

# What a template extending another may hold outside its blocks: it writes nothing.
_SILENT = (nodes.Extends, nodes.Block, nodes.Macro, nodes.Import, nodes.FromImport, nodes.Assign, nodes.AssignBlock)


def refuse_writing_outside_blocks(tree: nodes.Template, name: str | None, filename: str | None) -> None:
    """A template that extends another (at its top) writes nothing outside its blocks."""
    if not any(isinstance(node, nodes.Extends) for node in tree.body):
        return
    for node in tree.body:
        line = None if isinstance(node, _SILENT) else _first_written(node)
        if line is not None:
            raise TemplateSyntaxError("this template extends another, which prints only its {% block %}s: what it "
                                      "writes outside them is never printed (put it inside a block)", line, name,
                                      filename)


def _first_written(node: nodes.Node) -> int | None:
    """The line of the first thing ``node`` writes (not space), or None."""
    if isinstance(node, nodes.Output):
        for part in node.nodes:
            if not isinstance(part, nodes.TemplateData):
                return part.lineno
            if part.data.strip():
                return part.lineno + part.data[:len(part.data) - len(part.data.lstrip())].count("\n")
        return None
    if isinstance(node, (nodes.Include, nodes.CallBlock)):
        return node.lineno
    if isinstance(node, _SILENT):
        return None
    for child in node.iter_child_nodes():
        if isinstance(child, nodes.Stmt):
            line = _first_written(child)
            if line is not None:
                return line
    return None


def refuse_blocks_no_parent_has(environment, name: str) -> None:
    """Each block that a template extending another defines at its top is one of the blocks of
    the templates above it (followed up the chain of parents named as text)."""
    chain = []  # (name, its tree) from the template up to the last parent named as text
    while name is not None and name not in (known for known, _ in chain):
        try:
            tree = environment.parse(environment.loader.get_source(environment, name)[0], name)
        except (TemplateNotFound, TemplateSyntaxError):  # rendering says so, at the line that names it
            return
        chain.append((name, tree))
        name = next((node.template.value for node in tree.body if isinstance(node, nodes.Extends)
                     and isinstance(node.template, nodes.Const) and isinstance(node.template.value, str)), None)
    for index, (name, tree) in enumerate(chain[:-1]):
        above = chain[index + 1:]
        offered = {block.name for _, parent in above for block in parent.find_all(nodes.Block)}
        for block in tree.body:
            if isinstance(block, nodes.Block) and block.name not in offered:
                known = ", ".join(sorted(offered)) or "none"
                raise TemplateSyntaxError(f'block "{block.name}" is no block of the template it extends, '
                                          f'"{above[0][0]}" (its blocks: {known}): it is never printed',
                                          block.lineno, name)
