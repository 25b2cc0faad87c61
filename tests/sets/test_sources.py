"""The shipped sets say exactly what their sources say (README, "Sources").

Every text field of every card row, and every text of a set.yaml (title, variables, defaults),
is compared with the set's own source text (copied into tests/fixtures/seeds), normalising only
whitespace, quotes and markup. A field passes when it is verbatim, or when the data marks it:
`added` (the editor's words, only for finding one's way), `excerpt` (whole sentences of the
source in its order) or `rebuilt` (repaired from broken extraction, the broken words in a
comment). Then every text that a layout prints is shown to be made of data fields and
punctuation only, so the layouts add no words of their own.
"""
from __future__ import annotations

import csv
import difflib
import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import cardgen
from cardgen.load.setfile import set_names
from cardgen.render.environment import Templates
from cardgen.render.faces import FaceRenderer

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests" / "fixtures" / "seeds"
SETS = set_names(ROOT)
# Card-row keys that are the loader's or provenance markers, not printed words.
NOT_TEXT = {"each", "count", "added", "excerpt", "rebuilt"}
MARKERS = ("added", "excerpt", "rebuilt")
HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
SENTENCE_END = re.compile(r"(?<=[.!?)])\s+(?=[A-Z(\"])")


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def normalise(text: str) -> str:
    """Text as compared: markup (bold, italic, colour, icons, bullets) removed, quotes made
    plain, whitespace collapsed."""
    text = re.sub(r"\[color=[^\]]*\]|\[/color\]", "", text)
    text = re.sub(r":[a-z][a-z0-9_-]*:", "", text)
    text = text.replace("**", "").replace("*", "")
    text = re.sub(r"^\s*• ", "", text, flags=re.M)
    text = re.sub(r"[“”„‟″]", '"', text)
    text = re.sub(r"[‘’‚‛′]", "'", text)
    return " ".join(text.split())


def source_of(root: Path, name: str) -> str:
    return (SEEDS / load_yaml(root / "data" / name / "set.yaml")["source"]).read_text(encoding="utf-8")


