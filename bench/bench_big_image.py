"""Benchmark: one large photo (a ~50 MB JPEG) on 100 cards, built by ``cardgen build``.

    python bench/bench_big_image.py              # makes the JPEG once in a temporary folder
    python bench/bench_big_image.py --mb 20

The whole build process is measured by ``/usr/bin/time -v`` (elapsed time, maximum resident
set size), so interpreter start and imports count. Goal (issue 22): under 5 s and 300 MB.
The image is decoded, downsampled and embedded once per build (cardgen/draw/raster.py).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CARDGEN = Path(sys.executable).with_name("cardgen")

SET_YAML = """name: photo
title: Photo
version: "1"
size: poker
types:
  photo:
    template: photo/photo.xml.j2
cards:
  - cards.yaml
"""
TEMPLATE = """<card>
  <rect x="{{ -bleed }}" y="{{ -bleed }}" w="{{ w + 2 * bleed }}" h="{{ h + 2 * bleed }}" fill="#ffffff"/>
  <image x="4" y="4" w="{{ w - 8 }}" h="{{ h - 30 }}" src="art/big.jpg"/>
  <text x="4" y="{{ h - 24 }}" w="{{ w - 8 }}" h="18" size="12">{{ name }}</text>
</card>
"""


def make_jpeg(path: Path, megabytes: float) -> None:
    """A photo-sized JPEG of noise (which compresses least), sized from a small sample."""
    from PIL import Image

    def noise(width: int, height: int):
        return Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))

    sample = path.with_name("sample.jpg")
    noise(500, 500).save(sample, "JPEG", quality=95, subsampling=0)
    per_pixel = sample.stat().st_size / 250_000
    width = int((megabytes * 1e6 / per_pixel * 4 / 3) ** 0.5)
    noise(width, width * 3 // 4).save(path, "JPEG", quality=95, subsampling=0)


def make_project(folder: Path, jpeg: Path, cards: int) -> Path:
    root = folder / "proj"
    (root / "data" / "photo" / "art").mkdir(parents=True)
    (root / "templates" / "photo").mkdir(parents=True)
    shutil.copytree(REPO / "fonts", root / "fonts")
    (root / "data" / "photo" / "set.yaml").write_text(SET_YAML)
    (root / "templates" / "photo" / "photo.xml.j2").write_text(TEMPLATE)
    os.link(jpeg, root / "data" / "photo" / "art" / "big.jpg")
    rows = "".join(f"- {{name: Photo {n}, type: photo}}\n" for n in range(1, cards + 1))
    (root / "data" / "photo" / "cards.yaml").write_text(rows)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50, help="size of the JPEG (default 50 MB)")
    parser.add_argument("--cards", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-image-") as temporary:
        folder = Path(temporary)
        jpeg = folder / "big.jpg"
        make_jpeg(jpeg, args.mb)
        root = make_project(folder, jpeg, args.cards)
        run = subprocess.run(["/usr/bin/time", "-v", str(CARDGEN), "--root", str(root), "build", "--no-cache"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(run.stdout + run.stderr)
        elapsed = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", run.stderr)
        hours, minutes, seconds = elapsed.groups()
        seconds = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
        rss_mb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1)) / 1024
        pdf = root / "output" / "photo.pdf"
        print(f"JPEG {jpeg.stat().st_size / 1e6:.1f} MB, {args.cards} cards: {seconds:.2f} s, {rss_mb:.0f} MB peak, "
              f"PDF {pdf.stat().st_size / 1e6:.1f} MB (goal: < 5 s, < 300 MB)")
        print(run.stdout.strip())


if __name__ == "__main__":
    main()
