"""A set's colour and print settings (``color:`` and ``output-intent:`` in set.yaml)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..errors import Source, fail
from ..spelled import quoted

MODES = ("rgb", "cmyk")
COLOR_KEYS = {"mode", "profile", "ink-limit"}
INTENT_KEYS = {"identifier", "condition", "registry", "info", "profile"}
DEFAULT_INK_LIMIT = 300.0  # % total ink: SWOP's (CGATS TR 001) limit for coated web offset


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a PDF/X file names. The default is the registered SWOP condition:
    a registered condition needs no embedded profile (ISO 15930-4, PDF/X-1a:2003)."""

    identifier: str = "CGATS TR 001"
    condition: str = "SWOP (Publication) Grade 5 Paper"
    registry: str = "http://www.color.org"
    info: str = "U.S. Web Coated (SWOP) v2"
    profile: Path | None = None  # an ICC output profile to embed (needed for unregistered conditions)


@dataclass(frozen=True)
class ColorSettings:
    """A set's colour mode and how its RGB colours become CMYK (``color:`` in set.yaml)."""

    mode: str = "rgb"  # rgb: colours as written; cmyk: every RGB colour and image converted
    profile: Path | None = None  # CMYK ICC profile for the conversion (None: the formula)
    ink_limit: float = DEFAULT_INK_LIMIT  # % total ink of converted colours
    intent: OutputIntent = OutputIntent()

    @property
    def cmyk(self) -> bool:
        return self.mode == "cmyk"


def color_settings(raw: Any, intent_raw: Any, directory: Path, at) -> ColorSettings:
    """``color: cmyk`` or ``color: {mode: cmyk, profile: profiles/x.icc, ink-limit: 280}``, and
    ``output-intent: {identifier:, condition:, registry:, info:, profile:}``. ``at(container,
    key)`` gives a Source."""
    settings = {}
    if raw is not None:
        spec = {"mode": raw} if isinstance(raw, str) else raw
        if not isinstance(spec, Mapping):
            raise fail("color: is rgb, cmyk, or a mapping with mode, profile and ink-limit", at(None, "color"))
        for key in spec:
            if key not in COLOR_KEYS:
                raise fail(f'color: unknown key "{key}" (known: {", ".join(sorted(COLOR_KEYS))})', at(spec, key))
        mode = str(spec.get("mode", "cmyk")).lower()
        if mode not in MODES:
            raise fail(f'color mode must be rgb or cmyk, got {quoted(mode)}',
                       at(None, "color") if isinstance(raw, str) else at(spec, "mode"))
        settings["mode"] = mode
        if spec.get("profile") is not None:
            settings["profile"] = _file(directory, spec["profile"], at(spec, "profile"))
            _check_profile(settings["profile"], at(spec, "profile"))
        if spec.get("ink-limit") is not None:
            try:
                limit = float(spec["ink-limit"])
            except (TypeError, ValueError):
                limit = -1
            if not 100 <= limit <= 400:
                raise fail(f'ink-limit is a total ink percentage from 100 to 400, got {quoted(spec["ink-limit"])}',
                           at(spec, "ink-limit"))
            settings["ink_limit"] = limit
    if intent_raw is not None:
        from ..load.setvalues import text

        needs = ("output-intent: needs at least `identifier` (a registered condition such as "
                 '"CGATS TR 001" or "FOGRA39")')
        if not isinstance(intent_raw, Mapping):
            raise fail(needs, at(None, "output-intent"))
        values = {}
        for key in intent_raw:
            if key not in INTENT_KEYS:
                raise fail(f'output-intent: unknown key "{key}" (known: {", ".join(sorted(INTENT_KEYS))})',
                           at(intent_raw, key))
            # each is written into every PDF/X file as it reads: None, [] or '' would be the press's condition
            value = text(intent_raw, key, at, f"output-intent: {key}")
            if value is not None and not value.strip():
                raise fail(f"output-intent: {key} is empty: give it as text, or leave it out", at(intent_raw, key))
            if value is not None:
                values[key] = value
        if "identifier" not in values:
            raise fail(needs, at(None, "output-intent"))
        if "profile" in values:
            values["profile"] = _file(directory, values["profile"], at(intent_raw, "profile"))
            _check_intent_profile(values["profile"], at(intent_raw, "profile"))
        if "condition" not in values:
            values["condition"] = values["identifier"]
        if "info" not in values:
            values["info"] = values["condition"]
        if "registry" not in values and "profile" not in values:
            values["registry"] = "http://www.color.org"
        settings["intent"] = OutputIntent(**{"registry": "", **values})
    return ColorSettings(**settings)


