"""Colour helpers for layouts: contrast() and mix()."""
from __future__ import annotations

import pytest

from cardgen.render.colors import contrast, contrast_ratio, mix


def test_mix_goes_from_one_colour_to_the_other():
    assert mix("#102030", "#d0e0f0", 0) == "#102030"
    assert mix("#102030", "#d0e0f0", 1) == "#d0e0f0"
    assert mix("#000000", "#ffffff", 0.25) == "#404040"
    assert mix("black", "#c00000", 0.5) == "#600000"
    with pytest.raises(ValueError):
        mix("none", "#ffffff", 0.5)


def test_contrast_picks_the_more_legible_of_black_and_white():
    assert contrast("#f2c500") == "#000000"
    assert contrast("#1f4fa8") == "#ffffff"
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
