"""The board's area shapes: outlines traced from a grid of cells, each border drawn once and shared.

``data/map_grid.toml`` names, cell by cell, the area each cell of the board belongs to. An area
is drawn as the outline of its cells. Every stretch of border between two areas (a *chain*, from
one meeting point of three or more areas to the next) is smoothed once and used, forwards or
backwards, by both areas: two areas share an edge exactly when their cells touch side by side,
and a test holds that to the board's borders. The map's frame is never smoothed.

>>> shapes = MapShapes.classic()
>>> shapes.width, shapes.height
(1200, 1500)
>>> frozenset({"winterfell", "the_stony_shore"}) in shapes.shared_edges()
True
>>> shapes.path("pyke").startswith("M")
True
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..util.datafile import kept, load_toml
from ..util.resources import package_files

Point = tuple[float, float]
Corner = tuple[int, int]
OUT = ""  # beyond the frame, or a lake: no area


@dataclass(frozen=True)
class Chain:
    """One stretch of border: the areas on its left and right, and its smoothed points."""

    left: str
    right: str
    points: tuple[Point, ...]

    @property
    def length(self) -> float:
        """The length of the chain's control polygon (the curve drawn is a little shorter)."""
        return sum(math.dist(a, b) for a, b in itertools.pairwise(self.points))


@dataclass(frozen=True)
class MapShapes:
    """Every area's outline and anchor point, traced from the cell grid."""

    cell: int
    rows: tuple[str, ...]
    legend: dict[str, str]  # grid character -> area id
    chains: tuple[Chain, ...]
    anchors: dict[str, Point]  # the middle of an area's widest part: where its name goes
    room: dict[str, float]  # how far from its outline the anchor lies, in pixels

    @property
    def width(self) -> int:
        return self.cell * len(self.rows[0])

    @property
    def height(self) -> int:
        return self.cell * len(self.rows)

    @staticmethod
    @cache
    def classic() -> MapShapes:
        """The classic board's shapes, from ``data/map_grid.toml``."""
        text = package_files("adjudicator.game").joinpath("data/map_grid.toml").read_text("utf-8")
        return _traced("map-outlines", [text], lambda: MapShapes.from_toml(load_toml(text, "map-grid")))

    @staticmethod
    def from_toml(data: dict[str, Any], *overlays: dict[str, Any]) -> MapShapes:
        """Trace the shapes of a parsed ``map_grid.toml``, with overlays applied in order.

        An overlay (Mother of Dragons: ``mother_of_dragons/map_shapes.toml``) may widen the grid
        (``width``: new cells to the right, no area until patched), name more areas in its
        ``legend``, and ``patch`` runs of cells: ``{row, col, cells}``. The base is never redrawn.

        :raises ValueError: for rows of unequal length, a character missing from the legend, or a
            patch outside the grid.
        """
        grid, legend = data["grid"], dict(data["legend"])
        rows = list(grid["rows"])
        lake = grid.get("lake", "~")
        if len({len(r) for r in rows}) != 1:
            raise ValueError("map grid: every row must be as long as the first")
        for overlay in overlays:
            legend.update(overlay.get("legend", {}))
            width = int(overlay.get("width", len(rows[0])))
            rows = [r.ljust(width, lake) for r in rows]
            for p in overlay.get("patch", []):
                r, c, run = int(p["row"]), int(p["col"]), str(p["cells"])
                if not (0 <= r < len(rows) and c >= 0 and c + len(run) <= len(rows[r])):
                    raise ValueError(f"map overlay {overlay.get('name', '?')}: a patch at row {r}, column {c} "
                                     "lies outside the grid")  # fmt: skip
                rows[r] = rows[r][:c] + run + rows[r][c + len(run):]
        unknown = {c for r in rows for c in r if c != lake and c not in legend}
        if unknown:
            raise ValueError(f"map grid: characters without an area in the legend: {''.join(sorted(unknown))}")
        cells = [[legend.get(c, OUT) for c in r] for r in rows]
        cell = int(grid["cell"])
        anchors, room = _anchors(cells, cell)
        return MapShapes(cell, tuple(rows), legend, _chains(cells, cell), anchors, room)

    @staticmethod
    def mother_of_dragons(*names: str) -> MapShapes:
        """The classic board with the Mother of Dragons overlays named (default: all, in order).

        >>> shapes = MapShapes.mother_of_dragons()
        >>> shapes.width, "the_bite" in shapes.anchors, "volantis" in shapes.anchors
        (1680, True, True)
        """
        pkg = package_files("adjudicator.game")
        base_text = pkg.joinpath("data/map_grid.toml").read_text("utf-8")
        mod_text = pkg.joinpath("data/mother_of_dragons/map_shapes.toml").read_text("utf-8")

        def trace() -> MapShapes:
            mod = load_toml(mod_text, "mod-map-shapes")
            chosen = [o for o in mod["overlay"] if not names or o["name"] in names]
            return MapShapes.from_toml(load_toml(base_text, "map-grid"), *chosen)

        return _traced("mod-map-outlines", [base_text, mod_text, *names], trace)

    def shared_edges(self) -> dict[frozenset[str], float]:
        """For each pair of areas that share an edge, how long it is (pixels)."""
        out: dict[frozenset[str], float] = {}
        for ch in self.chains:
            if ch.left and ch.right:
                key = frozenset((ch.left, ch.right))
                out[key] = out.get(key, 0.0) + ch.length
        return out

    def path(self, area: str) -> str:
        """The SVG path of an area's outline: every ring of it, holes included (fill-rule evenodd)."""
        return _path(self, area)

    def sea_lines(self) -> str:
        """One SVG path of every border between two seas (the seas are the background, not shapes)."""
        return "".join(f"M{_n(ch.points[0][0])} {_n(ch.points[0][1])}" + _curve(list(ch.points))
                       for ch in self.chains if ch.left and ch.right and _is_sea(ch.left) and _is_sea(ch.right))

    def coast(self) -> list[tuple[Point, ...]]:
        """The chains between land (or a port) and sea, for the coastline stroke."""
        return [ch.points for ch in self.chains if ch.left and ch.right and _is_coast(ch.left, ch.right)]


