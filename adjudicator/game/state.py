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
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import tomli_w

from ..util import tomltext
from .board import DOMINANCE_TOKENS, TRACKS, UNIT_TYPES, Area, AreaId, Board, HouseId
from .boxes import DEFAULT_BOX, Box, box_named, box_names
from .cards import CARDS, HOUSE_DECKS, dealt_sets
from .commands import ORDER_TOKENS, SEA_ORDER_TOKENS, SPECIAL_TOKENS, VASSAL_KEPT_TOKENS, VASSAL_ORDER_TOKENS
from .hooks import hooked
from .validation import (
    CYCLE_STEPS,
    PHASES,
    STEPS,
    TABLES_SINCE,
    MissingKey,
    StateError,
    box_table,
    is_int,
    validate_dict,
    validate_engine,
)

__all__ = ["CYCLE_STEPS", "PHASES", "PLURALS", "SCHEMA_VERSION", "STEPS", "AreaState", "GameState", "HouseState",
           "MissingKey", "Order", "Segment", "StateError", "Unit", "migrate", "validate_dict", "validate_engine"]

SCHEMA_VERSION = 3  # the newest this Maester reads; a state is written in its box's, or the older one it was read in
PLURALS = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines",
           "dragon": "dragons"}


@dataclass(slots=True)
class Unit:
    house: HouseId
    type: str  # footman | knight | ship | siege_engine | dragon (Mother of Dragons)
    routed: bool = False


@dataclass(slots=True)
class Order:
    house: HouseId
    token: str  # see commands.ORDER_TOKENS (and SEA_ORDER_TOKENS, VASSAL_ORDER_TOKENS)

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
    loyalty: int = 0  # Mother of Dragons: Targaryen's loyalty tokens lying here (M077)
    improvements: list[str] = field(default_factory=list)  # Mother of Dragons: validation.IMPROVEMENT_TOKENS (M119)
    # Whose garrison lies here when it is not the home area's house's (A Dance with Dragons' Storm's End
    # and Oldtown); None: the home area's own garrison. See GameState.garrison_owner.
    garrison_house: HouseId | None = None

    def is_empty(self) -> bool:
        return not (self.units or self.order or self.power_token or self.garrison or self.neutral_force
                    or self.loyalty or self.improvements)  # fmt: skip


