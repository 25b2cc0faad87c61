"""Card files where designers keep them: CSV with commas, semicolons or tabs (found or named),
TSV, LibreOffice ODS, and online files kept in a local copy (served here by a real HTTP server
on 127.0.0.1)."""
from __future__ import annotations

import http.server
import os
import shutil
import threading
import time

import pytest

from cardgen import CardgenError, load_set
from cardgen.load.delimiters import detect_delimiter
from projects import FIXTURES

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)

ROWS = [("Attack <12> & more", 1, "Attack <12> & more"), ("Long Winded", 1, "short")]


def error_lines(excinfo) -> list[str]:
    return [str(p) for p in excinfo.value.problems]


def use_card_file(project, entry: str) -> int:
    """Make ``entry`` the set's second card file (in place of more.csv, moved out of the set's
    folder when the entry names another file: a table left there unlisted is a warning); return its line."""
    set_yaml = project / "data/demo/set.yaml"
    text = set_yaml.read_text()
    assert "  - {file: more.csv, type: action}\n" in text
    set_yaml.write_text(text.replace("  - {file: more.csv, type: action}\n", f"  - {entry}\n"))
    if "more.csv" not in entry:
        (project / "data/demo/more.csv").rename(project / "more.csv")
    return text.splitlines().index("  - {file: more.csv, type: action}") + 1


def action_rows(card_set) -> list[tuple]:
    return [(c.name, c.count, c.fields["text"]) for c in card_set.cards if c.type == "action"][2:]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_delimiter_of_a_csv_file_is_found(project, delimiter):
    lines = ["name", "count", "text"], ["Attack <12> & more", "1", "Attack <12> & more"], ["Long Winded", "1", "short"]
    (project / "data/demo/more.csv").write_text("\n".join(delimiter.join(cells) for cells in lines) + "\n")
    assert action_rows(load_set("demo", project)) == [(n, c, t) for n, c, t in ROWS]


def test_a_semicolon_file_whose_cells_hold_commas(project):
    (project / "data/demo/more.csv").write_text(
        'name;count;text\n"Attack <12> & more";1;Attack <12> & more\nLong Winded;1;"one, two, three; four"\n')
    rows = action_rows(load_set("demo", project))
    assert rows == [("Attack <12> & more", 1, "Attack <12> & more"), ("Long Winded", 1, "one, two, three; four")]


def test_detection_picks_the_delimiter_rows_agree_on():
    assert detect_delimiter("name,text\nA,one; two\nB,three; four\n") == ","
    assert detect_delimiter("name;text\nA;one, two\nB;three, four\n") == ";"
    assert detect_delimiter("name\tcount\nA\t1\n") == "\t"
    assert detect_delimiter("name\nA\n") == ","  # nothing splits the header: a one-column file


def test_the_delimiter_named_in_set_yaml_wins(project):
    (project / "data/demo/more.csv").write_text("name|count|text\nAttack <12> & more|1|Attack <12> & more\n"
                                                "Long Winded|1|short\n")
    use_card_file(project, '{file: more.csv, type: action, delimiter: "|"}')
    assert action_rows(load_set("demo", project)) == [(n, c, t) for n, c, t in ROWS]


def test_a_bad_delimiter_is_named_with_its_line(project):
    line = use_card_file(project, "{file: more.csv, type: action, delimiter: semi}")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        f'data/demo/set.yaml:{line}: delimiter must be one character or comma, semicolon, tab; got "semi"']


def test_a_tsv_file_is_read_with_tabs_and_names_its_lines(project):
    (project / "data/demo/more.tsv").write_text("name\tcount\ttext\nAttack <12> & more\t1\tAttack, <12>\n"
                                                "Long Winded\ttwo\tshort\n")
    use_card_file(project, "{file: more.tsv, type: action}")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ['data/demo/more.tsv:3: card "Long Winded": count must be a whole number, got "two"']


