"""Mustering (R067-R080) through ``advance`` with the Mustering card, and ``check_muster`` itself.

Positions start from a bare board: each house controls only its home area, by its shield.
Turn order: Baratheon, Lannister, Stark.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.core.mustering import check_muster
from adjudicator.engine.events import AnswerUnusable, OnlyOption
from adjudicator.engine.events.westeros import UnitsMustered
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import Muster, MusterAction
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
BOARD = Board.classic()
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def bare() -> GameState:
    """Round 2, Westeros phase, Mustering on deck I, no units and no neutral forces on the board."""
    s = new_game(HOUSES, seed="muster")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for st in s.areas.values():
        st.units.clear()
        st.neutral_force = None
    s.tidy()
    for h in HOUSES:
        s.houses[h].supply = 3
    for deck, card in enumerate(("mustering", "last_days_of_summer", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def put(s: GameState, area: str, house: str, *units: str) -> None:
    s.area_mut(area).units.extend(Unit(house, u) for u in units)


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"m{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def muster(area: str, *actions: MusterAction) -> Muster:
    return Muster(area=area, actions=actions)


F, K, S = MusterAction(unit="footman"), MusterAction(unit="knight"), MusterAction(unit="siege_engine")
UP_K = MusterAction(unit="knight", upgrade=True)


def ship(to: str | None = None) -> MusterAction:
    return MusterAction(unit="ship", to=to)


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


def refusals(step: Step) -> list[str]:
    return [e.reason for e in step.events if isinstance(e, AnswerUnusable)]


def test_R067_each_house_musters_in_turn_order_finishing_before_the_next():
    s = bare()
    put(s, "kings_landing", "baratheon", "footman")
    step = advance(s)
    assert [(r.house, r.context["area"]) for r in step.requests] == [("baratheon", "dragonstone")]
    step = advance(step.state, [answer("baratheon", muster("dragonstone"))])
    assert [(r.house, r.context["area"]) for r in step.requests] == [("baratheon", "kings_landing")]
    step = advance(step.state, [answer("baratheon", muster("kings_landing", F))])
    assert [(r.house, r.context["area"]) for r in step.requests] == [("lannister", "lannisport")]


def test_R067_a_house_may_answer_all_its_areas_at_once():
    s = bare()
    put(s, "kings_landing", "baratheon", "footman")
    step = advance(s, [answer("baratheon", muster("kings_landing", F)), answer("baratheon", muster("dragonstone", K))])
    assert [r.house for r in step.requests] == ["lannister"]
    assert kinds(step.state, "dragonstone") == ["knight"] and kinds(step.state, "kings_landing") == ["footman", "footman"]


def test_R068_a_stronghold_gives_two_points_and_a_castle_one():
    s = bare()
    put(s, "white_harbor", "stark", "footman")
    step = advance(s, [answer("baratheon", muster("dragonstone")), answer("lannister", muster("lannisport"))])
    assert [(r.context["area"], r.context["points"]) for r in step.requests] == [("white_harbor", 1)]
    step = advance(step.state, [answer("stark", muster("white_harbor"))])
    assert [(r.context["area"], r.context["points"]) for r in step.requests] == [("winterfell", 2)]


def test_R069_what_each_unit_costs():
    s = bare()
    put(s, "white_harbor", "stark", "footman")
    assert check_muster(s, BOARD, "lannister", "lannisport", (K,), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (S,), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (F, ship("port_of_lannisport")), 2) is None
    assert check_muster(s, BOARD, "stark", "white_harbor", (K,), 1) == \
        "mustering this in White Harbor costs 2 points; it gives 1 (R068, R069)"
    assert check_muster(s, BOARD, "stark", "white_harbor", (UP_K,), 1) is None


def test_R070_new_land_units_go_into_the_mustering_area():
    step = advance(bare(), [answer("baratheon", muster("dragonstone", F, F))])
    assert kinds(step.state, "dragonstone") == ["footman", "footman"]
    mustered = [e for e in step.events if isinstance(e, UnitsMustered)]
    assert mustered[0].placed == (("footman", "dragonstone"), ("footman", "dragonstone"))


def test_R071_upgrading_a_footman_costs_one_point_and_keeps_the_army_size():
    s = bare()
    put(s, "dragonstone", "baratheon", "footman", "footman")
    step = advance(s, [answer("baratheon", muster("dragonstone", UP_K, MusterAction(unit="siege_engine", upgrade=True)))])
    assert kinds(step.state, "dragonstone") == ["knight", "siege_engine"]
    assert [e.upgraded for e in step.events if isinstance(e, UnitsMustered)] == [("knight", "siege_engine")]


def test_R071_an_upgrade_needs_a_footman_in_the_area():
    step = advance(bare(), [answer("baratheon", muster("dragonstone", UP_K))])
    assert refusals(step) == ["there is no footman of yours in Dragonstone to upgrade (R071)"]
    assert step.requests[0].context["area"] == "dragonstone"


def test_R072_nothing_may_be_mustered_beyond_the_supply_limit():
    s = bare()
    s.houses["baratheon"].supply = 0  # (2, 2)
    put(s, "dragonstone", "baratheon", "footman", "footman")
    put(s, "kingswood", "baratheon", "footman", "footman")
    step = advance(s, [answer("baratheon", muster("dragonstone", F))])
    assert refusals(step) == ["a footman in Dragonstone would exceed your supply limit (R072)"]
    assert kinds(step.state, "dragonstone") == ["footman", "footman"]


def test_R073_points_not_spent_are_lost():
    step = advance(bare(), [answer("baratheon", muster("dragonstone", F))])
    assert kinds(step.state, "dragonstone") == ["footman"]
    assert [r.house for r in step.requests] == ["lannister"]  # dragonstone's second point is gone


def test_R074_an_earlier_house_ship_closes_a_sea_to_a_later_one():
    s = bare()
    put(s, "kings_landing", "baratheon", "footman")  # borders blackwater bay
    put(s, "crackclaw_point", "lannister", "footman")  # so does this castle
    step = advance(s, [answer("baratheon", muster("dragonstone")),
                       answer("baratheon", muster("kings_landing", ship("blackwater_bay"))),
                       answer("lannister", muster("lannisport"))])
    req = step.requests[0]
    assert (req.house, req.context["area"]) == ("lannister", "crackclaw_point")
    assert "blackwater_bay" not in req.context["ship_to"]
    step = advance(step.state, [answer("lannister", muster("crackclaw_point", ship("blackwater_bay")))])
    assert refusals(step) == ["Blackwater Bay holds enemy ships; no ship can be mustered there (R075)"]


def test_R075_a_ship_goes_into_the_port_or_an_adjacent_sea_only():
    s = bare()
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("the_golden_sound"),), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("port_of_lannisport"),), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("sunset_sea"),), 2) == \
        "a ship from Lannisport goes into its own port or an adjacent sea, not Sunset Sea (R075)"
    assert check_muster(s, BOARD, "stark", "winterfell", (ship(),), 2) == \
        "say where the ship from Winterfell goes: Port of Winterfell or Bay of Ice or The Shivering Sea (R075)"


def test_R075_a_castle_with_no_port_and_no_sea_musters_no_ships():
    s = bare()
    put(s, "harrenhal", "lannister", "footman")
    assert check_muster(s, BOARD, "lannister", "harrenhal", (ship(),), 1) == \
        "say where the ship from Harrenhal goes: nowhere is open (R075)"


def test_R076_a_ship_may_go_into_the_port_even_when_its_sea_holds_enemy_ships():
    s = bare()
    put(s, "the_golden_sound", "stark", "ship")
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("port_of_lannisport"),), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("the_golden_sound"),), 2) == \
        "The Golden Sound holds enemy ships; no ship can be mustered there (R075)"


def test_R077_a_port_never_holds_more_than_three_ships():
    s = bare()
    s.houses["lannister"].supply = 6
    put(s, "port_of_lannisport", "lannister", "ship", "ship")
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("port_of_lannisport"),), 2) is None
    assert check_muster(s, BOARD, "lannister", "lannisport", (ship("port_of_lannisport"), ship("port_of_lannisport")), 2) == \
        "Port of Lannisport already holds 3 ships (R077)"


def test_R078_land_units_are_never_mustered_at_sea_or_in_a_port():
    s = bare()
    bad = MusterAction(unit="footman", to="the_golden_sound")
    assert check_muster(s, BOARD, "lannister", "lannisport", (bad,), 2) == \
        "footmen, knights and siege engines are mustered into Lannisport itself, never elsewhere (R070, R078)"


def test_R079_the_box_limits_mustering():
    s = bare()
    s.houses["lannister"].supply = 6
    for area in ("stoney_sept", "harrenhal", "the_twins", "riverrun", "seagard"):
        put(s, area, "lannister", "knight")
    assert check_muster(s, BOARD, "lannister", "lannisport", (K,), 2) == "you have no knight left to muster (R079)"
    assert check_muster(s, BOARD, "lannister", "lannisport", (F, F), 2) is None


def test_R079_an_upgrade_returns_its_footman_to_the_box():
    s = bare()
    s.houses["lannister"].supply = 6
    areas = ["stoney_sept", "harrenhal", "the_twins", "riverrun", "seagard", "searoad_marches", "blackwater",
             "the_reach", "kingswood"]
    for area in areas:
        put(s, area, "lannister", "footman")
    put(s, "lannisport", "lannister", "footman")  # all ten footmen on the board
    assert check_muster(s, BOARD, "lannister", "lannisport", (F,), 2) == "you have no footman left to muster (R079)"
    assert check_muster(s, BOARD, "lannister", "lannisport", (UP_K, F), 2) is None


def test_R080_an_area_held_only_by_a_power_token_musters():
    s = bare()
    s.area_mut("moat_cailin").power_token = "stark"
    step = advance(s, [answer("baratheon", muster("dragonstone")), answer("lannister", muster("lannisport"))])
    assert [(r.house, r.context["area"]) for r in step.requests] == [("stark", "moat_cailin")]
    step = advance(step.state, [answer("stark", muster("moat_cailin", F))])
    assert kinds(step.state, "moat_cailin") == ["footman"]


def test_mustering_where_the_house_cannot_muster_is_refused_with_the_reason():
    step = advance(bare(), [answer("baratheon", muster("kingswood", F))])
    assert refusals(step) == ["Kingswood has no castle or stronghold to muster in (R068)"]
    step = advance(bare(), [answer("baratheon", muster("lannisport", F))])
    assert refusals(step) == ["you do not control Lannisport (R067)"]


def test_an_area_where_nothing_can_be_mustered_passes_without_asking():
    s = bare()
    s.houses["lannister"].supply = 0  # armies (2, 2)
    put(s, "lannisport", "lannister", "knight", "knight")
    put(s, "port_of_lannisport", "lannister", "ship", "ship")
    put(s, "the_golden_sound", "stark", "ship")
    step = advance(s, [answer("baratheon", muster("dragonstone"))])
    assert any(isinstance(e, OnlyOption) and e.house == "lannister" for e in step.events)
    assert [r.house for r in step.requests] == ["stark"]


def test_mustering_defaults_to_nothing_at_the_deadline():
    s = bare()
    step = advance(s, deadline=True)
    assert all(not e.placed and not e.upgraded for e in step.events if isinstance(e, UnitsMustered))
    assert step.state.areas.keys() == s.areas.keys()


def test_check_muster_for_the_special_consolidate_power_order():
    s = bare()
    put(s, "port_of_lannisport", "lannister", "ship")
    assert check_muster(s, BOARD, "lannister", "port_of_lannisport", (F,), 2) == \
        "Port of Lannisport has no castle or stronghold to muster in (R068)"
    assert check_muster(s, BOARD, "stark", "lannisport", (F,), 2) == "you do not control Lannisport (R067)"


def test_ruling_72_a_ship_without_a_destination_goes_to_the_only_open_place():
    s = bare()
    put(s, "moat_cailin", "stark", "footman")
    step = advance(s, [answer("baratheon", muster("dragonstone")), answer("lannister", muster("lannisport")),
                       answer("stark", muster("moat_cailin", ship()))])
    assert kinds(step.state, "the_narrow_sea") == ["ship"]
    assert [e.placed for e in step.events if isinstance(e, UnitsMustered) and e.area == "moat_cailin"] == \
        [(("ship", "the_narrow_sea"),)]


def test_ruling_72_actions_apply_in_the_order_given():
    s = bare()
    # A footman mustered first may be upgraded at once: 2 points, as much as the knight itself.
    assert check_muster(s, BOARD, "baratheon", "dragonstone", (F, UP_K), 2) is None
    assert check_muster(s, BOARD, "baratheon", "dragonstone", (UP_K, F), 2) == \
        "there is no footman of yours in Dragonstone to upgrade (R071)"


def _muster_now(s: GameState, house: str, area: str, *actions: MusterAction) -> GameState:
    """Muster at once, as a special consolidate power order does in the Action Phase (R165)."""
    from adjudicator.engine.core.mustering import muster as do_muster
    from adjudicator.game.state import Segment

    ctx = Context(s, BOARD, Segment("action", {}), [], False)
    do_muster(ctx, house, area, actions, BOARD.area(area).muster_points)
    return ctx.state


def test_ruling_80_a_routed_footman_may_be_upgraded_and_its_knight_stays_routed():
    s = bare()
    s.area_mut("lannisport").units.append(Unit("lannister", "footman", routed=True))
    after = _muster_now(s, "lannister", "lannisport", UP_K)
    assert [(u.type, u.routed) for u in after.area("lannisport").units] == [("knight", True)]


def test_ruling_80_a_standing_footman_is_upgraded_before_a_routed_one():
    s = bare()
    s.area_mut("lannisport").units += [Unit("lannister", "footman", routed=True), Unit("lannister", "footman")]
    after = _muster_now(s, "lannister", "lannisport", UP_K)
    assert sorted((u.type, u.routed) for u in after.area("lannisport").units) == [("footman", True), ("knight", False)]
