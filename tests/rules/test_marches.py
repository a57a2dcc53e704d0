"""Resolving march orders (R141-R160), neutral forces (R231-R235) and control (R240-R248).

Combats are resolved by the stand-in of ``helpers.py`` (``combat_answer``). Turn order (6 players):
Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import pytest

from adjudicator.engine.core.common import ControlChanged, GameWon
from adjudicator.engine.events import OnlyOption
from adjudicator.engine.events.action import (
    AttackDeclared,
    MarchResolved,
    PowerTokenDiscarded,
    PowerTokenPlaced,
    UnitsMoved,
)
from adjudicator.game.state import Order

from .helpers import (  # noqa: F401
    BOARD,
    StandInCombat,
    at_action,
    combat,
    combat_answer,
    entry,
    game,
    march,
    of,
    phases,
    put,
    reasons,
    run,
    token,
    units,
    unusable,
)

pytestmark = pytest.mark.usefixtures("phases", "combat")




def lannisport(*extra):
    s = game()
    put(s, "lannisport", "lannister", "footman", "footman", "knight", order="march+0")
    for area, house, *us in extra:
        put(s, area, house, *us)
    return at_action(s)


def test_R141_marches_cycle_through_the_turn_order_one_at_a_time():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "riverrun", "lannister", "footman", order="march-1")
    put(s, "winterfell", "stark", "footman", order="march+0")
    s = at_action(s)
    step = run(s)
    assert [(r.kind, r.house) for r in step.requests] == [("march", "lannister")]
    step = run(step.state, entry("lannister", march("lannisport", ("stoney_sept", "footman"))))
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]
    step = run(step.state, entry("stark", march("winterfell")))
    assert [(r.kind, r.house) for r in step.requests] == [("march", "lannister")]
    assert step.requests[0].context["march_orders"] == {"riverrun": "march-1"}


def test_R142_all_some_or_none_of_the_units_may_march():
    step = run(lannisport(), entry("lannister", march("lannisport")))
    assert units(step.state, "lannisport") == ["footman", "footman", "knight"]
    assert of(step.events, MarchResolved)[0].moved is False
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "footman", "footman", "knight"))))
    assert units(step.state, "stoney_sept") == ["footman", "footman", "knight"] and units(step.state, "lannisport") == []


def test_R142_a_march_cannot_move_units_that_are_not_there():
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "knight", "knight"))))
    assert any("(R142)" in r for r in reasons(step, "lannister"))
    assert units(step.state, "lannisport") == ["footman", "footman", "knight"]


def test_R143_units_may_split_between_areas_and_stay():
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "footman"), ("riverrun", "knight"))))
    assert (units(step.state, "lannisport"), units(step.state, "stoney_sept"), units(step.state, "riverrun")) == (
        ["footman"], ["footman"], ["knight"])
    assert len(of(step.events, UnitsMoved)) == 2


def test_R144_units_move_only_to_adjacent_areas():
    step = run(lannisport(), entry("lannister", march("lannisport", ("kings_landing", "footman"))))
    assert any("King's Landing is not adjacent to Lannisport" in r and "(R144, R157, R159)" in r for r in reasons(step, "lannister"))
    assert [r.kind for r in step.requests] == ["march"]


def test_R145_land_units_never_enter_sea_areas_or_ports():
    for dest in ("the_golden_sound", "port_of_lannisport"):
        step = run(lannisport(), entry("lannister", march("lannisport", (dest, "footman"))))
        assert any("never enter sea areas or ports" in r and "(R145)" in r for r in reasons(step, "lannister"))
        assert units(step.state, "lannisport") == ["footman", "footman", "knight"]


def test_R145_ships_never_move_onto_land_but_may_enter_their_own_port():
    s = lannisport()
    put(s, "the_golden_sound", "lannister", "ship", "ship")
    s.area_mut("the_golden_sound").order = Order("lannister", "march-1")
    step = run(s, entry("lannister", march("the_golden_sound", ("lannisport", "ship"))),
               entry("lannister", march("lannisport")))
    assert any("ships never move onto land" in r for r in reasons(step, "lannister"))
    step = run(s, entry("lannister", march("the_golden_sound", ("port_of_lannisport", "ship", "ship"))),
               entry("lannister", march("lannisport")))
    assert units(step.state, "port_of_lannisport") == ["ship", "ship"]


def test_R145_ships_never_enter_a_port_another_house_owns():
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "the_golden_sound", "greyjoy", "ship", order="march+0")
    step = run(at_action(s), entry("greyjoy", march("the_golden_sound", ("port_of_lannisport", "ship"))))
    assert any("only a port whose land area you control" in r and "(R145, R253)" in r for r in reasons(step, "greyjoy"))


def test_R145_a_port_never_holds_more_than_three_ships():
    s = lannisport()
    put(s, "port_of_lannisport", "lannister", "ship", "ship")
    put(s, "the_golden_sound", "lannister", "ship", "ship")
    s.area_mut("the_golden_sound").order = Order("lannister", "march+1")
    s.houses["lannister"].supply = 6
    step = run(s, entry("lannister", march("the_golden_sound", ("port_of_lannisport", "ship", "ship"))))
    assert any("more than 3 ships (R250)" in r for r in reasons(step, "lannister"))


def test_R146_one_march_may_start_only_one_combat():
    s = lannisport(("stoney_sept", "tyrell", "footman"), ("riverrun", "stark", "footman"))
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "knight"), ("riverrun", "footman"))))
    assert any("only one area held by another house or a neutral force" in r and "(R146, R234)" in r
               for r in reasons(step, "lannister"))
    assert not of(step.events, StandInCombat)


def test_R147_entering_another_houses_units_starts_a_combat_with_the_marcher_attacking():
    s = lannisport(("stoney_sept", "tyrell", "footman"))
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "knight", "footman"))),
               entry("lannister", combat_answer("stoney_sept", win=True)))
    fight = of(step.events, StandInCombat)
    assert len(fight) == 1 and (fight[0].attacker, fight[0].area, fight[0].origin) == ("lannister", "stoney_sept", "lannisport")
    assert sorted(fight[0].units) == ["footman", "knight"]
    assert of(step.events, AttackDeclared)[0].defender == "tyrell"
    assert units(step.state, "stoney_sept", "lannister") == ["footman", "knight"]


def test_R148_every_other_move_of_the_march_is_made_before_the_combat():
    s = lannisport(("stoney_sept", "tyrell", "footman"))
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "knight"), ("riverrun", "footman"))))
    assert [r.kind for r in step.requests] == ["card_choice"]  # the combat is waiting for its answer
    assert units(step.state, "riverrun") == ["footman"]
    step = run(step.state, entry("lannister", combat_answer("stoney_sept")))
    assert of(step.events, StandInCombat)[0].origin_units == ("footman", "knight")  # the knight, and one staying


def test_R149_the_march_token_goes_with_the_attack():
    s = lannisport(("stoney_sept", "tyrell", "footman"))
    s.area_mut("lannisport").order.token = "march+1"
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "knight"))),
               entry("lannister", combat_answer("stoney_sept", win=False)))
    assert of(step.events, StandInCombat)[0].march_token == "march+1"


def test_R150_vacating_an_area_loses_control_unless_a_power_token_is_left():
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "footman", "footman", "knight"))))
    lost = [e for e in of(step.events, ControlChanged) if e.area == "lannisport"]
    assert lost == [], "Lannisport is Lannister's home: the shield keeps it"
    s = game()
    put(s, "riverrun", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("riverrun", ("stoney_sept", "footman"))))
    assert [(e.area, e.old, e.new) for e in of(step.events, ControlChanged) if e.area == "riverrun"] == [("riverrun", "lannister", "")]
    step = run(at_action(s), entry("lannister", march("riverrun", ("stoney_sept", "footman"), leave_power=True)))
    assert step.state.area("riverrun").power_token == "lannister" and step.state.houses["lannister"].power == 4
    assert of(step.events, PowerTokenPlaced) and not [e for e in of(step.events, ControlChanged) if e.area == "riverrun"]


def test_R151_units_that_marched_into_another_march_order_may_march_again():
    s = game()
    put(s, "lannisport", "lannister", "knight", order="march+0")
    put(s, "stoney_sept", "lannister", "footman", order="march-1")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "knight"))),
               entry("lannister", march("stoney_sept", ("harrenhal", "knight", "footman"))))
    assert units(step.state, "harrenhal") == ["footman", "knight"]


def test_R152_routed_units_cannot_march():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", "knight", order="march+0", routed=1)  # the footman is routed
    step = run(at_action(s), entry("lannister", march("stoney_sept", ("harrenhal", "footman"))))
    assert any("routed units cannot march (R152)" in r for r in reasons(step, "lannister"))
    assert step.requests[0].context["units"] == {"stoney_sept": ["knight"]}


def test_R152_a_march_of_only_routed_units_is_removed_without_asking():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="march+0", routed=1)
    step = run(at_action(s))
    assert of(step.events, MarchResolved) and [e for e in of(step.events, OnlyOption) if e.house == "lannister"]
    assert step.state.round == 2


def test_R153_a_march_may_not_break_the_supply_limit():
    s = game()
    s.houses["lannister"].supply = 0  # armies of 2 and 2
    put(s, "lannisport", "lannister", "footman", "footman", order="march+0")
    put(s, "stoney_sept", "lannister", "footman")
    put(s, "riverrun", "lannister", "footman", "footman")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman", "footman"))))
    assert any("beyond your supply limit (R153, ruling 6)" in r for r in reasons(step, "lannister"))
    assert units(step.state, "stoney_sept") == ["footman"]
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"))))
    assert units(step.state, "stoney_sept") == ["footman", "footman"]  # still two armies of two


def test_ruling_6_an_attacking_army_is_counted_as_if_it_were_in_the_target():
    s = game()
    s.houses["lannister"].supply = 5  # armies of 4, 3, 2, 2
    put(s, "lannisport", "lannister", "footman", "footman", "footman", "footman", order="march+0")
    put(s, "stoney_sept", "lannister", "footman", "footman", "footman")
    put(s, "searoad_marches", "lannister", "footman", "footman")
    put(s, "harrenhal", "lannister", "knight", "knight")
    put(s, "riverrun", "tyrell", "footman")
    # two attack, two stay: a fifth army, though the attackers have not yet entered Riverrun
    step = run(at_action(s), entry("lannister", march("lannisport", ("riverrun", "footman", "footman"))))
    assert any("(R153, ruling 6)" in r for r in reasons(step, "lannister"))
    assert not of(step.events, StandInCombat)
    step = run(at_action(s), entry("lannister", march("lannisport", ("riverrun", "footman", "footman", "footman"))),
               entry("lannister", combat_answer("riverrun")))
    assert units(step.state, "riverrun") == ["footman"] * 3


def test_R154_entering_an_area_with_only_an_enemy_power_token_discards_it_without_combat():
    s = lannisport()
    s.area_mut("stoney_sept").power_token = "tyrell"
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "footman"))))
    assert not of(step.events, StandInCombat)
    ev = of(step.events, PowerTokenDiscarded)
    assert ev and (ev[0].house, ev[0].by) == ("tyrell", "lannister")
    assert step.state.area("stoney_sept").power_token is None
    assert [(e.old, e.new) for e in of(step.events, ControlChanged) if e.area == "stoney_sept"] == [("tyrell", "lannister")]


def test_R155_an_enemy_home_area_with_only_its_garrison_is_attacked():
    s = game()
    put(s, "searoad_marches", "tyrell", "footman", "knight", order="march+0")
    assert s.area("lannisport").garrison == 2
    step = run(at_action(s), entry("tyrell", march("searoad_marches", ("lannisport", "footman", "knight"))),
               entry("tyrell", combat_answer("lannisport", win=False)))
    fight = of(step.events, StandInCombat)
    assert fight and fight[0].area == "lannisport"
    assert of(step.events, AttackDeclared)[0].defender == "lannister"


def test_ruling_7_an_empty_enemy_home_area_without_garrison_is_entered_without_combat():
    s = game()
    s.area_mut("lannisport").garrison = 0
    put(s, "searoad_marches", "tyrell", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", march("searoad_marches", ("lannisport", "footman"))))
    assert not of(step.events, StandInCombat)
    assert step.state.controller("lannisport", BOARD) == "tyrell"


def test_R156_R233_a_neutral_force_is_fought_through_the_combat_and_removed_when_beaten():
    s = game()
    put(s, "blackwater", "tyrell", "knight", "knight", "footman", order="march+0")
    assert s.area("kings_landing").neutral_force == 5
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "knight", "footman"))),
               entry("tyrell", combat_answer("kings_landing")))
    assert of(step.events, AttackDeclared)[0].defender == "neutral force"
    assert step.state.area("kings_landing").neutral_force is None
    assert units(step.state, "kings_landing") == ["footman", "knight", "knight"]


def test_R157_ship_transport_links_land_areas_over_a_chain_of_own_ships():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "the_golden_sound", "lannister", "ship")
    put(s, "ironmans_bay", "lannister", "ship")
    step = run(at_action(s), entry("lannister", march("lannisport", ("seagard", "footman"))))
    assert units(step.state, "seagard") == ["footman"]


def test_R157_another_houses_ships_never_carry():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "the_golden_sound", "lannister", "ship")
    put(s, "ironmans_bay", "greyjoy", "ship")
    step = run(at_action(s), entry("lannister", march("lannisport", ("seagard", "footman"))))
    assert any("no chain of your ships links them" in r for r in reasons(step, "lannister"))


def test_R158_ships_are_never_transported():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", order="march+0")
    put(s, "ironmans_bay", "lannister", "ship")
    step = run(at_action(s), entry("lannister", march("the_golden_sound", ("bay_of_ice", "ship"))))
    assert any("ships are never transported (R144, R158)" in r for r in reasons(step, "lannister"))


def test_R159_land_units_leave_an_island_only_by_ship_transport():
    s = game()
    put(s, "dragonstone", "baratheon", "footman", order="march+0")
    step = run(at_action(s), entry("baratheon", march("dragonstone", ("kingswood", "footman"))))
    assert any("(R144, R157, R159)" in r for r in reasons(step, "baratheon"))
    put(s, "shipbreaker_bay", "baratheon", "ship")
    step = run(at_action(s), entry("baratheon", march("dragonstone", ("kingswood", "footman"))))
    assert units(step.state, "kingswood") == ["footman"]


def test_R160_the_march_order_is_removed_once_resolved():
    s = lannisport()
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    step = run(s, entry("lannister", march("lannisport", ("riverrun", "footman"))))
    assert token(step.state, "lannisport") is None and token(step.state, "stoney_sept") == "lannister march+0"


def test_R231_a_march_on_a_neutral_force_needs_enough_sure_strength():
    s = game()
    put(s, "blackwater", "tyrell", "knight", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "footman"))))
    assert any("is 3, less than its 5" in r and "(R231, ruling 5)" in r for r in reasons(step, "tyrell"))
    assert not of(step.events, StandInCombat)


def test_ruling_5_own_support_counts_toward_the_neutral_force_and_others_support_does_not():
    s = game()
    put(s, "blackwater", "tyrell", "knight", "footman", order="march+1")
    put(s, "kingswood", "baratheon", "knight", order="support+0")  # someone else's: not counted
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "footman"))))
    assert any("is 4, less than its 5" in r for r in reasons(step, "tyrell"))
    put(s, "the_reach", "tyrell", "footman", order="support+0")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "footman"))),
               entry("tyrell", combat_answer("kings_landing")))
    assert of(step.events, StandInCombat)


def test_R232_siege_engines_count_against_a_neutral_force_only_in_a_castle_area():
    s = game()
    put(s, "blackwater", "tyrell", "siege_engine", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "siege_engine", "footman"))),
               entry("tyrell", combat_answer("kings_landing")))
    assert of(step.events, StandInCombat)  # 4 + 1 = 5 against King's Landing (a stronghold)
    s2 = game()
    s2.area_mut("stoney_sept").neutral_force = 3
    put(s2, "blackwater", "tyrell", "siege_engine", "footman", order="march+0")
    step = run(at_action(s2), entry("tyrell", march("blackwater", ("stoney_sept", "siege_engine", "footman"))))
    assert any("is 1, less than its 3" in r for r in reasons(step, "tyrell"))


def test_R234_a_neutral_force_is_the_marchs_one_attack():
    s = game()
    put(s, "blackwater", "tyrell", "knight", "knight", "footman", "footman", order="march+0")
    s.houses["tyrell"].supply = 6
    put(s, "stoney_sept", "lannister", "footman")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "knight", "footman"),
                                                   ("stoney_sept", "footman"))))
    assert any("(R146, R234)" in r for r in reasons(step, "tyrell"))


def test_R235_impassable_areas_are_never_entered():
    s = game(["stark", "lannister", "baratheon"])
    assert "storms_end" in s.impassable
    put(s, "kingswood", "baratheon", "footman", order="march+0")
    step = run(at_action(s), entry("baratheon", march("kingswood", ("storms_end", "footman"))))
    assert any("Storm's End is impassable all game (R235)" in r for r in reasons(step, "baratheon"))
    assert "storms_end" not in step.requests[0].context["destinations"]["kingswood"]


def test_R240_units_entering_an_empty_land_area_take_control_of_it():
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "footman"))))
    assert [(e.area, e.old, e.new) for e in of(step.events, ControlChanged)] == [("stoney_sept", "", "lannister")]


def test_R241_no_power_token_is_ever_left_at_sea():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", order="march+0")
    step = run(at_action(s), entry("lannister", march("the_golden_sound", ("sunset_sea", "ship"), leave_power=True)))
    assert any("only on land areas" in r and "(R241)" in r for r in reasons(step, "lannister"))


def test_R241_a_power_token_is_left_only_when_the_area_is_vacated():
    step = run(lannisport(), entry("lannister", march("lannisport", ("stoney_sept", "footman"), leave_power=True)))
    assert any("do not all leave Lannisport" in r and "(R241)" in r for r in reasons(step, "lannister"))


def test_R242_a_power_token_stays_when_friendly_units_come_and_go():
    s = game()
    s.area_mut("stoney_sept").power_token = "lannister"
    s.houses["lannister"].power = 4
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "harrenhal", "lannister", "footman")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"))))
    assert step.state.area("stoney_sept").power_token == "lannister"
    assert units(step.state, "stoney_sept") == ["footman"]


def test_R243_the_power_token_is_placed_before_the_combat():
    s = game()
    put(s, "riverrun", "lannister", "knight", order="march+0")
    put(s, "stoney_sept", "tyrell", "footman")
    step = run(at_action(s), entry("lannister", march("riverrun", ("stoney_sept", "knight"), leave_power=True)),
               entry("lannister", combat_answer("stoney_sept", win=True)))
    names = [type(e).__name__ for e in step.events]
    assert names.index("PowerTokenPlaced") < names.index("StandInCombat")
    assert step.state.area("riverrun").power_token == "lannister"


def test_R244_no_power_token_without_available_power():
    s = game()
    s.houses["lannister"].power = 0
    put(s, "riverrun", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("riverrun", ("stoney_sept", "footman"), leave_power=True)))
    assert any("no available power" in r and "(R244)" in r for r in reasons(step, "lannister"))
    assert units(step.state, "riverrun") == ["footman"]


def test_ruling_11_leaving_power_where_the_house_already_holds_it_spends_nothing():
    s = game()
    s.area_mut("riverrun").power_token = "lannister"
    s.houses["lannister"].power = 4
    put(s, "riverrun", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("riverrun", ("stoney_sept", "footman"), leave_power=True)))
    assert step.state.houses["lannister"].power == 4 and step.state.area("riverrun").power_token == "lannister"
    assert not of(step.events, PowerTokenPlaced)


def test_R247_an_enemy_home_area_left_without_a_token_reverts_to_its_house():
    s = game()
    put(s, "lannisport", "tyrell", "footman", order="march+0")
    s.area_mut("lannisport").garrison = 0
    step = run(at_action(s), entry("tyrell", march("lannisport", ("stoney_sept", "footman"))))
    assert [(e.old, e.new) for e in of(step.events, ControlChanged) if e.area == "lannisport"] == [("tyrell", "lannister")]


def test_R248_a_march_that_takes_a_seventh_castle_wins_at_once():
    s = game()
    castles = [a.id for a in BOARD.land_areas() if a.has_castle and a.id not in ("harrenhal", "kings_landing", "the_eyrie")]
    for area in castles[:6]:
        put(s, area, "lannister", "footman")
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    put(s, "blackwater", "tyrell", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("stoney_sept", ("harrenhal", "footman"))))
    won = of(step.events, GameWon)
    assert won and won[0].winner == "lannister"
    assert step.state.phase == "game_over" and step.state.winner == "lannister"
    assert step.requests == []


def test_ships_entering_a_sea_with_enemy_ships_attack():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", "ship", order="march+0")
    put(s, "sunset_sea", "greyjoy", "ship")
    step = run(at_action(s), entry("lannister", march("the_golden_sound", ("sunset_sea", "ship", "ship"))),
               entry("lannister", combat_answer("sunset_sea")))
    assert of(step.events, StandInCombat)[0].area == "sunset_sea"


def test_answering_for_another_houses_march_is_refused():
    s = lannisport()
    put(s, "winterfell", "stark", "footman", order="march+0")
    step = run(s, entry("lannister", march("lannisport")), entry("stark", march("lannisport", ("stoney_sept", "footman"))))
    assert any("no march order in Lannisport" in r and "(R141)" in r for r in reasons(step, "stark"))
    assert [r.house for r in step.requests] == ["stark"]
    assert units(step.state, "lannisport") == ["footman", "footman", "knight"]


def test_deadline_default_resolves_the_first_march_in_board_order_without_moving():
    s = lannisport()
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    step = run(s, deadline=True)
    assert [e.origin for e in of(step.events, MarchResolved)] == ["lannisport", "stoney_sept"]
    assert not of(step.events, UnitsMoved)


def test_ruling_15_a_march_may_move_nothing_but_a_move_into_its_own_area_is_refused():
    step = run(lannisport(), entry("lannister", march("lannisport", ("lannisport", "footman"))))
    assert any("need no move (R143)" in r for r in reasons(step, "lannister"))
    step = run(lannisport(), entry("lannister", march("lannisport")))
    assert of(step.events, MarchResolved)[0].moved is False and token(step.state, "lannisport") is None


def test_ruling_16_ships_may_not_enter_a_port_whose_land_area_nobody_controls():
    s = game()
    put(s, "the_golden_sound", "greyjoy", "ship", order="march+0")
    put(s, "riverrun", "greyjoy", "footman")
    s.area_mut("lannisport").garrison = 0
    s.houses_in_play.remove("lannister")  # Lannisport is nobody's now
    for track in s.tracks.values():
        track.remove("lannister")
    assert s.controller("lannisport", BOARD) is None
    step = run(at_action(s), entry("greyjoy", march("the_golden_sound", ("port_of_lannisport", "ship"))))
    assert any("(R145, R253)" in r for r in reasons(step, "greyjoy"))


def test_the_march_request_lists_only_reachable_destinations():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", order="march+0")
    put(s, "the_narrow_sea", "greyjoy", "ship", order="march+0")
    put(s, "lannisport", "lannister", "footman")
    put(s, "white_harbor", "stark", "footman")
    step = run(at_action(s))
    dests = step.requests[0].context["destinations"]["the_golden_sound"]
    assert "port_of_lannisport" in dests and "lannisport" not in dests
    step = run(step.state, entry("lannister", march("the_golden_sound")))
    assert "port_of_white_harbor" not in step.requests[0].context["destinations"]["the_narrow_sea"]


def test_a_march_that_moves_nothing_is_legal_even_for_a_house_over_its_supply():
    s = game()
    s.houses["lannister"].supply = 0
    put(s, "lannisport", "lannister", "footman", "footman", "footman", order="march+0")  # over the limit already
    step = run(at_action(s), deadline=True)
    assert of(step.events, MarchResolved)[0].moved is False and step.state.round == 2