def test_ods_rows_read_like_xlsx_with_row_numbers(project):
    shutil.copy(FIXTURES / "tables/cards.ods", project / "data/demo/cards.ods")
    use_card_file(project, "{file: cards.ods, type: action}")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    # rows 3 and 4 are empty; the second sheet is not read
    assert error_lines(excinfo) == ['data/demo/cards.ods:6: card "Twin": count must be a whole number, got "three"']
    ods = project / "data/demo/cards.ods"
    fixed = project / "data/demo/fixed.ods"
    _replace_in_zip(ods, fixed, "<text:p>three</text:p>", "<text:p>1</text:p>")
    use_card_file_again = (project / "data/demo/set.yaml")
    use_card_file_again.write_text(use_card_file_again.read_text().replace("cards.ods", "fixed.ods"))
    cards = [c for c in load_set("demo", project).cards if c.type == "action"][2:]
    assert [(c.name, c.count, str(c.source)) for c in cards] == [
        ("Spy", 2, "data/demo/fixed.ods:2"), ("Guard", 1, "data/demo/fixed.ods:5"), ("Twin", 1, "data/demo/fixed.ods:6")]
    spy = cards[0].fields
    assert (spy["cost"], spy["text"], spy["released"]) == (1.5, "Look at one hand.  Then rest.\nSecond line.", "2024-05-01")
    assert (cards[1].fields["cost"], cards[1].fields["text"], cards[1].fields["released"]) == (3, "Block a spy.", "")


def _replace_in_zip(source, target, old: str, new: str) -> None:
    import zipfile

    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "content.xml":
                assert old.encode() in data
                data = data.replace(old.encode(), new.encode())
            zout.writestr(item, data)


def test_a_broken_ods_file_is_named(project):
    (project / "data/demo/cards.ods").write_bytes(b"PK not really a zip")
    use_card_file(project, "{file: cards.ods, type: action}")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    (line,) = error_lines(excinfo)
    assert line.startswith("data/demo/cards.ods: cannot read the spreadsheet: not an OpenDocument spreadsheet")


class Server:
    """A real HTTP server on 127.0.0.1 serving ``files`` (path -> (content type, bytes))."""

    def __init__(self):
        self.files: dict[str, tuple[str, bytes]] = {}
        self.requests: list[str] = []
        files, requests = self.files, self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                if self.path not in files:
                    self.send_error(404, "Not Found")
                    return
                kind, body = files[self.path]
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # shutdown() waits for the loop to look again: every 0.5 s by default, each test paying it
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()

    def close(self):
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.httpd.server_close()
            self.thread.join()


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


SHEET = b"name;count;text\nAttack <12> & more;1;Attack <12> & more\nLong Winded;1;short\n"


def test_an_online_card_file_is_fetched_into_a_local_copy(project, server):
    server.files["/pub/sheet?output=csv"] = ("text/csv; charset=utf-8", SHEET)
    use_card_file(project, f'{{url: "{server.url}/pub/sheet?output=csv", file: online.csv, type: action}}')
    card_set = load_set("demo", project)
    assert action_rows(card_set) == [(n, c, t) for n, c, t in ROWS]
    assert (project / "data/demo/online.csv").read_bytes() == SHEET
    assert card_set.warnings == () and server.requests == ["/pub/sheet?output=csv"]
    # the sheet changes online: the next load takes it, and its errors name the copy's rows
    server.files["/pub/sheet?output=csv"] = ("text/csv", SHEET.replace(b"Long Winded;1", b"Long Winded;many"))
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        'data/demo/online.csv:3: card "Long Winded": count must be a whole number, got "many"']


def test_an_address_without_a_file_name_keeps_its_copy_in_downloads(project, server):
    server.files["/cards.csv"] = ("text/csv", b"name,type,count,text\nAttack <12> & more,action,1,Attack <12> & more\n"
                                              b"Long Winded,action,1,short\n")
    use_card_file(project, f"{server.url}/cards.csv")
    card_set = load_set("demo", project)
    assert action_rows(card_set) == [(n, c, t) for n, c, t in ROWS]
    assert [str(c.source) for c in card_set.cards][-2:] == ["data/demo/downloads/cards.csv:2",
                                                           "data/demo/downloads/cards.csv:3"]


