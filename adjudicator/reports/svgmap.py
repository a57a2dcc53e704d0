"""The board as an SVG picture: every area drawn as its shape, coloured by who holds it.

Shapes come from ``data/map_grid.toml`` (:mod:`adjudicator.reports.mapshapes`: each border drawn
once and shared by the two areas it divides); what lies in each area comes from the state. The
picture is a pure function of the state and the step's public events (``render_map(state) ->
str``), drawn by the ``map.svg.j2`` template: each area's outline is defined once in ``<defs>``;
units are icons with counts, orders round tokens, power tokens discs, garrisons shields; this
step's marches and retreats are arrows, the embattled area has a red outline, and the tracks
(influence, supply, victory, wildling threat) are drawn under the board.

Drawing is fast because little changes from one map to the next: the template's macros draw the
outlines and the legend once per game, each area again only when its holder or contents changed,
and the panel of tracks only when a track moved.

>>> from adjudicator.game.setup import new_game
>>> svg = render_map(new_game(["stark", "lannister", "baratheon"], seed="doc"))
>>> svg.startswith("<svg") and 'id="a-winterfell"' in svg
True
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..engine.events import order_name
from ..game.board import DOMINANCE_TOKENS, TRACKS, Board
from ..game.commands import SPECIAL_TOKENS, order_kind
from ..game.state import AreaState, GameState, Unit
from .maplabels import Box, free_spot, name_box, text_width
from .mapshapes import MapShapes
from .templating import environment

Point = tuple[float, float]

# House colours: (main, tint for the land it holds, text drawn on the main colour). The mains are
# the Okabe-Ito palette, told apart with every common colour-vision deficiency; no house is grey
# (neutral land is parchment, impassable land hatched grey, seas pale blue-green). Arryn and
# Targaryen (Mother of Dragons) take the palette's last two.
HOUSE_COLOURS: dict[str, tuple[str, str, str]] = {
    "stark": ("#0072b2", "#9ec5e4", "#ffffff"),
    "lannister": ("#d55e00", "#f2b48a", "#ffffff"),
    "greyjoy": ("#1b1b1b", "#8f8f8f", "#ffffff"),
    "tyrell": ("#009e73", "#7fcfa8", "#ffffff"),
    "baratheon": ("#f0e442", "#f7ea7a", "#111111"),
    "martell": ("#e69f00", "#f5d08a", "#111111"),
    "arryn": ("#56b4e9", "#c3e3f6", "#111111"),
    "targaryen": ("#cc79a7", "#e2a3c6", "#ffffff"),
}
NEUTRAL_FILL, SEA_FILL, PORT_FILL = "#efe5c8", "#d3e8e6", "#ddd0a4"
UNIT_LETTERS: dict[str, str] = {"footman": "F", "knight": "K", "ship": "S", "siege_engine": "E", "dragon": "D"}
ORDER_LETTERS: dict[str, str] = {"march": "M", "defense": "D", "support": "S", "raid": "R", "consolidate": "C"}
PANEL_HEIGHT = 190  # the tracks and the legend under the board


@dataclass(frozen=True)
class MapLayout:
    """The canvas: the board's shapes and the panel of tracks under them."""

    shapes: MapShapes
    legend_height: int = PANEL_HEIGHT

    @property
    def width(self) -> int:
        return self.shapes.width

    @property
    def height(self) -> int:
        """The board's height (the panel comes below it)."""
        return self.shapes.height

    @staticmethod
    @cache
    def classic() -> MapLayout:
        """The classic board's canvas."""
        return MapLayout(MapShapes.classic())

    @staticmethod
    @cache
    def for_map(name: str) -> MapLayout:
        """The canvas of a board's map: classic, or Mother of Dragons' Westeros with the Eyrie and Bite
        overlays (``westeros_mod``), with the Essos side board to its right (``with_essos``)."""
        if name == "westeros_mod":
            return MapLayout(MapShapes.mother_of_dragons("vale"))
        if name == "with_essos":
            return MapLayout(MapShapes.mother_of_dragons("vale", "essos"))
        return MapLayout.classic()


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
    if st.garrison:  # a garrison outside its house's home area says whose it is (ruling 340)
        parts.append(f"{st.garrison_house.title() + ' ' if st.garrison_house else ''}garrison {st.garrison}")
    if st.neutral_force is not None and area_id not in state.impassable:
        parts.append(f"neutral force {st.neutral_force}")
    if st.loyalty:
        parts.append(f"{st.loyalty} loyalty token{'s' if st.loyalty > 1 else ''}")
    if st.improvements:
        parts.append("tokens " + " ".join(st.improvements))
    if not parts:
        return None
    return f"{area.name}: " + "; ".join(parts)