@dataclass(slots=True)
class HouseState:
    power: int = 5  # available power (R008)
    supply: int = 0
    hand: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)  # in the order played; last is newest
    loans: list[str] = field(default_factory=list)  # Mother of Dragons: loans taken, kept face down (M104)
    removed: list[str] = field(default_factory=list)  # Mother of Dragons: its house cards removed from the game


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
    """Everything that moves. The fields after ``variant`` (but ``written_as``) are a box's own: empty
    in another box's game and then never written, written in the box's table of the state file by its
    module (Mother of Dragons': game/mod_state.py). ``docs/state-json.md`` says what each holds."""

    game_id: str = "game"
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
    # This round's raids, marches and consolidations taken without asking (ruling 14), so that an answer
    # sent for one later is told it was already decided (ruling 351): house, kind, subject, answer.
    unasked: list[dict[str, str]] = field(default_factory=list)
    variant: str = DEFAULT_BOX  # the box's name: classic | mother-of-dragons (game/boxes.py); see ``box``
    vassals: list[HouseId] = field(default_factory=list)  # houses in play that no player plays (M005)
    commanders: dict[HouseId, HouseId] = field(default_factory=dict)  # vassal -> its commander this round (M030)
    vassal_sets: list[HouseId] = field(default_factory=list)  # who holds each set of vassal orders not yet spent (M019)
    dragon_tokens: list[int] = field(default_factory=list)  # round spaces still holding a dragon strength token (M013)
    loyalty_gained: int = 0  # loyalty tokens Targaryen has gained: its victory points but Pentos (M076)
    loan_deck: list[str] = field(default_factory=list)  # the Iron Bank's face-down loans, top first (M024)
    loan_slots: list[str] = field(default_factory=list)  # the three slots, cost 1, 4, 7; "" is an empty slot (M105)
    braavos_token: HouseId | None = None  # the player keeping the Braavos token (M111-M113)
    leaving: list[HouseId] = field(default_factory=list)  # players leaving at the end of this round (M124, ruling 276)
    # The state format of a game begun before its box's newest (the version it was read in), which it
    # keeps writing so that its folder replays byte for byte (ruling 341); 0: its box's own.
    written_as: int = field(default=0, compare=False)

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
        """Who holds a track's dominance token: position 1, or the highest player house when vassals
        stand above it (they never hold one, M017, M065, ruling 240)."""
        order = self.tracks[track]
        if not self.vassals:
            return order[0]
        return next(h for h in order if h not in self.vassals)

    def holder_words(self, track: str, rule: str) -> str:
        """Who holds a track's dominance token, in words, and the rules that say so: the first on the
        track by ``rule``; where vassals play, the highest player house (M065, ruling 359).

        >>> GameState().holder_words("Fiefdoms", "R199")
        'first on the Fiefdoms track (R199)'
        """
        if self.vassals:
            return f"the highest player on the {track} track ({rule}, M065)"
        return f"first on the {track} track ({rule})"

    def turn_order(self) -> list[HouseId]:
        return list(self.tracks["iron_throne"])

    def position(self, track: str, house: HouseId) -> int:
        return self.tracks[track].index(house) + 1

    def stars(self, house: HouseId, board: Board) -> int:
        return board.kings_court_stars(self.position("kings_court", house), self.kings_court_overlay)

    def castles(self, house: HouseId, board: Board) -> int:
        """Castle and stronghold areas controlled (R248), as improvement tokens leave them (M119, M120)."""
        return sum(1 for a in self.land_areas(board) if a.has_castle and self.controller(a.id, board) == house)

    def victory(self, house: HouseId, board: Board) -> int:
        """A house's place on the victory track: its castles (R248); Targaryen's counts the loyalty
        tokens it has gained and 1 while it controls Pentos, never castles (M076, M084-M086)."""
        if house == "targaryen":
            return self.loyalty_gained + (self.controller("pentos", board) == house)
        return self.castles(house, board)

    # --- Mother of Dragons ----------------------------------------------------------------------

    @property
    def box(self) -> Box:
        """What this game's box has (game/boxes.py): every rule asks it, never the box's name."""
        return box_named(self.variant)

    def garrison_owner(self, area_id: AreaId, board: Board) -> HouseId | None:
        """Whose garrison lies in an area: its own house's in a home area (R225), or the house a box's
        setup gave one elsewhere (``AreaState.garrison_house``); None where none lies."""
        st = self.areas.get(area_id)
        if st is None or not st.garrison:
            return None
        return st.garrison_house or board.area(area_id).home_of

    def board(self) -> Board:
        """The map this game is played on (its box's, for its houses)."""
        return self.box.board(self.houses_in_play)

    def players(self) -> list[HouseId]:
        """The houses in play that players play: all of them but the vassals (M005)."""
        return [h for h in self.houses_in_play if h not in self.vassals] if self.vassals else list(self.houses_in_play)

    def is_vassal(self, house: HouseId) -> bool:
        return house in self.vassals

    def house_deck(self) -> str:
        """The house deck the game deals (a key of :data:`~adjudicator.game.cards.HOUSE_DECKS`): the
        base cards unless a table setting chose A Dance with Dragons' (``options.house_cards``)."""
        return str(self.options.get("house_cards", "base"))

    def last_round(self) -> int:
        """The round after which the game ends: the box's, or the table's setting (``options.rounds``)."""
        return int(self.options.get("rounds", self.box.rounds))

    def victory_target(self, board: Board) -> int:
        """The castles and strongholds that win: seven (R036), or the table's setting (``options.victory_target``)."""
        return int(self.options.get("victory_target", board.constants["castles_needed_to_win"]))

    def card_sets(self) -> frozenset[str]:
        """The house-card sets this game deals: its box's, or A Dance with Dragons' decks (ruling 370)."""
        return dealt_sets(self.box.card_sets, self.house_deck())

    def commander(self, vassal: HouseId) -> HouseId | None:
        """The player commanding a vassal this round, or None (not chosen yet, or not a vassal, M030)."""
        return self.commanders.get(vassal)

    def order_tokens(self, house: HouseId) -> dict[str, int]:
        """The order tokens a house owns, by token, with its copies: the base 15 (R112); with the
        expansion a player's 3 sea orders too (M114), and a vassal's one set of 4 vassal orders (M039)."""
        if house in self.vassals:
            return VASSAL_ORDER_TOKENS
        return ORDER_TOKENS | SEA_ORDER_TOKENS if self.box.has("sea_orders") else ORDER_TOKENS

    def dragon_strength(self, board: Board) -> int:
        """Each dragon's combat strength: the dragon strength tokens in the box, those that have left
        the round track (M089, M013); 0 in a game without Targaryen."""
        rounds: list[int] = board.constants.get("dragon_strength_token_rounds", [])
        return len(rounds) - len(self.dragon_tokens) if "targaryen" in self.houses_in_play else 0

    def areas_improved(self) -> bool:
        """True when any area holds an improvement or degradation token (M119, M120)."""
        return self.box.has("iron_bank") and any(s.improvements for s in self.areas.values())

    def land_areas(self, board: Board) -> Iterable[Area]:
        """The board's land areas as they count now (:meth:`effective_area`), in board order."""
        if not self.areas_improved():
            return board.land_areas()
        return tuple(self.effective_area(a.id, board) for a in board.land_areas())

    def effective_area(self, area_id: AreaId, board: Board) -> Area:
        """An area as it counts now: its printed barrels, crowns and fortification, changed by the
        improvement and degradation tokens lying on it (M119, M120, ruling 260).

        The rules read icons through here (supply, crowns, castles); without tokens it is the board's own.
        """
        a = board.areas[area_id]
        st = self.areas.get(area_id)
        if st is None or not st.improvements:
            return a
        tokens = st.improvements
        fortification = a.fortification
        if a.fortification == "castle" and "-castle" in tokens:
            fortification = "none"
        elif a.fortification == "castle" and "+stronghold" in tokens:
            fortification = "stronghold"
        supply = max(0, a.supply + tokens.count("+supply") - tokens.count("-supply"))
        power = max(0, a.power + tokens.count("+power") - tokens.count("-power"))
        return replace(a, fortification=fortification, supply=supply, power=power)

    def power_on_board(self, house: HouseId) -> int:
        return sum(1 for s in self.areas.values() if s.power_token == house)

    def combat_under_way(self) -> set[AreaId]:
        """The areas of a combat still being resolved at this step boundary: the embattled area (named
        by the open combat requests) and the area its attackers marched from (the segment's latest
        march). An order there stays until the combat is over, even when its units are gone (ruling 50,
        R220, R221)."""
        areas = {str(p["context"]["combat_area"]) for p in self.pending
                 if isinstance(p.get("context"), dict) and "combat_area" in p["context"]}
        if areas and self.segment is not None:
            marches = [d["value"] for d in self.segment.decisions.values()
                       if isinstance(d, dict) and isinstance(d.get("value"), dict) and d["value"].get("type") == "March"]
            if marches and isinstance(marches[-1].get("origin"), str):
                areas.add(marches[-1]["origin"])
        return areas

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
                         s.neutral_force, s.loyalty, s.improvements, s.garrison_house)
            for a, s in self.areas.items()
        }
        new.houses = {h: HouseState(s.power, s.supply, list(s.hand), list(s.discards), list(s.loans), list(s.removed))
                      for h, s in self.houses.items()}  # fmt: skip
        return new

    # --- invariants -------------------------------------------------------------------------

    def check(self, board: Board | None = None) -> list[str]:
        """Every broken box limit at once, as readable sentences (empty when all is well)."""
        board = board or self.board()
        problems: list[str] = []
        for house in self.houses_in_play:
            for unit in UNIT_TYPES:
                n = sum(1 for _, u in self.units_of(house) if u.type == unit)
                if n > board.unit_limit(unit, house):
                    problems.append(f"{house} has {n} {PLURALS[unit]}; the box holds {board.unit_limit(unit, house)}")
            # A two-faced vassal token turned to its other face is still the token of the set (M047, M051).
            printed = {kept: token for token, kept in VASSAL_KEPT_TOKENS.items()}
            placed = [printed.get(t, t) for t in self.orders_placed(house)]
            owned = self.order_tokens(house)
            for token, copies in owned.items():
                if placed.count(token) > copies:
                    problems.append(f"{house} has {placed.count(token)} '{token}' orders; it owns {copies}")
            for token in sorted(set(placed) - set(owned)):
                problems.append(f"{house} has a '{token}' order, a token it does not own")
            total_power = self.houses[house].power + self.power_on_board(house)
            if total_power > board.constants["power_tokens_max_per_house"]:
                problems.append(f"{house} has {total_power} power tokens; the box holds 20")
            if self.houses[house].power < 0:
                problems.append(f"{house} has negative power")
            if not 0 <= self.houses[house].supply <= board.constants["supply_track_max"]:
                problems.append(f"{house} is at {self.houses[house].supply} on the supply track, which runs 0 to 6")
            problems += _card_problems(house, self.houses[house], self.card_sets())
        if self.house_deck() not in HOUSE_DECKS:
            problems.append(f"the house deck {self.house_deck()!r} is not one Maester knows ({', '.join(HOUSE_DECKS)})")
        fighting = self.combat_under_way()  # orders there may have lost their units mid-combat (ruling 50)
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
            if st.order and st.order.house not in houses and area_id not in fighting:
                problems.append(f"{a.name}: an order of {st.order.house} without its units")
            if st.power_token and not a.is_land:
                problems.append(f"{a.name}: a power token outside a land area")
            if area_id in self.impassable and (st.units or st.order):
                problems.append(f"{a.name} is impassable but holds units")
            if st.power_token and houses and st.power_token not in houses:
                problems.append(f"{a.name}: a {st.power_token} power token under {', '.join(sorted(houses))} units")
            owner = st.garrison_house or a.home_of
            if st.garrison and (owner is None or owner not in self.houses_in_play):
                problems.append(f"{a.name}: a garrison outside the home area of a house in play")
            elif st.garrison and houses - {owner}:
                problems.append(f"{a.name}: a {owner} garrison under {', '.join(sorted(houses))} units")
            if st.neutral_force and (st.units or st.power_token):
                problems.append(f"{a.name}: a neutral force shares the area with units or a power token")
        for track in TRACKS:
            if sorted(self.tracks.get(track, [])) != sorted(self.houses_in_play):
                problems.append(f"the {track} track is not a permutation of the houses in play")
        if self.wildling_threat not in board.constants["wildling_track"]:
            problems.append(f"the wildling threat {self.wildling_threat} is not a space of the wildling track")
        if self.winner is not None and self.winner not in self.houses_in_play:
            problems.append(f"the winner {self.winner} is not a house in play")
        for more in hooked("state_problems", self.box):  # a box's own parts (Mother of Dragons': mod_state.py)
            problems += more(self, board)
        return problems

    # --- text forms -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A TOML-ready dict (no None values; empty areas dropped)."""
        d: dict[str, Any] = {
            "schema_version": 0,  # set below: its place first in the file
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
        if self.unasked:
            d["unasked"] = [dict(u) for u in self.unasked]
        if self.winner:
            d["winner"] = self.winner
        version = self.written_as or self.box.schema_version
        d["schema_version"] = version
        if version > 1:  # a base game's state is written as it always was (schema version 1)
            d["variant"] = self.variant
            box = self.box
            if box.state_table:  # the box's own parts, each where the box has it, written by its modules
                table: dict[str, Any] = {}
                for write in hooked("state_written", box):
                    table |= write(self)
                if version >= TABLES_SINCE:
                    d[box.state_table] = table
                else:  # a game begun before boxes had tables: at the top level, as it was (ruling 341)
                    d |= table
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
        if not is_int(version) or version < 1:
            raise StateError(f"schema_version: expected a whole number 1 or more, got {version!r}")
        d = migrate(d, version)
        if validate:
            validate_dict(d)
        decks = d.get("decks", {})
        seg = d.get("segment")
        state = cls(
            game_id=d.get("game_id", "game"),
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
            unasked=[dict(u) for u in d.get("unasked", [])],
            segment=Segment(
                name=seg["name"],
                start=seg["start"],
                decisions=dict(seg.get("decisions", {})),
                used=list(seg.get("used", [])),
                events_seen=seg.get("events_seen", 0),
            )
            if seg
            else None,
            variant=d.get("variant", DEFAULT_BOX),
        )
        box = state.box
        if version < box.schema_version:
            state.written_as = version
        if box.state_table:  # the box's own parts, read back by its modules
            table, _ = box_table(d, box)
            for read in hooked("state_read", box):
                read(state, table)
        return state

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


def _card_problems(house: HouseId, hs: HouseState, card_sets: frozenset[str]) -> list[str]:
    """A house's hand, discards and cards removed from the game hold only its own seven cards of the
    box's card sets, each once (R011)."""
    own = set(CARDS.hand_of(house, card_sets))
    held = hs.hand + hs.discards + hs.removed
    problems = [f"{house} holds {c!r}, not one of its house cards" for c in held if c not in own]
    twice = sorted({c for c in held if held.count(c) > 1})
    problems += [f"{house} holds {c!r} twice" for c in twice]
    return problems


def migrate(d: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring an older saved state up to :data:`SCHEMA_VERSION`, one version at a time.

    :raises StateError: for a state written by a newer Maester.
    """
    if version > SCHEMA_VERSION:
        raise StateError(f"schema_version {version} is newer than this Maester reads ({SCHEMA_VERSION}): "
                         "upgrade Maester to go on with this game")
    if version == 1:  # version 1 knew only the base game; version 2 adds the variant and its keys
        named = d.get("variant", DEFAULT_BOX)
        if named not in box_names() or box_named(named).schema_version > 1:
            raise StateError(f"variant: a schema_version 1 state is a classic game, not {d['variant']!r}")
        version = 2
    # Version 2 holds a box's own keys at its top level, version 3 in the box's table (box.state_table):
    # box_table finds them in either, and a state read in version 2 is written in it again (ruling 341).
    return d

def _house_dict(s: HouseState) -> dict[str, Any]:
    d: dict[str, Any] = {"power": s.power, "supply": s.supply, "hand": list(s.hand), "discards": list(s.discards)}
    if s.loans:
        d["loans"] = list(s.loans)
    if s.removed:
        d["removed"] = list(s.removed)
    return d


def _house_from(d: dict[str, Any]) -> HouseState:
    return HouseState(
        power=d.get("power", 5), supply=d.get("supply", 0), hand=list(d.get("hand", [])),
        discards=list(d.get("discards", [])), loans=list(d.get("loans", [])), removed=list(d.get("removed", [])),
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
    if s.garrison and s.garrison_house:
        d["garrison_house"] = s.garrison_house
    if s.neutral_force is not None:
        d["neutral_force"] = s.neutral_force
    if s.loyalty:
        d["loyalty"] = s.loyalty
    if s.improvements:
        d["improvements"] = list(s.improvements)
    return d


def _area_from(d: dict[str, Any]) -> AreaState:
    order = d.get("order")
    return AreaState(
        units=[Unit(u["house"], u["type"], u.get("routed", False)) for u in d.get("units", [])],
        order=Order(order["house"], order["token"]) if order else None,
        power_token=d.get("power_token"),
        garrison=d.get("garrison", 0),
        garrison_house=d.get("garrison_house"),
        neutral_force=d.get("neutral_force"),
        loyalty=d.get("loyalty", 0),
        improvements=list(d.get("improvements", [])),
    )
