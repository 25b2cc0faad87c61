"""Tabletop Simulator deck sheets: up to 10 x 7 faces a sheet, the 70th slot (bottom right)
holding the hidden card (the image others see of a card in a player's hand: the back), and
the back image beside each sheet.

Faces are cropped to the trim (a table has no bleed) at the highest dpi, up to 300, at which a
10 x 7 sheet stays within 4096 px a side, what Tabletop Simulator loads on any machine. Fronts
go on sheets per card size and back; every copy takes its own slot, so that the import dialog's
"Number" is the sheet's card count. ``tts.json`` lists each sheet with its numbers.
"""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path

from PIL import Image

from .. import pipeline
from ..model import CardType
from ..proof.raster import centred_box, png_bytes
from ..proof.workers import close_rasterisers, open_rasteriser, ordered_map
from ..units import MM_PER_INCH
from .perface import face_pairs, first_pages, load_checked, page_mm, per_card_pdf
from ..scratch import scratch_folder
from ..write.atomic import Batch, made_folder, staged, together

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
    groups: dict[tuple, tuple[CardType, dict | None, list[dict]]] = {}
    for front, back in face_pairs(faces):
        card_type = card_set.types[front["type"]]
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


def _face(pdf: str, face: dict, card_type: CardType) -> Image.Image:
    """A face rasterised and cropped to its trim at the type's sheet resolution, from the first
    page its content is on (``face["first"]``, perface.first_pages)."""
    dpi = tts_dpi(card_type)
    raster = open_rasteriser(pdf, dpi)
    left, top, width, height = centred_box(page_mm(card_type), face_px(card_type), dpi)
    rows = raster.rows(face["first"] - 1, scratch=True)
    return rows.crop(left, top, width, height, into=raster.scratch(height * (3 * width + 1))).image()


def _sheet(pdf: str, shared: dict[str, Image.Image], sheet: tuple) -> tuple[bytes, int]:
    """A deck sheet's PNG and the faces rasterised for it: its fronts in their slots (each
    different one rasterised once; those of other sheets too come from ``shared``) and the
    back in the last slot."""
    card_type, back_image, fronts = sheet
    cell_w, cell_h = face_px(card_type)
    image = Image.new("RGB", (COLUMNS * cell_w, ROWS * cell_h), "white")
    own: dict[str, Image.Image] = {}
    for slot, front in enumerate(fronts):
        picture = shared.get(front["hash"], own.get(front["hash"]))
        if picture is None:
            picture = own[front["hash"]] = _face(pdf, front, card_type)
        row, column = divmod(slot, COLUMNS)
        image.paste(picture, (column * cell_w, row * cell_h))
    image.paste(back_image, ((COLUMNS - 1) * cell_w, (ROWS - 1) * cell_h))  # the hidden card
    return png_bytes(image, tts_dpi(card_type)), len(own)