_SEA_WORDS = ("sea", "bay", "sound", "straights")


def _is_sea(area: str) -> bool:
    return any(w in area for w in _SEA_WORDS) and not area.startswith("port_of")


def _is_coast(a: str, b: str) -> bool:
    return _is_sea(a) != _is_sea(b)


# --- tracing ---------------------------------------------------------------------------------------


def _label(cells: list[list[str]], x: int, y: int) -> str:
    if 0 <= y < len(cells) and 0 <= x < len(cells[0]):
        return cells[y][x]
    return OUT


def _edges(cells: list[list[str]]) -> dict[tuple[Corner, Corner], tuple[str, str]]:
    """Every cell side between two labels, directed so that its left label is ``left``.

    A directed edge (p, q) keeps the area on its left: walking p -> q in screen coordinates
    (y down), the cell on the left is that area's.
    """
    h, w = len(cells), len(cells[0])
    out: dict[tuple[Corner, Corner], tuple[str, str]] = {}
    for y in range(h + 1):
        for x in range(w):  # horizontal side between (x, y-1) above and (x, y) below
            above, below = _label(cells, x, y - 1), _label(cells, x, y)
            if above != below:
                out[((x + 1, y), (x, y))] = (below, above)  # walking west (y down): the cell below is on the left
        if y == h:
            break
    for y in range(h):
        for x in range(w + 1):  # vertical side between (x-1, y) left and (x, y) right
            left, right = _label(cells, x - 1, y), _label(cells, x, y)
            if left != right:
                out[((x, y), (x, y + 1))] = (right, left)  # walking south: the right-hand cell is on the left
    return out


def _chains(cells: list[list[str]], cell: int) -> tuple[Chain, ...]:
    edges = _edges(cells)
    by_corner: dict[Corner, list[tuple[Corner, Corner]]] = {}
    for e in edges:
        for c in e:
            by_corner.setdefault(c, []).append(e)
    h, w = len(cells), len(cells[0])

    def junction(c: Corner) -> bool:
        around = {_label(cells, c[0] - dx, c[1] - dy) for dx in (0, 1) for dy in (0, 1)}
        return len(around) >= 3 or len(by_corner[c]) != 2 or c[0] in (0, w) or c[1] in (0, h)

    used: set[tuple[Corner, Corner]] = set()
    chains = []
    for start in sorted(edges):
        if start in used:
            continue
        pair = edges[start]
        # walk back to a junction (or around a loop) so that the chain starts at one
        first = start
        while not junction(first[0]):
            prev = next((e for e in by_corner[first[0]] if e != first and edges[e] == pair and e[1] == first[0]), None)
            if prev is None or prev == start:
                break
            first = prev
        points, e = [first[0]], first
        while True:
            used.add(e)
            points.append(e[1])
            if junction(e[1]):
                break
            nxt = next((n for n in by_corner[e[1]] if n[0] == e[1] and edges[n] == pair and n not in used), None)
            if nxt is None:
                break
            e = nxt
        framed = OUT in pair and all(p[0] in (0, w) or p[1] in (0, h) for p in points)
        pts: list[Point] = [(float(px * cell), float(py * cell)) for px, py in points]
        chains.append(Chain(pair[0], pair[1], tuple(_smooth(pts) if not framed else [pts[0], pts[-1]])))
    return tuple(chains)


def _smooth(points: list[Point], rounds: int = 0) -> list[Point]:
    """The corners of a chain, with a long straight stretch given a gentle bend: the control
    points of the curve :func:`_path` draws through them (ends kept, so chains still meet).
    ``rounds`` is unused (kept for callers of the earlier corner cutting)."""
    corners = [points[0]]
    for a, b, c in zip(points, points[1:], points[2:]):
        if (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0]):
            corners.append(b)
    corners.append(points[-1])
    out = [corners[0]]
    for a, b in itertools.pairwise(corners):
        length = abs(b[0] - a[0]) + abs(b[1] - a[1])
        if length >= 90:  # three cells or more: a bend sideways, the same for both areas it divides
            bend = ((int(a[0] * 7 + a[1] * 13 + b[0] * 3 + b[1]) % 5) - 2) * 4.0
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            out.append((mx + bend, my) if a[0] == b[0] else (mx, my + bend))
        out.append(b)
    return out


