"""The board as an SVG picture: a schematic map of the 58 areas, coloured by who holds them.

Shapes and places come from ``data/map.toml``; what lies in each area comes from the state.
The picture is a pure function of the state (``render_map(state) -> str``), drawn by the
``map.svg.j2`` template: each area's shape is defined once in ``<defs>``, borders are short lines
joining adjacent shapes, and a ``<desc>`` carries the same facts as text.

>>> from adjudicator.setup import new_game
>>> svg = render_map(new_game(["stark", "lannister", "baratheon"], seed="doc"))
>>> svg.startswith("<svg") and 'id="shape-winterfell"' in svg
True
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from .board import Board
from .commands import SPECIAL_TOKENS, order_kind
from .state import AreaState, GameState, Unit
from .templating import environment

Point = tuple[float, float]

# House colours: (main, tint for the areas it holds, text drawn on the main colour).
HOUSE_COLOURS: dict[str, tuple[str, str, str]] = {
    "stark": ("#7d8896", "#eef1f5", "#ffffff"),
    "lannister": ("#a4161a", "#f2c6c6", "#ffffff"),
    "greyjoy": ("#2b3640", "#9da8b4", "#ffffff"),
    "tyrell": ("#2e7d32", "#c6e5c8", "#ffffff"),
    "baratheon": ("#d4a017", "#f9e7a6", "#111111"),
    "martell": ("#e06a00", "#fbd2ad", "#111111"),
}
UNIT_LETTERS: dict[str, str] = {"footman": "F", "knight": "K", "ship": "S", "siege_engine": "E"}
ORDER_LETTERS: dict[str, str] = {"march": "M", "defense": "D", "support": "S", "raid": "R", "consolidate": "CP"}

_CHIP_W, _CHIP_GAP = 24, 3


@dataclass(frozen=True, slots=True)
class Shape:
    """Where one area is drawn: a rounded box or a polygon, and where its label goes."""

    id: str
    outline: tuple[Point, ...]  # corners, clockwise
    label: Point
    box: tuple[float, float, float, float] | None  # x, y, width, height (top-left) for boxes
    slot: Point | None = None  # polygons: top-left of the row of units and order
    label_rotate: float = 0.0

    @property
    def centre(self) -> Point:
        return self.label


@dataclass(frozen=True)
class MapLayout:
    """The schematic: canvas size and one shape per area."""

    width: int
    height: int
    legend_height: int
    shapes: dict[str, Shape]

    @staticmethod
    @cache
    def classic() -> MapLayout:
        """The layout of the classic board, loaded once from ``data/map.toml``."""
        text = resources.files("adjudicator").joinpath("data/map.toml").read_text("utf-8")
        return MapLayout.from_toml(tomllib.loads(text))

    @staticmethod
    def from_toml(data: dict[str, Any]) -> MapLayout:
        """Build a layout from parsed ``map.toml`` data.

        :raises KeyError: for an area with neither ``box`` nor ``polygon``.
        """
        canvas = data["canvas"]
        shapes = {area_id: _shape(area_id, spec) for area_id, spec in data["area"].items()}
        return MapLayout(canvas["width"], canvas["height"], canvas.get("legend_height", 0), shapes)


def _shape(area_id: str, spec: dict[str, Any]) -> Shape:
    if "box" in spec:
        cx, cy, w, h = (float(v) for v in spec["box"])
        x, y = cx - w / 2, cy - h / 2
        corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
        return Shape(area_id, corners, (cx, cy), (x, y, w, h))
    points = tuple((float(p[0]), float(p[1])) for p in spec["polygon"])
    label = spec["label"]
    slot = spec.get("slot", (label[0] - 40, label[1] + 8))
    return Shape(
        area_id, points, (float(label[0]), float(label[1])), None,
        (float(slot[0]), float(slot[1])), float(spec.get("label_rotate", 0)),
    )


# --- geometry: the line that shows a border ---------------------------------------------------


def _edges(shape: Shape) -> list[tuple[Point, Point]]:
    pts = shape.outline
    return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return (ax + t * dx, ay + t * dy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """True when two segments meet (touching counts)."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > 0) != (d2 > 0) or d1 == 0 or d2 == 0) and ((d3 > 0) != (d4 > 0) or d3 == 0 or d4 == 0):
        if d1 == d2 == 0:  # collinear: do the spans overlap?
            return _overlap_1d(p1, p2, q1, q2)
        return True
    return False


