"""The game state: everything that moves, saved to and loaded from TOML without loss.

``GameState`` is plain data. The rules (:mod:`adjudicator.engine.rules`) copy it and change the copy;
nothing here knows a rule beyond the box's limits checked by :meth:`GameState.check`.

>>> from adjudicator.game.setup import new_game
>>> state = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> GameState.from_toml(state.to_toml()) == state
True
>>> state.check()
[]
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, NoReturn

import tomli_w

from ..util import tomltext
from .board import DOMINANCE_TOKENS, HOUSES, TRACKS, UNIT_TYPES, AreaId, Board, HouseId
from .cards import CARDS
from .commands import ORDER_TOKENS, SPECIAL_TOKENS

SCHEMA_VERSION = 1
PHASES = ("westeros", "planning", "action", "game_over")
# Where inside a phase the game stands (docs/positions.md); "" is the phase's start. Each is a
# point where the engine starts a segment, so each can be written down as a position file.
STEPS = {
    "westeros": ("", "threat", "card_1", "card_2", "card_3"),  # cards revealed; threat moved, deck N next
    "planning": ("", "raven"),  # orders revealed, the Messenger Raven next
    "action": ("", "raids", "marches", "consolidate"),  # a cycle of orders (cycle_done: who has resolved one)
    "game_over": ("",),
}
CYCLE_STEPS = ("raids", "marches", "consolidate")
PLURALS = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines"}


class StateError(ValueError):
    """A saved state that cannot be read: names the key at fault and what it should hold."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class MissingKey(StateError, KeyError):
    """A saved state without a key it must have."""


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
    step: str = ""  # where inside the phase (STEPS)
    westeros_revealed: list[str] = field(default_factory=list)  # this Westeros phase's cards, deck I first
    cycle_done: list[HouseId] = field(default_factory=list)  # houses that resolved an order in this cycle
    decisions_asked: int = 0  # decisions asked so far in this phase: the next decision key's number
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
        if self.step:
            d["step"] = self.step
        if self.westeros_revealed:
            d["decks"]["westeros_revealed"] = list(self.westeros_revealed)
        if self.cycle_done:
            d["cycle_done"] = list(self.cycle_done)
        if self.decisions_asked:
            d["decisions_asked"] = self.decisions_asked
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
    def from_dict(cls, d: dict[str, Any], *, validate: bool = True) -> GameState:
        """The state of a :meth:`to_dict` form, checked key by key first (a file may be damaged or hand-edited).

        ``validate=False`` is for the engine's own dicts, made by :meth:`to_dict` in this process.

        :raises StateError: naming the first key that is missing, of the wrong type, or names what
            the game does not know (a house, an area, a card, a phase).
        """
        version = d.get("schema_version", SCHEMA_VERSION) if isinstance(d, dict) else None
        if not _is_int(version) or version < 1:
            raise StateError(f"schema_version: expected a whole number 1 or more, got {version!r}")
        d = migrate(d, version)
        if validate:
            validate_dict(d)
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
            step=d.get("step", ""),
            westeros_revealed=list(decks.get("westeros_revealed", [])),
            cycle_done=list(d.get("cycle_done", [])),
            decisions_asked=d.get("decisions_asked", 0),
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

        :raises tomllib.TOMLDecodeError: for text that is not TOML, or is nested too deep (:mod:`tomltext`).
        :raises MissingKey: (a ``KeyError`` and a :class:`StateError`) for a missing required key.
        :raises StateError: for a key of the wrong type, or naming what the game does not know.
        """
        return cls.from_dict(tomltext.loads(text))

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

    :raises StateError: for a state written by a newer Maester.
    """
    if version > SCHEMA_VERSION:
        raise StateError(f"schema_version {version} is newer than this Maester reads ({SCHEMA_VERSION}): "
                         "upgrade Maester to go on with this game")
    # Version 1 is the first; future migrations go here as `if version == 1: ...; version = 2`.
    return d



# --- checking a saved state before it is used -------------------------------------------------


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


