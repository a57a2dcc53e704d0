"""The game state: everything that moves, saved to and loaded from TOML without loss.

``GameState`` is plain data. The rules (:mod:`adjudicator.rules`) copy it and change the copy;
nothing here knows a rule beyond the box's limits checked by :meth:`GameState.check`.

>>> from adjudicator.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> GameState.from_toml(state.to_toml()) == state
True
>>> state.check()
[]
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from .board import DOMINANCE_TOKENS, TRACKS, AreaId, Board, HouseId
from .cards.data import CARDS
from .commands import ORDER_TOKENS, SPECIAL_TOKENS

SCHEMA_VERSION = 1
PHASES = ("westeros", "planning", "action", "game_over")
PLURALS = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines"}


@dataclass(slots=True)
class Unit:
    house: HouseId
    type: str  # footman | knight | ship | siege_engine
    routed: bool = False


@dataclass(slots=True)
class Order:
    house: HouseId
    token: str  # see commands.ORDER_TOKENS

    @property
    def special(self) -> bool:
        return self.token in SPECIAL_TOKENS


@dataclass(slots=True)
class AreaState:
    """What lies in one area. Areas with nothing in them are not stored."""

    units: list[Unit] = field(default_factory=list)
    order: Order | None = None
    power_token: HouseId | None = None
    garrison: int = 0
    neutral_force: int | None = None  # strength of a neutral force token

    def is_empty(self) -> bool:
        return not (self.units or self.order or self.power_token or self.garrison or self.neutral_force)


@dataclass(slots=True)
class HouseState:
    power: int = 5  # available power (R008)
    supply: int = 0
    hand: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)  # in the order played; last is newest


@dataclass(slots=True)
class Segment:
    """The part of a phase being resolved: where it started and every decision taken since.

    The engine replays the segment from ``start`` with ``decisions`` to reach the current
    moment, so a half-resolved phase is saved as data, not as a paused program.
    """

    name: str
    start: dict[str, Any]
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)  # ids of one-shot answers already consumed
    events_seen: int = 0


@dataclass(slots=True)
class GameState:
    game_id: str = "game"
    schema_version: int = SCHEMA_VERSION
    round: int = 1
    phase: str = "planning"
    houses_in_play: list[HouseId] = field(default_factory=list)
    tracks: dict[str, list[HouseId]] = field(default_factory=dict)
    houses: dict[HouseId, HouseState] = field(default_factory=dict)
    areas: dict[AreaId, AreaState] = field(default_factory=dict)
    impassable: list[AreaId] = field(default_factory=list)
    wildling_threat: int = 2
    blade_used: bool = False
    raven_used: bool = False
    kings_court_overlay: bool = False
    restrictions: list[str] = field(default_factory=list)  # order kinds banned this planning
    westeros_decks: dict[str, list[str]] = field(default_factory=dict)  # "1".."3": top first
    westeros_discards: dict[str, list[str]] = field(default_factory=dict)
    wildling_deck: list[str] = field(default_factory=list)  # top first
    tides_deck: list[str] = field(default_factory=list)
    tides_discards: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    rng_seed: str = ""
    rng_counter: int = 0
    winner: HouseId | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)
    segment: Segment | None = None
    answers: list[dict[str, Any]] = field(default_factory=list)  # standing answers, serialised

    # --- queries ----------------------------------------------------------------------------

    def area(self, area_id: AreaId) -> AreaState:
        """The contents of an area (an empty, detached one for an empty area)."""
        return self.areas.get(area_id) or AreaState()

    def area_mut(self, area_id: AreaId) -> AreaState:
        """The contents of an area, created if empty, for the engine to change."""
        return self.areas.setdefault(area_id, AreaState())

    def tidy(self) -> None:
        """Drop areas left empty, so equal positions compare equal."""
        for a in [a for a, s in self.areas.items() if s.is_empty()]:
            del self.areas[a]

    def units_of(self, house: HouseId) -> list[tuple[AreaId, Unit]]:
        return [(a, u) for a, s in sorted(self.areas.items()) for u in s.units if u.house == house]

    def occupant(self, area_id: AreaId) -> HouseId | None:
        """The house with units in an area (one house at most outside combat)."""
        units = self.area(area_id).units
        return units[0].house if units else None

    def controller(self, area_id: AreaId, board: Board) -> HouseId | None:
        """Who controls an area (R240, R247): units, else a power token, else the home shield."""
        # Written for speed (the engine asks tens of thousands of times a game): no empty AreaState is made.
        a = board.areas[area_id]
        if a.kind == "port":
            assert a.port_of is not None
            return self.controller(a.port_of, board)
        st = self.areas.get(area_id)
        if st is not None and st.units:
            if a.kind == "land" and not any(u.type != "ship" for u in st.units):
                return None
            return st.units[0].house
        if a.kind == "sea":
            return None
        if st is not None and st.power_token:
            return st.power_token
        if a.home_of and a.home_of in self.houses_in_play:
            return a.home_of
        return None

    def holder(self, track: str) -> HouseId:
        """Position 1 of an influence track (holds its dominance token)."""
        return self.tracks[track][0]

    def turn_order(self) -> list[HouseId]:
        return list(self.tracks["iron_throne"])

    def position(self, track: str, house: HouseId) -> int:
        return self.tracks[track].index(house) + 1

    def stars(self, house: HouseId, board: Board) -> int:
        return board.kings_court_stars(self.position("kings_court", house), self.kings_court_overlay)

    def castles(self, house: HouseId, board: Board) -> int:
        """Castle and stronghold areas controlled: the victory track (R248)."""
        return sum(1 for a in board.land_areas() if a.has_castle and self.controller(a.id, board) == house)

    def power_on_board(self, house: HouseId) -> int:
        return sum(1 for s in self.areas.values() if s.power_token == house)

    def orders_placed(self, house: HouseId) -> list[str]:
        return [s.order.token for s in self.areas.values() if s.order and s.order.house == house]

    def copy(self) -> GameState:
        return copy.deepcopy(self)

    def trial_copy(self) -> GameState:
        """A cheap copy to try a change on: the board and the houses are copied, the rest shared.

        Only for checks that move units, orders, tokens or power and then throw the copy away.
        """
        new = copy.copy(self)
        new.areas = {
            a: AreaState([Unit(u.house, u.type, u.routed) for u in s.units], s.order, s.power_token, s.garrison,
                         s.neutral_force)
            for a, s in self.areas.items()
        }
        new.houses = {h: HouseState(s.power, s.supply, list(s.hand), list(s.discards)) for h, s in self.houses.items()}
        return new

    # --- invariants -------------------------------------------------------------------------

    def check(self, board: Board | None = None) -> list[str]:
        """Every broken box limit at once, as readable sentences (empty when all is well)."""
        board = board or Board.classic()
        problems: list[str] = []
        for house in self.houses_in_play:
            for unit in ("footman", "knight", "ship", "siege_engine"):
                n = sum(1 for _, u in self.units_of(house) if u.type == unit)
                if n > board.unit_limit(unit):
                    problems.append(f"{house} has {n} {PLURALS[unit]}; the box holds {board.unit_limit(unit)}")
            placed = self.orders_placed(house)
            for token, copies in ORDER_TOKENS.items():
                if placed.count(token) > copies:
                    problems.append(f"{house} has {placed.count(token)} '{token}' orders; it owns {copies}")
            total_power = self.houses[house].power + self.power_on_board(house)
            if total_power > board.constants["power_tokens_max_per_house"]:
                problems.append(f"{house} has {total_power} power tokens; the box holds 20")
            if self.houses[house].power < 0:
                problems.append(f"{house} has negative power")
            if not 0 <= self.houses[house].supply <= board.constants["supply_track_max"]:
                problems.append(f"{house} is at {self.houses[house].supply} on the supply track, which runs 0 to 6")
            problems += _card_problems(house, self.houses[house])
        for area_id, st in self.areas.items():
            if area_id not in board.areas:
                problems.append(f"unknown area {area_id!r}")
                continue
            a = board.area(area_id)
            houses = {u.house for u in st.units}
            if len(houses) > 1:
                problems.append(f"{a.name} holds units of {', '.join(sorted(houses))}")
            for u in st.units:
                if u.house not in self.houses_in_play:
                    problems.append(f"{a.name}: a unit of {u.house}, not in play")
                if u.type == "ship" and a.is_land:
                    problems.append(f"{a.name}: a ship on land")
                if u.type != "ship" and not a.is_land:
                    problems.append(f"{a.name}: a {u.type} at sea or in a port")
            if a.is_port and len(st.units) > board.constants["port_max_ships"]:
                problems.append(f"{a.name} holds {len(st.units)} ships; a port holds 3")
            if st.order and st.order.house not in houses:
                problems.append(f"{a.name}: an order of {st.order.house} without its units")
            if st.power_token and not a.is_land:
                problems.append(f"{a.name}: a power token outside a land area")
            if area_id in self.impassable and (st.units or st.order):
                problems.append(f"{a.name} is impassable but holds units")
            if st.power_token and houses and st.power_token not in houses:
                problems.append(f"{a.name}: a {st.power_token} power token under {', '.join(sorted(houses))} units")
            if st.garrison and (a.home_of is None or a.home_of not in self.houses_in_play):
                problems.append(f"{a.name}: a garrison outside the home area of a house in play")
            elif st.garrison and houses - {a.home_of}:
                problems.append(f"{a.name}: a {a.home_of} garrison under {', '.join(sorted(houses))} units")
            if st.neutral_force and (st.units or st.power_token):
                problems.append(f"{a.name}: a neutral force shares the area with units or a power token")
        for track in TRACKS:
            if sorted(self.tracks.get(track, [])) != sorted(self.houses_in_play):
                problems.append(f"the {track} track is not a permutation of the houses in play")
        if self.wildling_threat not in board.constants["wildling_track"]:
            problems.append(f"the wildling threat {self.wildling_threat} is not a space of the wildling track")
        if self.winner is not None and self.winner not in self.houses_in_play:
            problems.append(f"the winner {self.winner} is not a house in play")
        return problems

    # --- text forms -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A TOML-ready dict (no None values; empty areas dropped)."""
        d: dict[str, Any] = {
            "schema_version": self.schema_version,
            "game_id": self.game_id,
            "round": self.round,
            "phase": self.phase,
            "houses_in_play": list(self.houses_in_play),
            "tracks": {t: list(v) for t, v in self.tracks.items()},
            "wildling_threat": self.wildling_threat,
            "blade_used": self.blade_used,
            "raven_used": self.raven_used,
            "kings_court_overlay": self.kings_court_overlay,
            "restrictions": list(self.restrictions),
            "impassable": list(self.impassable),
            "houses": {h: _house_dict(s) for h, s in self.houses.items()},
            "areas": {a: _area_dict(s) for a, s in sorted(self.areas.items()) if not s.is_empty()},
            "decks": {
                "westeros": {k: list(v) for k, v in self.westeros_decks.items()},
                "westeros_discards": {k: list(v) for k, v in self.westeros_discards.items()},
                "wildling": list(self.wildling_deck),
                "tides": list(self.tides_deck),
                "tides_discards": list(self.tides_discards),
            },
            "options": dict(self.options),
            "rng": {"seed": self.rng_seed, "counter": self.rng_counter},
            "pending": [dict(p) for p in self.pending],
            "answers": [dict(a) for a in self.answers],
        }
        if self.winner:
            d["winner"] = self.winner
        if self.segment:
            seg = self.segment
            d["segment"] = {
                "name": seg.name,
                "start": seg.start,
                "decisions": seg.decisions,
                "used": list(seg.used),
                "events_seen": seg.events_seen,
            }
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        version = d.get("schema_version", SCHEMA_VERSION)
        d = migrate(d, version)
        decks = d.get("decks", {})
        seg = d.get("segment")
        return cls(
            game_id=d.get("game_id", "game"),
            schema_version=SCHEMA_VERSION,
            round=d["round"],
            phase=d["phase"],
            houses_in_play=list(d["houses_in_play"]),
            tracks={t: list(v) for t, v in d["tracks"].items()},
            houses={h: _house_from(s) for h, s in d["houses"].items()},
            areas={a: _area_from(s) for a, s in d.get("areas", {}).items()},
            impassable=list(d.get("impassable", [])),
            wildling_threat=d.get("wildling_threat", 2),
            blade_used=d.get("blade_used", False),
            raven_used=d.get("raven_used", False),
            kings_court_overlay=d.get("kings_court_overlay", False),
            restrictions=list(d.get("restrictions", [])),
            westeros_decks={k: list(v) for k, v in decks.get("westeros", {}).items()},
            westeros_discards={k: list(v) for k, v in decks.get("westeros_discards", {}).items()},
            wildling_deck=list(decks.get("wildling", [])),
            tides_deck=list(decks.get("tides", [])),
            tides_discards=list(decks.get("tides_discards", [])),
            options=dict(d.get("options", {})),
            rng_seed=d.get("rng", {}).get("seed", ""),
            rng_counter=d.get("rng", {}).get("counter", 0),
            winner=d.get("winner"),
            pending=[dict(p) for p in d.get("pending", [])],
            answers=[dict(a) for a in d.get("answers", [])],
            segment=Segment(
                name=seg["name"],
                start=seg["start"],
                decisions=dict(seg.get("decisions", {})),
                used=list(seg.get("used", [])),
                events_seen=seg.get("events_seen", 0),
            )
            if seg
            else None,
        )

    def to_toml(self) -> str:
        return tomli_w.dumps(self.to_dict())

    @classmethod
    def from_toml(cls, text: str) -> GameState:
        """Read a state written by :meth:`to_toml`.

        :raises tomllib.TOMLDecodeError: for text that is not TOML.
        :raises KeyError: for a missing required key.
        """
        return cls.from_dict(tomllib.loads(text))

    def dominance(self) -> dict[str, dict[str, Any]]:
        used = {"iron_throne": False, "valyrian_steel_blade": self.blade_used, "messenger_raven": self.raven_used}
        return {tok: {"holder": self.holder(track), "used": used[tok]} for track, tok in DOMINANCE_TOKENS.items()}


