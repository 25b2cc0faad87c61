"""Text to PDF string operands for reportlab's subset fonts, in one pass.

reportlab's own path (``splitString`` then ``escape``) walks every character twice in Python;
once a character has its code in the document's subset, this looks it up and escapes it in the
same step, and leaves new characters to reportlab so its subsets stay the single source.
"""
from __future__ import annotations

_ESCAPED = [chr(b) if 32 <= b < 127 else f"\\{b:03o}" for b in range(256)]
_ESCAPED[40], _ESCAPED[41], _ESCAPED[92] = "\\(", "\\)", "\\\\"


def encode(ttf, text: str, doc) -> list[tuple[int, str]]:
    """``text`` as (subset number, escaped string) runs in the font ``ttf`` of document ``doc``."""
    state = ttf.state.get(doc)
    if state is not None:
        assignments = state.assignments
        try:
            codes = [assignments[ord(c)] for c in text]
        except KeyError:
            codes = None  # a character this document has not used yet: reportlab assigns it
        if codes is not None:
            if max(codes, default=0) < 256:
                return [(0, "".join([_ESCAPED[c] for c in codes]))]
            runs: list[tuple[int, list[str]]] = []
            for code in codes:
                subset = code >> 8
                if not runs or runs[-1][0] != subset:
                    runs.append((subset, []))
                runs[-1][1].append(_ESCAPED[code & 0xFF])
            return [(subset, "".join(parts)) for subset, parts in runs]
    return [(subset, "".join([_ESCAPED[b] for b in chunk])) for subset, chunk in ttf.splitString(text, doc)]