class _Shape:
    """Typed reads of one state dict; the first fault raises :class:`StateError` with its key."""

    def fail(self, key: str, message: str) -> NoReturn:
        raise StateError(f"{key}: {message}")

    def get(self, d: dict[str, Any], key: str, path: str, kind: type, default: Any, *, required: bool = False) -> Any:
        if key not in d:
            if required:
                raise MissingKey(f"{path}{key}: missing")
            return default
        v = d[key]
        if (kind is int and not _is_int(v)) or not isinstance(v, kind):
            self.fail(path + key, f"expected {_KIND_NAMES[kind]}, got {_show(v)}")
        return v

    def number(self, d: dict[str, Any], key: str, path: str, low: int, high: int | None = None, *,
               required: bool = False) -> None:  # fmt: skip
        v = self.get(d, key, path, int, low, required=required)
        if v < low or (high is not None and v > high):
            self.fail(path + key, f"expected a whole number from {low}" + (f" to {high}" if high is not None else
                                                                            " up") + f", got {v}")  # fmt: skip

    def names(self, d: dict[str, Any], key: str, path: str, known: Any, what: str) -> list[str]:
        values = self.get(d, key, path, list, [])
        for v in values:
            if not isinstance(v, str) or v not in known:
                self.fail(path + key, f"{_show(v)} is not {what}")
        return list(values)

    def table(self, d: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        return dict(self.get(d, key, path, dict, {}))


_KIND_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "a table"}


def validate_dict(d: Any) -> None:
    """Check a state dict (as :meth:`GameState.to_dict` writes it) before it is read.

    Unknown keys are left alone (a public report adds some); every key the state reads must have
    its type, and every house, area, unit, order and card it names must exist.

    >>> validate_dict({"round": 1, "phase": "lunch", "houses_in_play": [], "tracks": {}, "houses": {}})
    Traceback (most recent call last):
    ...
    adjudicator.game.state.StateError: phase: 'lunch' is not a phase (westeros, planning, action, game_over)

    :raises StateError: naming the first key at fault.
    """
    board = Board.classic()
    sh = _Shape()
    if not isinstance(d, dict):
        sh.fail("state", f"expected a table, got {_show(d)}")
    sh.get(d, "game_id", "", str, "")
    sh.number(d, "round", "", 1, board.constants["rounds"], required=True)
    phase = sh.get(d, "phase", "", str, "", required=True)
    if phase not in PHASES:
        sh.fail("phase", f"{_show(phase)} is not a phase ({', '.join(PHASES)})")
    if "houses_in_play" not in d:
        raise MissingKey("houses_in_play: missing")
    in_play = sh.names(d, "houses_in_play", "", HOUSES, f"a house ({', '.join(HOUSES)})")
    if not in_play or len(set(in_play)) != len(in_play):
        sh.fail("houses_in_play", "expected each house in play once")
    tracks = sh.get(d, "tracks", "", dict, {}, required=True)
    for t in TRACKS:
        order = sh.names(tracks, t, "tracks.", in_play, "a house in play")
        if sorted(order) != sorted(in_play):
            sh.fail(f"tracks.{t}", f"expected each house in play once: {', '.join(in_play)}")
    houses = sh.get(d, "houses", "", dict, {}, required=True)
    for h in in_play:
        if h not in houses:
            raise MissingKey(f"houses.{h}: missing")
    for h, hs in houses.items():
        path = f"houses.{h}."
        if h not in in_play:
            sh.fail(f"houses.{h}", "not a house in play")
        if not isinstance(hs, dict):
            sh.fail(f"houses.{h}", f"expected a table, got {_show(hs)}")
        sh.number(hs, "power", path, 0, board.constants["power_tokens_max_per_house"])
        sh.number(hs, "supply", path, 0, board.constants["supply_track_max"])
        own = _own_cards(h)
        sh.names(hs, "hand", path, own, f"a house card of {h}")
        sh.names(hs, "discards", path, own, f"a house card of {h}")
    _validate_areas(sh, d, in_play, board)
    sh.names(d, "impassable", "", board.areas, "an area")
    threat = sh.get(d, "wildling_threat", "", int, 2)
    if threat not in board.constants["wildling_track"]:
        sh.fail("wildling_threat", f"expected a space of the wildling track (0, 2 ... 12), got {threat}")
    for flag in ("blade_used", "raven_used", "kings_court_overlay"):
        sh.get(d, flag, "", bool, False)
    sh.names(d, "restrictions", "", _ANY_TEXT, "text")
    _validate_decks(sh, sh.table(d, "decks", ""))
    sh.table(d, "options", "")
    rng = sh.table(d, "rng", "")
    sh.get(rng, "seed", "rng.", str, "")
    sh.number(rng, "counter", "rng.", 0)
    winner = sh.get(d, "winner", "", str, None)
    if winner is not None and winner not in in_play:
        sh.fail("winner", f"{_show(winner)} is not a house in play")
    step = sh.get(d, "step", "", str, "")
    if step not in STEPS[phase]:
        sh.fail("step", f"{_show(step)} is not a step of the {phase} phase ({', '.join(map(repr, STEPS[phase]))})")
    sh.names(d, "cycle_done", "", in_play, "a house in play")
    sh.number(d, "decisions_asked", "", 0)
    _validate_engine(sh, d)