def _card_problems(house: HouseId, hs: HouseState) -> list[str]:
    """A house's hand and discards hold only its own seven cards, each once (R011)."""
    own = set(CARDS.hand_of(house))
    problems = [f"{house} holds {c!r}, not one of its house cards" for c in hs.hand + hs.discards if c not in own]
    twice = sorted({c for c in hs.hand + hs.discards if (hs.hand + hs.discards).count(c) > 1})
    problems += [f"{house} holds {c!r} twice" for c in twice]
    return problems


def migrate(d: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring an older saved state up to :data:`SCHEMA_VERSION`, one version at a time.

    :raises ValueError: for a state written by a newer Maester.
    """
    if version > SCHEMA_VERSION:
        raise ValueError(f"state schema_version {version} is newer than this Maester ({SCHEMA_VERSION})")
    # Version 1 is the first; future migrations go here as `if version == 1: ...; version = 2`.
    return d


def _house_dict(s: HouseState) -> dict[str, Any]:
    return {"power": s.power, "supply": s.supply, "hand": list(s.hand), "discards": list(s.discards)}


def _house_from(d: dict[str, Any]) -> HouseState:
    return HouseState(
        power=d.get("power", 5), supply=d.get("supply", 0), hand=list(d.get("hand", [])),
        discards=list(d.get("discards", [])),
    )


def _area_dict(s: AreaState) -> dict[str, Any]:
    d: dict[str, Any] = {}
    if s.units:
        d["units"] = [{"house": u.house, "type": u.type, "routed": u.routed} for u in s.units]
    if s.order:
        d["order"] = {"house": s.order.house, "token": s.order.token}
    if s.power_token:
        d["power_token"] = s.power_token
    if s.garrison:
        d["garrison"] = s.garrison
    if s.neutral_force is not None:
        d["neutral_force"] = s.neutral_force
    return d


def _area_from(d: dict[str, Any]) -> AreaState:
    order = d.get("order")
    return AreaState(
        units=[Unit(u["house"], u["type"], u.get("routed", False)) for u in d.get("units", [])],
        order=Order(order["house"], order["token"]) if order else None,
        power_token=d.get("power_token"),
        garrison=d.get("garrison", 0),
        neutral_force=d.get("neutral_force"),
    )