def texts(value, path: str):
    """(path, text) for every string or number inside ``value`` (list positions leave the path)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from texts(inner, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for inner in value:
            yield from texts(inner, path)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float)):
        yield path, str(value)
    else:
        text = str(value)
        if text.strip() and text.strip().lower() != "unknown" and not HEX_COLOUR.fullmatch(text.strip()):
            yield path, text


def card_rows(root: Path, name: str):
    """(file, row) for every row of every card file of the set."""
    folder = root / "data" / name
    for entry in load_yaml(folder / "set.yaml")["cards"]:
        file = folder / (entry["file"] if isinstance(entry, dict) else entry)
        if file.suffix == ".csv":
            with file.open(encoding="utf-8", newline="") as f:
                for row in csv.DictReader(f):
                    row = {k: v for k, v in row.items() if v != ""}
                    for marker in MARKERS:
                        if marker in row:
                            row[marker] = row[marker].replace(";", " ").split()
                    yield file, row
        else:
            for row in load_yaml(file):
                yield file, row


def excerpt_problems(text: str, source: str) -> list[str]:
    """An excerpt picks whole sentences of the source, in its order; each of its lines holds
    sentences of one paragraph of the source only."""
    paragraphs = [normalise(p) for p in re.split(r"\n\s*\n", source) if p.strip()]
    problems, at = [], (0, 0)
    for line in (normalise(line) for line in text.splitlines()):
        if not line:
            continue
        sentences = SENTENCE_END.split(line)
        for index in range(at[0], len(paragraphs)):
            offset = at[1] if index == at[0] else 0
            position, found = offset, True
            for sentence in sentences:
                hit = paragraphs[index].find(sentence, position)
                if hit < 0:
                    found = False
                    break
                position = hit + len(sentence)
            if found:
                at = (index, position)
                break
        else:
            problems.append(f"not sentences of one paragraph of the source, after the previous line: {line!r}")
    return problems


def rebuilt_comments(file: Path) -> dict[str, dict[str, str]]:
    """`# rebuilt FIELD from: "..."` comments, by the name of the row that follows them."""
    found: dict[str, dict[str, str]] = {}
    pending: dict[str, str] = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        match = re.match(r'# rebuilt (\w+) from: "(.*)"$', line)
        if match:
            pending[match.group(1)] = match.group(2).replace('\\"', '"')
        elif line.startswith("- name:"):
            found[line.split(":", 1)[1].strip().strip('"')] = pending
            pending = {}
    return found


def says_more_than_a_label(text: str) -> bool:
    """Added words name or label (a page title, a type line): a few words, no sentence."""
    words = normalise(text)
    return len(words.split()) > 10 or re.search(r"[.;?]\s|[.;?]$", words) is not None


def unsourced(root: Path, name: str) -> list[str]:
    """Every text of the set that is neither its source's nor marked; empty when all hold."""
    source = source_of(root, name)
    plain = normalise(source)
    problems: list[str] = []
    set_file = root / "data" / name / "set.yaml"
    data = load_yaml(set_file)
    added = set(data.get("added") or [])
    sections = [(key, data.get(key)) for key in ("title", "variables", "defaults")]
    sections += [(f"types.{kind}.defaults", spec.get("defaults")) for kind, spec in (data.get("types") or {}).items()
                 if isinstance(spec, dict)]
    for key, value in sections:
        for path, text in texts(value, key):
            if path in added and says_more_than_a_label(text):
                problems.append(f"{set_file.relative_to(root)}: {path}: added words must only name or label, not say: {text!r}")
            elif path not in added and normalise(text) not in plain:
                problems.append(f"{set_file.relative_to(root)}: {path}: {text!r}")
    comments: dict[Path, dict] = {}
    for file, row in card_rows(root, name):
        where = f'{file.relative_to(root)}: card "{row.get("name")}"'
        marks = {marker: set(row.get(marker) or []) for marker in MARKERS}
        for field in set().union(*marks.values()):
            if field not in row:
                problems.append(f"{where}: marks {field!r}, which the row does not have")
        for field, value in row.items():
            if field in NOT_TEXT:
                continue
            for _, text in texts(value, field):
                if field in marks["added"]:
                    if says_more_than_a_label(text):
                        problems.append(f"{where}: {field}: added words must only name or label, not say: {text!r}")
                elif field in marks["excerpt"]:
                    problems += [f"{where}: {field}: {p}" for p in excerpt_problems(text, source)]
                elif field in marks["rebuilt"]:
                    broken = comments.setdefault(file, rebuilt_comments(file)).get(str(row.get("name")), {}).get(field)
                    if broken is None:
                        problems.append(f'{where}: {field}: rebuilt without a comment "# rebuilt {field} from: ..."')
                    elif normalise(broken) not in plain:
                        problems.append(f"{where}: {field}: the broken words {broken!r} are not in the source")
                    elif difflib.SequenceMatcher(None, sorted(re.sub(r"\W", "", broken)),
                                                 sorted(re.sub(r"\W", "", text))).ratio() < 0.85:
                        problems.append(f"{where}: {field}: {text!r} is not a repair of {broken!r}")
                elif normalise(text) not in plain:
                    problems.append(f"{where}: {field}: {text!r}")
    return problems


@pytest.mark.parametrize("name", SETS)
def test_every_text_field_is_its_sources_or_marked(name):
    assert unsourced(ROOT, name) == []


def test_every_shipped_set_names_a_source_copied_into_the_fixtures():
    assert SETS == ["death-mesa", "prisoners", "prisoners-warp", "prohibition", "skill-tokens"]
    for name in SETS:
        assert (SEEDS / load_yaml(ROOT / "data" / name / "set.yaml")["source"]).is_file(), name


def _copy(name: str, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "data" / name, root / "data" / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "fonts", root / "fonts")
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_word_the_source_does_not_have_fails(tmp_path):
    root = _copy("prisoners-warp", tmp_path)
    _edit(root / "data/prisoners-warp/rulings.yaml", "Play \"Deaths\" at any time.", "Play \"Deaths\" at any time, twice.")
    _edit(root / "data/prisoners-warp/set.yaml", "added: [title, ", "added: [")
    _edit(root / "data/prisoners-warp/clarifications.csv", "Can be imprisoned.,name", "Can be imprisoned.,")
    assert unsourced(root, "prisoners-warp") == [
        "data/prisoners-warp/set.yaml: title: 'Cosmic Encounter: The WARP Prisoners'",
        'data/prisoners-warp/rulings.yaml: card "Prison Deaths": when: \'Play "Deaths" at any time, twice.\'',
        'data/prisoners-warp/clarifications.csv: card "Power: ZOMBIE [EM]": name: \'Power: ZOMBIE [EM]\'',
    ]


