"""Review of march orders (R141-R160), ship transport, ports and power tokens left behind (R241-R247).

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats go to the stand-in of ``tests/rules/helpers.py`` unless a test needs the
real one. Turn order (6 players): Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import pytest
from rules.helpers import (  # noqa: F401
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
    units,
    unusable,
)

from adjudicator.engine.core.common import ControlChanged, GameWon
from adjudicator.engine.events.action import (
    AttackDeclared,
    MarchResolved,
    PowerTokenDiscarded,
    PowerTokenPlaced,
    UnitsMoved,
)

pytestmark = pytest.mark.usefixtures("phases", "combat")




# --- ship transport (R157-R159) --------------------------------------------------------------


def test_R158_routed_ships_carry_land_units():
    """Routed ships still form the chain (R158): Highgarden to Sunspear over three seas."""
    s = game()
    s.area_mut("sunspear").garrison = 0
    put(s, "highgarden", "tyrell", "footman", order="march+0")
    put(s, "redwyne_straights", "tyrell", "ship", routed=1)
    put(s, "west_summer_sea", "tyrell", "ship", routed=1)
    put(s, "east_summer_sea", "tyrell", "ship")
    step = run(at_action(s), entry("tyrell", march("highgarden", ("sunspear", "footman"))))
    assert units(step.state, "sunspear") == ["footman"] and reasons(step, "tyrell") == []


def test_R157_a_chain_ends_at_another_houses_ship_even_with_own_ships_beyond():
    """Own ships on both sides of a sea held by another house are two chains, not one (R157)."""
    s = game()
    put(s, "highgarden", "tyrell", "footman", order="march+0")
    put(s, "redwyne_straights", "tyrell", "ship")
    put(s, "west_summer_sea", "martell", "ship")
    put(s, "east_summer_sea", "tyrell", "ship")
    step = run(at_action(s), entry("tyrell", march("highgarden", ("salt_shore", "footman"))))
    assert any("no chain of your ships links them (R144, R157, R159)" in r for r in reasons(step, "tyrell"))
    assert units(step.state, "highgarden") == ["footman"]


def test_R157_a_port_never_carries():
    """Ships in a port are not in a sea area: they carry no one (R157 speaks of sea areas only)."""
    s = game()
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "port_of_lannisport", "lannister", "ship")
    step = run(at_action(s), entry("lannister", march("lannisport", ("crackclaw_point", "footman"))))
    assert any("no chain of your ships" in r for r in reasons(step, "lannister"))


def test_R159_land_units_reach_an_island_only_by_ship_transport():
    """Pyke touches no land area: a march there needs a ship in Ironman's Bay (R159, R259)."""
    def seagard(*ships):
        s = game()
        s.area_mut("pyke").garrison = 0
        put(s, "seagard", "stark", "footman", order="march+0")
        put(s, "ironmans_bay", "stark", *ships)
        return at_action(s)

    step = run(seagard(), entry("stark", march("seagard", ("pyke", "footman"))))
    assert any("Pyke is not adjacent to Seagard" in r for r in reasons(step, "stark"))
    step = run(seagard("ship"), entry("stark", march("seagard", ("pyke", "footman"))))
    assert units(step.state, "pyke") == ["footman"]


def test_R158_land_units_may_attack_by_transport_once_and_move_elsewhere_by_land():
    """One march may attack over the sea and still move other units by land without a combat (R146, R158)."""
    s = game()
    put(s, "lannisport", "lannister", "footman", "knight", order="march+0")
    put(s, "the_golden_sound", "lannister", "ship")
    put(s, "ironmans_bay", "lannister", "ship")
    put(s, "seagard", "stark", "footman")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"), ("seagard", "knight"))),
               entry("lannister", combat_answer("seagard")))
    assert [(e.area, e.units, e.origin_units) for e in of(step.events, StandInCombat)] == [("seagard", ("knight",), ("knight",))]
    assert units(step.state, "seagard") == ["knight"] and units(step.state, "stoney_sept") == ["footman"]


# --- ports (R145, R250, R253) ------------------------------------------------------------------


def test_R253_ships_leave_a_port_only_for_its_own_sea_and_may_attack_there():
    """Out of a port: into its sea, where enemy ships mean a combat; never onto land (R145, R253)."""
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship", "ship", order="march+1")
    put(s, "the_golden_sound", "greyjoy", "ship")
    step = run(at_action(s), entry("lannister", march("port_of_lannisport", ("lannisport", "ship"))))
    assert any("ships never move onto land (Lannisport) (R145)" in r for r in reasons(step, "lannister"))
    step = run(step.state, entry("lannister", march("port_of_lannisport", ("the_golden_sound", "ship", "ship"))),
               entry("lannister", combat_answer("the_golden_sound")))
    fight = of(step.events, StandInCombat)
    assert fight and (fight[0].area, fight[0].march_token) == ("the_golden_sound", "march+1")
    assert units(step.state, "the_golden_sound") == ["ship", "ship"]


