"""An image's placement is formatted by cardgen, digit for digit as reportlab's fp_str does."""
from __future__ import annotations

import math
import random

from reportlab.lib.rl_accel import fp_str

from cardgen.draw.images import _number, _placement


def test_numbers_are_written_as_fp_str_writes_them():
    rng = random.Random(19)
    values = [0.0, -0.0, 1e-7, -1e-7, 2e-7, 1, -1, 10, 100, 1000, 1e4, 1e5, 1e6, 0.5, -0.5, 0.9999995, 999.9995]
    values += [rng.choice((1, -1)) * 10 ** rng.uniform(-8, 7) for _ in range(20_000)]
    values += [round(v, rng.randint(0, 7)) for v in values[-5_000:]]
    # next to the powers of ten and to the ranges whose digits _number knows without a logarithm
    for edge in (1, 9.9, 10, 10.1, 99, 100, 101, 990, 1000):
        for toward in (0, 1e9):
            value = float(edge)
            for _ in range(50):
                values += [value, -value]
                value = math.nextafter(value, toward)
    assert [_number(v) for v in values] == [fp_str(v) for v in values]


def test_a_placement_is_reportlabs_translate_then_scale():
    rng = random.Random(7)
    # positions whose digits round to a power of ten, to zero with a sign, or to the last digit kept
    edges = [0.0, -0.0, 1e-7, -1e-7, -3e-7, -4.9e-7, -5e-7, -5.1e-7, 5e-7, -0.9999996, 0.9999996, 9.9999996,
             -9.9999996, 99.999996, 999.99996, 999.9999996, 1000.00004, 123456.4999, 1e6 + 0.5, -1e6 - 0.5,
             2.0 ** 53 + 2, 1e23, -1e23]
    edges += [math.nextafter(edge, toward) for edge in (1.0, 10.0, 100.0, 1000.0, 1e4, 1e5, 1e6) for toward in (0, 1e9)]
    corners = [(x, y, rng.uniform(0.1, 600), rng.uniform(0.1, 600)) for x in edges for y in rng.sample(edges, 4)]
    for x, y, w, h in corners + [tuple(rng.uniform(-600, 600) for _ in range(4)) for _ in range(5_000)]:
        a0, b0, c0, d0, e0, f0 = map(float, fp_str(1, 0, 0, 1, x, y).split())
        expected = "%s cm" % fp_str(a0 * w + c0 * 0, b0 * w + d0 * 0, a0 * 0 + c0 * h, b0 * 0 + d0 * h,
                                    a0 * 0 + c0 * 0 + e0, b0 * 0 + d0 * 0 + f0)
        assert _placement(x, y, w, h) == expected