class _AnyText:
    def __contains__(self, v: object) -> bool:
        return isinstance(v, str)


_ANY_TEXT = _AnyText()


_AREA_KEYS_INT = ("garrison", "neutral_force")


def _area_ok(a: Any, in_play: list[str]) -> bool:
    """The common case at speed (the engine reads a state per phase): no message needed."""
    if not isinstance(a, dict):
        return False
    units = a.get("units", [])
    if not isinstance(units, list) or not all(
        isinstance(u, dict) and u.get("house") in in_play and u.get("type") in UNIT_TYPES
        and isinstance(u.get("routed", False), bool) for u in units
    ):  # fmt: skip
        return False
    order = a.get("order")
    if order is not None and not (isinstance(order, dict) and order.get("house") in in_play
                                  and order.get("token") in ORDER_TOKENS):  # fmt: skip
        return False
    if a.get("power_token", in_play[0]) not in in_play:
        return False
    return all(_is_int(v := a.get(k, 0)) and v >= 0 for k in _AREA_KEYS_INT)


def _validate_areas(sh: _Shape, d: dict[str, Any], in_play: list[str], board: Board) -> None:
    for area_id, a in sh.table(d, "areas", "").items():
        if area_id in board.areas and _area_ok(a, in_play):
            continue
        path = f"areas.{area_id}."
        if area_id not in board.areas:
            sh.fail(f"areas.{area_id}", "not an area of the board")
        if not isinstance(a, dict):
            sh.fail(f"areas.{area_id}", f"expected a table, got {_show(a)}")
        for i, u in enumerate(sh.get(a, "units", path, list, [])):
            if not isinstance(u, dict):
                sh.fail(f"{path}units", f"expected a table per unit, got {_show(u)}")
            sh.names({"house": [u.get("house")]}, "house", f"{path}units.{i + 1}.", in_play, "a house in play")
            sh.names({"type": [u.get("type")]}, "type", f"{path}units.{i + 1}.", UNIT_TYPES,
                     f"a unit type ({', '.join(UNIT_TYPES)})")  # fmt: skip
            sh.get(u, "routed", f"{path}units.{i + 1}.", bool, False)
        order = sh.get(a, "order", path, dict, None)
        if order is not None:
            sh.names({"house": [order.get("house")]}, "house", f"{path}order.", in_play, "a house in play")
            sh.names({"token": [order.get("token")]}, "token", f"{path}order.", ORDER_TOKENS, "an order token")
        token = sh.get(a, "power_token", path, str, None)
        if token is not None and token not in in_play:
            sh.fail(f"{path}power_token", f"{_show(token)} is not a house in play")
        sh.number(a, "garrison", path, 0)
        sh.number(a, "neutral_force", path, 0)


_DECKS: dict[str, set[str]] = {}
_HANDS: dict[str, set[str]] = {}


def _own_cards(house: str) -> set[str]:
    """The seven house cards of a house (built once per house)."""
    if house not in _HANDS:
        _HANDS[house] = set(CARDS.hand_of(house))
    return _HANDS[house]


def _box(deck: str) -> set[str]:
    """The card ids a deck may hold (built once)."""
    if not _DECKS:
        _DECKS.update({n: set(CARDS.westeros_deck(int(n))) for n in ("1", "2", "3")})
        _DECKS["wildling"] = set(CARDS.wildling_cards)
        _DECKS["tides"] = set(CARDS.tides_deck())
    return _DECKS[deck]


def _validate_decks(sh: _Shape, decks: dict[str, Any]) -> None:
    for part in ("westeros", "westeros_discards"):
        for n, cards in sh.table(decks, part, "decks.").items():
            if n not in ("1", "2", "3"):
                sh.fail(f"decks.{part}.{n}", "not a Westeros deck (1, 2 or 3)")
            sh.names({n: cards}, n, f"decks.{part}.", _box(n), f"a card of Westeros deck {n}")
    sh.names(decks, "wildling", "decks.", _box("wildling"), "a wildling card")
    sh.names(decks, "tides", "decks.", _box("tides"), "a Tides of Battle card")
    sh.names(decks, "tides_discards", "decks.", _box("tides"), "a Tides of Battle card")
    revealed = sh.names(decks, "westeros_revealed", "decks.", _ANY_TEXT, "text")
    for i, card in enumerate(revealed, 1):
        if i > 3 or card not in _box(str(i)):
            sh.fail("decks.westeros_revealed", f"{_show(card)} is not a card of Westeros deck {i}")


