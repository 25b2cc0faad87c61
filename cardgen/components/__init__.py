"""Components beyond cards, built beside the card pipeline from a set's plain data: tuck boxes
(``boxes:`` in set.yaml). Each is a face drawn by a layout of its own through the same render,
layout and draw stages as cards, on a page with its own cut and fold lines."""