def board_summary(state: GameState, board: Board | None = None) -> list[str]:
    """:func:`describe_area` for every area with something to say, by name; impassable ones last, together."""
    board = board or state.board()
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
# it is impassable, whether it is drawn blocked, its contents (every field of its AreaState), and
# which houses are vassals (Mother of Dragons; a house becomes one when its player leaves).
AreaKey = tuple[Any, ...]
# The AreaState fields that _area_key reads: a test keeps this in step with the class.
KEYED_AREA_FIELDS = ("units", "order", "power_token", "garrison", "neutral_force", "loyalty", "improvements",
                     "garrison_house")


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
    names: list[Box] = field(default_factory=list)  # every area name's box: no mark may cover one
    descriptions: _Memo = field(default_factory=lambda: _Memo(8192))  # AreaKey -> describe_area()


_FACTS: dict[int, _BoardFacts] = {}  # by id(board); each entry holds its board, so the id stays its own


def _facts(board: Board) -> _BoardFacts:
    facts = _FACTS.get(id(board))
    if facts is None or facts.board is not board:
        if len(_FACTS) >= 16:
            _FACTS.clear()
        layout = MapLayout.for_map(board.map)
        order = sorted(board.areas.values(), key=lambda a: ({"sea": 0, "land": 1, "port": 2}[a.kind], a.id))
        places = {a.id: _place(layout.shapes, a) for a in order}
        names = [name_box(p["label"], p["label_size"], p["label_x"], p["label_y"]) for p in places.values() if p["label"]]
        for a in order:  # the printed icons and "impassable" clear of every name, as the rows are (_row)
            place = places[a.id]
            if place["icons"]:
                width = sum(ICON_WIDTHS[i["symbol"]] for i in place["icons"])
                place["icons"] = _icons(a, *free_spot(names, place["label_x"], place["icons"][0]["y"], 0, width, 10))
            bx, by = free_spot(names, place["label_x"], place["blocked_y"], -9, text_width("impassable", 10), 12)
            place["blocked_x"], place["blocked_y"] = _r(bx), _r(by)
        facts = _FACTS[id(board)] = _BoardFacts(board, layout, places, [a.id for a in order],
                                                [a.id for a in sorted(board.areas.values(), key=lambda a: a.name)], names)  # fmt: skip
    return facts


def _area_keys(state: GameState, facts: _BoardFacts) -> dict[str, AreaKey]:
    board = facts.board
    unusable = _unusable(state, board)
    vassals = tuple(state.vassals)  # Mother of Dragons: a vassal's areas and units are drawn dashed
    keys = {}
    for area_id in facts.drawing_order:
        st = state.areas.get(area_id)
        contents = None if st is None else (
            tuple((u.house, u.type, u.routed) for u in st.units),
            (st.order.house, st.order.token) if st.order else None,
            st.power_token, st.garrison, st.neutral_force, st.loyalty, tuple(st.improvements), st.garrison_house,
        )  # fmt: skip
        holder = state.controller(area_id, board) if facts.places[area_id]["kind"] == "land" else None
        closed = area_id in state.impassable
        keys[area_id] = (area_id, holder, closed, closed or area_id in unusable, contents, vassals)
    return keys


def _unusable(state: GameState, board: Board) -> tuple[str, ...]:
    setup = board.setups.get(len(state.houses_in_play))  # an expansion's map has no base setups
    return setup.unusable_ports if setup is not None else ()


