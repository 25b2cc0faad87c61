"""The helpers of the streaming stages: a bounded mapping of the latest entries, batches."""
from cardgen.streams import Latest, batches


def test_only_the_latest_entries_are_kept_in_the_order_they_were_set():
    latest = Latest(3)
    for key in "abcd":
        latest[key] = key.upper()
    assert list(latest.items()) == [("b", "B"), ("c", "C"), ("d", "D")]
    latest["c"] = "again"  # setting a kept key lets nothing go
    assert list(latest) == ["b", "c", "d"] and latest["c"] == "again"
    latest["e"] = "E"
    assert list(latest) == ["c", "d", "e"]


def test_batches_take_items_from_their_source_as_needed():
    taken = []

    def source():
        for number in range(7):
            taken.append(number)
            yield number

    batched = batches(source(), 3)
    assert next(batched) == [0, 1, 2] and taken == [0, 1, 2]
    assert list(batched) == [[3, 4, 5], [6]]
