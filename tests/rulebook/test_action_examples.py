"""The rulebook's worked examples for planning and the action phase, with the rulebook's own numbers.

E11 King's Court stars (p. 12, p. 22), E12 raid resolution (p. 14), E13 march (p. 15), E14 staggered
marching (p. 15), E15 consolidate power (p. 16), E23 ship transport (p. 23), E24 ports (p. 25),
E25 attacking a neutral force (p. 26), E27 impassable areas (p. 26). Combats go to the stand-in of
``tests/rules/helpers.py``.
"""

from __future__ import annotations

import pytest
from rules.helpers import (  # noqa: F401
    BOARD,
    StandInCombat,
    answers,
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

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.action import MarchResolved, RaidResolved, UnitsMoved
from adjudicator.game.commands import AssignOrder, Raid
from adjudicator.game.state import Order

pytestmark = pytest.mark.usefixtures("phases", "combat")

FIVE = ["stark", "lannister", "greyjoy", "tyrell", "baratheon"]




# --- E11: King's Court stars ------------------------------------------------------------------


def test_E11_position_one_has_three_specials_position_five_none():
    s = game()  # 6 players: King's Court Lannister, Stark, Martell, Baratheon, Tyrell, Greyjoy
    for area in ("lannisport", "stoney_sept", "riverrun", "harrenhal"):
        put(s, area, "lannister", "footman")
    put(s, "highgarden", "tyrell", "footman")  # Tyrell is 5th
    specials = ["march+1", "defense+2", "support+1", "raid*"]
    step = run(s, *answers("lannister", *(AssignOrder(area=a, token=t) for a, t in
                                          zip(("lannisport", "stoney_sept", "riverrun", "harrenhal"), specials))),
               *answers("tyrell", AssignOrder(area="highgarden", token="consolidate*")))
    # The newest lines stand within the stars; the oldest special over them is refused (ruling 121).
    assert reasons(step, "lannister") == ["your King's Court position allows 3 special orders, placed by later lines "
                                          "in Harrenhal, Riverrun, Stoney Sept (R119)"]
    assert reasons(step, "tyrell") == ["your King's Court position allows 0 special orders (R119)"]
    assert {r.house for r in step.requests} == {"lannister", "tyrell"}


# --- E12: raid resolution ---------------------------------------------------------------------


def e12_position():
    s = game(FIVE)
    s.tracks["iron_throne"] = ["greyjoy", "stark", "lannister", "baratheon", "tyrell"]
    put(s, "the_reach", "lannister", "footman", order="raid")
    put(s, "sunset_sea", "lannister", "ship", order="raid")
    put(s, "lannisport", "lannister", "footman", order="defense+1")
    put(s, "west_summer_sea", "greyjoy", "ship", order="raid")
    put(s, "dornish_marches", "tyrell", "footman", order="raid")
    put(s, "highgarden", "tyrell", "footman", order="consolidate")
    put(s, "stoney_sept", "baratheon", "footman", order="raid*")
    put(s, "winterfell", "stark", "footman", order="march+0")  # holds the phase at the marches
    return at_action(s)


def test_E12_raid_resolution_example():
    step = run(e12_position(),
               entry("greyjoy", Raid(origin="west_summer_sea", targets=("highgarden",))),
               entry("lannister", Raid(origin="the_reach", targets=("dornish_marches",))),
               entry("baratheon", Raid(origin="stoney_sept", targets=("lannisport",))))
    assert [(e.house, e.origin, e.target) for e in of(step.events, RaidResolved)] == [
        ("greyjoy", "west_summer_sea", "highgarden"),  # 1. pillage
        ("lannister", "the_reach", "dornish_marches"),  # 2. Stark has no raid
        ("baratheon", "stoney_sept", "lannisport"),  # 3. the special raid takes a defense order
        ("lannister", "sunset_sea", ""),  # 4.-5. Tyrell has none left; nothing next to the Sunset Sea
    ]
    s = step.state
    assert s.houses["greyjoy"].power == 6 and s.houses["tyrell"].power == 4
    assert token(s, "highgarden") is None and token(s, "lannisport") is None
    assert not [a for a, st in s.areas.items() if st.order and st.order.token.startswith("raid")]
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]