def test_R250_a_port_may_fill_to_three_ships_counting_those_already_there():
    """One ship in the port and two arriving make three: allowed; the limit is never more than three (R250)."""
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship")
    put(s, "the_golden_sound", "lannister", "ship", "ship", order="march+0")
    step = run(at_action(s), entry("lannister", march("the_golden_sound", ("port_of_lannisport", "ship", "ship"))))
    assert units(step.state, "port_of_lannisport") == ["ship", "ship", "ship"]


def test_R250_ships_in_a_port_are_an_army_within_the_supply_limit():
    """Two ships in a port are an army (R250, R007): at supply 0 (two armies of 2) a third army is refused."""
    s = game()
    s.houses["lannister"].supply = 0
    put(s, "lannisport", "lannister", "footman")
    put(s, "searoad_marches", "lannister", "footman", "footman")
    put(s, "stoney_sept", "lannister", "footman", "footman")
    put(s, "port_of_lannisport", "lannister", "ship", order="support+0")
    put(s, "the_golden_sound", "lannister", "ship", order="march+0")
    step = run(at_action(s), entry("lannister", march("the_golden_sound", ("port_of_lannisport", "ship"))))
    assert any("supply" in r for r in reasons(step, "lannister"))
    assert units(step.state, "port_of_lannisport") == ["ship"] and units(step.state, "the_golden_sound") == ["ship"]


def test_R253_ships_may_use_a_port_held_only_by_a_power_token():
    """Control by a power token is control: the port is the house's to enter (R240, R249)."""
    s = game()
    s.area_mut("lannisport").garrison = 0
    s.area_mut("lannisport").power_token = "greyjoy"
    put(s, "the_golden_sound", "greyjoy", "ship", order="march+0")
    step = run(at_action(s), entry("greyjoy", march("the_golden_sound", ("port_of_lannisport", "ship"))))
    assert units(step.state, "port_of_lannisport") == ["ship"]


# --- one attack per march (R146) --------------------------------------------------------------


def test_R146_an_area_with_only_an_enemy_power_token_is_not_the_marchs_attack():
    """Entering a lone enemy power token is no combat, so the same march may still attack elsewhere (R146, R154)."""
    s = game()
    put(s, "lannisport", "lannister", "footman", "knight", order="march+0")
    s.area_mut("stoney_sept").power_token = "tyrell"
    put(s, "searoad_marches", "tyrell", "footman")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"), ("searoad_marches", "knight"))),
               entry("lannister", combat_answer("searoad_marches")))
    assert of(step.events, PowerTokenDiscarded)[0].area == "stoney_sept"
    assert [e.area for e in of(step.events, StandInCombat)] == ["searoad_marches"]
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("PowerTokenDiscarded") < kinds.index("AttackDeclared")  # R148


def test_R146_a_garrisoned_home_area_and_enemy_units_are_two_attacks():
    """A home area held by its garrison alone is an attack (R155), so it cannot be a march's second one (R146)."""
    s = game()
    put(s, "searoad_marches", "tyrell", "footman", "knight", order="march+0")
    put(s, "the_reach", "baratheon", "footman")
    step = run(at_action(s), entry("tyrell", march("searoad_marches", ("lannisport", "footman"), ("the_reach", "knight"))))
    assert any("(R146, R234)" in r for r in reasons(step, "tyrell"))
    assert units(step.state, "searoad_marches") == ["footman", "knight"]


def test_R146_a_neutral_force_and_enemy_units_are_two_attacks():
    """Attacking a neutral force is the march's one attack (R234)."""
    s = game()
    put(s, "blackwater", "tyrell", "knight", "knight", "knight", order="march+1")
    put(s, "crackclaw_point", "baratheon", "footman")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "knight", "knight"))))
    assert not any("(R146, R234)" in r for r in reasons(step, "tyrell"))
    s = game()
    put(s, "blackwater", "tyrell", "knight", "knight", "knight", "footman", order="march+1")
    put(s, "crackclaw_point", "baratheon", "footman")
    step = run(at_action(s), entry("tyrell", march("blackwater", ("kings_landing", "knight", "knight", "knight"),
                                                   ("crackclaw_point", "footman"))))
    assert any("(R146, R234)" in r for r in reasons(step, "tyrell"))


# --- power tokens left behind (R241-R247) -----------------------------------------------------


def test_R241_no_power_token_is_left_in_a_port():
    """A port is not a land area: no control is established there (R241)."""
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship", order="march+0")
    step = run(at_action(s), entry("lannister", march("port_of_lannisport", ("the_golden_sound", "ship"), leave_power=True)))
    assert any("not Port of Lannisport (R241)" in r for r in reasons(step, "lannister"))


def test_R244_a_power_token_left_comes_from_available_power():
    """Leaving a token spends one available power, and the token still counts among the house's 20 (R244, R011)."""
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("stoney_sept", ("harrenhal", "footman"), leave_power=True)))
    assert step.state.houses["lannister"].power == 4 and step.state.power_on_board("lannister") == 1
    assert step.state.controller("stoney_sept", BOARD) == "lannister"
    assert of(step.events, PowerTokenPlaced)[0].area == "stoney_sept"


