"""Supply (R058-R066) and reconciling armies (R238, R239, rulings 63-64), through ``advance``.

Positions start from a bare board (home areas still belong to their houses) with the Supply card
on top of deck I.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core import supply
from adjudicator.engine.core.common import UnitsDestroyed, fits_supply
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable, DefaultUsed, OnlyOption
from adjudicator.engine.events.westeros import SupplyTrackMoved
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import Located, Reconcile
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]  # turn order: baratheon, lannister, stark
BOARD = Board.classic()
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def bare(cards: tuple[str, str, str] = ("supply", "last_days_of_summer", "storm_of_swords")) -> GameState:
    """Round 2, Westeros phase, no units on the board, ``cards`` on top of the decks."""
    s = new_game(HOUSES, seed="supply")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def put(s: GameState, area: str, house: str, *units: str, routed: int = 0) -> None:
    s.area_mut(area).units.extend(Unit(house, u, routed=i < routed) for i, u in enumerate(units))


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"s{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


def stark_over_by_one() -> GameState:
    """Stark at supply 3 with armies of 3, 2 and 2; Supply will put it on 1 (3, 2)."""
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white_harbor", "stark", "footman", "footman")
    put(s, "castle_black", "stark", "footman", "footman")
    return s


def test_R058_supply_counts_the_barrels_of_every_area_a_house_controls():
    s = bare()
    put(s, "the_stony_shore", "stark", "footman")
    s.area_mut("widows_watch").power_token = "stark"
    step = advance(s)
    assert {h: x.supply for h, x in step.state.houses.items()} == {"stark": 3, "lannister": 2, "baratheon": 1}
    moved = [(e.house, e.new) for e in step.events if isinstance(e, SupplyTrackMoved)]
    assert moved == [("baratheon", 1), ("lannister", 2), ("stark", 3)]  # in turn order


def test_R058_the_supply_track_stops_at_6():
    s = bare()
    for area in ("the_stony_shore", "widows_watch", "greywater_watch", "the_fingers", "riverrun", "seagard", "karhold"):
        put(s, area, "stark", "footman")
    assert supply.supply_count(s, BOARD, "stark") == 6
    assert advance(s).state.houses["stark"].supply == 6


def test_R059_each_supply_level_allows_its_armies():
    assert BOARD.supply_limits(2) == (3, 2, 2)
    assert BOARD.supply_limits(3) == (3, 2, 2, 2)
    assert fits_supply([3, 2, 2, 2], BOARD.supply_limits(3))
    assert not fits_supply([3, 3], BOARD.supply_limits(3))
    assert not fits_supply([2, 2, 2, 2, 2], BOARD.supply_limits(3))


def test_R060_a_house_over_its_new_limits_chooses_the_units_it_destroys():
    step = advance(stark_over_by_one())
    assert [(r.kind, r.house, r.context["units_to_destroy"]) for r in step.requests] == [("reconcile", "stark", 1)]
    step = advance(step.state, [answer("stark", Reconcile(removals=(Located(area="castle_black", unit="footman"),)))])
    assert kinds(step.state, "castle_black") == ["footman"] and kinds(step.state, "white_harbor") == ["footman", "footman"]
    assert [(e.area, e.units) for e in step.events if isinstance(e, UnitsDestroyed)] == [("castle_black", ("footman",))]


def test_R060_the_deadline_default_keeps_the_largest_armies_and_cuts_the_cheapest_units():
    s = stark_over_by_one()
    put(s, "castle_black", "stark", "knight")  # castle black: 3 units, as many as winterfell
    step = advance(s, deadline=True)
    # Supply 1 keeps (3, 2). Equal armies go in area order: castle black keeps 3, winterfell is
    # cut to 2 (a footman goes first), white harbor to 1.
    assert kinds(step.state, "castle_black") == ["footman", "footman", "knight"]
    assert kinds(step.state, "winterfell") == ["footman", "knight"]
    assert kinds(step.state, "white_harbor") == ["footman"]
    assert any(isinstance(e, DefaultUsed) and e.house == "stark" for e in step.events)


def test_R060_a_reconciliation_with_one_legal_answer_is_taken_without_asking():
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "footman", "footman", "footman", "footman")
    step = advance(s)
    assert step.requests == [] and kinds(step.state, "winterfell") == ["footman"] * 3
    assert any(isinstance(e, OnlyOption) and e.house == "stark" for e in step.events)


def test_R060_a_reconciliation_that_leaves_an_army_too_big_is_refused():
    step = advance(stark_over_by_one(), [answer("stark", Reconcile(removals=(Located(area="winterfell", unit="footman"),)))])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "over supply 1 (3, 2)" in refused[0].reason and "(R060)" in refused[0].reason
    assert kinds(step.state, "winterfell") == ["footman", "footman", "knight"]


def test_R060_a_reconciliation_naming_units_that_are_not_there_is_refused():
    step = advance(stark_over_by_one(), [answer("stark", Reconcile(removals=(Located(area="castle_black", unit="knight"),)))])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "you have 0 knight(s) in castle black" in refused[0].reason
    assert [r.kind for r in step.requests] == ["reconcile"]


def test_R061_fewer_and_smaller_armies_than_allowed_need_nothing():
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "footman", "footman")
    put(s, "castle_black", "stark", "footman")
    step = advance(s)
    assert step.requests == [] and step.state.houses["stark"].supply == 1


def test_R062_a_knight_or_siege_engine_counts_as_one_unit():
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "knight", "knight", "siege_engine")
    put(s, "castle_black", "stark", "knight", "knight")
    step = advance(s)
    assert step.requests == [] and len(step.state.area("winterfell").units) == 3


def test_R063_armies_are_reconciled_only_when_the_supply_track_moves():
    s = stark_over_by_one()  # over what its barrels would give, but no Supply card comes
    for deck, card in enumerate(("last_days_of_summer", "last_days_of_summer", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    step = advance(s)
    assert step.requests == [] and step.state.houses["stark"].supply == 3


def test_R065_routed_units_count_for_supply():
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "footman", "footman", "footman", "footman", routed=1)
    step = advance(s)  # four units, one routed: an army of 4 at supply 1 (3, 2)
    assert len(step.state.area("winterfell").units) == 3
    assert [e.units for e in step.events if isinstance(e, UnitsDestroyed)] == [("footman",)]


def test_R066_ships_at_sea_and_in_ports_are_armies():
    s = bare()
    s.houses["stark"].supply = 3
    put(s, "winterfell", "stark", "footman", "footman")
    put(s, "port_of_winterfell", "stark", "ship", "ship")
    put(s, "bay_of_ice", "stark", "ship", "ship")
    step = advance(s)
    assert step.requests[0].context["armies"] == {"bay_of_ice": 2, "port_of_winterfell": 2, "winterfell": 2}


def test_ruling_63_houses_over_their_limits_answer_together_and_destroy_in_turn_order():
    s = stark_over_by_one()
    s.houses["baratheon"].supply = 3
    put(s, "dragonstone", "baratheon", "footman", "footman")
    put(s, "shipbreaker_bay", "baratheon", "ship", "ship")
    put(s, "port_of_dragonstone", "baratheon", "ship", "ship")
    put(s, "kingswood", "baratheon", "footman", "footman")  # four armies; supply 2 (kingswood 1 + dragonstone 1) allows three
    step = advance(s)
    assert sorted(r.house for r in step.requests) == ["baratheon", "stark"]
    step = advance(step.state, [
        answer("stark", Reconcile(removals=(Located(area="white_harbor", unit="footman"),))),
        answer("baratheon", Reconcile(removals=(Located(area="port_of_dragonstone", unit="ship"),))),
    ])
    destroyed = [e.house for e in step.events if isinstance(e, UnitsDestroyed)]
    assert destroyed == ["baratheon", "stark"]


def test_ruling_64_destroying_more_units_than_needed_is_refused():
    removals = (Located(area="castle_black", unit="footman", count=2),)
    step = advance(stark_over_by_one(), [answer("stark", Reconcile(removals=removals))])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "destroy exactly 1 unit" in refused[0].reason and "ruling 64" in refused[0].reason
    assert kinds(step.state, "castle_black") == ["footman", "footman"]


def test_minimum_removals_keeps_the_largest_armies_in_the_largest_columns():
    assert supply.minimum_removals([4, 3, 2, 2], BOARD.supply_limits(3)) == 2  # E07
    assert supply.minimum_removals([3, 3, 3], (3, 2)) == 3  # one cut to 2, one to 1
    assert supply.minimum_removals([2, 2], (2, 2)) == 0