def test_E12_the_sunset_sea_raid_resolves_without_asking():
    step = run(e12_position(),
               entry("greyjoy", Raid(origin="west_summer_sea", targets=("highgarden",))),
               entry("lannister", Raid(origin="the_reach", targets=("dornish_marches",))),
               entry("baratheon", Raid(origin="stoney_sept", targets=("lannisport",))))
    # Lannister's two raids are two decisions: the first from its answer, the second taken unasked
    used = [e for e in step.events if type(e).__name__ == "AnswerUsed" and e.house == "lannister"]
    only = [e for e in step.events if type(e).__name__ == "OnlyOption" and e.house == "lannister"]
    assert [e.decision for e in used] == [e.decision for e in only] == [
        "resolve one of your raid orders: name the order and its target, or no effect"]


# --- E13: march -----------------------------------------------------------------------------


def e13_position():
    s = game()
    put(s, "lannisport", "lannister", "footman", "footman", "footman", order="march+0")
    put(s, "searoad_marches", "lannister", "footman")
    return at_action(s)


def test_E13_march_example():
    step = run(e13_position(), entry("lannister", march("lannisport", ("stoney_sept", "footman"),
                                                        ("searoad_marches", "footman"))))
    s = step.state
    assert (units(s, "lannisport"), units(s, "stoney_sept"), units(s, "searoad_marches")) == (
        ["footman"], ["footman"], ["footman", "footman"])
    assert token(s, "lannisport") is None
    assert of(step.events, MarchResolved) and not of(step.events, StandInCombat)


def test_E13_sending_units_into_two_enemy_areas_is_rejected():
    s = e13_position()
    put(s, "stoney_sept", "tyrell", "footman")
    put(s, "riverrun", "stark", "footman")
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "footman"), ("riverrun", "footman"))))
    assert any("(R146, R234)" in r for r in reasons(step, "lannister"))
    assert units(step.state, "lannisport") == ["footman"] * 3


def test_E13_all_three_leaving_may_leave_a_power_token():
    s = e13_position()
    s.area_mut("riverrun").units = s.area("lannisport").units  # the same march, from a non-home area
    s.area_mut("riverrun").order = s.area("lannisport").order
    del s.areas["lannisport"]
    step = run(s, entry("lannister", march("riverrun", ("stoney_sept", "footman", "footman", "footman"), leave_power=True)))
    assert step.state.area("riverrun").power_token == "lannister"
    assert step.state.controller("riverrun", BOARD) == "lannister"


# --- E14: staggered marching ------------------------------------------------------------------


def e14_position():
    s = game()
    put(s, "lannisport", "lannister", "knight", order="march+0")
    put(s, "stoney_sept", "lannister", "footman", order="march-1")
    put(s, "harrenhal", "lannister", "footman", order="march+1")
    return at_action(s)


def test_E14_staggered_march_a_to_b_to_c():
    step = run(e14_position(), entry("lannister", march("lannisport", ("stoney_sept", "knight"))))
    step = run(step.state, entry("lannister", march("stoney_sept", ("harrenhal", "knight", "footman"))))
    step = run(step.state, entry("lannister", march("harrenhal", ("blackwater", "knight", "footman", "footman"))))
    assert units(step.state, "blackwater") == ["footman", "footman", "knight"]
    assert [(e.origin, e.destination) for e in of(step.events, UnitsMoved)] == [("harrenhal", "blackwater")]


def test_E14_an_enemy_victory_in_the_middle_area_breaks_the_chain():
    s = e14_position()
    put(s, "blackwater", "tyrell", "knight", "knight", order="march+0")
    step = run(s, entry("lannister", march("lannisport", ("stoney_sept", "knight"))),
               entry("tyrell", march("blackwater", ("stoney_sept", "knight", "knight"))),
               entry("tyrell", combat_answer("stoney_sept", win=True)))
    # Tyrell won in Stoney Sept: the march order there is gone, so the knight cannot go on
    assert token(step.state, "stoney_sept") is None
    assert step.requests[0].context["march_orders"] == {"harrenhal": "march+1"}


# --- E15: consolidate power -------------------------------------------------------------------


