"""Paper sizes given as (w, h): any positive sides, portrait; anything else refused with the file
and line (mutation testing found the limits unchecked)."""
from __future__ import annotations

import pytest

from cardgen.errors import CardgenError, Source
from cardgen.sheets.sizes import paper_size

WHERE = Source("data/t/set.yaml", 3)


@pytest.mark.parametrize("paper, size", [((1, 100), (1.0, 100.0)), ((100, 1), (1.0, 100.0)),
                                         (["200mm", "150"], (150.0, 200.0))])
def test_any_positive_sides_are_a_paper(paper, size):
    assert paper_size(paper, WHERE) == size


@pytest.mark.parametrize("paper, message", [
    ((0, 100), "data/t/set.yaml:3: paper sides must be greater than 0, got 0 x 100"),
    ((100, 0), "data/t/set.yaml:3: paper sides must be greater than 0, got 100 x 0"),
    ((-5, 100), "data/t/set.yaml:3: paper sides must be greater than 0, got -5 x 100"),
    (5, "data/t/set.yaml:3: paper must be a name or (w, h) in mm, got 5"),
    ((1, 2, 3), "data/t/set.yaml:3: paper must be a name or (w, h) in mm, got [1, 2, 3]"),
])
def test_other_papers_are_refused_naming_the_file_and_line(paper, message):
    with pytest.raises(CardgenError) as error:
        paper_size(paper, WHERE)
    assert str(error.value) == message
