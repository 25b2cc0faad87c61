"""``index.html``: every card with its name, type and count, and its face images. Plain HTML
with relative links, so it opens from the disk with no server."""
from __future__ import annotations

from html import escape
from typing import Sequence

STYLE = """
body { font-family: sans-serif; margin: 1.5em; background: #f4f4f4; color: #222; }
h1 { font-size: 1.4em; } p.meta { color: #555; }
.cards { display: flex; flex-wrap: wrap; gap: 1.2em; }
figure { margin: 0; padding: .6em; background: #fff; border: 1px solid #ccc; border-radius: 4px; }
figure img { width: 180px; height: auto; display: inline-block; vertical-align: top; margin-right: .3em; }
figcaption { margin-top: .4em; max-width: 370px; }
.name { font-weight: bold; } .type, .count, .copies { color: #555; font-size: .9em; }
"""


def gallery(title: str, version: str, cards: Sequence[dict], contact: str | None) -> str:
    """``cards``: dicts with name, type, count, front (file), back (file or None), copies
    (files of the other copies' faces)."""
    total = sum(card["count"] for card in cards)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{escape(title)} proofs</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
           f"<h1>{escape(title)}</h1>",
           f'<p class="meta">version {escape(version)}: {len(cards)} card{"s" * (len(cards) != 1)}, '
           f'{total} cop{"ies" if total != 1 else "y"}'
           + (f' &middot; <a href="{escape(contact)}">contact sheet</a>' if contact else "") + "</p>",
           '<div class="cards">']
    for card in cards:
        name = escape(card["name"])
        images = [(card["front"], f"{name}, front")]
        if card.get("back"):
            images.append((card["back"], f"{name}, back"))
        out.append(f'<figure data-card="{name}">')
        for file, alt in images:
            out.append(f'<a href="{escape(file)}"><img src="{escape(file)}" alt="{alt}" loading="lazy"></a>')
        caption = [f'<span class="name">{name}</span>', f'<span class="type">{escape(card["type"])}</span>',
                   f'<span class="count">&times; {card["count"]}</span>']
        copies = card.get("copies") or []
        if copies:
            links = " ".join(f'<a href="{escape(file)}">{escape(label)}</a>' for label, file in copies)
            caption.append(f'<span class="copies">other copies: {links}</span>')
        out.append("<figcaption>" + "<br>".join(caption) + "</figcaption>")
        out.append("</figure>")
    out += ["</div>", "</body>", "</html>", ""]
    return "\n".join(out)
