"""A small CMYK printer profile (ICC v2, lut8 A2B0 and B2A0 tables) that littleCMS converts
with: black ink from lightness, no colour inks. For tests of a set's ``color: profile``."""
from __future__ import annotations

import itertools
import struct


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _lut8(inputs: int, outputs: int, grid: int, function) -> bytes:
    table = b"mft1" + bytes(4) + bytes([inputs, outputs, grid, 0])
    table += b"".join(_s15(1.0 if row == column else 0.0) for row in range(3) for column in range(3))
    ramp = bytes(range(256))
    table += ramp * inputs
    for index in itertools.product(range(grid), repeat=inputs):
        table += bytes(max(0, min(255, round(v * 255))) for v in function([i / (grid - 1) for i in index]))
    return table + ramp * outputs


def cmyk_printer_profile() -> bytes:
    description = b"cardgen test press\0"
    tags = [(b"desc", b"desc" + bytes(4) + struct.pack(">I", len(description)) + description + bytes(79)),
            (b"wtpt", b"XYZ " + bytes(4) + _s15(0.9642) + _s15(1.0) + _s15(0.8249)),
            (b"cprt", b"text" + bytes(4) + b"none\0"),
            (b"A2B0", _lut8(4, 3, 2, lambda v: [(1 - v[3]) * (1 - 0.3 * max(v[:3])), 0.5, 0.5])),
            (b"B2A0", _lut8(3, 4, 2, lambda v: [0, 0, 0, 1 - v[0]]))]
    return _profile(b"prtr", b"CMYK", b"Lab ", tags)


def adobe_rgb_profile(description: bytes = b"cardgen test wide RGB") -> bytes:
    """An RGB display profile with Adobe RGB (1998)'s primaries (D50-adapted colorants) and its
    2.2 gamma (ICC v2 matrix/TRC): a wider gamut than sRGB."""
    description += b"\0"
    gamma = b"curv" + bytes(4) + struct.pack(">IH", 1, 563) + bytes(2)  # 563 / 256 = 2.2

    def xyz(x, y, z):
        return b"XYZ " + bytes(4) + _s15(x) + _s15(y) + _s15(z)

    tags = [(b"desc", b"desc" + bytes(4) + struct.pack(">I", len(description)) + description + bytes(79)),
            (b"wtpt", xyz(0.9642, 1.0, 0.8249)), (b"cprt", b"text" + bytes(4) + b"none\0"),
            (b"rXYZ", xyz(0.6097, 0.3111, 0.0195)), (b"gXYZ", xyz(0.2053, 0.6257, 0.0609)),
            (b"bXYZ", xyz(0.1492, 0.0632, 0.7446)), (b"rTRC", gamma), (b"gTRC", gamma), (b"bTRC", gamma)]
    return _profile(b"mntr", b"RGB ", b"XYZ ", tags)


def _profile(device_class: bytes, space: bytes, connection: bytes, tags: list[tuple[bytes, bytes]]) -> bytes:
    """An ICC v2 profile of ``tags`` (signature, data), each aligned to 4 bytes, D50 white."""
    offset = 128 + 4 + 12 * len(tags)
    table, body = b"", b""
    for signature, data in tags:
        body += bytes(-(offset + len(body)) % 4)
        table += struct.pack(">4sII", signature, offset + len(body), len(data))
        body += data
    header = bytearray(128)
    struct.pack_into(">I", header, 0, 128 + 4 + len(table) + len(body))
    struct.pack_into(">I", header, 8, 0x02100000)
    header[12:16], header[16:20], header[20:24], header[36:40] = device_class, space, connection, b"acsp"
    header[68:80] = _s15(0.9642) + _s15(1.0) + _s15(0.8249)
    return bytes(header) + struct.pack(">I", len(tags)) + table + body
