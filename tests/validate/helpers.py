"""Small card sets built in memory for the rules engine's tests."""
from __future__ import annotations

import textwrap
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cardgen.errors import Source
from cardgen.model import Card, CardSet

CARDS_FILE = "data/t/cards.yaml"


def card(name: str, type: str = "plain", count: int = 1, line: int = 1, **fields: Any) -> Card:
    """A card as the loader makes it: every field (with name, type, count) and its line."""
    values = {"name": name, "type": type, "count": count, **fields}
    sources = {key: Source(CARDS_FILE, line + offset) for offset, key in enumerate(values)}
    return Card(name, type, count, MappingProxyType(values), Source(CARDS_FILE, line), MappingProxyType(sources))


def make_set(root: Path, rules: str | list[str], cards: list[Card], variables: dict | None = None) -> CardSet:
    """A set in ``root/data/t`` whose rules files hold the given YAML texts (rules.yaml, rules2.yaml...)."""
    directory = root / "data" / "t"
    directory.mkdir(parents=True, exist_ok=True)
    texts = [rules] if isinstance(rules, str) else rules
    paths = []
    for index, text in enumerate(texts):
        path = directory / ("rules.yaml" if index == 0 else f"rules{index + 1}.yaml")
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        paths.append(path)
    return CardSet(
        name="t", title="Test", version="1", root=root, directory=directory, types=MappingProxyType({}),
        backs=MappingProxyType({}), cards=tuple(cards), variables=MappingProxyType(variables or {}),
        rules=tuple(paths),
    )


def lines(problems) -> list[str]:
    return [str(p) for p in problems]
