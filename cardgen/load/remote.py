"""Card files kept online (a published spreadsheet's CSV export): fetched with a timeout into a
local copy in the set's folder, which every later load reads; when the address cannot be
reached, the copy is used as it is, with a warning saying how old it is. The rows' errors
name the copy's lines, which the designer can open.

The copy is written only when what was fetched differs from it, so that a build never
changes the project by itself (and ``cardgen watch`` does not wake for nothing).
"""
from __future__ import annotations

import time
import urllib.parse
from pathlib import Path

from ..errors import Problem, Source, fail

# hashlib and the staged writer are imported where they are used: every set's load asks is_url
# of its card files, and `cardgen list`, which reads every set and writes nothing, need not
# load OpenSSL's hashes and the writer (about 7 ms of its start-up).

TIMEOUT = 10.0  # seconds, unless set.yaml gives `timeout:`
MAX_BYTES = 64 * 1024 * 1024
KNOWN_SUFFIXES = (".csv", ".tsv", ".xlsx", ".ods", ".yaml", ".yml")


def is_url(text: object) -> bool:
    return isinstance(text, str) and text.strip().lower().startswith(("http://", "https://"))


def copy_name(url: str) -> str:
    """The local copy's name when set.yaml gives none: the address's file name when it has a
    card file's suffix, else a name from its hash; a CSV unless the address says otherwise."""
    parsed = urllib.parse.urlsplit(url)
    last = Path(urllib.parse.unquote(parsed.path)).name
    if Path(last).suffix.lower() in KNOWN_SUFFIXES:
        return last
    query = urllib.parse.parse_qs(parsed.query)
    form = (query.get("format") or query.get("output") or ["csv"])[0].lower()
    suffix = f".{form}" if f".{form}" in KNOWN_SUFFIXES else ".csv"
    import hashlib

    return f"{hashlib.sha256(url.encode()).hexdigest()[:12]}{suffix}"


def _age(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' * (count != 1)} old"
    return "less than a minute old"


def _fetch(url: str, timeout: float) -> bytes:
    import urllib.request

    from .. import __version__

    request = urllib.request.Request(url, headers={"User-Agent": f"cardgen/{__version__}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        kind = response.headers.get_content_type()
        data = response.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    if kind == "text/html":
        raise ValueError("the address gives a web page, not a card file (publish the sheet as CSV and use that address)")
    return data


def fetch_copy(url: str, copy: Path, shown: str, where: Source, timeout: float = TIMEOUT) -> Problem | None:
    """Bring ``copy`` up to date from ``url``; a warning when the copy had to be used offline.
    No copy and no answer is an error naming set.yaml's line. ``shown``: the copy's name in
    messages."""
    import urllib.error  # with urllib.request (a tenth of a build's start-up): only sets that fetch need it

    try:
        data = _fetch(url, timeout)
    except (OSError, ValueError, urllib.error.URLError) as exc:
        reason = _reason(exc)
        if not copy.is_file():
            raise fail(f"cannot fetch {url}: {reason}; there is no local copy ({shown}) to use instead", where) from None
        age = _age(max(0.0, time.time() - copy.stat().st_mtime))
        kept = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(copy.stat().st_mtime))
        return Problem(f"cannot fetch {url}: {reason}; using the local copy {shown}, {age} (kept {kept})",
                       where, severity="warning")
    if not copy.is_file() or copy.read_bytes() != data:
        from ..write.atomic import staged

        from ..steady_inputs import rewritten

        with staged(copy) as (temporary,):
            temporary.write_bytes(data)
        rewritten(copy)  # the build's own save: not one made while the build read it
    return None


def _reason(exc: BaseException) -> str:
    import urllib.error

    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        if isinstance(exc.reason, TimeoutError):
            return "no answer in time"
        return str(exc.reason)
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    return str(exc)
