"""How many elements an SVG draws once every ``<use>`` is expanded, read before svglib draws it:
``<use>`` of ``<use>`` of ... multiplies like YAML aliases (svglib's own cap of 10,000
expansions still copies trees that grow at each level, for seconds on end)."""
from __future__ import annotations

from pathlib import Path

from ..limits import SVG_ELEMENTS, limit, limit_message

_XLINK = "{http://www.w3.org/1999/xlink}href"


# libxml2's own limits, met by a file made to exhaust a reader, not by a damaged one: said as
# what they stop (libxml2's words name its C options)
_PARSER_LIMITS = (
    ("entity amplification", 'its entities expand it too far (an XML "billion laughs")'),
    ("entity reference loop", "an entity refers to itself"),
    ("Excessive depth in document", "its elements are nested too deeply"),
)


class _Circular(Exception):
    pass


def check_svg_size(path: Path) -> None:
    """Raise ValueError when the SVG at ``path`` expands past the limit, or refers to itself."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)
    try:
        root = etree.parse(str(path), parser).getroot()
    except OSError:
        return  # svglib reports an unreadable file in its own words
    except etree.XMLSyntaxError as exc:
        # svglib reads on past the damage (a file cut short draws nothing, silently): refused here
        error = exc.error_log.last_error  # this parse's: the log may hold earlier ones
        if error is None or error.level_name != "FATAL":
            return  # an undeclared xlink: prefix and the like: svglib reads those as meant
        reason = error.message.strip().rstrip(".")
        stopped = next((words for found, words in _PARSER_LIMITS if found in reason), None)
        refused = ValueError(f'cannot read SVG "{path.name}": ' + (
            stopped or f"{reason} (a damaged or cut-short file?)"))
        refused.line = error.line or None  # the file's line, for its Source
        raise refused from None
    if root is None:
        return
    _refuse_text(root, path)
    by_id = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str) and element.get("id")}
    # keyed by the elements themselves: holding them keeps lxml's proxy objects (and so their
    # identities) alive, which id() of a freed proxy would not
    sizes: dict = {}
    in_progress: set = set()
    most = limit(SVG_ELEMENTS)

    def size(element) -> int:
        key = element
        if key in sizes:
            return sizes[key]
        if key in in_progress:
            raise _Circular()
        in_progress.add(key)
        total = 1
        for child in element:
            if isinstance(child.tag, str):
                total += size(child)
        if isinstance(element.tag, str) and element.tag.rpartition("}")[2] == "use":
            href = element.get(_XLINK) or element.get("href") or ""
            target = by_id.get(href[1:]) if href.startswith("#") else None
            if target is not None:
                total += size(target)
        in_progress.discard(key)
        sizes[key] = total = min(total, most + 1)  # past the limit, how far past does not matter
        return total

    try:
        total = size(root)
    except _Circular:
        raise ValueError(f'SVG "{path.name}": a <use> refers to an element it is inside of') from None
    except RecursionError:
        raise ValueError(f'SVG "{path.name}": its elements are nested too deeply') from None
    if total > most:
        raise ValueError(limit_message(SVG_ELEMENTS, f'SVG "{path.name}" draws more than {most:,} elements '
                                                     f"once its <use> references are expanded"))


def _refuse_text(root, path: Path) -> None:
    """SVG text would be set by svglib in a font it looks for on the machine (fc-match, a file
    outside the project) or in an unembedded Times-Roman, which print shops reject: refused, with
    the way out."""
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.rpartition("}")[2] == "text":  # empty too: svglib looks
            raise ValueError(f'SVG "{path.name}" holds text (a <text> at its line {element.sourceline}), which '
                             f"cardgen does not draw inside an SVG: its font would be the machine's, not embedded; "
                             f"convert the text to paths in the SVG's editor (or remove an empty one), or write it "
                             f"in a <text> of the layout")
