"""The ce-conv importer: every field of the test powers survives parse -> powers.yaml -> read
back and parse -> ce-conv -> parse; malformed input is reported as ``file:line: message``;
imported powers print through the Cosmic power layout."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import cardgen
from cardgen.errors import CardgenError
from cardgen.importers.ceconv import FIELDS, format_ceconv, import_ceconv, parse_ceconv, read_powers_yaml
from cardgen.write.manifest import load_manifest

from pdftext import face_texts

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "cosmic" / "test-powers.txt"

WARDEN = {
    "name": "TESTWARDEN",
    "short": "GUARDS THE TEST CELLS",
    "use": "optional",
    "origin": "TF",
    "origin_name": "Test Fixtures",
    "restrictions": "P2",
    "text": ("You have the power to test the importer. This sentence is the first line of the power text, "
             "and this continuation line belongs to it too.\n\n"
             "A blank line starts a second paragraph of the power text: paragraph-marker."),
    "history": "A history-marker sentence, written for the tests, continued on a second line.",
    "restriction": "Restriction-marker: use only in a test.",
    "wild": "Wild-marker flare text for the Eon wild flare.",
    "super": "Super-marker flare text for the Eon super flare.",
    "wild1": "Wild1-marker one-shot wild flare text.",
    "super1": "Super1-marker one-shot super flare text.",
}
JAILER = {
    "name": "TESTJAILER", "short": "LOCKS AWAY TEST TOKENS", "use": "mandatory", "origin": "TX",
    "origin_name": "Test Extras", "restrictions": "",
    "text": "You have the power to lock test tokens away: jailer-marker.",
    "history": "", "restriction": None, "wild": "Jailer-wild-marker.", "super": None, "wild1": None, "super1": None,
}


def test_parse_reads_every_field():
    assert parse_ceconv(FIXTURE) == [WARDEN, JAILER]


def test_import_writes_powers_yaml_that_reads_back_the_same(tmp_path):
    root = copy_set(tmp_path)
    set_dir = root / "data" / "prisoners"
    written = import_ceconv(FIXTURE, set_dir)
    assert written == set_dir / "powers.yaml"
    assert read_powers_yaml(written) == [WARDEN, JAILER]
    text = written.read_text(encoding="utf-8")
    assert "restriction: unknown" in text  # a tag the file does not give
    # set.yaml now lists the powers, once, and loads with them
    set_yaml = (set_dir / "set.yaml").read_text(encoding="utf-8")
    assert set_yaml.count("- {file: powers.yaml, type: power}") == 1
    card_set = cardgen.load_set("prisoners", root=root)
    powers = {c.name: c for c in card_set.cards if c.type == "power"}
    assert set(powers) == {"TESTWARDEN", "TESTJAILER"}
    for key in FIELDS:
        expected = WARDEN[key]
        assert powers["TESTWARDEN"].fields[key] == expected, key


def test_import_is_deterministic_and_idempotent(tmp_path):
    root = copy_set(tmp_path)
    set_dir = root / "data" / "prisoners"
    import_ceconv(FIXTURE, set_dir)
    first = (set_dir / "powers.yaml").read_bytes(), (set_dir / "set.yaml").read_bytes()
    import_ceconv(FIXTURE, set_dir)
    assert ((set_dir / "powers.yaml").read_bytes(), (set_dir / "set.yaml").read_bytes()) == first


def test_format_round_trips(tmp_path):
    again = tmp_path / "again.txt"
    again.write_text(format_ceconv(parse_ceconv(FIXTURE)), encoding="utf-8")
    assert parse_ceconv(again) == [WARDEN, JAILER]


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz,.'", min_size=1, max_size=8)
SENTENCE = st.lists(WORD, min_size=1, max_size=12).map(" ".join)
PARAGRAPHS = st.lists(SENTENCE, min_size=1, max_size=3).map("\n\n".join)


@st.composite
def powers(draw):
    names = draw(st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=10),
                          min_size=1, max_size=4, unique=True))
    result = []
    for name in names:
        power = {"name": name, "short": draw(SENTENCE).upper(), "use": draw(st.sampled_from(["mandatory", "optional"])),
                 "origin": "Q", "origin_name": "Generated", "restrictions": draw(st.sampled_from(["", "P", "L2", "PL2"])),
                 "text": "You have the power to " + draw(PARAGRAPHS)}
        for key in ("history", "restriction", "wild", "super", "wild1", "super1"):
            power[key] = draw(st.none() | PARAGRAPHS)
        result.append(power)
    return result


@settings(max_examples=60, deadline=None)
@given(powers())
def test_generated_powers_round_trip(tmp_path_factory, generated):
    path = tmp_path_factory.mktemp("gen") / "gen.txt"
    path.write_text(format_ceconv(generated), encoding="utf-8")
    assert parse_ceconv(path) == generated


def problems_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        parse_ceconv(path)
    return [str(p).replace(path.as_posix(), "bad.txt") for p in caught.value.problems]


GOOD_HEAD = "#TF Test Fixtures\n"


@pytest.mark.parametrize("text,expected", [
    (GOOD_HEAD + "TESTER [X:TF] DOES TESTS\nYou have the power to test.\n",
     ['bad.txt:2: card "TESTER": the power type must be M (mandatory) or O (optional), got "X"']),
    (GOOD_HEAD + "TESTER [M:ZZ] DOES TESTS\nYou have the power to test.\n",
     ['bad.txt:2: card "TESTER": unknown origin "ZZ": define it first with a line "#ZZ Name"']),
    (GOOD_HEAD + "TESTER [M:TF DOES TESTS\nYou have the power to test.\n",
     ['bad.txt:2: a header line reads NAME [T:Origin:Restrictions] SHORT DESCRIPTION, but this one has no closing "]"']),
    (GOOD_HEAD + "TESTER [M:TF:p q] DOES TESTS\nYou have the power to test.\n",
     ['bad.txt:2: card "TESTER": restrictions are capital letters and digits (P, L, 2 ...), got "p q"']),
    (GOOD_HEAD + "TESTER [M:TF]\nYou have the power to test.\n",
     ['bad.txt:2: card "TESTER": the header has no short description after the brackets']),
    (GOOD_HEAD + "History: too early\n",
     ['bad.txt:2: "History:" outside a power: a power starts with a header line NAME [T:Origin:Restrictions] SHORT DESCRIPTION']),
    (GOOD_HEAD + "TESTER [M:TF] DOES TESTS\nYou have the power to test.\nWild: one\nWild: two\n",
     ['bad.txt:5: card "TESTER": a second "Wild:" line']),
    (GOOD_HEAD + "TESTER [M:TF] DOES TESTS\nYou have the power to test.\nWild2: a third flare\n",
     ['bad.txt:4: card "TESTER": unknown tag "Wild2:" (the tags are History:, Restriction:, Wild:, Super:, Wild1:, Super1:)']),
    (GOOD_HEAD + "TESTER [M:TF] DOES TESTS\nHistory: no text above\n",
     ['bad.txt:2: card "TESTER": no power text (a line such as "You have the power to ...") after the header']),
    (GOOD_HEAD + "stray text\n", ['bad.txt:2: text outside a power: a power starts with a header line '
                                  'NAME [T:Origin:Restrictions] SHORT DESCRIPTION']),
    ("#TF\n", ['bad.txt:1: an origin line reads "#Code Name", got "#TF"']),
    ("; nothing but a comment\n", ['bad.txt:1: no power in the file: a power starts with a header line '
                                   'NAME [T:Origin:Restrictions] SHORT DESCRIPTION']),
    (GOOD_HEAD + "TESTER [M:TF] DOES TESTS\nYou have the power to test.\n\nTESTER [O:TF] AGAIN\nYou have the power to repeat.\n",
     ['bad.txt:5: card "TESTER": the power is already defined on line 2']),
])
def test_malformed_input_names_its_line(tmp_path, text, expected):
    assert problems_of(tmp_path, text) == expected


def test_all_mistakes_are_reported_at_once(tmp_path):
    text = GOOD_HEAD + "ONE [X:TF] FIRST\nYou have the power to fail.\nTWO [M:NO] SECOND\nYou have the power to fail too.\n"
    assert problems_of(tmp_path, text) == [
        'bad.txt:2: card "ONE": the power type must be M (mandatory) or O (optional), got "X"',
        'bad.txt:4: card "TWO": unknown origin "NO": define it first with a line "#NO Name"',
    ]


def test_a_bad_file_writes_nothing(tmp_path):
    root = copy_set(tmp_path)
    set_dir = root / "data" / "prisoners"
    before = (set_dir / "set.yaml").read_bytes()
    bad = tmp_path / "bad.txt"
    bad.write_text("TESTER [M:NONE] X\nYou have the power to fail.\n", encoding="utf-8")
    with pytest.raises(CardgenError):
        import_ceconv(bad, set_dir)
    assert not (set_dir / "powers.yaml").exists()
    assert (set_dir / "set.yaml").read_bytes() == before


def test_a_write_failing_half_way_leaves_both_files_as_they_were(tmp_path, monkeypatch):
    """powers.yaml and the set.yaml that lists it are written whole or not at all: a full disk
    while writing the second leaves the first unwritten, set.yaml intact, and no temporary file."""
    root = copy_set(tmp_path)
    set_dir = root / "data" / "prisoners"
    before = sorted((p.name, p.read_bytes()) for p in set_dir.iterdir())
    written = []
    original = Path.write_text

    def full_disk(path, *args, **kwargs):
        written.append(path)
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        return original(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(OSError):
        import_ceconv(FIXTURE, set_dir)
    assert len(written) == 2  # powers.yaml's text was written, set.yaml's failed
    assert sorted((p.name, p.read_bytes()) for p in set_dir.iterdir()) == before


def test_imported_powers_print_through_the_power_layout(tmp_path):
    root = copy_set(tmp_path)
    import_ceconv(FIXTURE, root / "data" / "prisoners")
    out = tmp_path / "out"
    cardgen.build(["prisoners"], root=root, out=out)
    manifest = load_manifest(out / "prisoners.json")
    faces = [f for f in manifest["faces"] if f["type"] == "power"]
    assert sorted(f["card"] for f in faces) == ["TESTJAILER", "TESTWARDEN"]
    text = " ".join(face_texts(out / "prisoners.pdf", faces))
    text = " ".join(text.split())
    for marker in ("TESTWARDEN", "GUARDS THE TEST CELLS", "OPTIONAL POWER", "MANDATORY POWER", "Test Fixtures",
                   "paragraph-marker", "history-marker", "Restriction-marker", "Wild-marker", "Super-marker",
                   "Wild1-marker", "Super1-marker", "WILD · ONE-SHOT", "SUPER · ONE-SHOT", "jailer-marker"):
        assert marker in text, marker


def copy_set(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "data" / "prisoners", root / "data" / "prisoners")
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "fonts", root / "fonts")
    return root


def test_a_utf8_mark_before_the_first_line_is_not_text(tmp_path):
    marked = tmp_path / "marked.txt"  # Notepad saves UTF-8 with the mark; it was "text outside a power" at line 1
    marked.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8-sig")
    assert parse_ceconv(marked) == parse_ceconv(FIXTURE)
