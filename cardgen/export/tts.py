"""Tabletop Simulator deck sheets: up to 10 x 7 faces a sheet, the 70th slot (bottom right)
holding the hidden card (the image others see of a card in a player's hand: the back), and
the back image beside each sheet.

Faces are cropped to the trim (a table has no bleed) at the highest dpi, up to 300, at which a
10 x 7 sheet stays within 4096 px a side, what Tabletop Simulator loads on any machine. Fronts
go on sheets per card size and back; every copy takes its own slot, so that the import dialog's
"Number" is the sheet's card count. ``tts.json`` lists each sheet with its numbers.
"""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from PIL import Image

from .. import pipeline
from ..model import CardType
from ..proof.raster import Rasteriser, crop_centred, png_bytes
from ..units import MM_PER_INCH
from .perface import load_checked, page_mm, per_card_pdf

COLUMNS, ROWS = 10, 7
PER_SHEET = COLUMNS * ROWS - 1  # the last slot is the hidden card
MAX_SHEET_PX = 4096
MAX_DPI = 300


def tts_dpi(card_type: CardType) -> int:
    w_in, h_in = card_type.size.w / MM_PER_INCH, card_type.size.h / MM_PER_INCH
    return min(MAX_DPI, math.floor(MAX_SHEET_PX / (COLUMNS * w_in)), math.floor(MAX_SHEET_PX / (ROWS * h_in)))


def face_px(card_type: CardType) -> tuple[int, int]:
    dpi = tts_dpi(card_type)
    return round(card_type.size.w / MM_PER_INCH * dpi), round(card_type.size.h / MM_PER_INCH * dpi)


def sheet_count(faces: int) -> int:
    return math.ceil(faces / PER_SHEET)


def _groups(faces: list[dict], card_set) -> list[tuple[CardType, dict | None, list[dict]]]:
    """Fronts by (card size, back content), in order of first appearance, with a back face."""
    backs = {(f["card"], f["copy"]): f for f in faces if f["side"] == "back"}
    groups: dict[tuple, tuple[CardType, dict | None, list[dict]]] = {}
    for front in (f for f in faces if f["side"] == "front"):
        card_type = card_set.types[front["type"]]
        back = backs.get((front["card"], front["copy"]))
        size = card_type.size
        key = (size.w, size.h, size.shape, back["hash"] if back else None)
        groups.setdefault(key, (card_type, back, []))[2].append(front)
    return list(groups.values())


def saved_object(title: str, decks: list[dict], url: str) -> dict:
    """A Tabletop Simulator saved object: one deck per card size and back (a card alone is a
    single card), its sheets as CustomDeck entries (FaceURL, BackURL, NumWidth, NumHeight), the
    cards' ids in DeckIDs, each card named by its Nickname. ``url`` is where the images are:
    ``file:///`` the export folder by default (TTS reads local files on the machine that wrote
    them); upload them (TTS's Cloud Manager) and replace it to share the deck."""
    groups: dict[str, list[tuple[int, dict]]] = {}
    for number, deck in enumerate(decks, 1):
        groups.setdefault(deck["back_hash"] + ":%dx%d" % tuple(deck["card_px"]), []).append((number, deck))
    states = []
    for index, sheets in enumerate(groups.values()):
        custom = {str(number): {"FaceURL": url + deck["sheet"], "BackURL": url + deck["back"], "NumWidth": deck["columns"],
                                "NumHeight": deck["rows"], "BackIsHidden": True, "UniqueBack": False, "Type": 0}
                  for number, deck in sheets}
        cards = []
        for number, deck in sheets:
            for slot, card_name in enumerate(deck["names"]):
                card_id = number * 100 + slot
                cards.append({"Name": "Card", "Nickname": card_name, "Description": "", "CardID": card_id,
                              "Transform": _transform(0), "CustomDeck": {str(number): custom[str(number)]},
                              "GUID": _guid(f"{title}:{card_id}")})
        first_deck = sheets[0][1]
        name = f"{title} ({first_deck['card_px'][0]} x {first_deck['card_px'][1]} px)"
        if len(cards) == 1:
            state = dict(cards[0], Transform=_transform(index * 3.0))
        else:
            state = {"Name": "DeckCustom", "Nickname": name, "Description": "", "Transform": _transform(index * 3.0),
                     "HideWhenFaceDown": True, "SidewaysCard": False, "DeckIDs": [c["CardID"] for c in cards],
                     "CustomDeck": custom, "ContainedObjects": cards, "GUID": _guid(f"{title}:deck:{index}")}
        states.append(state)
    return {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states, "TabStates": {},
            "VersionNumber": ""}


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _guid(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]


def export_tts(name: str, session: pipeline.Session, out: Path) -> tuple[Path, list[dict]]:
    card_set = load_checked(name, session.root)
    folder = Path(out) / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("deck-*.png"):  # sheets of an earlier export: their number may differ
        old.unlink()
    decks: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="cardgen-tts-") as temporary:
        pdf = Path(temporary) / f"{name}.pdf"
        faces = per_card_pdf(card_set, session, pdf)
        with Rasteriser(pdf) as raster:
            cache: dict[str, Image.Image] = {}

            def picture(face: dict, card_type: CardType) -> Image.Image:
                if face["hash"] not in cache:
                    raster.dpi = tts_dpi(card_type)
                    page = raster.page(face["page"] - 1)
                    cache[face["hash"]] = crop_centred(page, page_mm(card_type), face_px(card_type), raster.dpi)
                return cache[face["hash"]]

            for card_type, back, fronts in _groups(faces, card_set):
                cell_w, cell_h = face_px(card_type)
                # a type without a back gets a plain paper-white one: TTS shows every card's back
                back_image = picture(back, card_type) if back else Image.new("RGB", (cell_w, cell_h), "white")
                for start in range(0, len(fronts), PER_SHEET):
                    chunk = fronts[start:start + PER_SHEET]
                    number = len(decks) + 1
                    sheet = Image.new("RGB", (COLUMNS * cell_w, ROWS * cell_h), "white")
                    for slot, front in enumerate(chunk):
                        row, column = divmod(slot, COLUMNS)
                        sheet.paste(picture(front, card_type), (column * cell_w, row * cell_h))
                    deck = {"sheet": f"deck-{number}.png", "columns": COLUMNS, "rows": ROWS, "cards": len(chunk),
                            "card_px": [cell_w, cell_h], "back": f"deck-{number}-back.png",
                            "plain_back": back is None, "names": [f["card"] for f in chunk],
                            "back_hash": back["hash"] if back else f"plain:{cell_w}x{cell_h}"}
                    sheet.paste(back_image, ((COLUMNS - 1) * cell_w, (ROWS - 1) * cell_h))  # the hidden card
                    (folder / deck["back"]).write_bytes(png_bytes(back_image, tts_dpi(card_type)))
                    (folder / deck["sheet"]).write_bytes(png_bytes(sheet, tts_dpi(card_type)))
                    decks.append(deck)
    (folder / "tts.json").write_text(json.dumps({"set": name, "decks": decks}, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    saved = saved_object(card_set.title, decks, folder.resolve().as_uri() + "/")
    (folder / f"{name}.saved-object.json").write_text(json.dumps(saved, indent=1, ensure_ascii=False) + "\n",
                                                     encoding="utf-8")
    return folder, decks