def _curve(points: list[Point]) -> str:
    """A chain from its first point to its last, smoothed: straight to the first midpoint, then a
    quadratic curve round each corner to the next midpoint, then straight to the end. Relative
    commands from the first point, which the caller has reached."""
    if len(points) == 2:
        return f"l{_n(points[1][0] - points[0][0])} {_n(points[1][1] - points[0][1])}"
    mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in itertools.pairwise(points)]
    at = points[0]
    out = [f"l{_n(mids[0][0] - at[0])} {_n(mids[0][1] - at[1])}"]
    at = mids[0]
    for corner, mid in zip(points[1:-1], mids[1:]):
        out.append(f"q{_n(corner[0] - at[0])} {_n(corner[1] - at[1])} {_n(mid[0] - at[0])} {_n(mid[1] - at[1])}")
        at = mid
    out.append(f"l{_n(points[-1][0] - at[0])} {_n(points[-1][1] - at[1])}")
    return "".join(out)


def _path(shapes: MapShapes, area: str) -> str:
    """Join an area's chains (each walked with the area on its left) into closed rings."""
    pieces = [list(ch.points) for ch in shapes.chains if ch.left == area]
    pieces += [list(reversed(ch.points)) for ch in shapes.chains if ch.right == area]
    out = []
    while pieces:
        first = pieces.pop(0)
        ring, start, end = [first], first[0], first[-1]
        while end != start:
            nxt = next((p for p in pieces if p[0] == end), None)
            if nxt is None:
                break
            pieces.remove(nxt)
            ring.append(nxt)
            end = nxt[-1]
        out.append(f"M{_n(start[0])} {_n(start[1])}" + "".join(_curve(p) for p in ring) + "z")
    return "".join(out)


def _n(v: float) -> str:
    """A coordinate in few characters: one decimal at most, no trailing zero."""
    text = f"{round(v, 1):.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _traced(name: str, sources: list[str], trace: Callable[[], MapShapes]) -> MapShapes:
    """The shapes traced by ``trace``, kept in the user's cache (:mod:`adjudicator.util.datafile`).

    Tracing the grid is most of a new process's first map; the shapes depend only on the data
    files and on this module's code, so both are in the key.
    """
    try:
        code = Path(__file__).read_text("utf-8")
    except OSError:  # no source beside the module: trace every time
        return trace()
    return kept(name, [*sources, code], trace, _shapes_json, _shapes_from_json)


def _shapes_json(s: MapShapes) -> dict[str, Any]:
    return {"cell": s.cell, "rows": s.rows, "legend": s.legend, "anchors": s.anchors, "room": s.room,
            "chains": [[ch.left, ch.right, ch.points] for ch in s.chains]}  # fmt: skip


def _shapes_from_json(d: dict[str, Any]) -> MapShapes:
    # numbers as JSON gives them back (an int stays an int): the shapes must print exactly as traced
    return MapShapes(d["cell"], tuple(d["rows"]), d["legend"],
                     tuple(Chain(left, right, tuple(tuple(p) for p in pts)) for left, right, pts in d["chains"]),
                     {k: tuple(p) for k, p in d["anchors"].items()}, d["room"])  # fmt: skip


def _anchors(cells: list[list[str]], cell: int) -> tuple[dict[str, Point], dict[str, float]]:
    """For each area, the cell farthest from any other area (its middle), and that distance."""
    h, w = len(cells), len(cells[0])
    dist = [[-1] * w for _ in range(h)]
    todo: deque[tuple[int, int]] = deque()
    for y in range(h):
        for x in range(w):
            if any(_label(cells, x + dx, y + dy) != cells[y][x] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                dist[y][x] = 0
                todo.append((x, y))
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and dist[ny][nx] < 0 and cells[ny][nx] == cells[y][x]:
                dist[ny][nx] = dist[y][x] + 1
                todo.append((nx, ny))
    best: dict[str, tuple[float, float, int, int]] = {}
    for y in range(h):
        for x in range(w):
            a = cells[y][x]
            if not a:
                continue
            # deepest first; among equals the one nearest the area's middle row band, then left-most
            key = (float(dist[y][x]), -abs(x - w / 2) / w, -y, -x)
            if a not in best or key > (best[a][0], -abs(best[a][2] - w / 2) / w, -best[a][3], -best[a][2]):
                best[a] = (float(dist[y][x]), 0.0, x, y)
    anchors = {a: ((x + 0.5) * cell, (y + 0.5) * cell) for a, (_, _, x, y) in best.items()}
    room = {a: (d + 0.5) * cell for a, (d, _, _, _) in best.items()}
    return anchors, room