def test_v11_wording_in_the_warp_edition_fails(tmp_path):
    root = _copy("prisoners-warp", tmp_path)
    _edit(root / "data/prisoners-warp/reference.yaml", "  text: |-\n    Prisoners, as well as",
          "  text: |-\n    **DEALS:** Prisoners, as well as")
    assert unsourced(root, "prisoners-warp") == [
        "data/prisoners-warp/reference.yaml: card \"Deals and Prisoners\": text: "
        + repr(load_yaml(root / "data/prisoners-warp/reference.yaml")[4]["text"]),
    ]


def test_an_added_sentence_and_a_reordered_excerpt_fail(tmp_path):
    root = _copy("skill-tokens", tmp_path)
    _edit(root / "data/skill-tokens/aid.yaml", "summary: Summary · the full rules are on the reference pages",
          "summary: Leaders count double. Shields never do.")
    aid = root / "data/skill-tokens/aid.yaml"
    text = aid.read_text(encoding="utf-8")
    first = "    Only Escorts on bases can be called into a challenge.\n"
    aid.write_text(text.replace(first, "").replace("    **Leader Tokens**\n", "    **Leader Tokens**\n" + first), encoding="utf-8")
    assert unsourced(root, "skill-tokens") == [
        "data/skill-tokens/aid.yaml: card \"Skill Tokens\": summary: added words must only name or label, not say: "
        "'Leaders count double. Shields never do.'",
        "data/skill-tokens/aid.yaml: card \"Skill Tokens\": text: not sentences of one paragraph of the source, "
        "after the previous line: 'Only Escorts on bases can be called into a challenge.'",
    ]


def test_a_rebuilt_text_needs_its_broken_words(tmp_path):
    root = _copy("prohibition", tmp_path)
    cards = root / "data/prohibition/cards.yaml"
    _edit(cards, '# rebuilt subtype from: "Espio\tnage"\n', "")
    _edit(cards, "  effect: All blueclaws you have get +2 health", "  effect: All blueclaws you have get +3 health and +1 loyalty")
    assert unsourced(root, "prohibition") == [
        "data/prohibition/cards.yaml: card \"Blue Claws HQ\": effect: 'All blueclaws you have get +3 health and +1 loyalty' "
        "is not a repair of 'All\\tblueclaws you have g\\tet +2 health'",
        'data/prohibition/cards.yaml: card "Falsified Ledger": subtype: rebuilt without a comment "# rebuilt subtype from: ..."',
    ]


# --- what the layouts print ---------------------------------------------------------------

def printed_texts(root: Path, name: str, types: set[str] | None = None):
    """(card, side, element name, printed text, the data strings it may be made of) for every
    text element of every face of the set (of its cards of ``types``, if given)."""
    card_set = cardgen.load_set(name, root=root)
    renderer = FaceRenderer(card_set, Templates(root))
    shared = [text for _, text in texts({"title": card_set.title, "variables": dict(card_set.variables)}, "")]
    cards = card_set.cards if types is None else [card for card in card_set.cards if card.type in types]
    for front, back in renderer.pairs(cards):
        for face in (front, back):
            if face is None or face.copy > 1:
                continue
            fields = dict(face.card.fields)
            if face.side == "back":
                fields.update(card_set.backs[face.card_type.back].fields)
            own = [text for key, value in fields.items() if key not in NOT_TEXT for _, text in texts(value, key)]
            for element in renderer.markup(face).elements():
                if element.tag == "text" and element.content:
                    yield face.card.name, face.side, element.attrs.get("name"), element.content, own + shared


def made_of(printed: str, pieces: list[str]) -> bool:
    """Whether ``printed`` is pieces (whole words, any letter case) and punctuation only."""
    target = normalise(printed).casefold()
    words = sorted({normalise(p).casefold() for p in pieces if normalise(p)}, key=len, reverse=True)
    reachable = [False] * (len(target) + 1)
    reachable[0] = True
    for at in range(len(target)):
        if not reachable[at]:
            continue
        if not target[at].isalnum():
            reachable[at + 1] = True
        elif at > 0 and target[at - 1].isalnum():
            continue  # a piece starts at a word's start
        for word in words:
            end = at + len(word)
            if target.startswith(word, at) and (end == len(target) or not target[end].isalnum() or not word[-1].isalnum()):
                reachable[end] = True
    return reachable[len(target)]