def _validate_engine(sh: _Shape, d: dict[str, Any]) -> None:
    """The engine's own parts, as far as reading them needs: their contents are the engine's business."""
    for key in ("pending", "answers"):
        for i, entry in enumerate(sh.get(d, key, "", list, [])):
            if not isinstance(entry, dict):
                sh.fail(f"{key}.{i + 1}", f"expected a table, got {_show(entry)}")
    seg = sh.get(d, "segment", "", dict, None)
    if seg is not None:
        sh.get(seg, "name", "segment.", str, "", required=True)
        sh.get(seg, "start", "segment.", dict, {}, required=True)
        for key, value in sh.table(seg, "decisions", "segment.").items():
            if not isinstance(value, dict):
                sh.fail(f"segment.decisions.{key}", f"expected a table, got {_show(value)}")
        sh.names(seg, "used", "segment.", _ANY_TEXT, "text")
        sh.number(seg, "events_seen", "segment.", 0)


def validate_engine(d: dict[str, Any]) -> None:
    """Check the engine's own parts of a state read from a file: what :func:`validate_dict` leaves to
    the engine (the open requests, the standing answers, the half-resolved phase), for a file that
    may have been edited by hand.

    >>> validate_engine({"pending": [{"key": "k", "kind": "orders", "house": "stark"}]})
    Traceback (most recent call last):
    ...
    adjudicator.game.state.StateError: pending.1.prompt: expected text, got None

    :raises StateError: naming the first entry at fault.
    """
    from .commands import check_command
    from .commands import from_dict as command

    def known(value: Any, key: str) -> None:
        try:
            check_command(command(value))
        except (KeyError, TypeError, ValueError, AssertionError, AttributeError) as e:
            raise StateError(f"{key}: not an answer Maester knows ({type(e).__name__}: {e})") from None

    def text(entry: dict[str, Any], key: str, path: str, kind: type = str) -> None:
        if (kind is int and not _is_int(entry.get(key))) or not isinstance(entry.get(key), kind):
            raise StateError(f"{path}.{key}: expected {_KIND_NAMES[kind]}, got {_show(entry.get(key))}")

    def items(entry: dict[str, Any], key: str, path: str) -> list[Any]:
        value = entry.get(key, [])
        if not isinstance(value, list):
            raise StateError(f"{path}.{key}: expected a list, got {_show(value)}")
        return value

    for i, p in enumerate(d.get("pending", []), 1):
        for key in ("key", "kind", "house", "prompt"):
            text(p, key, f"pending.{i}")
        for j, value in enumerate([*([p["default"]] if "default" in p else []),
                                   *items(p, "default_parts", f"pending.{i}"), *items(p, "options", f"pending.{i}")],
                                  1):  # fmt: skip
            known(value, f"pending.{i}: default or option {j}")
    for i, a in enumerate(d.get("answers", []), 1):
        for key, kind in (("id", str), ("house", str), ("round", int)):
            text(a, key, f"answers.{i}", kind)
        known(a.get("command"), f"answers.{i}.command")
    seg = d.get("segment")
    if seg is not None:
        if seg["name"] not in PHASES[:-1]:
            raise StateError(f"segment.name: {_show(seg['name'])} is not a phase the engine resolves ({', '.join(PHASES[:-1])})")
        try:
            validate_dict(seg["start"])
        except StateError as e:
            raise StateError(f"segment.start.{e}") from None
        for key, rec in seg.get("decisions", {}).items():
            path = f"segment.decisions.{key}"
            if "value" in rec:
                known(rec["value"], f"{path}.value")
            else:
                for j, part in enumerate(items(rec, "parts", path), 1):
                    known(part, f"{path}.parts.{j}")
            for j, record in enumerate(items(rec, "events", path), 1):  # events are the engine's: their shape only
                if not isinstance(record, dict) or not isinstance(record.get("type"), str):
                    raise StateError(f"{path}.events.{j}: expected a table with a type, got {_show(record)}")
                try:
                    _check_numbers(record)
                except ValueError as err:
                    raise StateError(f"{path}.events.{j}: {err}") from None


MAX_RECORD_NUMBER = 1000  # a number in the engine's records of events: power, strength, a count of units


def _check_numbers(value: Any) -> None:
    """Every whole number in a recorded event within +-1000 (a report sizes a list by an event's count)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack += v.values()
        elif isinstance(v, list):
            stack += v
        elif _is_int(v) and abs(v) > MAX_RECORD_NUMBER:
            raise ValueError(f"the number {_show(v)} is past {MAX_RECORD_NUMBER}")


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
