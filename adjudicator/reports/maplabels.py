"""Where an area's marks go on the map so that none covers an area's name.

Each area's name sits at its anchor, with its printed icons in a row under it and what lies there
(garrison, units, order, power token) in a row under that: within an area the rows never meet.
Small areas lie close together, though, and a row may reach under a neighbour's name. So every
row is tried at its place and then shifted sideways, a little more each time (then beside its own
name, then lower), until it meets no name's box; the first free place is taken (the same one every time: the map stays a pure function
of the state). Names are measured by an estimate of their width in the map's font, DejaVu Sans
Bold, kept on the wide side; a test measures the real names in a browser.

>>> box = name_box("Winterfell", 13, 615, 211)
>>> round(box[2] - box[0]), round(box[3] - box[1])
(78, 17)
>>> free_spot([box], 615, 212, 0, 40, 18) != (615, 212)    # under the name's baseline: moved off it
True
"""

from __future__ import annotations

from collections.abc import Sequence

Box = tuple[float, float, float, float]  # left, top, right, bottom

# Advance widths in DejaVu Sans Bold, in ems, by the letters' widths; other characters count as
# the widest of the common ones. The estimate errs wide: a name is never found narrower than it is.
_NARROW, _SLIM, _BROAD = " 'iljI.,:;|!", "frt()-", "mwMW"
ASCENT, DESCENT = 0.93, 0.24  # of the font size, above and below the baseline (DejaVu Sans)
SHIFTS = (0, -12, 12, -24, 24, -36, 36, -48, 48, -60, 60, -75, 75)  # pixels sideways, nearest first
DROPS = (16, 32)  # pixels lower, for a row caught between two names


def text_width(text: str, size: float) -> float:
    """An estimate (on the wide side) of a text's width in DejaVu Sans Bold at ``size`` pixels."""
    ems = sum(0.36 if c in _NARROW else 0.5 if c in _SLIM else 1.11 if c in _BROAD else 0.86 if c.isupper() else 0.73
              for c in text)  # fmt: skip
    return ems * size


def name_box(text: str, size: float, x: float, baseline: float, margin: float = 1.0) -> Box:
    """The box of a name centred on ``x`` with its baseline at ``baseline``."""
    half = text_width(text, size) / 2 + margin
    return (x - half, baseline - ASCENT * size - margin, x + half, baseline + DESCENT * size + margin)


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching is not overlapping)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def free_spot(names: Sequence[Box], cx: float, y: float, top: float, width: float, height: float,
              beside: Box | None = None) -> tuple[float, float]:  # fmt: skip
    """The place nearest ``(cx, y)`` for a row ``width`` wide whose drawing spans ``top`` to ``top +
    height`` from its ``y`` that meets none of ``names``: shifted sideways (:data:`SHIFTS`); then on
    the line of its own name (``beside``), after it or before it, for an area too thin for rows under
    its name; then lower (:data:`DROPS`). ``(cx, y)`` itself when every place meets a name."""
    places = [(cx + dx, y) for dx in SHIFTS]
    if beside is not None:
        level = (beside[1] + beside[3]) / 2 - top - height / 2
        places += [(beside[2] + 3 + width / 2, level), (beside[0] - 3 - width / 2, level)]
    places += [(cx + dx, y + dy) for dy in DROPS for dx in SHIFTS]
    for x, at in places:
        row = (x - width / 2, at + top, x + width / 2, at + top + height)
        if not any(meets(row, n) for n in names):
            return x, at
    return cx, y
