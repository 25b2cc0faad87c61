"""The templates a layout pulls in: the one it extends, those it includes or imports, theirs in
turn. Both what a layout reads (render/environment.py, for sharing renderings) and which
fields it may read through ``card`` (validate/unread.py) walk them the same way."""
from __future__ import annotations


def walk_templates(env, name: str, visit) -> bool:
    """Call ``visit(source)`` on the template ``name`` and on every template it extends,
    includes or imports, once each; ``visit`` returns the names its template references, None
    for one computed as it renders. False when such a name was met (the walk stops there)."""
    pending, seen = [name], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for referenced in visit(env.loader.get_source(env, current)[0]):
            if referenced is None:
                return False
            pending.append(referenced)
    return True
