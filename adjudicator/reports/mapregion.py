"""Which part of the board a report shows first, enlarged: on a phone the whole board is too small to read.

At 400 pixels the whole board shrinks to a third of its size and no name can be read. So every
HTML report shows first a window of :data:`REGION_WIDTH` by :data:`REGION_HEIGHT` map pixels
(an 11-pixel name is 9.5 pixels high or more on a 400-pixel phone), placed over what its reader
cares most about: for a house, its units, its areas and its home; for the public report, this
step's marches, retreats and open combats (else where the most units stand). The whole board
follows, at its own size, to scroll across on a phone. The page crops the one map picture by CSS
margins (:meth:`Region.style`), so a mail carries no second picture and needs no script.

>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> r = house_region(state, state.board(), "stark")
>>> x, y = MapLayout.classic().shapes.anchors["winterfell"]
>>> r.x < x < r.x + r.width and r.y < y < r.y + r.height
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..game.board import Board
from ..game.state import GameState
from .svgmap import MapLayout, moves

REGION_WIDTH, REGION_HEIGHT = 440, 520  # map pixels: on a 400-px phone (382 px inside the page) x 0.87
STRIDE = 30  # the windows tried lie on the grid of the map's cells
MARGIN_X, MARGIN_Y = 50, 40  # an area counts when its marks (around its anchor) are well inside the window


@dataclass(frozen=True)
class Region:
    """A window onto the board (map pixels) and what it shows, in words."""

    x: int
    y: int
    width: int
    height: int
    caption: str

    def style(self, map_width: int, map_height: int) -> str:
        """The picture's CSS inside a box of the region's proportions: as wide as the map is to the
        region, pulled up and left by the region's place (margins in percent of the box's width, as
        CSS measures them), and cut below. The box (``overflow:hidden``) shows the region only."""

        def pct(v: float) -> str:
            return f"{v * 100 / self.width:.2f}".rstrip("0").rstrip(".") + "%"

        def pull(v: float) -> str:  # a margin that pulls the picture up or left by v map pixels
            return f"-{pct(v)}" if v else "0"

        below = map_height - self.y - self.height
        return f"width:{pct(map_width)};margin:{pull(self.y)} 0 {pull(below)} {pull(self.x)}"


def choose(board_map: str, weights: Mapping[str, float]) -> tuple[int, int]:
    """On a board's map (:meth:`MapLayout.for_map`), the window's top left corner that holds the most weight (areas by their anchors), ties broken by
    the window nearest the weights' centre, then the topmost and leftmost. Remembered by the weights:
    a house's things move little from one step to the next."""
    return _choose(board_map, tuple(sorted((a, w) for a, w in weights.items() if w > 0)))


@functools.lru_cache(maxsize=1024)
def _choose(board_map: str, weights: tuple[tuple[str, float], ...]) -> tuple[int, int]:
    layout = MapLayout.for_map(board_map)
    anchors = layout.shapes.anchors
    points = [(anchors[a], w) for a, w in weights if a in anchors]
    width, height = layout.width, layout.height
    if not points:
        return max(0, (width - REGION_WIDTH) // 2), max(0, (height - REGION_HEIGHT) // 2)
    total = sum(w for _, w in points)
    cx = sum(p[0] * w for p, w in points) / total
    cy = sum(p[1] * w for p, w in points) / total
    xs = range(0, max(1, width - REGION_WIDTH + 1), STRIDE)
    ys = range(0, max(1, height - REGION_HEIGHT + 1), STRIDE)
    held = [[0.0] * len(xs) for _ in ys]  # each point adds its weight to the windows that hold it
    for (px, py), w in points:
        ix = range(max(0, math.ceil((px - REGION_WIDTH + MARGIN_X) / STRIDE)), min(len(xs) - 1, math.floor((px - MARGIN_X) / STRIDE)) + 1)
        for j in range(max(0, math.ceil((py - REGION_HEIGHT + MARGIN_Y) / STRIDE)),
                       min(len(ys) - 1, math.floor((py - MARGIN_Y) / STRIDE)) + 1):  # fmt: skip
            row = held[j]
            for i in ix:
                row[i] += w
    most = max(max(row) for row in held)
    _, y, x = min((math.dist((x + REGION_WIDTH / 2, y + REGION_HEIGHT / 2), (cx, cy)), y, x)
                  for j, y in enumerate(ys) for i, x in enumerate(xs) if held[j][i] == most)  # fmt: skip
    return x, y


def house_region(state: GameState, board: Board, house: str) -> Region:
    """The window over a house's units (2 each), the areas it holds, its orders and power tokens (1
    each) and its home area (3)."""
    weights: dict[str, float] = {}
    for area_id, st in state.areas.items():
        if area_id not in board.areas:
            continue
        w = 2.0 * sum(1 for u in st.units if u.house == house)
        w += (board.area(area_id).is_land and state.controller(area_id, board) == house)
        w += (st.order is not None and st.order.house == house) + (st.power_token == house)
        if w:
            weights[area_id] = w
    home = board.home_area(house)
    if home in board.areas:
        weights[home] = weights.get(home, 0.0) + 3
    x, y = choose(board.map, weights)
    return Region(x, y, REGION_WIDTH, REGION_HEIGHT, f"Around House {house.title()}'s units and lands, enlarged")


def public_region(state: GameState, board: Board, events: Iterable[Any], embattled: Iterable[str] = ()) -> Region:
    """The window over this step's marches and retreats (3 for each end) and open combats (6); with
    none, over the most units."""
    weights: dict[str, float] = {}
    for _, start, end, _ in moves(events):
        for a in (start, end):
            weights[a] = weights.get(a, 0.0) + 3
    for a in embattled:
        weights[a] = weights.get(a, 0.0) + 6
    what = "Where this step's marches and combats were, enlarged"
    if not weights:
        weights = {a: float(len(st.units)) for a, st in state.areas.items() if st.units}
        what = "Where the most units stand, enlarged"
    x, y = choose(board.map, weights)
    return Region(x, y, REGION_WIDTH, REGION_HEIGHT, what)


def region_view(region: Region, layout: MapLayout) -> dict[str, str]:
    """What the HTML templates draw of a region: its caption and the picture's style."""
    return {"caption": region.caption, "style": region.style(layout.width, layout.height + layout.legend_height)}


def clear_caches() -> None:
    """Forget the windows chosen so far (for tests and benchmarks: the next are worked out afresh)."""
    _choose.cache_clear()
