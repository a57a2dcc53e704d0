"""The board as an SVG picture: a schematic map of the 58 areas, coloured by who holds them.

Shapes and places come from ``data/map.toml``; what lies in each area comes from the state.
The picture is a pure function of the state (``render_map(state) -> str``), drawn by the
``map.svg.j2`` template: each area's shape is defined once in ``<defs>``, borders are short lines
joining adjacent shapes, and a ``<desc>`` carries the same facts as text.

Drawing is fast because little changes from one map to the next: the template's macros draw the
shapes, borders and legend once per game, and each area again only when its holder or contents
changed; the reports of a step (one map per house) then cost little more than one.

>>> from adjudicator.game.setup import new_game
>>> svg = render_map(new_game(["stark", "lannister", "baratheon"], seed="doc"))
>>> svg.startswith("<svg") and 'id="shape-winterfell"' in svg
True
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..engine.events import order_name
from ..game.board import Board
from ..game.commands import SPECIAL_TOKENS, order_kind
from ..game.state import AreaState, GameState, Unit
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
        text = resources.files("adjudicator.game").joinpath("data/map.toml").read_text("utf-8")
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

    >>> from adjudicator.game.setup import new_game
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
        parts.append(order_name(st.order.token))
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
    facts = _facts(board)
    return _summary(state, facts, _area_keys(state, facts))


def _summary(state: GameState, facts: _BoardFacts, keys: dict[str, AreaKey]) -> list[str]:
    lines = []
    for area_id in facts.by_name:
        if area_id not in state.impassable:
            line = facts.descriptions.get(keys[area_id], functools.partial(describe_area, state, facts.board, area_id))
            if line:
                lines.append(line)
    closed = [facts.board.area(a).name for a in facts.by_name if a in state.impassable]
    return lines + ([f"Impassable in this game: {', '.join(closed)}"] if closed else [])


# --- remembering what does not change -----------------------------------------------------------

# Everything an area's marks and description depend on, besides the board: its id, holder, whether
# it is impassable, whether it is drawn blocked, and its contents (every field of its AreaState).
AreaKey = tuple[Any, ...]
# The AreaState fields that _area_key reads: a test keeps this in step with the class.
KEYED_AREA_FIELDS = ("units", "order", "power_token", "garrison", "neutral_force")


class _Memo:
    """Values by key, computed on first use; forgets everything when full (simple and enough here)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[Any, Any] = {}

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        value = self.values.get(key, _MISSING)
        if value is _MISSING:
            if len(self.values) >= self.size:
                self.values.clear()
            value = self.values[key] = make()
        return value


_MISSING = object()


@dataclass
class _BoardFacts:
    """What never changes for one board: where each area's marks go, the drawing and reading orders."""

    board: Board
    layout: MapLayout
    places: dict[str, dict[str, Any]]  # area -> the fixed part of its view
    drawing_order: list[str]  # seas, then lands, then ports
    by_name: list[str]
    descriptions: _Memo = field(default_factory=lambda: _Memo(8192))  # AreaKey -> describe_area()


_FACTS: dict[int, _BoardFacts] = {}  # by id(board); each entry holds its board, so the id stays its own


def _facts(board: Board) -> _BoardFacts:
    facts = _FACTS.get(id(board))
    if facts is None or facts.board is not board:
        if len(_FACTS) >= 16:
            _FACTS.clear()
        layout = MapLayout.classic()
        order = sorted(board.areas.values(), key=lambda a: ({"sea": 0, "land": 1, "port": 2}[a.kind], a.id))
        facts = _FACTS[id(board)] = _BoardFacts(
            board, layout, {a.id: _place(layout.shapes[a.id], a) for a in order}, [a.id for a in order],
            [a.id for a in sorted(board.areas.values(), key=lambda a: a.name)],
        )  # fmt: skip
    return facts


def _area_keys(state: GameState, facts: _BoardFacts) -> dict[str, AreaKey]:
    board = facts.board
    unusable = _unusable(state, board)
    keys = {}
    for area_id in facts.drawing_order:
        st = state.areas.get(area_id)
        contents = None if st is None else (
            tuple((u.house, u.type, u.routed) for u in st.units),
            (st.order.house, st.order.token) if st.order else None,
            st.power_token, st.garrison, st.neutral_force,
        )  # fmt: skip
        holder = state.controller(area_id, board) if facts.places[area_id]["kind"] == "land" else None
        closed = area_id in state.impassable
        keys[area_id] = (area_id, holder, closed, closed or area_id in unusable, contents)
    return keys