MAP_MACROS = ("shapes", "area_fill", "area_contents", "arrows", "tracks", "legend")  # what map.svg.j2 must define


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
        self.layers = _Memo(64)  # (impassable, houses, vassals) -> shapes, borders and legend
        self.areas = _Memo(8192)  # (AreaKey, highlighted) -> an area's fill and contents
        self.panels = _Memo(256)  # the tracks panel's view, as its repr -> the panel drawn

    def layer(self, state: GameState) -> dict[str, Any]:
        """The parts fixed for a game: area shapes, border lines, the legend."""
        key = (tuple(sorted(state.impassable)), tuple(state.houses_in_play), tuple(state.vassals))
        return self.layers.get(key, lambda: self._draw_layer(state))  # type: ignore[no-any-return]

    def _draw_layer(self, state: GameState) -> dict[str, Any]:
        facts, m = self.facts, self.macros
        layout = facts.layout
        height = layout.height + layout.legend_height
        # a vassal's swatch is dashed, as its areas and units are (M030)
        houses = [{"house": h, "name": h.title(), "vassal": h in state.vassals} for h in state.houses_in_play]
        dragons = {"dragons": True} if "targaryen" in facts.board.houses else {}  # Mother of Dragons' Targaryen
        return {
            "shapes": m.shapes([facts.places[a] for a in facts.drawing_order], layout.width, height, SEA_FILL,
                               layout.shapes.sea_lines(), **dragons),
            "legend": m.legend(houses, COLOURS, layout.width, layout.height),
        }

    def tracks(self, view: dict[str, Any]) -> Markup:
        """The panel of tracks under the board, drawn again only when a track, the supply, the victory
        track or the threat moved. The view holds only strings, numbers, booleans and lists and dicts of
        them, so its repr tells two views apart (an unequal repr of an equal view only draws it again)."""
        return self.panels.get(repr(view), lambda: self.macros.tracks(view, COLOURS))  # type: ignore[no-any-return]

    def area(self, state: GameState, key: AreaKey, highlight: bool) -> tuple[Markup, Markup]:
        """An area's fill and contents, drawn again only when something in them changed."""
        return self.areas.get((key, highlight), lambda: self._draw_area(state, key, highlight))  # type: ignore[no-any-return]

    def _draw_area(self, state: GameState, key: AreaKey, highlight: bool) -> tuple[Markup, Markup]:
        area_id, holder, _, blocked, _, _ = key
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
    """The board as an SVG document (a string), ready to show as an image or save as ``.svg``.

    ``highlight`` names areas to mark (the embattled ones); ``events`` are the step's public
    events, whose marches and retreats are drawn as arrows; ``viewer`` only names the reader in
    the title: the board holds no secrets, the state's public facts are all it draws. Parts that
    did not change since an earlier map in this process (most areas, from one step to the next)
    are reused as drawn, so the result is the same as drawing everything afresh.

    :raises KeyError: when ``highlight`` names an unknown area.
    :raises jinja2.TemplateError: when a moderator's ``map.svg.j2`` lacks one of :data:`MAP_MACROS`.
    """
    board = board or state.board()
    marked = set(highlight)
    for area_id in marked:
        board.area(area_id)
    template = environment(templates_dir).get_template("map.svg.j2")
    painter = _painter(template, board)
    return template.render(**map_view(state, painter, viewer=viewer, highlight=marked, events=list(events)))


