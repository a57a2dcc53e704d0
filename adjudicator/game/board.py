"""The physical board: areas, borders, ports, houses and setups, read from ``data/board.toml``.

The board never changes during a game; everything that moves lives in :mod:`adjudicator.game.state`.

>>> board = Board.classic()
>>> wf = board.area("winterfell")
>>> wf.fortification, wf.supply, wf.power, wf.home_of
('stronghold', 1, 1, 'stark')
>>> board.area("kings_landing")
board.area('kings_landing')
>>> board.adjacent("winterfell", "castle_black")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any, Literal

from ..util.datafile import load_toml
from ..util.resources import package_files

AreaId = str
HouseId = str
UnitType = Literal["footman", "knight", "ship", "siege_engine", "dragon"]

HOUSES: tuple[HouseId, ...] = ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell")
# Mother of Dragons adds two houses (game/mod_board.py); every house any box knows, in canonical order.
EXPANSION_HOUSES: tuple[HouseId, ...] = ("arryn", "targaryen")
ALL_HOUSES: tuple[HouseId, ...] = HOUSES + EXPANSION_HOUSES
# The dragon is Mother of Dragons' (Targaryen's) land unit; the classic box holds none (its limit is 0).
UNIT_TYPES: tuple[str, ...] = ("footman", "knight", "ship", "siege_engine", "dragon")
LAND_UNITS: frozenset[str] = frozenset({"footman", "knight", "siege_engine", "dragon"})
TRACKS: tuple[str, ...] = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE_TOKENS: dict[str, str] = {
    "iron_throne": "iron_throne",
    "fiefdoms": "valyrian_steel_blade",
    "kings_court": "messenger_raven",
}


@dataclass(frozen=True, slots=True)
class Area:
    """One area of the board: land, sea or port."""

    id: AreaId
    name: str
    kind: Literal["land", "sea", "port"]
    fortification: Literal["none", "castle", "stronghold"] = "none"
    supply: int = 0
    power: int = 0
    home_of: HouseId | None = None
    island: bool = False
    port: AreaId | None = None  # land area: its port, if any
    port_of: AreaId | None = None  # port: its land area
    opens_onto: AreaId | None = None  # port: its one sea
    board: Literal["westeros", "essos"] = "westeros"  # Mother of Dragons' side board is Essos

    def __repr__(self) -> str:
        return f"board.area({self.id!r})"

    @property
    def is_land(self) -> bool:
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"

    @property
    def is_port(self) -> bool:
        return self.kind == "port"

    @property
    def has_castle(self) -> bool:
        """True for a castle or a stronghold: what counts for victory and mustering."""
        return self.fortification != "none"

    @property
    def muster_points(self) -> int:
        return {"none": 0, "castle": 1, "stronghold": 2}[self.fortification]


@dataclass(frozen=True, slots=True)
class StartingUnit:
    area: AreaId
    unit: UnitType
    count: int


@dataclass(frozen=True, slots=True)
class House:
    id: HouseId
    name: str
    home_area: AreaId
    garrison_strength: int
    plays_in: tuple[int, ...]
    supply_start: int
    starting_units: tuple[StartingUnit, ...]


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """The setup printed for one player count (rulebook pp. 4 and 28)."""

    players: int
    houses: tuple[HouseId, ...]
    neutral_forces: dict[AreaId, int]
    impassable_areas: tuple[AreaId, ...]
    unusable_ports: tuple[AreaId, ...]
    kings_court_overlay: bool
    tracks: dict[str, tuple[HouseId, ...]]


@dataclass(frozen=True)
class Board:
    """Areas, borders and the static facts of the box."""

    areas: dict[AreaId, Area]
    neighbours: dict[AreaId, frozenset[AreaId]]
    houses: dict[HouseId, House]
    setups: dict[int, PlayerSetup]
    constants: dict[str, Any]
    order_tokens: tuple[dict[str, Any], ...]
    border_pairs: tuple[tuple[AreaId, AreaId], ...] = field(repr=False)
    map: str = "classic"  # classic | westeros_mod (Mother of Dragons) | with_essos (and the Essos side board)

    @staticmethod
    @cache
    def classic() -> Board:
        """The classic 3-6 player map, loaded once from the package data."""
        text = package_files("adjudicator.game").joinpath("data/board.toml").read_text("utf-8")
        return Board.from_toml(load_toml(text, "board"))

    @staticmethod
    def from_toml(data: dict[str, Any]) -> Board:
        areas = {a["id"]: area_from_data(a) for a in data["area"]}
        nbrs: dict[AreaId, set[AreaId]] = {a: set() for a in areas}
        pairs = tuple((a, b) for a, b in data["borders"]["pairs"])
        for a, b in pairs:
            nbrs[a].add(b)
            nbrs[b].add(a)
        houses = {h["id"]: house_from_data(h) for h in data["house"]}
        setups = {s["players"]: _setup(s) for s in data["player_setup"]}
        return Board(
            areas=areas,
            neighbours={a: frozenset(n) for a, n in nbrs.items()},
            houses=houses,
            setups=setups,
            constants=data["constants"],
            order_tokens=tuple(data["order_token"]),
            border_pairs=pairs,
        )

    def area(self, area_id: AreaId) -> Area:
        """The area with this id.

        :raises KeyError: for an unknown id.
        """
        return self.areas[area_id]

    def adjacent(self, a: AreaId, b: AreaId) -> bool:
        """True when the two areas share a border (rivers already applied)."""
        return b in self.neighbours[a]

    def land_areas(self) -> Iterable[Area]:
        return self._by_kind["land"]

    def sea_areas(self) -> Iterable[Area]:
        return self._by_kind["sea"]

    def ports(self) -> Iterable[Area]:
        return self._by_kind["port"]

    @cached_property
    def _by_kind(self) -> dict[str, tuple[Area, ...]]:
        """The areas of each kind in board order, sorted out once (the engine asks thousands of times a game)."""
        return {kind: tuple(a for a in self.areas.values() if a.kind == kind) for kind in ("land", "sea", "port")}

    def home_area(self, house: HouseId) -> AreaId:
        return self.houses[house].home_area

    def supply_limits(self, level: int) -> tuple[int, ...]:
        """Largest army sizes allowed at this Supply-track position (R059)."""
        table: list[list[int]] = self.constants["supply_limits"]
        return tuple(table[max(0, min(level, len(table) - 1))])

    def kings_court_stars(self, position: int, overlay: bool) -> int:
        """Special orders allowed at a King's Court position (1-based), R094/R095.

        Mother of Dragons' eight-space track has its own stars (M098, ruling 251).
        """
        if overlay:
            key = "kings_court_stars_3_4_players"
        elif "kings_court_stars_8_positions" in self.constants:
            key = "kings_court_stars_8_positions"
        else:
            key = "kings_court_stars_5_6_players"
        stars: list[int] = self.constants[key]
        return stars[position - 1] if 0 < position <= len(stars) else 0

    def unit_limit(self, unit: str, house: HouseId | None = None) -> int:
        """How many units of a type a house owns (R008); a house with a table of its own (Arryn,
        Targaryen) has its own numbers, and a type the box lacks (the classic dragon) has 0.

        >>> Board.classic().unit_limit("footman"), Board.classic().unit_limit("dragon")
        (10, 0)
        """
        limits: dict[str, Any] = self.constants["unit_limits"]
        own = limits.get(house) if house else None
        if isinstance(own, dict):
            return int(own.get(unit, 0))
        value = limits.get(unit, 0)
        return value if isinstance(value, int) else 0

    def power_cap(self, house: HouseId) -> int:
        """How many Power tokens a house owns in all (R008): 20, or a house's own number (A Feast for
        Crows' Arryn has 19).

        >>> Board.classic().power_cap("stark")
        20
        """
        own: dict[str, int] = self.constants.get("power_tokens_max", {})
        return int(own.get(house, self.constants["power_tokens_max_per_house"]))

    def is_essos(self, area_id: AreaId) -> bool:
        """True for an area of Mother of Dragons' Essos side board."""
        return self.areas[area_id].board == "essos"