def _unusable(state: GameState, board: Board) -> tuple[str, ...]:
    return board.setups[len(state.houses_in_play)].unusable_ports if state.houses_in_play else ()


MAP_MACROS = ("shapes", "border_lines", "area_fill", "area_contents", "legend")  # what map.svg.j2 must define


class _Painter:
    """One map template's macros over one board, and the parts already drawn with them."""

    def __init__(self, template: jinja2.Template, facts: _BoardFacts) -> None:
        self.template = template  # held: the painter is found by the ids of its template and board
        self.facts = facts
        try:
            self.macros: Any = template.module  # without `parts` the document draws nothing: only the macros load
        except jinja2.UndefinedError:  # a template that draws its document unconditionally, without macros
            self.macros = None
        missing = [m for m in MAP_MACROS if not callable(getattr(self.macros, m, None))]
        if missing:
            raise jinja2.TemplateError(
                f"{template.filename or template.name}: a map template must define the macros {', '.join(MAP_MACROS)} "
                f"(missing: {', '.join(missing)}); start from the package's templates/map.svg.j2"
            )
        self.layers = _Memo(64)  # (impassable, houses) -> shapes, borders and legend
        self.areas = _Memo(8192)  # (AreaKey, highlighted) -> an area's fill and contents

    def layer(self, state: GameState) -> dict[str, Any]:
        """The parts fixed for a game: area shapes, border lines, the legend."""
        key = (tuple(sorted(state.impassable)), tuple(state.houses_in_play))
        return self.layers.get(key, lambda: self._draw_layer(state))  # type: ignore[no-any-return]

    def _draw_layer(self, state: GameState) -> dict[str, Any]:
        facts, m = self.facts, self.macros
        layout, board = facts.layout, facts.board
        height = layout.height + layout.legend_height
        borders = [
            {"a": a, "b": b, "x1": _r(p[0]), "y1": _r(p[1]), "x2": _r(q[0]), "y2": _r(q[1]),
             "kind": "-".join(sorted({board.area(a).kind, board.area(b).kind})),
             "blocked": a in state.impassable or b in state.impassable}
            for a, b, p, q in border_lines(layout, board)
        ]  # fmt: skip
        houses = [{"house": h, "name": h.title()} for h in state.houses_in_play]
        return {
            "shapes": m.shapes([facts.places[a] for a in facts.drawing_order], layout.width, height),
            "borders": m.border_lines(borders),
            "legend": m.legend(houses, COLOURS, layout.width, height, layout.height, layout.height + 8),
        }

    def area(self, state: GameState, key: AreaKey, highlight: bool) -> tuple[Markup, Markup]:
        """An area's fill and contents, drawn again only when something in them changed."""
        return self.areas.get((key, highlight), lambda: self._draw_area(state, key, highlight))  # type: ignore[no-any-return]

    def _draw_area(self, state: GameState, key: AreaKey, highlight: bool) -> tuple[Markup, Markup]:
        area_id, holder, _, blocked, _ = key
        summary = self.facts.descriptions.get(key, lambda: describe_area(state, self.facts.board, area_id))
        view = _area_view(state, self.facts, area_id, holder=holder, blocked=blocked, highlight=highlight,
                          summary=summary)  # fmt: skip
        return self.macros.area_fill(view), self.macros.area_contents(view, COLOURS)


_PAINTERS: dict[tuple[int, int], _Painter] = {}  # by (id(template), id(board)); each holds both


def _painter(template: jinja2.Template, board: Board) -> _Painter:
    painter = _PAINTERS.get((id(template), id(board)))
    facts = _facts(board)
    if painter is None or painter.template is not template or painter.facts is not facts:
        if len(_PAINTERS) >= 16:
            _PAINTERS.clear()
        painter = _PAINTERS[(id(template), id(board))] = _Painter(template, facts)
    return painter


def clear_caches() -> None:
    """Forget every part drawn so far (the next map is drawn from scratch; for tests and benchmarks)."""
    _PAINTERS.clear()
    _FACTS.clear()


# --- the picture ------------------------------------------------------------------------------

COLOURS = {h: {"main": c[0], "tint": c[1], "text": c[2]} for h, c in HOUSE_COLOURS.items()}