def map_view(state: GameState, painter: _Painter, *, viewer: str | None, highlight: set[str],
             events: list[Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """What the SVG template's document receives: the title, a short description and the drawn parts."""
    facts = painter.facts
    keys = _area_keys(state, facts)
    drawn = {a: painter.area(state, keys[a], a in highlight) for a in facts.drawing_order}
    seas = [a for a in facts.drawing_order if facts.places[a]["kind"] == "sea"]
    others = [a for a in facts.drawing_order if facts.places[a]["kind"] != "sea"]
    title = f"{state.game_id} · round {state.round} · {state.phase}"
    layout = facts.layout
    m = painter.macros
    return {
        "width": layout.width,
        "height": layout.height + layout.legend_height,
        "title": title + (f" · seen by {viewer.title()}" if viewer else ""),
        "desc": "The board; the report lists every area with what lies in it.",
        "neutral": NEUTRAL_FILL,
        "parts": painter.layer(state) | {
            "sea_fills": [drawn[a][0] for a in seas],
            "land_fills": [drawn[a][0] for a in others],
            "contents": [drawn[a][1] for a in facts.drawing_order],
            "arrows": m.arrows(_arrows(facts, events or []), COLOURS),
            "tracks": painter.tracks(_tracks_view(state, facts.board, layout)),
        },
    }


def _r(v: float) -> float:
    """A coordinate with one decimal at most (a whole number prints without ``.0``)."""
    v = round(v, 1)
    return int(v) if v == int(v) else v


# --- where an area's marks go ----------------------------------------------------------------------


def _place(shapes: MapShapes, area: Any) -> dict[str, Any]:
    """The fixed part of an area's view: its outline, its name, its printed icons and where its marks go."""
    ax, ay = shapes.anchors[area.id]
    room = shapes.room[area.id]
    name = area.name
    size = 11 if area.is_port else (13 if room >= 45 else 11)
    place: dict[str, Any] = {
        "id": area.id,
        "name": name,
        "kind": area.kind,
        "home_of": area.home_of,
        "path": shapes.path(area.id),
        "label": "" if area.is_port else name,
        "label_size": size,
        "label_x": _r(ax),
        "label_y": _r(ay - (14 if room >= 45 else 6)),
        "label_colour": "#1d4a5a" if area.is_sea else "#2a2116",
        "icons": [],
        "row": (ax, ay + (2 if area.is_port else 8)),
    }
    if area.is_land:  # three rows that never meet: the name, the printed icons, then what lies there
        place["icons"] = _icons(area, ax, ay - 8 if room >= 45 else ay + 2)
        place["row"] = (ax, ay + (14 if room >= 45 else 16))
    place["blocked_y"] = _r(place["row"][1] + 12)  # "impassable" where units would stand: none may
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
        "plain_fill": NEUTRAL_FILL,  # the group's default: an area drawn so needs no fill of its own
        "holder": holder,
        "blocked": blocked,
        "highlight": highlight,
        "summary": summary or place["name"],
        "fill": fill,
        "stroke": stroke,
        "vassal": holder in state.vassals,
    }
    cx, cy = place["row"]
    badge = _badge(st, area_id, place["home_of"], state) if place["kind"] == "land" else None
    own = name_box(place["label"], place["label_size"], place["label_x"], place["label_y"]) if place["label"] else None
    view.update(_row(st, cx, cy, vassals=state.vassals, badge=badge, names=facts.names, own=own))
    return view


_UNIT_W = 27  # an icon and its count
_BADGE_W = 23  # a garrison shield or a neutral-force token
ROW_TOP, ROW_HEIGHT = -4, 24  # what a row draws, from its y: order tokens and footmen highest, counts lowest


def _row(st: AreaState, cx: float, y: float, vassals: Iterable[str] = (), badge: dict[str, Any] | None = None,
         names: Sequence[Box] = (), own: Box | None = None) -> dict[str, Any]:  # fmt: skip
    """The row under the name and the icons, centred: the garrison or neutral force first, then the unit
    icons, the order token and the power token. It has a row of its own, under its area's name, and
    is moved off any neighbour's name it would cover (:func:`maplabels.free_spot`)."""
    vassals = set(vassals)
    counts = Counter((u.house, u.type, u.routed) for u in st.units)
    groups = sorted(counts.items(), key=lambda kv: (kv[0][0], list(UNIT_LETTERS).index(kv[0][1]), kv[0][2]))
    extra = (22 if st.order else 0) + (20 if st.power_token else 0) + (_BADGE_W if badge else 0)
    width = len(groups) * _UNIT_W + extra
    if width:
        cx, y = free_spot(names, cx, y, ROW_TOP, width, ROW_HEIGHT, beside=own)
    x = cx - width / 2
    if badge is not None:
        badge = badge | {"x": _r(x + 10), "y": _r(y - (1 if badge["symbol"] == "garrison" else 0))}
        x += _BADGE_W
    units = []
    for (house, unit, routed), n in groups:
        units.append({"house": house, "unit": unit, "n": n, "routed": routed, "x": _r(x), "y": _r(y),
                      "title": f"{house.title()}: {_plural(n, unit)}" + (" (routed)" if routed else ""),
                      "vassal": house in vassals})  # fmt: skip
        x += _UNIT_W
    order = None
    if st.order:
        order = {"house": st.order.house, "text": _order_text(st.order.token), "special": st.order.token in SPECIAL_TOKENS,
                 "title": order_name(st.order.token), "x": _r(x + 10), "y": _r(y + 8)}  # fmt: skip
        x += 22
    power = {"house": st.power_token, "x": _r(x + 9), "y": _r(y + 8)} if st.power_token else None
    return {"badge": badge, "units": units, "order": order, "power": power}


def _colours(kind: str, holder: str | None, blocked: bool) -> tuple[str, str]:
    """Fill and outline of an area: its holder's tint, sea, port or parchment."""
    if blocked:
        return "url(#hatch)", "#777777"
    if kind == "sea":
        return SEA_FILL, "#7aa8b0"
    if holder in HOUSE_COLOURS:
        main, tint, _ = HOUSE_COLOURS[holder]
        return tint, main
    return (PORT_FILL if kind == "port" else NEUTRAL_FILL), "#8a7752"  # a land's plain look: drawn as the default


def _icons(area: Any, cx: float, y: float) -> list[dict[str, Any]]:
    """Fortification, supply barrels and power crowns printed on the area, centred under the name."""
    symbols = ([area.fortification] if area.fortification != "none" else []) + ["barrel"] * area.supply + \
        ["crown"] * area.power  # fmt: skip
    x = cx - sum(ICON_WIDTHS[s] for s in symbols) / 2
    icons = []
    for sym in symbols:
        icons.append({"symbol": sym, "x": _r(x), "y": _r(y)})
        x += ICON_WIDTHS[sym]
    return icons


ICON_WIDTHS = {"castle": 12, "stronghold": 16, "barrel": 9, "crown": 12}


def _badge(st: AreaState, area_id: str, home_of: str | None, state: GameState) -> dict[str, Any] | None:
    """The garrison shield or the neutral-force token of a land (placed by :func:`_row`)."""
    if st.garrison:
        return {"symbol": "garrison", "house": st.garrison_house or home_of or "", "text": str(st.garrison)}
    if st.neutral_force is not None and area_id not in state.impassable:
        return {"symbol": "neutral", "house": "", "text": str(st.neutral_force)}
    return None


# Mother of Dragons' tokens as printed: the sea orders (M114) and the vassal orders (M043-M055), with
# the two-faced vassal tokens turned to the face they kept (M047, M051).
EXPANSION_ORDER_TEXT = {"sea_march": "M-1", "sea_support": "S+0", "iron_bank": "IB", "vassal_march": "M0",
                        "vassal_raid_support": "R/S1", "vassal_support": "S1", "vassal_defense_muster": "D1/M",
                        "vassal_defense_1": "D1", "vassal_defense": "D3"}


def _order_text(token: str) -> str:
    """``M+1`` for March +1: kind letter and bonus (special orders get a star drawn round them)."""
    if token in EXPANSION_ORDER_TEXT:
        return EXPANSION_ORDER_TEXT[token]
    kind = order_kind(token)
    bonus = token[len(kind):].rstrip("*")
    return ORDER_LETTERS.get(kind, "?") + bonus


# --- arrows and tracks -------------------------------------------------------------------------------


def moves(events: Iterable[Any]) -> list[tuple[str, str, str, str]]:
    """This step's marches, attacks and retreats: ``(house, from, to, "march" | "attack" | "retreat")``."""
    out = []
    for e in events:
        kind = type(e).__name__
        if kind == "UnitsMoved":
            out.append((e.house, e.origin, e.destination, "march"))
        elif kind == "AttackDeclared":
            out.append((e.house, e.origin, e.area, "attack"))
        elif kind == "Retreated":
            out.append((e.house, e.from_area, e.to_area, "retreat"))
    return out


def _arrows(facts: _BoardFacts, events: list[Any]) -> list[dict[str, Any]]:
    """This step's marches and retreats as arrows from area to area, in the house's colour."""
    anchors = facts.layout.shapes.anchors
    out = []
    for house, a, b, style in moves(events):
        if a not in anchors or b not in anchors or a == b:
            continue
        (x1, y1), (x2, y2) = anchors[a], anchors[b]
        d = math.dist((x1, y1), (x2, y2)) or 1.0
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        out.append({"house": house, "style": style, "x1": _r(x1 + ux * 14), "y1": _r(y1 + uy * 14),
                    "x2": _r(x2 - ux * 16), "y2": _r(y2 - uy * 16)})  # fmt: skip
    return out


VICTORY_LEFT, VICTORY_SPACE = 560, 46  # where the victory track starts in the panel, and a space's width at most


def _tracks_view(state: GameState, board: Board, layout: MapLayout) -> dict[str, Any]:
    """The influence tracks, supply, victory and wildling threat, as rows of the panel under the board."""
    names = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
    dominance = state.dominance()
    influence = [{"name": names[t], "houses": list(state.tracks.get(t, [])),
                  "used": bool(dominance[DOMINANCE_TOKENS[t]]["used"]) if t != "iron_throne" else False}
                 for t in TRACKS]  # fmt: skip
    supply = [[h for h in state.houses_in_play if state.houses[h].supply == n] for n in range(7)]
    victory_max = state.victory_target(board)  # the table's target, seven by the rulebook (ruling 447)
    castles = {h: state.victory(h, board) for h in state.houses_in_play}  # Targaryen's counts loyalty (M076)
    victory = [[h for h in state.houses_in_play if min(castles[h], victory_max) == n] for n in range(victory_max + 1)]
    step = min(VICTORY_SPACE, (layout.width - VICTORY_LEFT) // (victory_max + 1))  # a long track in the panel's width
    return {"y": layout.height, "width": layout.width, "influence": influence, "supply": supply, "victory": victory,
            "victory_step": step,
            "threat": state.wildling_threat, "threat_max": board.constants["wildling_attack_at"]} | _vassals_line(state)  # fmt: skip


def _vassals_line(state: GameState) -> dict[str, Any]:
    """Mother of Dragons: which houses are vassals (dashed on the map) and who commands each (M030, M038)."""
    if not state.vassals:
        return {}
    who = [f"{v.title()}: {c.title() if (c := state.commander(v)) else 'no commander yet'}" for v in state.vassals]
    return {"vassals": list(state.vassals), "vassals_text": "Vassals, dashed, and their commanders: " + "; ".join(who)}