@pytest.mark.parametrize("name", SETS)
def test_layouts_print_only_data(name):
    strays = [(card, side, element, text) for card, side, element, text, pieces in printed_texts(ROOT, name)
              if not made_of(text, pieces)]
    assert strays == []


def test_a_word_written_into_a_layout_is_found(tmp_path):
    root = _copy("prisoners", tmp_path)
    _edit(root / "templates/cosmic/ruling.xml.j2", "{%- set type_line = set.labels.ruling | upper -%}",
          '{%- set type_line = (set.labels.ruling ~ " CARD") | upper -%}')
    # the Rulings, which that layout draws (no other layout includes it): the other faces are
    # test_layouts_print_only_data's
    assert "ruling.xml.j2" not in "".join(p.read_text(encoding="utf-8") for p in (root / "templates").rglob("*.j2"))
    strays = {(side, element, text) for card, side, element, text, pieces in printed_texts(root, "prisoners", {"ruling"})
              if not made_of(text, pieces)}
    assert strays == {("front", "type", "PRISONER RULING CARD")}


# --- rules files ------------------------------------------------------------------------

@pytest.mark.parametrize("name", SETS)
def test_every_rule_names_its_source_sentence(name):
    """Each rule of the set's rules files quotes the source text it comes from (`source:`)."""
    plain = normalise(source_of(ROOT, name))
    folder = ROOT / "data" / name
    missing = []
    for file in load_yaml(folder / "set.yaml")["rules"]:
        for rule in load_yaml(folder / file)["rules"]:
            quotes = rule.get("source")
            quotes = quotes if isinstance(quotes, list) else [quotes]
            if not all(quotes):
                missing.append((file, rule["name"], "no source"))
            missing += [(file, rule["name"], quote) for quote in quotes if quote and normalise(quote) not in plain]
    assert missing == []


@pytest.fixture(scope="module")
def shipped_problems() -> tuple:
    """`cardgen check` of every shipped set, every face laid out, once for the tests that read
    it (test_prisoners checks each Prisoners edition alone)."""
    return tuple(cardgen.check(root=ROOT, cache=False))


def test_check_prisoners_warns_once_that_no_power_cards_ship(shipped_problems):
    problems = [str(p) for p in shipped_problems if str(p).startswith("data/prisoners/")]
    assert len(problems) == 1
    assert problems[0].endswith('warning: rule "Prisoner Powers": the set has 0 power cards: the Prisoner Powers are in '
                                'the separate file "pr-powers" (ce-conv format), which does not ship; import it with '
                                "`cardgen import ce-conv pr-powers --set prisoners`")


def test_the_warp_capture_count_is_open_so_only_a_warning(tmp_path):
    root = _copy("prisoners-warp", tmp_path)
    _edit(root / "data/prisoners-warp/destiny.yaml", "- name: Capture Challenge ({item} player)\n",
          "- name: Capture Challenge ({item} player)\n  count: 2\n")
    problems = cardgen.check(["prisoners-warp"], root=root)
    assert {p.severity for p in problems} == {"warning"} and len(problems) == 6
    assert str(problems[0]) == (
        'data/prisoners-warp/destiny.yaml:6: warning: card "Capture Challenge (Red player)": rule "Capture Challenge '
        'cards per player (one report; not fixed by play-testing)": 2 cards where type is capture and item.name is Red, '
        "expected exactly 1")
    # The other report: two cards in all.
    assert [str(p) for p in cardgen.check(["prisoners-warp"], root=root, rules_options=["two-capture-cards"])] == [
        'data/prisoners-warp/destiny.yaml:6: warning: card "Capture Challenge (Yellow player)": rule "Capture Challenge '
        'cards in all (the other report; not fixed by play-testing)": 12 cards where type is capture, expected exactly 2']


def test_a_rules_option_applies_to_the_sets_that_offer_it(shipped_problems):
    plain = shipped_problems
    with_option = cardgen.check(root=ROOT, rules_options=["unique-indexes"], cache=False)
    assert [str(p) for p in with_option] == [str(p) for p in plain]  # no two DMD cards share an index
    assert not any(p.is_error for p in plain)
    # an option no set checked offers, with several checked (one offers another: unique-indexes)
    offered = cardgen.check(["death-mesa", "skill-tokens"], root=ROOT, rules_options=["bench-sideways"], cache=False)
    assert [str(p) for p in offered if p.is_error] == ['unknown rules option "bench-sideways" (no set checked offers it)']