def render_map(
    state: GameState,
    *,
    viewer: str | None = None,
    highlight: Iterable[str] = (),
    board: Board | None = None,
    templates_dir: str | Path | None = None,
    events: Iterable[Any] = (),
) -> str:
    """The board as an SVG document (a string), ready to embed in HTML or save as ``.svg``.

    ``events`` are the step's public events: its marches and retreats are drawn as arrows.

    ``highlight`` names areas to mark (the embattled ones); ``viewer`` only names the reader in
    the title: the board holds no secrets, the state's public facts are all it draws. Parts that
    did not change since an earlier map in this process (most areas, from one step to the next)
    are reused as drawn, so the result is the same as drawing everything afresh.

    :raises KeyError: when ``highlight`` names an unknown area.
    :raises jinja2.TemplateError: when a moderator's ``map.svg.j2`` lacks one of :data:`MAP_MACROS`.
    """
    board = board or Board.classic()
    marked = set(highlight)
    for area_id in marked:
        board.area(area_id)
    template = environment(templates_dir).get_template("map.svg.j2")
    return template.render(**map_view(state, _painter(template, board), viewer=viewer, highlight=marked))


def map_view(state: GameState, painter: _Painter, *, viewer: str | None, highlight: set[str]) -> dict[str, Any]:
    """What the SVG template's document receives: the title, the text summary and the drawn parts."""
    facts = painter.facts
    keys = _area_keys(state, facts)
    drawn = {a: painter.area(state, keys[a], a in highlight) for a in facts.drawing_order}
    seas = [a for a in facts.drawing_order if facts.places[a]["kind"] == "sea"]
    others = [a for a in facts.drawing_order if facts.places[a]["kind"] != "sea"]
    title = f"{state.game_id} · round {state.round} · {state.phase}"
    layout = facts.layout
    return {
        "width": layout.width,
        "height": layout.height + layout.legend_height,
        "title": title + (f" · seen by {viewer.title()}" if viewer else ""),
        "desc": "\n".join(_summary(state, facts, keys)) or "The board is empty.",
        "parts": painter.layer(state) | {
            "sea_fills": [drawn[a][0] for a in seas],
            "land_fills": [drawn[a][0] for a in others],
            "contents": [drawn[a][1] for a in facts.drawing_order],
        },
    }


def _r(v: float) -> float:
    return round(v, 1)


def _place(shape: Shape, area: Any) -> dict[str, Any]:
    """The fixed part of an area's view: its shape, label, icons and where its row of marks goes."""
    label = "port" if area.is_port else area.name
    size = 9.5 if area.is_port else (13.0 if len(label) <= 14 else 12.0 if len(label) <= 17 else 11.0)
    place: dict[str, Any] = {
        "id": area.id,
        "name": area.name,
        "kind": area.kind,
        "home_of": area.home_of,
        "box": [_r(v) for v in shape.box] if shape.box else None,
        "points": " ".join(f"{_r(px)},{_r(py)}" for px, py in shape.outline),
        "label": label,
        "label_size": size,
        "label_colour": "#24507a" if area.is_sea else "#222222",
        "label_rotate": shape.label_rotate,
        "label_squeeze": None,
        "icons": [],
        "badge_at": None,  # right end and top of the garrison or neutral-force badge
    }
    if shape.box is None:  # a large sea: the label where the map says, the units in its slot
        assert shape.slot is not None
        place.update(label_x=_r(shape.label[0]), label_y=_r(shape.label[1]), row=(shape.slot[0], shape.slot[1], None))
        return place
    x, y, w, h = shape.box
    if area.is_port:  # "port", then the ships and their order on the same line
        place.update(label_x=_r(x + 5), label_y=_r(y + 12), row=(x + 30, y + 9, x + w - 4))
        return place
    place.update(label_x=_r(x + w / 2), label_y=_r(y + 14), row=(x + 4, y + h - 22, x + w - 4))
    # Squeeze a name only when it would not fit its box (about 0.6 em per bold character).
    if len(label) * size * 0.6 > w - 10:
        place["label_squeeze"] = _r(w - 10)
    if area.is_land:
        place["icons"] = _icons(area, x, y + 22)
        place["badge_at"] = (x + w - 4, y + 22)
    return place


def _area_view(
    state: GameState, facts: _BoardFacts, area_id: str, *, holder: str | None, blocked: bool, highlight: bool,
    summary: str | None,
) -> dict[str, Any]:  # fmt: skip
    """Everything the area macros draw for one area: its fixed place and what lies in it now."""
    place = facts.places[area_id]
    st = state.area(area_id)
    fill, stroke = _colours(place["kind"], holder, blocked)
    view = place | {
        "holder": holder,
        "blocked": blocked,
        "highlight": highlight,
        "summary": summary or place["name"],
        "fill": fill,
        "stroke": stroke,
        "badge": None,
    }
    if place["badge_at"] is not None:
        view["badge"] = _badge(st, area_id, place["home_of"], state, *place["badge_at"])
    x, y, right = place["row"]
    view.update(_row(st, x, y, right=right))
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