def test_offline_the_copy_is_used_with_a_warning_naming_its_age(project, server, cli):
    server.files["/sheet.csv"] = ("text/csv", SHEET)
    line = use_card_file(project, f'{{url: "{server.url}/sheet.csv", file: online.csv, type: action}}')
    load_set("demo", project)
    copy = project / "data/demo/online.csv"
    kept = time.time() - 3 * 86400 - 600
    os.utime(copy, (kept, kept))
    server.close()
    card_set = load_set("demo", project)
    assert action_rows(card_set) == [(n, c, t) for n, c, t in ROWS]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(kept))
    expected = (f"data/demo/set.yaml:{line}: warning: cannot fetch {server.url}/sheet.csv: [Errno 111] Connection "
                f"refused; using the local copy data/demo/online.csv, 3 days old (kept {stamp})")
    assert [str(w) for w in card_set.warnings] == [expected]
    result = cli(project, "check", "demo")
    assert result.exit_code == 0 and expected in result.output


def test_no_answer_and_no_copy_is_an_error_naming_set_yaml(project, server):
    line = use_card_file(project, f'{{url: "{server.url}/missing.csv", file: online.csv, type: action}}')
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f"data/demo/set.yaml:{line}: cannot fetch {server.url}/missing.csv: HTTP 404 Not Found; "
                                    "there is no local copy (data/demo/online.csv) to use instead"]
    assert not (project / "data/demo/online.csv").exists()


def test_a_web_page_is_not_taken_for_a_card_file(project, server):
    server.files["/sheet"] = ("text/html", b"<html>Sign in</html>")
    line = use_card_file(project, f'{{url: "{server.url}/sheet", file: online.csv, type: action}}')
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [
        f"data/demo/set.yaml:{line}: cannot fetch {server.url}/sheet: the address gives a web page, not a card file "
        "(publish the sheet as CSV and use that address); there is no local copy (data/demo/online.csv) to use instead"]


def test_a_server_that_does_not_answer_is_given_up_after_the_timeout(project):
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection, never answers
    try:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/sheet.csv"
        line = use_card_file(project, f'{{url: "{url}", file: online.csv, type: action, timeout: 0.3}}')
        with pytest.raises(CardgenError) as excinfo:
            load_set("demo", project)
    finally:
        silent.close()
    assert error_lines(excinfo) == [f"data/demo/set.yaml:{line}: cannot fetch {url}: no answer in time; "
                                    "there is no local copy (data/demo/online.csv) to use instead"]


def test_a_copy_outside_the_set_folder_is_refused(project, server):
    line = use_card_file(project, f'{{url: "{server.url}/x.csv", file: ../../x.csv, type: action}}')
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f'data/demo/set.yaml:{line}: card file "../../x.csv" is outside the set\'s folder']
    assert server.requests == []


def test_an_ods_cell_with_a_broken_number_is_named(project):
    _replace_in_zip(FIXTURES / "tables/cards.ods", project / "data/demo/cards.ods", 'office:value="2"',
                    'office:value="two"')
    use_card_file(project, "{file: cards.ods, type: action}")
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == ["data/demo/cards.ods: cannot read the spreadsheet: broken spreadsheet "
                                    "(could not convert string to float: 'two')"]


@pytest.mark.parametrize("entry, message", [
    ('{url: "http://127.0.0.1:9/x.csv", timeout: -1}', 'timeout must be a number of seconds from 0 to 600, got "-1"'),
    ('{url: "http://127.0.0.1:9/x.csv", timeout: soon}', 'timeout must be a number of seconds from 0 to 600, got "soon"'),
    ('{url: "ftp://example.com/x.csv"}', 'url: "ftp://example.com/x.csv" is not an http:// or https:// address'),
    ('{file: more.csv, sep: ";"}', 'card file: unknown key "sep" (known: delimiter, file, timeout, type, url)'),
    ("{type: action}", "each entry of `cards` is a file name, an address, or {file:, url:, type:, delimiter:}"),
])
def test_a_bad_card_file_entry_is_named_with_its_line(project, entry, message):
    line = use_card_file(project, entry)
    with pytest.raises(CardgenError) as excinfo:
        load_set("demo", project)
    assert error_lines(excinfo) == [f"data/demo/set.yaml:{line}: {message}"]