def area_from_data(a: dict[str, Any]) -> Area:
    return Area(
        id=a["id"],
        name=a["name"],
        kind=a["kind"],
        fortification=a.get("fortification", "none"),
        supply=a.get("supply", 0),
        power=a.get("power", 0),
        home_of=a.get("home_of"),
        island=a.get("island", False),
        port=a.get("port"),
        port_of=a.get("port_of"),
        opens_onto=a.get("opens_onto"),
        board=a.get("board", "westeros"),
    )


def house_from_data(h: dict[str, Any]) -> House:
    return House(
        id=h["id"],
        name=h["name"],
        home_area=h["home_area"],
        garrison_strength=h["garrison"]["strength"],
        plays_in=tuple(h["plays_in"]),
        supply_start=h["supply_start"],
        starting_units=tuple(StartingUnit(u["area"], u["unit"], u["count"]) for u in h["starting_units"]),
    )


def _setup(s: dict[str, Any]) -> PlayerSetup:
    return PlayerSetup(
        players=s["players"],
        houses=tuple(s["houses"]),
        neutral_forces={n["area"]: n["strength"] for n in s["neutral_forces"]},
        impassable_areas=tuple(s.get("impassable_areas", ())),
        unusable_ports=tuple(s.get("unusable_ports", ())),
        kings_court_overlay=s["kings_court_overlay"],
        tracks={t: tuple(s[t]) for t in TRACKS},
    )