def export_tts(name: str, session: pipeline.Session, out: Path, jobs: int = 1) -> tuple[Path, list[dict], int]:
    """The deck sheets, their back images, ``tts.json`` and the saved object in ``out/<set>``;
    return (folder, decks, faces rasterised). A face on several sheets (a back, copies that
    straddle two sheets) is rasterised once, here; the sheets are drawn in ``jobs`` processes."""
    card_set = load_checked(name, session.root)
    folder = Path(out) / name
    decks: list[dict] = []
    # every file of the export, or none; the folder made first: a file in its way is said as the folder's
    checked: set[str] = set()
    for card in card_set.cards:  # before anything is drawn: a 20 m card is no quick drawing
        if card.count and card.type not in checked:
            checked.add(card.type)
            _check_fits(card_set.types[card.type], card.name)
    with made_folder(folder), together() as batch, scratch_folder("cardgen-tts-") as temporary:
        pdf = Path(temporary) / f"{name}.pdf"
        faces = per_card_pdf(card_set, session, pdf)
        firsts = first_pages(faces)
        faces = [{**face, "first": firsts[face["hash"]]} for face in faces]
        planned = []  # (card type, back face or None, fronts) a sheet
        for card_type, back, fronts in _groups(faces, card_set):
            planned.extend((card_type, back, fronts[start:start + PER_SHEET])
                           for start in range(0, len(fronts), PER_SHEET))
        sheets_of: dict[str, set[int]] = {}
        for number, (_, _, fronts) in enumerate(planned):
            for front in fronts:
                sheets_of.setdefault(front["hash"], set()).add(number)
        # rasterised here, before the workers start: the backs (the back images, and every
        # sheet's last slot) and the fronts on more than one sheet
        shared: dict[str, Image.Image] = {}
        for card_type, back, fronts in planned:
            wanted = ([back] if back else []) + [front for front in fronts if len(sheets_of[front["hash"]]) > 1]
            for face in wanted:
                if face["hash"] not in shared:
                    shared[face["hash"]] = _face(str(pdf), face, card_type)
        close_rasterisers(pdf)
        backs: dict[str, tuple[Image.Image, bytes]] = {}  # a back's image and its PNG, made once
        sheets = []
        for card_type, back, fronts in planned:
            cell_w, cell_h = face_px(card_type)
            # a type without a back gets a plain paper-white one: TTS shows every card's back
            back_hash = back["hash"] if back else f"plain:{cell_w}x{cell_h}"
            if back_hash not in backs:
                back_image = shared[back_hash] if back else Image.new("RGB", (cell_w, cell_h), "white")
                backs[back_hash] = back_image, png_bytes(back_image, tts_dpi(card_type))
            sheets.append((card_type, backs[back_hash][0], fronts))
        rasterised = len(shared)
        drawn = ordered_map(functools.partial(_sheet, str(pdf), shared), sheets, jobs)
        try:
            for (card_type, back, fronts), (sheet_png, count) in zip(planned, drawn):
                cell_w, cell_h = face_px(card_type)
                number = len(decks) + 1
                deck = {"sheet": f"deck-{number}.png", "columns": COLUMNS, "rows": ROWS, "cards": len(fronts),
                        "card_px": [cell_w, cell_h], "back": f"deck-{number}-back.png",
                        "plain_back": back is None, "names": [f["card"] for f in fronts],
                        "back_hash": back["hash"] if back else f"plain:{cell_w}x{cell_h}"}
                _write(folder / deck["back"], backs[deck["back_hash"]][1], batch)
                _write(folder / deck["sheet"], sheet_png, batch)
                decks.append(deck)
                rasterised += count
        finally:
            drawn.close()  # stopped half-way: the workers end at once
            close_rasterisers(pdf)
        _write(folder / "tts.json", (json.dumps({"set": name, "decks": decks}, indent=1, ensure_ascii=False)
                                     + "\n").encode("utf-8"), batch)
        saved = saved_object(card_set.title, decks, folder.resolve().as_uri() + "/")
        _write(folder / f"{name}.saved-object.json",
               (json.dumps(saved, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), batch)
    written = {deck["sheet"] for deck in decks} | {deck["back"] for deck in decks}
    for old in folder.glob("deck-*.png"):  # sheets of an earlier export past this one's number: gone once it is in
        if old.name not in written:
            old.unlink()
    return folder, decks, rasterised


def _check_fits(card_type: CardType, card: str) -> None:
    """A face a sheet holds at 1 dpi or more, at least a pixel each way: a larger one fell to 0 dpi
    and 0 pixels, and the export stopped with an internal error."""
    size = card_type.size
    width, height = face_px(card_type)
    if tts_dpi(card_type) >= 1 and min(width, height) >= 1:
        return
    from ..errors import CardgenError, Problem

    why = (f"{COLUMNS} x {ROWS} of them fit {MAX_SHEET_PX} pixels a side only below 1 dpi" if tts_dpi(card_type) < 1
           else f"it is under one pixel at {tts_dpi(card_type)} dpi")
    raise CardgenError(Problem(f"a {size.w:g} x {size.h:g} mm card cannot go on a Tabletop Simulator deck sheet: {why}",
                               card_type.source, card))


def _write(target: Path, data: bytes, batch: Batch) -> None:
    with staged(target, batch=batch) as (temporary,):
        temporary.write_bytes(data)