def test_R247_a_token_over_an_enemy_shield_costs_one_and_keeps_control():
    """Placed over an enemy home shield, a power token costs power and holds the area (R247)."""
    s = game()
    s.area_mut("lannisport").garrison = 0
    put(s, "lannisport", "tyrell", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", march("lannisport", ("searoad_marches", "footman"), leave_power=True)))
    assert step.state.houses["tyrell"].power == 4
    assert step.state.controller("lannisport", BOARD) == "tyrell"
    assert not [e for e in of(step.events, ControlChanged) if e.area == "lannisport"]


def test_ruling_11_no_token_is_spent_on_the_houses_own_home_area_even_without_power():
    """The shield already holds a home area: "leave power" there is accepted and spends nothing (ruling 11)."""
    s = game()
    s.houses["lannister"].power = 0
    put(s, "lannisport", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"), leave_power=True)))
    assert reasons(step, "lannister") == [] and step.state.houses["lannister"].power == 0
    assert step.state.controller("lannisport", BOARD) == "lannister"


def test_R154_R247_entering_an_enemy_home_area_held_by_a_third_houses_token():
    """The token over the shield is discarded and the marcher holds the area while it stays (R154, R247)."""
    s = game()
    s.area_mut("lannisport").garrison = 0
    s.area_mut("lannisport").power_token = "greyjoy"
    put(s, "searoad_marches", "tyrell", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", march("searoad_marches", ("lannisport", "footman"))))
    assert not of(step.events, StandInCombat)
    assert step.state.area("lannisport").power_token is None
    assert [(e.old, e.new) for e in of(step.events, ControlChanged) if e.area == "lannisport"] == [("greyjoy", "tyrell")]


def test_R242_a_token_under_returning_units_keeps_control_when_they_leave_again():
    """R242: the house's own token stays where its units come back, and holds the area again when they leave."""
    s = game()
    s.area_mut("stoney_sept").power_token = "lannister"
    put(s, "lannisport", "lannister", "footman", order="march+0")
    put(s, "harrenhal", "lannister", "footman", order="march-1")
    step = run(at_action(s), entry("lannister", march("lannisport", ("stoney_sept", "footman"))),
               entry("lannister", march("harrenhal", ("riverrun", "footman"))))
    assert step.state.area("stoney_sept").power_token == "lannister"
    assert not of(step.events, PowerTokenDiscarded)


# --- control and the victory track (R248, R262) --------------------------------------------------


def test_R262_a_seventh_castle_taken_by_a_move_wins_before_the_marchs_combat():
    """The game ends the moment the seventh castle is held, even with the march's attack still to fight (R262)."""
    s = game()
    for area in ("flints_finger", "moat_cailin", "seagard", "white_harbor", "the_reach"):  # with Lannisport: 6
        put(s, area, "lannister", "footman")
    put(s, "stoney_sept", "lannister", "footman", "knight", order="march+0")
    put(s, "riverrun", "tyrell", "footman")
    step = run(at_action(s), entry("lannister", march("stoney_sept", ("harrenhal", "footman"), ("riverrun", "knight"))))
    assert [e.winner for e in of(step.events, GameWon)] == ["lannister"]
    assert step.state.phase == "game_over" and not of(step.events, StandInCombat)
    assert units(step.state, "riverrun") == ["footman"]


def test_R248_control_changes_are_reported_for_every_area_a_march_touches():
    """Vacated areas, areas entered and areas whose token is discarded each get one ControlChanged (R248)."""
    s = game()
    s.area_mut("stoney_sept").power_token = "tyrell"
    put(s, "harrenhal", "lannister", "footman", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", march("harrenhal", ("stoney_sept", "footman"), ("riverrun", "footman"))))
    changes = sorted((e.area, e.old, e.new) for e in of(step.events, ControlChanged))
    assert changes == [("harrenhal", "lannister", ""), ("riverrun", "", "lannister"), ("stoney_sept", "tyrell", "lannister")]
    assert of(step.events, MarchResolved)[0].moved and len(of(step.events, UnitsMoved)) == 2
    assert not of(step.events, AttackDeclared)


def test_ruling_7_the_home_area_of_a_house_not_in_play_is_held_only_while_occupied():
    """Four houses: Highgarden has no garrison and no shield in play; it is entered freely and lost when left (R247, ruling 7)."""
    s = game(["stark", "lannister", "greyjoy", "baratheon"])
    assert s.area("highgarden").garrison == 0 and s.controller("highgarden", BOARD) is None
    put(s, "searoad_marches", "lannister", "footman", order="march-1")
    step = run(at_action(s), entry("lannister", march("searoad_marches", ("highgarden", "footman"))))
    assert not of(step.events, StandInCombat) and step.state.controller("highgarden", BOARD) == "lannister"
    s = game(["stark", "lannister", "greyjoy", "baratheon"])
    put(s, "highgarden", "lannister", "footman", order="march-1")
    step = run(at_action(s), entry("lannister", march("highgarden", ("searoad_marches", "footman"))))
    assert step.state.controller("highgarden", BOARD) is None
    assert [(e.old, e.new) for e in of(step.events, ControlChanged) if e.area == "highgarden"] == [("lannister", "")]
