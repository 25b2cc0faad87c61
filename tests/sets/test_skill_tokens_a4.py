"""On A4 the 12.7 mm skill labels go on Endisch 6500012x 12 mm labels: the die is the trim."""
from __future__ import annotations

import json
from pathlib import Path

import cardgen
from cardgen.write.manifest import load_manifest

REPO = Path(__file__).resolve().parents[2]


def test_a4_labels_sit_on_the_endisch_grid(tmp_path):
    result = cardgen.build(["skill-tokens"], REPO, tmp_path, cardgen.BuildOptions(paper="a4", cache=False))
    faces = load_manifest(result.sets[0].manifest)["faces"]
    labels = [f for f in faces if f["type"] == "label"]
    assert len(labels) == 120
    # Endisch 6500012x: A4 (210 x 297), 12 mm circles, x0 9 mm and y0 15 mm from the left and
    # top edges to the first label's box, pitch 15 mm, 13 across.
    centres = {(round(9 + 6 + 15 * c, 4), round(297 - (15 + 6 + 15 * r), 4)) for r in range(18) for c in range(13)}
    for label in labels:
        assert (label["w_mm"], label["h_mm"]) == (12, 12)
        centre = (round(label["x_mm"] + 6, 4), round(label["y_mm"] + 6, 4))
        assert centre in centres, label
    assert len({(f["x_mm"], f["y_mm"]) for f in labels}) == 120
