"""Find a sheet template by name or path.

Names: the label products shipped in ``cardgen/sheets/products/*.xml`` (gLabels format), by
part ("OL32") or brand and part ("Endisch 6500012x"), case-insensitive; "circle-cut" is
computed for each face size (grid.py) and not looked up here. Paths: a gLabels XML file
(``file.xml``, or ``file.xml#PART`` when it holds several products) or a sheet-template YAML
file (see yamlsheet.py), relative to ``root``.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...errors import Source, fail
from ...load.yamlfile import relative_name
from ..template import CIRCLE_CUT, SheetTemplate
from .glabels import GlabelsFile, read_glabels
from .yamlsheet import read_sheet_yaml

PRODUCTS = Path(__file__).resolve().parent.parent / "products"


@lru_cache(maxsize=1)
def builtin_products() -> tuple[SheetTemplate, ...]:
    products: list[SheetTemplate] = []
    for path in sorted(PRODUCTS.glob("*.xml")):
        products += read_glabels(path, f"cardgen/sheets/products/{path.name}")
    return tuple(products)


def is_path(name: str) -> bool:
    base = name.split("#", 1)[0].lower()
    return base.endswith((".xml", ".yaml", ".yml")) or "/" in base or "\\" in base


def load_template(name: str, root: Path | None = None, source: Source | None = None) -> SheetTemplate:
    if is_path(name):
        return _from_file(name, root)
    wanted = " ".join(name.split()).lower()
    for product in builtin_products():
        part = product.name.rsplit(" ", 1)[-1]
        if wanted in (product.name.lower(), part.lower()):
            return product
    known = ", ".join(p.name for p in builtin_products())
    raise fail(f'unknown sheet template "{name}" (built-in: {known}, {CIRCLE_CUT}; '
               "or the path of a gLabels .xml or a sheet-template .yaml file)", source)


def _from_file(name: str, root: Path | None) -> SheetTemplate:
    file, _, part = name.partition("#")
    path = Path(file)
    if not path.is_absolute() and root is not None:
        path = Path(root) / path
    # Messages name files from the project folder, as everywhere: relative paths are relative
    # to the set's folder (data/<set>), so the project is two levels up.
    project = None
    if root is not None:
        project = Path(root).parent.parent if Path(root).parent.name == "data" else Path(root)
    shown = relative_name(path, project) if not Path(file).is_absolute() else file
    if file.lower().endswith((".yaml", ".yml")):
        return read_sheet_yaml(path, shown, project)
    products = GlabelsFile(path, shown)
    if part:
        for brand, name_part in products.parts:
            if part.lower() in (name_part.lower(), f"{brand} {name_part}".lower()):
                return products.template(brand, name_part)
        raise fail(f'no product "{part}" in this file (it has: {_parts(products.parts)})', Source(shown))
    if len(products.parts) != 1:
        if not products.parts:
            raise fail("the file holds no <Template>", Source(shown))
        raise fail(f"the file holds {len(products.parts)} products; name one as "
                   f'"{file}#PART" (parts: {_parts(products.parts)})', Source(shown))
    return products.template(*products.parts[0])


def _parts(parts: list[tuple[str, str]]) -> str:
    names = [part for _, part in parts]
    return ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