def _file(directory: Path, name: Any, where: Source) -> Path:
    from ..paths import OutsideProject, confined, not_a_file

    try:  # the project folder holds data/<set>: confined there, like every data-named file
        path = confined(directory.resolve().parent.parent, directory, str(name), "file")
    except OutsideProject as exc:
        raise fail(str(exc), where) from None
    if not path.is_file():
        said = not_a_file(path)
        raise fail(f'file "{name}" {"not found in the set folder" if said == "not found" else said}', where)
    return path


def _check_profile(path: Path, where: Source) -> None:
    """A CMYK output profile that littleCMS can read, or an error naming the line."""
    from PIL import ImageCms

    try:
        profile = ImageCms.getOpenProfile(str(path))
        space = profile.profile.xcolor_space.strip()
    except (OSError, ImageCms.PyCMSError) as exc:
        raise fail(f'"{path.name}" is not an ICC profile littleCMS can read ({exc})', where) from None
    if space != "CMYK":
        raise fail(f'"{path.name}" is a {space} profile: a CMYK build needs a CMYK output profile', where)
    try:  # the transform the build makes: a device link, an abstract profile or one without its tables has none
        ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
                                renderingIntent=ImageCms.Intent.PERCEPTUAL)
    except (OSError, ImageCms.PyCMSError):
        raise fail(f'"{path.name}" is a CMYK profile littleCMS makes no conversion from sRGB to (its device class is '
                   f'"{profile.profile.device_class}"): a CMYK build needs a CMYK output profile with its tables, '
                   'such as your printer\'s', where) from None


ICC_HEADER = 128  # bytes, then the count of tags (4 bytes) and 12 bytes a tag


def _check_intent_profile(path: Path, where: Source) -> None:
    """The output intent's profile is embedded as it is, and a PDF/X reader takes it for the
    press's: what its header says is checked (ICC.1:2010 section 7.2), each fault named."""
    import struct

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise fail(f'"{path.name}" cannot be read ({exc.strerror or exc})', where) from None
    fault = None
    if len(data) < ICC_HEADER + 4:
        fault = f"{len(data)} bytes, shorter than an ICC header"
    elif data[36:40] != b"acsp":
        fault = "no ICC signature (acsp) in its header"
    elif struct.unpack_from(">I", data, 0)[0] != len(data):
        fault = f"its header gives a size of {struct.unpack_from('>I', data, 0)[0]} bytes, the file has {len(data)}"
    elif data[12:16] != b"prtr":
        fault = f'its device class is "{_signature(data[12:16])}", not "prtr" (an output profile)'
    elif data[16:20] != b"CMYK":
        fault = f'its colour space is "{_signature(data[16:20])}", not "CMYK"'
    else:
        count = struct.unpack_from(">I", data, ICC_HEADER)[0]
        table_end = ICC_HEADER + 4 + 12 * count
        if table_end > len(data):
            fault = f"its tag table ({count} tags) runs past the end of the file"
        else:
            for index in range(count):
                tag, offset, size = struct.unpack_from(">4sII", data, ICC_HEADER + 4 + 12 * index)
                if offset < table_end or offset + size > len(data):
                    fault = f'its tag "{_signature(tag)}" lies outside the file'
                    break
    if fault is not None:
        raise fail(f'"{path.name}" is not a CMYK output profile (ICC) to embed: {fault}', where)


def _signature(raw: bytes) -> str:
    return raw.decode("latin-1").strip().encode("unicode_escape").decode("ascii")