def _overlap_1d(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    for axis in (0, 1):
        if max(p1[axis], p2[axis]) < min(q1[axis], q2[axis]) or max(q1[axis], q2[axis]) < min(p1[axis], p2[axis]):
            return False
    return True


def inside(p: Point, shape: Shape) -> bool:
    """True when a point lies strictly inside a shape (ray casting)."""
    x, y = p
    result = False
    for (x1, y1), (x2, y2) in _edges(shape):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def shape_gap(a: Shape, b: Shape) -> tuple[float, Point, Point]:
    """The distance between two outlines and the line that spans it (0 when they touch or overlap).

    Where the nearest parts run parallel (two boxes one above the other), the line is drawn in the
    middle of the stretch they share rather than at a corner.
    """
    if any(inside(p, b) for p in a.outline) or any(inside(p, a) for p in b.outline):
        return 0.0, a.label, b.label
    best: tuple[float, float, Point, Point] | None = None  # (distance, -stretch, from, to)
    for ea in _edges(a):
        for eb in _edges(b):
            if segments_cross(ea[0], ea[1], eb[0], eb[1]):
                return 0.0, a.label, b.label
            found = _edge_gap(ea, eb)
            if best is None or (found[0], found[1]) < (best[0] - 0.5, best[1]) or (
                abs(found[0] - best[0]) <= 0.5 and found[1] < best[1]
            ):
                best = found
    assert best is not None
    return best[0], best[2], best[3]


def _edge_gap(ea: tuple[Point, Point], eb: tuple[Point, Point]) -> tuple[float, float, Point, Point]:
    """The gap between two edges, minus the length they run side by side, and its middle line."""
    pairs = [(p, _closest_on_segment(p, *eb)) for p in ea] + [(_closest_on_segment(q, *ea), q) for q in eb]
    dist = min(math.dist(p, q) for p, q in pairs)
    near = [(p, q) for p, q in pairs if math.dist(p, q) <= dist + 0.5]
    stretch = max(math.dist(p1, p2) for p1, _ in near for p2, _ in near)
    pa = (sum(p[0] for p, _ in near) / len(near), sum(p[1] for p, _ in near) / len(near))
    pb = (sum(q[0] for _, q in near) / len(near), sum(q[1] for _, q in near) / len(near))
    return dist, -stretch, pa, pb


BorderLine = tuple[str, str, Point, Point]


def border_lines(layout: MapLayout | None = None, board: Board | None = None) -> tuple[BorderLine, ...]:
    """Every border that needs a line: ``(area, area, from, to)``; touching shapes need none."""
    if (layout is None or layout is MapLayout.classic()) and (board is None or board is Board.classic()):
        return _classic_border_lines()
    return _border_lines(layout or MapLayout.classic(), board or Board.classic())


@cache
def _classic_border_lines() -> tuple[BorderLine, ...]:
    return _border_lines(MapLayout.classic(), Board.classic())


def _border_lines(layout: MapLayout, board: Board) -> tuple[BorderLine, ...]:
    lines = []
    for a, b in sorted(tuple(sorted(p)) for p in board.border_pairs):
        gap, pa, pb = shape_gap(layout.shapes[a], layout.shapes[b])
        if gap > 0.5:
            lines.append((a, b, pa, pb))
    return tuple(lines)


# --- what the picture says, as text -------------------------------------------------------------


def _plural(n: int, unit: str) -> str:
    name = unit.replace("_", " ")
    if n == 1:
        return f"1 {name}"
    return f"{n} {'footmen' if unit == 'footman' else name + 's'}"


def units_text(units: Iterable[Unit]) -> str:
    """``"2 footmen, 1 knight (1 routed)"`` for some units ('' when none)."""
    units = list(units)
    counts = Counter(u.type for u in units)
    parts = [_plural(counts[t], t) for t in UNIT_LETTERS if counts[t]]
    routed = sum(1 for u in units if u.routed)
    return ", ".join(parts) + (f" ({routed} routed)" if routed else "")


def describe_area(state: GameState, board: Board, area_id: str) -> str | None:
    """One line about an area's contents and holder, or None when there is nothing to say.

    >>> from adjudicator.setup import new_game
    >>> describe_area(new_game(["stark", "lannister", "baratheon"], seed="doc"), Board.classic(), "winterfell")
    'Winterfell: Stark; 1 footman, 1 knight; garrison 2'
    """
    st = state.area(area_id)
    area = board.area(area_id)
    parts = []
    holder = state.occupant(area_id) if not area.is_land else state.controller(area_id, board)
    if area_id in state.impassable:
        parts.append("impassable")
    if holder:
        parts.append(holder.title())
    if st.units:
        owners = sorted({u.house for u in st.units}, key=lambda h: (h != holder, h))
        if len(owners) == 1:
            parts.append(units_text(st.units))
        else:  # during a combat: say whose units are whose
            parts += [f"{h.title()} {units_text(u for u in st.units if u.house == h)}" for h in owners]
    if st.order:
        parts.append(f"order {st.order.token}")
    if st.power_token:
        parts.append(f"power token of {st.power_token.title()}")
    if st.garrison:
        parts.append(f"garrison {st.garrison}")
    if st.neutral_force is not None and area_id not in state.impassable:
        parts.append(f"neutral force {st.neutral_force}")
    if not parts:
        return None
    return f"{area.name}: " + "; ".join(parts)


def board_summary(state: GameState, board: Board | None = None) -> list[str]:
    """:func:`describe_area` for every area with something to say, by name; impassable ones last, together."""
    board = board or Board.classic()
    by_name = sorted(board.areas.values(), key=lambda a: a.name)
    lines = [describe_area(state, board, a.id) for a in by_name if a.id not in state.impassable]
    closed = [a.name for a in by_name if a.id in state.impassable]
    return [line for line in lines if line] + ([f"Impassable in this game: {', '.join(closed)}"] if closed else [])


# --- the picture ------------------------------------------------------------------------------


def render_map(
    state: GameState,
    *,
    viewer: str | None = None,
    highlight: Iterable[str] = (),
    board: Board | None = None,
    templates_dir: str | Path | None = None,
) -> str:
    """The board as an SVG document (a string), ready to embed in HTML or save as ``.svg``.

    ``highlight`` names areas to mark (the embattled ones); ``viewer`` only names the reader in
    the title: the board holds no secrets, the state's public facts are all it draws.

    :raises KeyError: when ``highlight`` names an unknown area.
    """
    board = board or Board.classic()
    layout = MapLayout.classic()
    marked = set(highlight)
    for area_id in marked:
        board.area(area_id)
    view = map_view(state, board, layout, viewer=viewer, highlight=marked)
    return environment(templates_dir).get_template("map.svg.j2").render(**view)


def map_view(
    state: GameState, board: Board, layout: MapLayout, *, viewer: str | None, highlight: set[str]
) -> dict[str, Any]:
    """Everything the SVG template draws, as plain values (coordinates already computed)."""
    unusable = set(board.setups[len(state.houses_in_play)].unusable_ports) if state.houses_in_play else set()
    areas = [
        _area_view(state, board, layout.shapes[a.id], a.id, highlight, unusable)
        for a in sorted(board.areas.values(), key=lambda a: ({"sea": 0, "land": 1, "port": 2}[a.kind], a.id))
    ]
    borders = [
        {"a": a, "b": b, "x1": _r(p[0]), "y1": _r(p[1]), "x2": _r(q[0]), "y2": _r(q[1]),
         "kind": "-".join(sorted({board.area(a).kind, board.area(b).kind})),
         "blocked": a in state.impassable or b in state.impassable}
        for a, b, p, q in border_lines(layout, board)
    ]
    title = f"{state.game_id} · round {state.round} · {state.phase}"
    return {
        "width": layout.width,
        "height": layout.height + layout.legend_height,
        "map_height": layout.height,
        "title": title + (f" · seen by {viewer.title()}" if viewer else ""),
        "desc": "\n".join(board_summary(state, board)) or "The board is empty.",
        "areas": areas,
        "borders": borders,
        "colours": {h: {"main": c[0], "tint": c[1], "text": c[2]} for h, c in HOUSE_COLOURS.items()},
        "legend_houses": [{"house": h, "name": h.title()} for h in state.houses_in_play],
        "legend_y": layout.height + 8,
    }


def _r(v: float) -> float:
    return round(v, 1)


def _area_view(
    state: GameState, board: Board, shape: Shape, area_id: str, highlight: set[str], unusable: set[str]
) -> dict[str, Any]:
    area = board.area(area_id)
    st = state.area(area_id)
    holder = state.controller(area_id, board) if area.is_land else None
    blocked = area_id in state.impassable or area_id in unusable
    fill, stroke = _colours(area.kind, holder, blocked)
    label = "port" if area.is_port else area.name
    size = 9.5 if area.is_port else (13.0 if len(label) <= 14 else 12.0 if len(label) <= 17 else 11.0)
    view: dict[str, Any] = {
        "id": area_id,
        "name": area.name,
        "kind": area.kind,
        "holder": holder,
        "blocked": blocked,
        "highlight": area_id in highlight,
        "box": [_r(v) for v in shape.box] if shape.box else None,
        "points": " ".join(f"{_r(px)},{_r(py)}" for px, py in shape.outline),
        "summary": describe_area(state, board, area_id) or area.name,
        "fill": fill,
        "stroke": stroke,
        "label": label,
        "label_size": size,
        "label_colour": "#24507a" if area.is_sea else "#222222",
        "label_rotate": shape.label_rotate,
        "label_squeeze": None,
        "icons": [],
        "badge": None,
    }
    if shape.box is None:  # a large sea: the label where the map says, the units in its slot
        assert shape.slot is not None
        view.update(label_x=_r(shape.label[0]), label_y=_r(shape.label[1]))
        view.update(_row(st, shape.slot[0], shape.slot[1], right=None))
        return view
    x, y, w, h = shape.box
    if area.is_port:  # "port", then the ships and their order on the same line
        view.update(label_x=_r(x + 5), label_y=_r(y + 12))
        view.update(_row(st, x + 30, y + 9, right=x + w - 4))
        return view
    view.update(label_x=_r(x + w / 2), label_y=_r(y + 14))
    # Squeeze a name only when it would not fit its box (about 0.6 em per bold character).
    if len(label) * size * 0.6 > w - 10:
        view["label_squeeze"] = _r(w - 10)
    if area.is_land:
        view["icons"] = _icons(area, x, y + 22)
        view["badge"] = _badge(st, area_id, area.home_of, state, x + w - 4, y + 22)
    view.update(_row(st, x + 4, y + h - 22, right=x + w - 4))
    return view


def _row(st: AreaState, x: float, y: float, *, right: float | None) -> dict[str, Any]:
    """Unit chips from the left; the power token and the order at the right (or right after)."""
    chips = _chips(st, x, y)
    order_w = _order_width(st)
    if right is None:
        right = x + len(chips) * (_CHIP_W + _CHIP_GAP) + order_w + (17 if st.power_token else 0)
    power = {"house": st.power_token, "x": _r(right - 8), "y": _r(y + 8)} if st.power_token else None
    order_right = right - (18 if st.power_token else 0)
    return {"chips": chips, "power": power, "order": _order(st, order_right - order_w, y, order_w)}


def _colours(kind: str, holder: str | None, blocked: bool) -> tuple[str, str]:
    """Fill and outline of an area: its holder's tint, sea blue, or parchment."""
    if blocked:
        return "url(#hatch)", "#888888"
    if kind == "sea":
        return "#cfe2f3", "#8fb3d6"
    if kind == "port":
        return "#e8f1fa", "#6f9cc6"
    if holder in HOUSE_COLOURS:
        main, tint, _ = HOUSE_COLOURS[holder]
        return tint, main
    return "#f2ead6", "#a89878"


def _icons(area: Any, x: float, y: float) -> list[dict[str, Any]]:
    """Fortification, supply barrels and power crowns printed on the area, left to right."""
    icons: list[dict[str, Any]] = []
    cx = x + 5
    if area.fortification != "none":
        icons.append({"symbol": area.fortification, "x": _r(cx), "y": _r(y)})
        cx += 18 if area.fortification == "stronghold" else 13
    for _ in range(area.supply):
        icons.append({"symbol": "barrel", "x": _r(cx), "y": _r(y)})
        cx += 10
    for _ in range(area.power):
        icons.append({"symbol": "crown", "x": _r(cx), "y": _r(y)})
        cx += 13
    return icons


def _badge(
    st: AreaState, area_id: str, home_of: str | None, state: GameState, right: float, y: float
) -> dict[str, Any] | None:
    """The garrison shield or the neutral-force token, drawn at the top right."""
    if st.garrison:
        return {"symbol": "garrison", "house": home_of or "", "text": f"G{st.garrison}", "x": _r(right - 26), "y": _r(y)}
    if st.neutral_force is not None and area_id not in state.impassable:
        return {"symbol": "neutral", "house": "", "text": f"N{st.neutral_force}", "x": _r(right - 26), "y": _r(y)}
    return None


def _chips(st: AreaState, x: float, y: float) -> list[dict[str, Any]]:
    """One labelled chip per house and unit type: ``2F`` for two footmen."""
    chips = []
    counts = Counter((u.house, u.type, u.routed) for u in st.units)
    for (house, unit, routed), n in sorted(counts.items(), key=lambda kv: (kv[0][0], list(UNIT_LETTERS).index(kv[0][1]), kv[0][2])):
        chips.append({
            "house": house, "text": f"{n}{UNIT_LETTERS[unit]}", "routed": routed,
            "x": _r(x), "y": _r(y), "title": f"{house.title()}: {_plural(n, unit)}" + (" (routed)" if routed else ""),
        })
        x += _CHIP_W + _CHIP_GAP
    return chips


def _order_text(token: str) -> str:
    """``M+1*`` for the special March +1: kind letter, bonus, ``*`` for special orders."""
    kind = order_kind(token)
    bonus = token[len(kind):].rstrip("*")
    return ORDER_LETTERS.get(kind, "?") + bonus + ("*" if token in SPECIAL_TOKENS else "")


def _order_width(st: AreaState) -> float:
    return 8 + 7 * len(_order_text(st.order.token)) if st.order else 0


def _order(st: AreaState, x: float, y: float, width: float) -> dict[str, Any] | None:
    if not st.order:
        return None
    token = st.order.token
    return {"house": st.order.house, "text": _order_text(token), "token": token, "x": _r(x), "y": _r(y), "w": width}
