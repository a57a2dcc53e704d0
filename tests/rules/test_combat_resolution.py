"""Combat resolution: casualties, retreats and routing, clean-up, garrisons, neutral forces (R203-R237)."""

from __future__ import annotations

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    AttackerAdvanced,
    CasualtiesDue,
    CombatOrderRemoved,
    CombatPowerTokenRemoved,
    CombatResolved,
    CombatStarted,
    CombatStrengths,
    GarrisonDefeated,
    HouseCardsRevealed,
    NeutralForceAttacked,
    PortCaptured,
    Retreated,
)
from adjudicator.game.commands import (
    Casualties,
    PortShips,
    Retreat,
    Support,
    UnitSpec,
    UseBlade,
)
from adjudicator.game.state import Order

from .test_combat_harness import (  # noqa: F401
    BOARD,
    Assault,
    battle,
    duel,
    everyone,
    play,
    position,
    say,
)

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def _lost(b, house=None):
    return [(e.area, e.units, e.cause) for e in b.of(UnitsDestroyed) if house is None or e.house == house]


# --- casualties (R203-R206) ---------------------------------------------------------------------


def test_R203_only_the_defeated_side_takes_casualties(battle):
    state = duel("stark", "lannister", attack=("footman",), defend=("4 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "ser_jaime_lannister"))
    assert b.done and b.results()[0].winner == "lannister"
    assert [(d.house, d.swords, d.count) for d in b.of(CasualtiesDue)] == [("stark", 1, 1)]
    assert b.units("kingswood", "lannister") == ["footman"] * 4, "Eddard's swords do nothing for a loser"
    assert b.units("kings_landing") == []


def test_R203_the_losers_fortifications_cancel_the_victors_swords(battle):
    """Three swords (Ser Gregor Clegane) less two fortifications (Ser Rodrick Cassel): one casualty."""
    state = duel("lannister", "stark", attack=("2 knights",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_gregor_clegane"), play("stark", "ser_rodrick_cassel"))
    assert b.done and b.results()[0].winner == "lannister"
    assert [(d.house, d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [("stark", 3, 2, 1)]
    assert b.units("storms_end", "stark") == ["footman"] * 2


def test_R203_fortifications_beyond_the_swords_leave_no_casualty(battle):
    """One sword (Ser Jaime Lannister) against two fortifications: none, never fewer than none."""
    state = duel("lannister", "stark", attack=("2 knights",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "ser_rodrick_cassel"))
    assert b.done and b.results()[0].winner == "lannister"
    assert [(d.house, d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [("stark", 1, 2, 0)]
    assert not b.of(UnitsDestroyed) and b.units("storms_end", "stark") == ["footman"] * 3


def test_R204_the_defeated_house_chooses_its_casualties(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"))
    assert b.asked() == [("casualties", "stark")]
    assert b.requests()[0].context["units"] == {"footman": 1, "knight": 1}
    b.run(say("stark", Casualties(units=(UnitSpec("knight"),))))
    assert b.done and b.units("storms_end", "stark") == ["footman"]


def test_R204_the_default_casualty_is_the_cheapest_unit(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"))
    b.run(deadline=True)
    assert b.done and b.units("storms_end", "stark") == ["knight"]


def test_R204_a_casualty_choice_of_the_wrong_size_is_refused(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"), UnitSpec("footman")))))
    assert any("1 casualty must be chosen, not 2" in r for r in b.unusable("stark"))
    assert b.asked() == [("casualties", "stark")] and b.units("kingswood", "stark") == ["footman", "knight"]


def test_R204_a_casualty_choice_for_another_combat_waits_for_it(battle):
    """A choice conditioned on another combat (``if attacked in Winterfell: casualties knight``) is
    not an answer for this one: it is neither used nor refused here (mutation testing found no test)."""
    from adjudicator.game.commands import CombatFilter

    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"),), when=CombatFilter(area="winterfell"))))
    assert b.asked() == [("casualties", "stark")] and b.units("kingswood", "stark") == ["footman", "knight"]
    assert b.unusable("stark") == []


def test_R204_a_casualty_choice_for_this_role_is_used(battle):
    from adjudicator.game.commands import CombatFilter

    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "knight"), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"),), when=CombatFilter(role="defender"))))
    assert b.done and b.units("storms_end", "stark") == ["footman"]


def test_R204_a_casualty_choice_naming_a_unit_twice_counts_both(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman", "2 knights"), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Casualties(units=(UnitSpec("knight"),)), Casualties(units=(UnitSpec("footman"), UnitSpec("footman")))))
    assert any("you have 1 footman(s) in the combat, not 2 (R204)" in r for r in b.unusable("lannister"))
    assert any("2 casualties must be chosen, not 1 (R203, R206)" in r for r in b.unusable("lannister"))
    assert b.asked() == [("casualties", "lannister")]


def test_R204_every_unit_a_casualty_choice_names_must_be_there(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman", "knight", "footman"), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Casualties(units=(UnitSpec("footman"), UnitSpec("siege_engine")))))
    assert any("you have 0 siege_engine(s) in the combat, not 1 (R204)" in r for r in b.unusable("lannister"))
    assert b.asked() == [("casualties", "lannister")]


def test_R205_routed_units_can_never_be_chosen_as_casualties(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "siege_engine", "knight"), areas=BLOCKED)
    state.area_mut("kingswood").units[2].routed = True
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"),))))
    assert any("routed units" in r and "R205" in r for r in b.unusable("stark"))
    assert b.asked() == [("casualties", "stark")]
    assert b.units("kingswood", "stark") == ["footman", "knight", "siege_engine"], "nothing changed"


def test_R205_supporting_units_are_never_casualties(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman", "siege_engine"),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = { units = ["stark knight"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("stark", Support(side="stark")), play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"))
    b.run(say("stark", Casualties(units=(UnitSpec("knight"),))))
    assert any("supporting units" in r and "R205" in r for r in b.unusable("stark"))
    assert b.units("the_reach", "stark") == ["knight"]


def test_R206_each_casualty_is_one_unit_whatever_its_strength(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("3 knights",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_gregor_clegane"), play("stark", "catelyn_stark"))
    assert b.done and _lost(b, "stark") == [("kingswood", ("knight", "knight", "knight"), "casualties of the combat (R203)")]


# --- retreats and routing (R207-R219) -----------------------------------------------------------


def test_R207_the_losers_supporting_units_do_not_retreat(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = { units = ["stark footman"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("stark", Support(side="stark")), play("lannister", "the_hound"), play("stark", "catelyn_stark"),
          say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    assert b.units("the_reach", "stark", routed=False) == ["footman"]
    assert b.units("storms_end", "stark", routed=True) == ["footman"]


def test_R208_a_defeated_attacker_goes_back_where_it_marched_from_routed(battle):
    state = duel("stark", "lannister", attack=("footman", "knight"), defend=("3 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister"
    assert b.units("kings_landing", "stark", routed=True) == ["footman", "knight"]
    assert not b.of(Retreated), "an attacker has no retreat to choose"


def test_R209_the_defeated_defender_is_asked_where_to_retreat(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    req = b.requests()[0]
    assert (req.kind, req.house) == ("retreat", "lannister")
    assert req.context["legal_areas"] == ["storms_end", "the_boneway", "the_reach"]
    b.run(deadline=True)
    assert b.of(Retreated)[0].to_area == "storms_end", "the default: the first legal area in a fixed order"


def test_R210_a_retreat_into_enemy_units_is_refused(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), areas='the_reach = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("lannister", Retreat(areas=("the_reach",))))
    assert any("holds units of Tyrell" in r and "R210" in r for r in b.unusable("lannister"))
    assert b.asked() == [("retreat", "lannister")] and b.units("kingswood", "lannister") == ["footman"]
    b.run(say("lannister", Retreat(areas=("the_reach", "the_boneway"))))  # a preference list: the first legal one
    assert b.of(Retreated)[0].to_area == "the_boneway"


def test_R210_a_retreat_into_a_friendly_area_is_legal(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), areas='the_reach = ["lannister knight"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("lannister", Retreat(areas=("the_reach",))))
    assert b.done and b.units("the_reach", "lannister") == ["footman", "knight"]


def test_R211_all_retreating_units_go_to_the_same_area(battle):
    state = duel("stark", "lannister", attack=("3 knights",), defend=("footman", "knight"))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("lannister", Retreat(areas=("the_reach",))))
    assert b.done and b.units("the_reach", "lannister", routed=True) == ["footman", "knight"]


def test_R212_never_into_the_area_the_attackers_came_from(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("kings_landing",))))
    assert any("R212" in r for r in b.unusable("lannister"))


def test_R213_a_retreat_over_supply_destroys_units_first_when_there_is_no_other_way(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("2 footmen", "knight"),
                 areas='the_reach = ["tyrell footman"]\nstorms_end = ["stark footman"]\nthe_boneway = ["stark footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"), say("stark", Retreat(areas=("storms_end",))))
    assert any("needs 1 unit(s) destroyed first" in r and "R213" in r for r in b.unusable("stark"))
    assert b.requests()[0].context["destroy_first"] == {"storms_end": 1, "the_boneway": 1}
    b.run(say("stark", Retreat(areas=("storms_end",), destroy=(UnitSpec("footman"),))))
    assert b.done
    assert _lost(b, "stark") == [("kingswood", ("footman",), "retreat over the supply limit (R213)")]
    assert b.units("storms_end", "stark") == ["footman", "footman", "knight"]


def test_R213_an_area_over_supply_is_no_retreat_while_another_area_fits(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("2 footmen", "knight"),
                 areas='storms_end = ["stark footman"]\nthe_boneway = ["stark footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"),
          say("stark", Retreat(areas=("storms_end",), destroy=(UnitSpec("footman"),))))
    assert any("while another area would not" in r for r in b.unusable("stark"))
    assert b.done and b.units("the_reach", "stark") == ["footman", "footman", "knight"], "the one legal area"


def test_R214_with_no_legal_area_every_retreating_unit_is_destroyed(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman", "knight"),
                 areas=BLOCKED + '\nstorms_end = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.done
    assert _lost(b, "lannister") == [("kingswood", ("footman", "knight"), "no legal area to retreat to (R214)")]


def test_R215_land_units_never_retreat_to_sea_and_ships_never_to_land(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("blackwater_bay",))))
    assert any("R215" in r for r in b.unusable("lannister"))
    sea = duel("greyjoy", "lannister", attack=("2 ships",), defend=("ship",), area="the_golden_sound", origin="ironmans_bay")
    b = battle(sea, everyone(sea, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run(play("greyjoy", "theon_greyjoy"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("riverrun",))))
    assert any("ships never retreat to a land area (R215)" in r for r in b.unusable("lannister"))


def test_R216_never_into_an_area_with_an_enemy_power_token(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    state.area_mut("storms_end").power_token = "baratheon"
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("lannister", Retreat(areas=("storms_end",))))
    assert any("Baratheon Power token (R216)" in r for r in b.unusable("lannister"))


def test_R217_a_defeated_army_may_retreat_by_ship_transport(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), areas='shipbreaker_bay = ["lannister ship"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("crackclaw_point",))))
    assert b.done and b.units("crackclaw_point", "lannister", routed=True) == ["footman"]


def test_R218_siege_engines_cannot_retreat(battle):
    state = duel("stark", "lannister", attack=("knight", "siege_engine"), defend=("3 footmen", "siege_engine"),
                 areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.results()[0].winner == "lannister"
    assert ("kings_landing", ("siege_engine",), "siege engines cannot retreat (R218)") in _lost(b, "stark")
    defender = duel("stark", "lannister", attack=("3 knights",), defend=("footman", "siege_engine"), areas=BLOCKED)
    b = battle(defender, everyone(defender, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert ("kingswood", ("siege_engine",), "siege engines cannot retreat (R218)") in _lost(b, "lannister")


def test_R219_retreated_units_are_routed_count_nothing_and_are_destroyed_if_they_must_retreat_again(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), areas=BLOCKED + """
storms_end = ["lannister footman"]""")
    b = battle(state, everyone(state, "stark"), Assault("storms_end", "stark", "kingswood", ("knight", "knight")))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.units("storms_end", "lannister", routed=True) == ["footman"]
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"))
    second = b.of(CombatStrengths)[1]
    assert second.defender_strength == (("units:footman", 1),)  # two footmen, the routed one counting 0
    assert b.done
    assert ("storms_end", ("footman",), "routed units cannot retreat (R219)") in _lost(b, "lannister")


def test_R220_the_attackers_march_order_is_removed(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), token="march+1", areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.state.area("kings_landing").order is None and b.state.area("kingswood").order is None
    assert ("stark", "kings_landing", "march+1") in [(e.house, e.area, e.token) for e in b.of(CombatOrderRemoved)]


def test_R221_a_victorious_attacker_removes_the_defenders_order_and_power_token(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), defense="defense+1", areas=BLOCKED)
    state.area_mut("kingswood").power_token = "lannister"
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    assert b.done
    here = b.state.area("kingswood")
    assert here.order is None and here.power_token is None and b.units("kingswood") == ["knight", "knight"]
    assert b.of(CombatPowerTokenRemoved)[0].house == "lannister"
    assert b.state.controller("kingswood", BOARD) == "stark"
    assert b.of(AttackerAdvanced)[0].units == ("knight", "knight")


def test_R222_a_victorious_defender_keeps_its_tokens(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), defense="defense+1")
    state.area_mut("kingswood").power_token = "lannister"
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.state.area("kingswood").order == Order("lannister", "defense+1")
    assert b.state.area("kingswood").power_token == "lannister"


def test_R223_the_combat_returns_its_result_to_the_march(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert [(r.attacker_won, r.winner) for r in b.results()] == [(False, "lannister")]


def test_R224_R246_the_conqueror_may_replace_the_ships_in_the_port(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("footman",), area="white_harbor", origin="moat_cailin",
                 areas='port_of_white_harbor = ["2 stark ships"]\nwidows_watch = ["baratheon footman"]\n'
                       'winterfell = ["baratheon footman"]')
    b = battle(state, everyone(state, "lannister", area="white_harbor", origin="moat_cailin"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    assert b.asked() == [("port_ships", "lannister")]
    assert b.requests()[0].default == PortShips(port="port_of_white_harbor", count=2)
    b.run(say("lannister", PortShips(port="port_of_white_harbor", count=3)))
    assert any("0 to 2 ships" in r for r in b.unusable("lannister"))
    b.run(say("lannister", PortShips(port="port_of_white_harbor", count=1)))
    assert b.done and b.units("port_of_white_harbor") == ["ship"]
    assert b.state.area("port_of_white_harbor").units[0].house == "lannister"
    assert (b.of(PortCaptured)[0].replaced, b.of(PortCaptured)[0].removed) == (1, 2)



def test_R249_a_retreat_that_takes_a_ports_land_area_removes_the_enemy_ships_in_it(battle):
    """No march took White Harbor, so no one may replace the ships (R246): they are removed (R249)."""
    state = duel("baratheon", "lannister", attack=("3 knights",), defend=("footman",), area="moat_cailin",
                 origin="the_twins", areas='port_of_white_harbor = ["2 stark ships"]')
    b = battle(state, everyone(state, "baratheon", area="moat_cailin", origin="the_twins"))
    b.run(play("baratheon", "stannis_baratheon"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("white_harbor",))))
    assert b.done and b.units("white_harbor", "lannister") == ["footman"]
    assert b.units("port_of_white_harbor") == [] and not b.of(PortCaptured)
    assert ("port_of_white_harbor", ("ship", "ship"), "their port's land area is held by another house") in _lost(b, "stark")

# --- garrisons (R225-R230) -----------------------------------------------------------------------


WINTERFELL = 'winterfell = { units = ["stark footman"], garrison = 2 }\n'


def test_R226_the_garrison_adds_to_the_home_areas_defense(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=(), area="winterfell", origin="moat_cailin",
                 areas=WINTERFELL)
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run()
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 1), ("garrison", 2))


def test_R225_R227_a_garrison_alone_still_fights_and_its_house_plays_a_card(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=(), area="winterfell", origin="moat_cailin",
                 areas='winterfell = { garrison = 2 }')
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run()
    assert b.of(CombatStarted)[0].garrison_only and sorted(b.asked()) == [("house_card", "lannister"), ("house_card", "stark")]
    b.run(play("lannister", "ser_gregor_clegane"), play("stark", "catelyn_stark"))
    assert b.done and b.results()[0].winner == "lannister"
    due = b.of(CasualtiesDue)
    assert [(d.swords, d.count) for d in due] == [(3, 0)] and not b.of(UnitsDestroyed), "a garrison is no unit"
    assert b.state.area("winterfell").garrison == 0 and b.units("winterfell") == ["knight"]


def test_R228_a_defeated_garrison_is_removed_whatever_the_icons(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=(), area="winterfell", origin="moat_cailin",
                 areas=WINTERFELL + 'castle_black = ["tyrell footman"]\nkarhold = ["tyrell footman"]\n'
                       'the_stony_shore = ["tyrell footman"]\nwhite_harbor = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run(play("lannister", "the_hound"), play("stark", "ser_rodrick_cassel"))
    assert b.done and b.of(GarrisonDefeated)[0].house == "stark" and b.state.area("winterfell").garrison == 0


def test_R228_a_victorious_garrison_stays(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=(), area="winterfell", origin="moat_cailin",
                 areas=WINTERFELL)
    b = battle(state, everyone(state, "lannister", area="winterfell", origin="moat_cailin"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"))
    assert b.done and b.state.area("winterfell").garrison == 2


def test_R229_a_garrison_never_helps_next_door(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=("footman",), area="castle_black", origin="karhold",
                 areas='winterfell = { garrison = 2 }')
    b = battle(state, everyone(state, "lannister", area="castle_black", origin="karhold"))
    b.run()
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 1),)


# --- neutral forces and siege engines (R231-R237) --------------------------------------------


def test_R233_equalling_the_neutral_force_destroys_it(battle):
    state = duel("stark", "lannister", attack=("2 knights", "footman"), defend=(), area="kings_landing", origin="kingswood",
                 areas='kings_landing = { neutral_force = 5 }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    assert b.done and b.of(NeutralForceAttacked)[0].destroyed and b.state.area("kings_landing").neutral_force is None
    assert not b.of(HouseCardsRevealed)


def test_R235_never_retreat_into_an_impassable_area(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), houses=["stark", "lannister", "baratheon"])
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"), say("lannister", Retreat(areas=("storms_end",))))
    assert any("R235" in r for r in b.unusable("lannister"))
    assert b.done and b.units("the_reach", "lannister") == ["footman"], "the one legal area is taken without asking"


def test_R236_a_siege_engine_attacking_a_castle_neutral_force_counts_four(battle):
    state = duel("stark", "lannister", attack=("siege_engine", "footman"), defend=(), area="kings_landing",
                 origin="kingswood", areas='kings_landing = { neutral_force = 5 }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    assert b.of(NeutralForceAttacked)[0].attacker_total == 5


def test_R237_a_defeated_attacking_siege_engine_is_destroyed(battle):
    state = duel("stark", "lannister", attack=("siege_engine",), defend=("3 footmen",), area="the_reach")
    b = battle(state, everyone(state, "stark", area="the_reach"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.winner) == (4, 5, "lannister")
    assert b.done and _lost(b, "stark") == [("kings_landing", ("siege_engine",), "siege engines cannot retreat (R218)")]


def test_R170_R201_a_combat_runs_its_steps_in_the_rulebooks_order(battle):
    fiefdoms = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
    state = duel("stark", "lannister", attack=("2 knights",), defend=("2 footmen",), fiefdoms=fiefdoms,
                 areas='the_reach = { units = ["tyrell knight"], order = "support+0" }')
    b = battle(state, everyone(state, "stark"))
    b.run(say("tyrell", Support(side="stark")), play("stark", "greatjon_umber"), play("lannister", "cersei_lannister"),
          say("stark", UseBlade(use=True)), say("lannister", Retreat(areas=("storms_end",))))
    assert b.done
    steps = ["CombatStarted", "SupportDeclared", "CombatStrengths", "HouseCardsRevealed", "BladeUsed", "CombatResolved",
             "CasualtiesDue", "Retreated", "AttackerAdvanced", "CombatOrderRemoved", "HouseCardsDiscarded"]
    names = [type(e).__name__ for e in b.events]
    assert [names.index(s) for s in steps] == sorted(names.index(s) for s in steps)


def test_R231_units_may_march_on_a_neutral_force_to_destroy_it_and_take_the_area(battle):
    state = duel("stark", "lannister", attack=("3 knights",), defend=(), area="kings_landing", origin="kingswood",
                 areas='kings_landing = { neutral_force = 5 }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    assert b.done and b.results()[0].attacker_won and b.state.controller("kings_landing", BOARD) == "stark"
    assert b.units("kingswood") == [] and b.units("kings_landing") == ["knight", "knight", "knight"]


# --- what make mutate found unchecked (docs/testing.md) ----------------------------------------------


def test_R204_the_casualty_request_names_the_count_the_area_and_the_units_with_the_cheapest_default(battle):
    """The loser's default gives up what a defeated army loses anyway first (its siege engine, R218),
    and is written cheapest first (D26)."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("2 knights", "siege_engine"), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    (req,) = b.requests()
    assert (req.key.split(".")[-2:], req.kind, req.house, req.prompt) == (
        ["casualties", "lannister"], "casualties", "lannister", "choose 2 casualties in Kingswood")
    assert req.context == {"combat_area": "kingswood", "count": 2, "units": {"knight": 2, "siege_engine": 1}}
    assert req.default == Casualties(units=(UnitSpec("siege_engine"), UnitSpec("knight")))


def test_R272_the_skull_casualty_request_says_it_is_the_skulls(battle):
    from .test_combat_tides import tides

    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen", "knight"), options=tides(["skull", "blank"]))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    (req,) = b.requests()
    assert (req.house, req.prompt) == ("lannister", "choose 1 casualty in Kingswood (Tides of Battle skull)")
    assert req.context == {"combat_area": "kingswood", "count": 1, "units": {"footman": 2, "knight": 1}}
    assert req.default == Casualties(units=(UnitSpec("footman"),))  # the victor keeps its best units


def test_R204_the_other_sides_supporting_units_do_not_change_why_a_choice_is_refused(battle):
    """Stark names two footmen but has one in the combat; Lannister's supporting footman is no
    reason (only Stark's own units are)."""
    state = duel("stark", "lannister", attack=("footman", "knight"), defend=("2 knights",),
                 areas='the_reach = { units = ["lannister footman"], order = "support+0" }\nthe_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(say("lannister", Support(side="lannister")), play("stark", "catelyn_stark"),
          play("lannister", "ser_gregor_clegane"), say("stark", Casualties(units=(UnitSpec("footman", 2),))))
    assert b.unusable("stark") == ['the only legal answer, "casualties: footman, knight", was taken without asking; '
                                   "you have 1 footman(s) in the combat, not 2 (R204)"]


def test_R203_a_casualty_answer_where_the_fortifications_stop_every_sword_is_told_why(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "ser_rodrick_cassel"),
          say("stark", Casualties(units=(UnitSpec("footman"),))))
    assert b.done and [d.count for d in b.of(CasualtiesDue)] == [0]
    assert b.unusable("stark") == ["no casualty was due: the victor's swords did not outnumber the fortifications, "
                                   "or no unit of yours stood in the combat (R203)"]


def test_R193_a_casualty_answer_under_the_blackfish_is_told_why(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("2 footmen",), area="storms_end",
                 origin="kingswood", areas=BLOCKED)
    b = battle(state, everyone(state, "lannister", area="storms_end", origin="kingswood"))
    b.run(play("stark", "the_blackfish"), play("lannister", "ser_gregor_clegane"),
          say("stark", Casualties(units=(UnitSpec("footman"),))))
    assert b.done and b.results()[0].winner == "lannister"
    assert b.unusable("stark") == ["no casualty was due: The Blackfish spares this side every casualty (R193)"]


def test_R203_a_casualty_answer_for_any_combat_waits_past_a_combat_where_none_is_due(battle):
    """Stark's answer names no combat: in the first combat, where Stark wins and loses nothing, it is
    told so but kept; in the second, lost, it is the choice used (not the default footman)."""
    state = duel("lannister", "stark", attack=("knight",), defend=("footman", "knight"), areas=BLOCKED + """
searoad_marches = { units = ["2 lannister knights"], order = "march-1" }
highgarden = ["stark footman", "stark knight", "stark footman"]""")
    first = everyone(state, "lannister")
    second = Assault("highgarden", "lannister", "searoad_marches", ("knight", "knight"))
    b = battle(state, first, second)
    b.run(play("lannister", "cersei_lannister"), play("stark", "eddard_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"),))))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"), deadline=True)
    assert [r.winner for r in b.results()] == ["stark", "lannister"]
    assert b.unusable("stark")[0].startswith("no casualty was due")
    assert [(e.house, e.units) for e in b.of(UnitsDestroyed) if e.area == "highgarden"] == [("stark", ("knight",))]


def test_R203_a_casualty_answer_for_a_later_combat_is_not_told_off_by_an_earlier_one(battle):
    """The same two combats; Stark's answer names the second (Highgarden): the first, where none is
    due, leaves it alone, and the second uses it."""
    from adjudicator.game.commands import CombatFilter

    state = duel("lannister", "stark", attack=("knight",), defend=("footman", "knight"), areas=BLOCKED + """
searoad_marches = { units = ["2 lannister knights"], order = "march-1" }
highgarden = ["stark footman", "stark knight", "stark footman"]""")
    b = battle(state, everyone(state, "lannister"), Assault("highgarden", "lannister", "searoad_marches", ("knight", "knight")))
    b.run(play("lannister", "cersei_lannister"), play("stark", "eddard_stark"),
          say("stark", Casualties(units=(UnitSpec("knight"),), when=CombatFilter(area="highgarden"))))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"), deadline=True)
    assert [r.winner for r in b.results()] == ["stark", "lannister"] and b.unusable("stark") == []
    assert [(e.house, e.units) for e in b.of(UnitsDestroyed) if e.area == "highgarden"] == [("stark", ("knight",))]


def test_R233_the_neutral_force_attacked_is_reported_with_its_attacker_and_the_attacker_wins(battle):
    state = duel("stark", "lannister", attack=("2 knights", "footman"), defend=(), area="kings_landing",
                 origin="kingswood", areas='kings_landing = { neutral_force = 5 }')
    b = battle(state, everyone(state, "stark", area="kings_landing", origin="kingswood"))
    b.run()
    (e,) = b.of(NeutralForceAttacked)
    assert (e.area, e.house, e.strength, e.attacker_total, e.destroyed) == ("kings_landing", "stark", 5, 5, True)
    assert dict(e.attacker_strength) == {"units:footman": 1, "units:knight": 4}
    assert [(r.attacker_won, r.winner) for r in b.results()] == [(True, "stark")]


def test_R209_a_retreat_answer_naming_no_area_is_refused_and_asked_again(battle):
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"), say("lannister", Retreat(areas=())))
    assert b.unusable("lannister") == ["name an area to retreat to (R209)"]
    assert b.asked() == [("retreat", "lannister")]


def test_R209_R213_the_retreat_request_names_the_legal_areas_and_what_each_costs(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("2 footmen", "knight"),
                 areas='the_reach = ["tyrell footman"]\nstorms_end = ["stark footman"]\nthe_boneway = ["stark footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    (req,) = b.requests()
    assert (req.key.split(".")[-2:], req.kind, req.house, req.prompt) == (
        ["retreat", "stark"], "retreat", "stark", "retreat from Kingswood")
    assert req.context == {"combat_area": "kingswood", "legal_areas": ["storms_end", "the_boneway"],
                           "destroy_first": {"storms_end": 1, "the_boneway": 1}, "units": {"footman": 2, "knight": 1}}
    cheapest = (UnitSpec("footman"),)
    assert req.options == (Retreat(areas=("storms_end",), destroy=cheapest), Retreat(areas=("the_boneway",), destroy=cheapest))
    assert req.default == req.options[0]



def test_R210_R215_retreat_refusals_are_told_word_for_word(battle):
    """A land army may not retreat beyond its neighbours (R210, R217); ships never to land (R215),
    nor to a sea that is not next to theirs (R210)."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman", "knight"))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "the_hound"), say("lannister", Retreat(areas=("winterfell",))))
    assert b.unusable("lannister") == ["Winterfell is neither next to Kingswood nor reachable by your ships (R210, R217)"]
    assert b.asked() == [("retreat", "lannister")]
    for far, why in (("lannisport", "ships never retreat to a land area (R215)"),
                     ("the_narrow_sea", "The Narrow Sea is not next to The Golden Sound (R210)")):
        state = duel("greyjoy", "lannister", attack=("2 ships",), defend=("2 ships",), area="the_golden_sound",
                     origin="ironmans_bay")
        b = battle(state, everyone(state, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
        b.run(play("greyjoy", "euron_crows_eye"), play("lannister", "the_hound"), say("lannister", Retreat(areas=(far,))))
        assert b.unusable("lannister") == [why] and b.asked() == [("retreat", "lannister")]
