"""The demo project without fonts of its own, made to print in a font given by its family name,
and in the OpenType CFF fixture (tests/text: the font tests)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import cardgen
from cardgen import BuildOptions
from projects import FIXTURES
from pypdf import PdfReader

OTF = FIXTURES / "otf/Cantarell-Regular.otf"


def project_without_fonts(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / "project", root)
    return root


def use_font(root: Path, family: str, bold: bool = False) -> None:
    """Make the action cards' body text use ``family`` (bold if asked)."""
    template = root / "templates/demo/action.xml.j2"
    text = template.read_text()
    body = re.search(r'<text name="body"[^>]*>', text).group(0)
    changed = body.replace('<text name="body"', f'<text name="body" font="{family}"'
                           + (' weight="bold"' if bold else ""))
    template.write_text(text.replace(body, changed))


def build(root: Path, out: str = "output"):
    return cardgen.build(["demo"], root, root / out, BuildOptions(cache=False)).sets[0]


def otf_project(tmp_path: Path, font: Path = OTF) -> Path:
    """The demo project with its body text in the OTF face (which stands in for every style)."""
    root = project_without_fonts(tmp_path)
    (root / "fonts").mkdir()
    shutil.copy(font, root / "fonts")
    (root / "fonts/fonts.yaml").write_text("families:\n  Cantarell:\n" + "".join(
        f"    {style}: Cantarell-Regular.otf\n" for style in ("regular", "bold", "italic", "bold-italic")))
    use_font(root, "Cantarell")
    return root


def font_names(pdf: Path) -> set[str]:
    """The BaseFont of every font a page of ``pdf`` uses."""
    reader = PdfReader(pdf)
    names = set()
    for page in reader.pages:
        for font in page_fonts(page):
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def page_fonts(page) -> list:
    fonts = page["/Resources"].get_object().get("/Font")
    return list(fonts.get_object().values()) if fonts is not None else []