def test_E15_consolidate_power_example():
    s = game()
    put(s, "dragonstone", "baratheon", "footman", order="consolidate")
    step = run(at_action(s))
    assert [(e.house, e.amount) for e in of(step.events, PowerChanged)] == [("baratheon", 2)]
    assert step.state.houses["baratheon"].power == 7


# --- E23: ship transport ----------------------------------------------------------------------


def e23_position(players=FIVE):
    s = game(players)
    put(s, "highgarden", "tyrell", "knight", "footman", order="march+0")
    for sea in ("redwyne_straights", "west_summer_sea", "east_summer_sea"):
        put(s, sea, "tyrell", "ship")
    return at_action(s)


def test_E23_ship_transport_example():
    s = e23_position(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"])
    s.area_mut("sunspear").garrison = 0  # an empty Sunspear, so that the move itself is the point
    step = run(s, entry("tyrell", march("highgarden", ("sunspear", "footman"), ("salt_shore", "knight"))))
    assert units(step.state, "sunspear") == ["footman"] and units(step.state, "salt_shore") == ["knight"]
    assert not of(step.events, StandInCombat)


def test_E23_transport_into_an_enemy_area_is_the_marchs_one_combat():
    s = e23_position(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"])
    put(s, "starfall", "martell", "footman")
    step = run(s, entry("tyrell", march("highgarden", ("starfall", "knight", "footman"))),
               entry("tyrell", combat_answer("starfall")))
    assert of(step.events, StandInCombat)[0].area == "starfall"
    assert units(step.state, "starfall") == ["footman", "knight"]


def test_E23_transport_against_a_neutral_force_needs_the_strength():
    step = run(e23_position(), entry("tyrell", march("highgarden", ("sunspear", "knight", "footman"))))
    assert any("is 3, less than its 5" in r for r in reasons(step, "tyrell"))


def test_E23_another_houses_ship_breaks_the_chain():
    s = e23_position()
    s.area_mut("west_summer_sea").units[0].house = "greyjoy"
    step = run(s, entry("tyrell", march("highgarden", ("salt_shore", "knight"))))
    assert any("no chain of your ships links them (R144, R157, R159)" in r for r in reasons(step, "tyrell"))


def test_E23_ships_cannot_be_transported():
    s = e23_position()
    s.area_mut("redwyne_straights").order = Order("tyrell", "march+0")
    step = run(s, entry("tyrell", march("highgarden")),
               entry("tyrell", march("redwyne_straights", ("sea_of_dorne", "ship"))))
    assert any("ships are never transported (R144, R158)" in r for r in reasons(step, "tyrell"))


def test_E23_transport_does_not_make_highgarden_and_sunspear_adjacent_for_raids():
    s = e23_position(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"])
    s.area_mut("highgarden").order.token = "raid"
    put(s, "sunspear", "martell", "footman", order="consolidate")
    step = run(s, entry("tyrell", Raid(origin="highgarden", targets=("sunspear",))))
    assert any("Sunspear is not adjacent to Highgarden" in r for r in reasons(step, "tyrell"))


# --- E24: ports -------------------------------------------------------------------------------


def e24_position():
    s = game()  # 6 players: Martell plays
    put(s, "sunspear", "martell", "footman", order="defense+1")
    put(s, "port_of_sunspear", "martell", "ship", order="raid")
    put(s, "east_summer_sea", "tyrell", "ship", order="support+0")
    return at_action(s)


def test_E24_a_raid_from_a_port_cancels_a_support_order_in_its_sea():
    step = run(e24_position(), entry("martell", Raid(origin="port_of_sunspear", targets=("east_summer_sea",))))
    assert [(e.origin, e.target, e.target_token) for e in of(step.events, RaidResolved)] == [
        ("port_of_sunspear", "east_summer_sea", "support+0")]


def test_E24_a_port_raid_on_land_is_rejected():
    s = e24_position()
    put(s, "salt_shore", "tyrell", "footman", order="support+0")
    step = run(s, entry("martell", Raid(origin="port_of_sunspear", targets=("salt_shore",))))
    assert any(r.endswith(("(R130)", "(R137)")) for r in reasons(step, "martell"))
    step = run(s, entry("martell", Raid(origin="port_of_sunspear", targets=("sunspear",))))
    assert any("may raid only the sea area it opens onto (R137)" in r for r in reasons(step, "martell"))


def test_E24_consolidate_in_the_port_does_nothing_while_tyrell_ships_are_in_its_sea():
    s = e24_position()
    s.area_mut("port_of_sunspear").order.token = "consolidate"
    step = run(s)
    assert step.state.houses["martell"].power == 5
    s.area_mut("east_summer_sea").units.clear()
    s.area_mut("east_summer_sea").order = None
    step = run(s)
    assert step.state.houses["martell"].power == 6


def test_E24_the_port_cannot_take_a_fourth_ship():
    s = game()
    put(s, "sunspear", "martell", "footman")
    put(s, "port_of_sunspear", "martell", "ship", "ship", "ship", order="support+0")
    put(s, "east_summer_sea", "martell", "ship", order="march+0")
    s.houses["martell"].supply = 6
    step = run(at_action(s), entry("martell", march("east_summer_sea", ("port_of_sunspear", "ship"))))
    assert any("Port of Sunspear would hold more than 3 ships (R250)" in r for r in reasons(step, "martell"))
    assert units(step.state, "port_of_sunspear") == ["ship"] * 3


# --- E25: attacking a neutral force -----------------------------------------------------------


def e25_position():
    s = game(FIVE)
    assert s.area("sunspear").neutral_force == 5
    put(s, "yronwood", "tyrell", "knight", "footman", order="march+1")
    put(s, "sea_of_dorne", "tyrell", "ship", order="support+0")
    return at_action(s)


def test_E25_attacking_a_neutral_force():
    step = run(e25_position(), entry("tyrell", march("yronwood", ("sunspear", "knight", "footman"))),
               entry("tyrell", combat_answer("sunspear")))
    fight = of(step.events, StandInCombat)
    assert fight and fight[0].march_token == "march+1"  # 2 + 1 + 1 (march) + 1 (ship) = 5
    assert step.state.area("sunspear").neutral_force is None
    assert units(step.state, "sunspear") == ["footman", "knight"]


def test_E25_without_the_ship_support_the_attempt_is_illegal():
    s = e25_position()
    s.area_mut("sea_of_dorne").order = Order("tyrell", "defense+1")
    step = run(s, entry("tyrell", march("yronwood", ("sunspear", "knight", "footman"))))
    assert any("is 4, less than its 5" in r and "(R231, ruling 5)" in r for r in reasons(step, "tyrell"))
    assert not of(step.events, StandInCombat)


def test_E25_a_second_enemy_area_in_the_same_march_is_rejected():
    s = e25_position()
    put(s, "yronwood", "tyrell", "footman")
    put(s, "salt_shore", "greyjoy", "footman")
    s.houses["tyrell"].supply = 6
    step = run(s, entry("tyrell", march("yronwood", ("sunspear", "knight", "footman"), ("salt_shore", "footman"))))
    assert any("(R146, R234)" in r for r in reasons(step, "tyrell"))


def test_E25_a_siege_engine_counts_against_sunspear_which_is_a_stronghold():
    s = e25_position()
    s.area_mut("yronwood").units = [u for u in s.area("yronwood").units if u.type != "footman"]
    put(s, "yronwood", "tyrell", "siege_engine")
    s.area_mut("sea_of_dorne").order = Order("tyrell", "defense+1")
    step = run(s, entry("tyrell", march("yronwood", ("sunspear", "knight", "siege_engine"))),
               entry("tyrell", combat_answer("sunspear")))
    assert of(step.events, StandInCombat)  # 2 + 4 + 1 = 7 >= 5


# --- E27: impassable areas (3 players) --------------------------------------------------------


def test_E27_an_impassable_area_cannot_be_entered_even_by_ship_transport():
    s = game(["stark", "lannister", "baratheon"])
    put(s, "kingswood", "baratheon", "footman", order="march+0")
    put(s, "shipbreaker_bay", "baratheon", "ship")
    put(s, "east_summer_sea", "baratheon", "ship")
    step = run(at_action(s), entry("baratheon", march("kingswood", ("sunspear", "footman"))))
    assert any("Sunspear is impassable all game (R235)" in r for r in reasons(step, "baratheon"))
