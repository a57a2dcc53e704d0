"""A new game laid out from data: the one setup every box's setup ends in.

A box's setup works out a :class:`Layout` (the houses in play, the tracks, each house's power,
supply, cards, units and power tokens, garrisons in any area with any strength, neutral forces,
blocked areas, the Westeros decks) and :func:`lay_out` turns it into the state at round 1. The
shuffles come in one order (the Westeros decks by number, the wildling deck, then the Tides of
Battle deck), so that a seed deals the same decks whichever box's setup laid the board out.

The base game's layout is the rulebook's printed setup for the number of players
(:func:`printed_layout`). A box whose setup is only data writes how it differs from that in a
``setup.toml`` beside its ``box.toml`` (:func:`read_changes`, :func:`changed_layout`); every key
is optional:

.. code-block:: toml

    players = [6]                       # the player counts it is played with (default 3 to 6)
    blocked = ["pyke", "port_of_pyke"]  # areas out of play, besides the count's printed ones
    kings_court_overlay = false
    wildling_threat = 2
    [tracks]                            # position 1 first; houses not in play are left out
    iron_throne = ["lannister", "tyrell", "greyjoy", "stark", "baratheon", "martell"]
    [neutral_forces]                    # strength 0 takes a printed one away
    kings_landing = 0
    [[garrison]]                        # besides the home areas' own; strength 0 takes one away
    area = "storms_end"
    strength = 4
    house = "baratheon"
    [house.baratheon]                   # any of supply, power, units, power_tokens: in place of the printed
    supply = 1
    units = [{ area = "dragonstone", unit = "knight", count = 1 }]
    power_tokens = ["storms_end"]

>>> from adjudicator.game.board import Board
>>> board = Board.classic()
>>> layout = printed_layout(board, ["stark", "lannister", "baratheon"], frozenset({"base"}))
>>> layout.garrisons[0], layout.blocked[:2]
(Garrison(area='winterfell', strength=2, house='stark'), ('dornish_marches', 'highgarden'))
>>> changed = changed_layout(layout, read_changes({"blocked": ["pyke"], "garrison": [
...     {"area": "storms_end", "strength": 4, "house": "baratheon"}]}, "toy"))
>>> "pyke" in changed.blocked, changed.garrisons[-1]
(True, Garrison(area='storms_end', strength=4, house='baratheon'))
>>> read_changes({"blocked": ["narnia"]}, "toy", board)
Traceback (most recent call last):
...
ValueError: toy: blocked: 'narnia' is not an area of the map
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .board import TRACKS, UNIT_TYPES, AreaId, Board, HouseId, StartingUnit
from .boxes import Box
from .cards import CARDS
from .hooks import hooked
from .rng import shuffled
from .state import GameState, HouseState, Unit

__all__ = ["Changes", "Garrison", "HouseStart", "Layout", "changed_layout", "draw_shuffle", "fresh_decks", "lay_out",
           "printed_layout", "read_changes"]


@dataclass(frozen=True)
class Garrison:
    """A garrison token at setup: its area, strength and house (a home area's, or any other)."""

    area: AreaId
    strength: int
    house: HouseId


@dataclass(frozen=True)
class HouseStart:
    """What a house begins with."""

    power: int
    supply: int
    hand: tuple[str, ...]
    units: tuple[StartingUnit, ...]
    power_tokens: tuple[AreaId, ...] = ()  # its power tokens on the board


@dataclass(frozen=True)
class Layout:
    """Everything on the table at round 1 before the decks are shuffled."""

    houses_in_play: tuple[HouseId, ...]
    tracks: dict[str, tuple[HouseId, ...]]
    houses: dict[HouseId, HouseStart]
    garrisons: tuple[Garrison, ...]
    neutral_forces: dict[AreaId, int]
    blocked: tuple[AreaId, ...]  # areas out of play (the state's impassable areas)
    kings_court_overlay: bool
    wildling_threat: int
    westeros_decks: tuple[int, ...]
    vassals: tuple[HouseId, ...] = ()
    deck_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a deck ("1", "wildling") not the box's own


def draw_shuffle(state: GameState, items: list[str]) -> list[str]:
    """Shuffle with the game's seeded generator, advancing its counter."""
    out = shuffled(state.rng_seed, items, state.rng_counter)
    state.rng_counter += 1
    return out


def fresh_decks(setup: GameState, seed: str) -> GameState:
    """A copy of a state at setup with every deck shuffled afresh from its own cards with ``seed``, in
    :func:`lay_out`'s order: what the audit compares a revealed seed with, whatever setup laid it out."""
    fresh = GameState.from_dict(setup.to_dict())
    fresh.rng_seed, fresh.rng_counter = seed, 0
    for deck in sorted(setup.westeros_decks, key=int):
        box_cards = CARDS.westeros_deck(int(deck), setup.box.westeros_set(int(deck)))
        fresh.westeros_decks[deck] = draw_shuffle(fresh, sorted(setup.westeros_decks[deck], key=box_cards.index))
    fresh.wildling_deck = draw_shuffle(fresh, sorted(setup.wildling_deck))
    if setup.options.get("tides_of_battle"):
        box_tides = CARDS.tides_deck()
        fresh.tides_deck = draw_shuffle(fresh, sorted(setup.tides_deck, key=box_tides.index))
    for deal in hooked("game_laid_out", setup.box):  # dealt again from the same cards (A Feast for Crows)
        deal(fresh)
    return fresh


def table_options(tides_of_battle: bool, house_cards: str) -> dict[str, object]:
    """A new game's ``options``: the house deck only when it is not the base one."""
    options: dict[str, object] = {"tides_of_battle": tides_of_battle, "tides_reshuffle_each_combat": True}
    if house_cards != "base":
        options["house_cards"] = house_cards
    return options


def lay_out(box: Box, layout: Layout, board: Board, *, seed: str, game_id: str, tides_of_battle: bool,
            house_cards: str = "base") -> GameState:
    """The state at round 1, planning phase (the Westeros phase is skipped in round 1, R034).

    ``house_cards`` is the house deck the table chose (ruling 370): written in the options only when
    it is not the base one, so that a base game's state is as it always was; the layout's hands are
    already dealt from it."""
    state = GameState(
        game_id=game_id, round=1, phase="planning", houses_in_play=list(layout.houses_in_play),
        tracks={t: list(order) for t, order in layout.tracks.items()},
        kings_court_overlay=layout.kings_court_overlay, impassable=list(layout.blocked),
        wildling_threat=layout.wildling_threat,
        options=table_options(tides_of_battle, house_cards),
        rng_seed=seed, variant=box.name, vassals=list(layout.vassals),
    )
    for h in layout.houses_in_play:  # each house's units, then its garrisons: the areas in the order touched
        start = layout.houses[h]
        state.houses[h] = HouseState(power=start.power, supply=start.supply, hand=list(start.hand))
        for su in start.units:
            state.area_mut(su.area).units.extend(Unit(h, su.unit) for _ in range(su.count))
        for g in layout.garrisons:
            if g.house == h:
                here = state.area_mut(g.area)
                here.garrison = g.strength
                here.garrison_house = None if board.area(g.area).home_of == h else h
        for area in start.power_tokens:
            state.area_mut(area).power_token = h
    for area, strength in layout.neutral_forces.items():
        state.area_mut(area).neutral_force = strength
    for deck in layout.westeros_decks:
        box_cards, cards = CARDS.westeros_deck(deck, box.westeros_set(deck)), layout.deck_cards.get(str(deck))
        # a setup's own deck is shuffled in the box's card order, so the audit can shuffle it afresh (fresh_decks)
        state.westeros_decks[str(deck)] = draw_shuffle(state, sorted(cards, key=box_cards.index) if cards else box_cards)
        state.westeros_discards[str(deck)] = []
    state.wildling_deck = draw_shuffle(state, sorted(layout.deck_cards.get("wildling") or CARDS.wildling_cards))
    if tides_of_battle:
        state.tides_deck = draw_shuffle(state, CARDS.tides_deck())
    for deal in hooked("game_laid_out", box):  # A Feast for Crows: the objectives (F033)
        deal(state)
    return state


def printed_layout(board: Board, in_play: list[HouseId], card_sets: frozenset[str]) -> Layout:
    """The rulebook's setup for this many houses (pp. 4 and 28): the houses' printed units, supply
    and home garrisons, the count's tracks, neutral forces and areas out of play (ruling 100)."""
    setup = board.setups[len(in_play)]
    power = board.constants["power_tokens_start"]
    return Layout(
        houses_in_play=tuple(in_play),
        tracks={t: tuple(order) for t, order in setup.tracks.items()},
        houses={h: _printed_start(board, h, power, card_sets) for h in in_play},
        garrisons=tuple(Garrison(board.houses[h].home_area, board.houses[h].garrison_strength, h) for h in in_play),
        neutral_forces=dict(setup.neutral_forces),
        blocked=tuple(sorted(setup.impassable_areas + setup.unusable_ports)),
        kings_court_overlay=setup.kings_court_overlay,
        wildling_threat=board.constants["wildling_threat_start"],
        westeros_decks=(1, 2, 3),
    )


def _printed_start(board: Board, house: HouseId, power: int, card_sets: frozenset[str]) -> HouseStart:
    printed = board.houses[house]
    return HouseStart(power, printed.supply_start, tuple(CARDS.hand_of(house, card_sets)), printed.starting_units)


# --- a setup as data -------------------------------------------------------------------------

_KEYS = frozenset({"players", "blocked", "kings_court_overlay", "wildling_threat", "tracks", "neutral_forces",
                   "garrison", "house"})
_HOUSE_KEYS = frozenset({"supply", "power", "units", "power_tokens"})


@dataclass(frozen=True)
class Changes:
    """How a box's setup differs from the printed one (``setup.toml``, read by :func:`read_changes`)."""

    players: tuple[int, ...] = (3, 4, 5, 6)
    blocked: tuple[AreaId, ...] = ()
    kings_court_overlay: bool | None = None
    wildling_threat: int | None = None
    tracks: dict[str, tuple[HouseId, ...]] = field(default_factory=dict)
    neutral_forces: dict[AreaId, int] = field(default_factory=dict)
    garrisons: tuple[Garrison, ...] = ()
    houses: dict[HouseId, dict[str, Any]] = field(default_factory=dict)


def read_changes(d: dict[str, Any], where: str, board: Board | None = None) -> Changes:
    """A box's ``setup.toml`` read; with ``board`` every area and house it names is checked too.

    :raises ValueError: naming the file (``where``) and the key at fault.
    """

    def fail(key: str, why: str) -> None:
        raise ValueError(f"{where}: {key}: {why}")

    def area(key: str, a: Any) -> AreaId:
        if board is not None and a not in board.areas:
            fail(key, f"{a!r} is not an area of the map")
        return str(a)

    for key in sorted(set(d) - _KEYS):
        fail(key, f"not a setup key ({', '.join(sorted(_KEYS))})")
    houses: dict[HouseId, dict[str, Any]] = {}
    for h, t in d.get("house", {}).items():
        if board is not None and h not in board.houses:
            fail(f"house.{h}", "not a house of the map")
        for key in sorted(set(t) - _HOUSE_KEYS):
            fail(f"house.{h}.{key}", f"not a house's setup key ({', '.join(sorted(_HOUSE_KEYS))})")
        units = tuple(StartingUnit(area(f"house.{h}.units", u["area"]), u["unit"], u.get("count", 1))
                      for u in t.get("units", ()))  # fmt: skip
        if any(u.unit not in UNIT_TYPES or u.count < 1 for u in units):
            fail(f"house.{h}.units", f"each a unit type ({', '.join(UNIT_TYPES)}) and a count of 1 or more")
        houses[h] = dict(t) | ({"units": units} if "units" in t else {})
        if "power_tokens" in t:
            houses[h]["power_tokens"] = tuple(area(f"house.{h}.power_tokens", a) for a in t["power_tokens"])
    for t in d.get("tracks", {}):
        if t not in TRACKS:
            fail(f"tracks.{t}", f"not a track ({', '.join(TRACKS)})")
    garrisons = tuple(Garrison(area("garrison", g["area"]), int(g["strength"]), str(g["house"]))
                      for g in d.get("garrison", ()))  # fmt: skip
    return Changes(
        players=tuple(d.get("players", (3, 4, 5, 6))),
        blocked=tuple(area("blocked", a) for a in d.get("blocked", ())),
        kings_court_overlay=d.get("kings_court_overlay"),
        wildling_threat=d.get("wildling_threat"),
        tracks={t: tuple(order) for t, order in d.get("tracks", {}).items()},
        neutral_forces={area("neutral_forces", a): int(n) for a, n in d.get("neutral_forces", {}).items()},
        garrisons=garrisons,
        houses=houses,
    )


def changed_layout(layout: Layout, changes: Changes) -> Layout:
    """The printed layout with a box's changes (:class:`Changes`) made."""
    in_play = layout.houses_in_play
    houses = {h: replace(start, **changes.houses.get(h, {})) for h, start in layout.houses.items()}
    garrisons = {g.area: g for g in layout.garrisons}
    for g in changes.garrisons:
        if g.house in in_play:
            garrisons[g.area] = g
    neutral = {a: n for a, n in (layout.neutral_forces | changes.neutral_forces).items() if n}
    tracks = {t: tuple(h for h in changes.tracks.get(t, order) if h in in_play) for t, order in layout.tracks.items()}
    return replace(
        layout,
        tracks=tracks,
        houses=houses,
        garrisons=tuple(g for g in garrisons.values() if g.strength),
        neutral_forces=neutral,
        blocked=tuple(sorted(set(layout.blocked) | set(changes.blocked))),
        kings_court_overlay=layout.kings_court_overlay if changes.kings_court_overlay is None
        else changes.kings_court_overlay,
        wildling_threat=layout.wildling_threat if changes.wildling_threat is None else changes.wildling_threat,
    )
