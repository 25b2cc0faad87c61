"""The bounded mapping the streaming stages remember their latest faces with."""
from cardgen.latest import Latest


def test_only_the_latest_entries_are_kept_in_the_order_they_were_set():
    latest = Latest(3)
    for key in "abcd":
        latest[key] = key.upper()
    assert list(latest.items()) == [("b", "B"), ("c", "C"), ("d", "D")]
    latest["c"] = "again"  # setting a kept key lets nothing go
    assert list(latest) == ["b", "c", "d"] and latest["c"] == "again"
    latest["e"] = "E"
    assert list(latest) == ["c", "d", "e"]
