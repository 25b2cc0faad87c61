"""Which card products a print shop makes (products.yaml), and which product a card type is."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ruamel.yaml import YAML

from ..model import CardType
from ..units import MM_PER_INCH

PRODUCTS_FILE = Path(__file__).with_name("products.yaml")


@dataclass(frozen=True)
class Product:
    name: str  # "poker", "bridge", ...
    w: float  # mm
    h: float


@lru_cache(maxsize=1)
def _table() -> dict:
    return YAML(typ="safe").load(PRODUCTS_FILE.read_text(encoding="utf-8"))


def shop_products(shop: str) -> tuple[Product, ...]:
    entry = _table()["shops"].get(shop)
    if entry is None:
        return ()
    return tuple(Product(name, w * MM_PER_INCH, h * MM_PER_INCH) for name, (w, h) in entry["products"].items())


def shop_source(shop: str) -> str:
    entry = _table()["shops"].get(shop)
    return entry["source"] if entry else ""


def product_of(card_type: CardType, shop: str) -> Product | None:
    """The shop's product with the type's trim size (either way up), or None: a size the shop
    does not make. Round and other die-cut shapes are not card products."""
    size = card_type.size
    if size.shape != "rect":
        return None
    tolerance = _tolerance()
    for product in shop_products(shop):
        for w, h in ((product.w, product.h), (product.h, product.w)):
            if abs(size.w - w) <= tolerance and abs(size.h - h) <= tolerance:
                return product
    return None


def at_product_sizes(card_set, shop: str, shop_title: str) -> tuple:
    """The set with each type the shop makes drawn at its product's exact trim (turned as the type
    is), and a warning for each type so redrawn. Within the tolerance a 64.1 mm wide card is the
    shop's 63.5 mm poker card, and the shop takes the upload at the product's size to the pixel:
    drawn at its own size it was a 832 x 1125 PNG for The Game Crafter's 825 x 1125."""
    from dataclasses import replace

    from ..errors import Problem
    from ..model import copies_by_type
    from ..sheets.sizes import fmt

    used = {name for name, count in copies_by_type(card_set.cards).items() if count}
    types, warnings = {}, []
    for name, card_type in card_set.types.items():
        product, size = product_of(card_type, shop), card_type.size
        if product is not None:
            w, h = next(((w, h) for w, h in ((product.w, product.h), (product.h, product.w))
                         if abs(size.w - w) <= _tolerance() and abs(size.h - h) <= _tolerance()))
            if abs(size.w - w) > SAME_MM or abs(size.h - h) > SAME_MM:
                if name in used:
                    warnings.append(Problem(f'card type "{name}": {size.w:g} x {size.h:g} mm is drawn {fmt(w)} x '
                                            f'{fmt(h)} mm, the size of {shop_title} {product.name} cards',
                                            card_type.source, None, "warning"))
                card_type = replace(card_type, size=replace(size, w=w, h=h))
        types[name] = card_type
    return replace(card_set, types=types), warnings


SAME_MM = 1e-6  # a type at a product's size already (63.5 against 2.5 in = 63.49999...) is left as it is


def _tolerance() -> float:
    return float(_table()["tolerance_mm"])


def product_key(card_type: CardType, shop: str) -> tuple[str, str] | None:
    """(product, back) that decides which file or folder a type's faces go to."""
    product = product_of(card_type, shop)
    if product is None:
        return None
    return product.name, card_type.back or "plain-back"


def product_files(keys, slug) -> dict:
    """A file (or folder) name per (product, back), in order: "<product>-<back>", each slugged; a
    name taken already gets -2, -3... (backs "Standard" and "standard!" wrote one file, the second
    product's pages over the first's)."""
    names: dict = {}
    taken: set[str] = set()
    for product, back in keys:
        base = candidate = f"{slug(product)}-{slug(back)}"
        number = 1
        while candidate in taken:
            number += 1
            candidate = f"{base}-{number}"
        names[(product, back)] = candidate
        taken.add(candidate)
    return names


def refuse_nothing_sent(products, left_out: list) -> None:
    """An export that sends no face is an error, its left-out sizes said as errors: exit 0 with
    no file written kept a stale print file beside the set (DriveThruCards), or emptied the
    earlier good export's folder (The Game Crafter, MakePlayingCards)."""
    from dataclasses import replace

    from ..errors import CardgenError

    if not products and left_out:
        raise CardgenError([replace(problem, severity="error", message=f"{problem.message}, and no other face is "
                                    "sent: nothing to export") for problem in left_out])


def plain_back_warnings(card_set, type_names, shop_title: str, source_of=lambda t: t.source) -> list:
    """A warning for each type sent to a two-sided product without a back of its own."""
    from ..errors import Problem

    return [Problem(f'card type "{name}" has no back: {shop_title} prints both sides, so a plain paper-white back '
                    "is sent (name a back in set.yaml)", source_of(card_set.types[name]), None, "warning")
            for name in type_names if card_set.types[name].back is None]
