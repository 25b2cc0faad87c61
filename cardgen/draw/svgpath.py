"""SVG path data (``d="M 0 0 L 10 0 ..."``) as absolute segments in markup units (mm, y down).

Every command of SVG 1.1 is read: M L H V C S Q T A Z, upper case absolute, lower case
relative. Quadratic curves and elliptical arcs become cubic Beziers, which is all PDF draws.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from ..units import parse_length

_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:mm|in|pt)?)")
_SEPARATORS = " \t\r\n,"
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


class Segment(NamedTuple):
    op: str  # "M" move, "L" line, "C" cubic curve, "Z" close
    points: tuple[float, ...]  # absolute x, y pairs (mm)


def _tokens(d: str) -> list:
    tokens = []
    pos = 0
    for match in _TOKEN.finditer(d):
        gap = d[pos:match.start()]
        if gap.strip(_SEPARATORS):
            _unreadable(gap, pos)
        pos = match.end()
        command, number = match.groups()
        tokens.append(command if command else parse_length(number))
    if d[pos:].strip(_SEPARATORS):
        _unreadable(d[pos:], pos)
    return tokens


def _unreadable(text: str, pos: int):
    column = pos + len(text) - len(text.lstrip(_SEPARATORS)) + 1
    raise ValueError(f'path data: cannot read "{text.strip(_SEPARATORS)}" at character {column}')


def parse_path(d: str) -> tuple[Segment, ...]:
    """Absolute segments of SVG path data; raises ValueError naming what cannot be read."""
    tokens = _tokens(d)
    if not tokens:
        raise ValueError("path data is empty")
    if not isinstance(tokens[0], str) or tokens[0] not in "Mm":
        raise ValueError("path data must start with a move (M or m)")
    segments: list[Segment] = []
    x = y = start_x = start_y = 0.0
    last_control = None  # (x, y) of the previous curve's second control point, for S and T
    last_quad = None
    index = 0
    command = None
    while index < len(tokens):
        token = tokens[index]
        if isinstance(token, str):
            command = token
            index += 1
        elif command is None or command in "Zz":
            raise ValueError(f"path data: a number with no command before it ({token:g})")
        upper = command.upper()
        count = _ARGS[upper]
        args = tokens[index:index + count]
        if len(args) < count or any(isinstance(a, str) for a in args):
            raise ValueError(f'path data: "{command}" needs {count} numbers')
        index += count
        relative = command.islower()
        dx, dy = (x, y) if relative else (0.0, 0.0)
        control, quad = None, None
        if upper == "M":
            x, y = args[0] + dx, args[1] + dy
            start_x, start_y = x, y
            segments.append(Segment("M", (x, y)))
            command = "l" if relative else "L"  # further pairs are lines
        elif upper == "L":
            x, y = args[0] + dx, args[1] + dy
            segments.append(Segment("L", (x, y)))
        elif upper == "H":
            x = args[0] + dx
            segments.append(Segment("L", (x, y)))
        elif upper == "V":
            y = args[0] + (y if relative else 0.0)
            segments.append(Segment("L", (x, y)))
        elif upper == "C":
            x1, y1, x2, y2, x3, y3 = (args[0] + dx, args[1] + dy, args[2] + dx, args[3] + dy, args[4] + dx,
                                      args[5] + dy)
            segments.append(Segment("C", (x1, y1, x2, y2, x3, y3)))
            control, (x, y) = (x2, y2), (x3, y3)
        elif upper == "S":
            x1, y1 = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
            x2, y2, x3, y3 = args[0] + dx, args[1] + dy, args[2] + dx, args[3] + dy
            segments.append(Segment("C", (x1, y1, x2, y2, x3, y3)))
            control, (x, y) = (x2, y2), (x3, y3)
        elif upper in "QT":
            if upper == "Q":
                qx, qy, x3, y3 = args[0] + dx, args[1] + dy, args[2] + dx, args[3] + dy
            else:
                qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                x3, y3 = args[0] + dx, args[1] + dy
            segments.append(Segment("C", (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                                          x3 + 2 / 3 * (qx - x3), y3 + 2 / 3 * (qy - y3), x3, y3)))
            quad, (x, y) = (qx, qy), (x3, y3)
        elif upper == "A":
            rx, ry, angle, large, sweep, x3, y3 = args
            x3, y3 = x3 + dx, y3 + dy
            segments.extend(_arc(x, y, rx, ry, angle, bool(large), bool(sweep), x3, y3))
            x, y = x3, y3
        else:  # Z
            segments.append(Segment("Z", ()))
            x, y = start_x, start_y
        last_control, last_quad = control, quad
    return tuple(segments)


def _arc(x1, y1, rx, ry, angle, large, sweep, x2, y2) -> list[Segment]:
    """An SVG elliptical arc as cubic Beziers (the endpoint-to-centre conversion of SVG 1.1, F.6)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx * rx == 0 or ry * ry == 0:  # 0, or so small its square is 0 (1e-300): a line, as SVG draws a 0 radius
        return [Segment("L", (x2, y2))]
    phi = math.radians(angle % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos_phi * hx + sin_phi * hy, -sin_phi * hx + cos_phi * hy
    scale = x1p ** 2 / rx ** 2 + y1p ** 2 / ry ** 2
    if scale > 1:  # radii too small: scaled up just enough, as SVG says
        grow = math.sqrt(scale) if scale < math.inf else math.hypot(x1p / rx, y1p / ry)  # 1e-160 squared: inf
        rx, ry = rx * grow, ry * grow
    num = rx ** 2 * ry ** 2 - rx ** 2 * y1p ** 2 - ry ** 2 * x1p ** 2
    den = rx ** 2 * y1p ** 2 + ry ** 2 * x1p ** 2
    factor = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2

    def angle_of(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    start = angle_of(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    delta = angle_of((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    k = 4 / 3 * math.tan(step / 4)
    segments = []

    def point(t):
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cx + cos_phi * ex - sin_phi * ey, cy + sin_phi * ex + cos_phi * ey

    def derivative(t):
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos_phi * ex - sin_phi * ey, sin_phi * ex + cos_phi * ey

    t = start
    for _ in range(pieces):
        t2 = t + step
        (px1, py1), (px2, py2) = point(t), point(t2)
        (d1x, d1y), (d2x, d2y) = derivative(t), derivative(t2)
        segments.append(Segment("C", (px1 + k * d1x, py1 + k * d1y, px2 - k * d2x, py2 - k * d2y, px2, py2)))
        t = t2
    last = segments[-1].points
    segments[-1] = Segment("C", last[:4] + (x2, y2))  # land exactly on the endpoint
    return segments


def pdf_path(segments, geometry) -> str:
    """The PDF path operators of segments, in a face's PDF coordinates."""
    ops = []
    for op, pts in segments:
        coords = " ".join(f"{geometry.x(pts[i]):.3f} {geometry.y(pts[i + 1]):.3f}" for i in range(0, len(pts), 2))
        ops.append({"M": f"{coords} m", "L": f"{coords} l", "C": f"{coords} c", "Z": "h"}[op])
    return " ".join(ops)


def bounds(segments) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of every point, control points included: a box the path lies in."""
    xs = [pts[i] for _, pts in segments for i in range(0, len(pts), 2)]
    ys = [pts[i + 1] for _, pts in segments for i in range(0, len(pts), 2)]
    return min(xs), min(ys), max(xs), max(ys)


AREA_EXTENT = 0.001  # mm: an outline thinner than this everywhere encloses nothing a press can print


def subpaths(segments) -> list[list[tuple[float, float]]]:
    """The points of each subpath (from one move to the next), control points included."""
    found: list[list[tuple[float, float]]] = []
    for op, pts in segments:
        if op == "M" or not found:
            found.append([])
        found[-1].extend((pts[i], pts[i + 1]) for i in range(0, len(pts), 2))
    return found


def encloses_area(point_lists) -> bool:
    """Whether an outline of these subpaths encloses any area: one subpath whose points are not
    all within ``AREA_EXTENT`` of one line (a curve lies inside its control points' hull, so
    points on a line bound a curve on it too)."""
    for points in point_lists:
        if len(points) < 3:
            continue
        x0, y0 = points[0]
        far = max(points, key=lambda p: (p[0] - x0) ** 2 + (p[1] - y0) ** 2)
        dx, dy = far[0] - x0, far[1] - y0
        length = math.hypot(dx, dy)
        if length < AREA_EXTENT:
            continue
        if any(abs(dx * (y - y0) - dy * (x - x0)) / length >= AREA_EXTENT for x, y in points):
            return True
    return False
