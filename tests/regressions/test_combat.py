"""Review of combat (R169-R237, R268-R273): support, strength, the victor, casualties, retreats, clean-up.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats are fought through the real step machine by the harness of
``tests/rules/test_combat_harness.py``: unless told otherwise a house that does not fight heads every
track, then the attacker, then the defender.
"""

from __future__ import annotations

from rules.test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    AttackRepelled,
    CombatResolved,
    PortCaptured,
    Retreated,
)
from adjudicator.game.commands import (
    CardChoice,
    Casualties,
    Retreat,
    Support,
    UnitSpec,
)

# --- retreats and supply (R209-R219) ---------------------------------------------------------------


def test_R213_routed_units_left_behind_do_not_count_against_the_supply_of_a_retreat(battle):
    """Wrong before: the supply check of a retreat counted the defender's routed units as if they
    stayed in the embattled area, though they are destroyed there (R219). Robb Stark's owner, who
    sees the retreat areas before the routed units go, was shown The Reach as an area costing the
    whole army and so had no choice to make.

    Lannister (supply 1: armies of 3 and 2) defends the Kingswood with a footman and two routed
    footmen and has two footmen in Storm's End and one in The Reach. After the retreat the routed
    footmen are gone, so the footman may go to either area within supply.
    """
    state = duel("stark", "lannister", attack=("2 knights",), defend=(),
                 areas='kingswood = ["lannister footman", "2 lannister footmen routed"]\n'
                       'storms_end = ["2 lannister footmen"]\nthe_reach = ["lannister footman"]\n'
                       'the_boneway = ["tyrell knight"]\n')
    state.houses["lannister"].supply = 1
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "robb_stark"), play("lannister", "the_hound"))
    assert b.asked() == [("card_choice", "stark")], "Robb Stark's owner has two areas to choose from"
    assert [o.area or o.option for o in b.requests()[0].options] == ["storms_end", "the_reach", "no"]
    b.run(say("stark", CardChoice(card="robb_stark", area="the_reach")))
    assert b.done
    assert b.of(Retreated)[0].to_area == "the_reach"
    assert b.units("the_reach", "lannister") == ["footman", "footman"]


# --- casualties (R203-R206) --------------------------------------------------------------------------


def test_R218_the_defeated_sides_default_casualty_is_a_siege_engine_it_would_lose_anyway(battle):
    """Wrong before: the deadline default took the cheapest unit (a footman) from a defeated army
    whose siege engine is destroyed anyway because it cannot retreat (R218). Stark lost a footman
    and the siege engine; taking the siege engine as the casualty costs one unit, not two.
    """
    state = duel("lannister", "stark", attack=("3 knights",), defend=("footman", "siege_engine", "knight"),
                 area="harrenhal", origin="riverrun")
    b = battle(state, everyone(state, "lannister", area="harrenhal", origin="riverrun"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"))
    assert b.asked() == [("casualties", "stark")]
    assert b.requests()[0].default == Casualties(units=(UnitSpec("siege_engine", 1),))
    b.run(deadline=True)
    b.run(deadline=True)
    assert b.done
    lost = [(e.units, e.cause) for e in b.of(UnitsDestroyed)]
    assert lost == [(("siege_engine",), "casualties of the combat (R203)")]
    assert b.units("blackwater", "stark") == ["footman", "knight"]


def test_R218_a_defeated_attackers_default_casualty_is_its_siege_engine(battle):
    """Wrong before, as for a defender: a defeated attacker's siege engines are destroyed on the way
    back (ruling 48), so the default casualty is one of them, not a footman."""
    state = duel("baratheon", "lannister", attack=("footman", "siege_engine"), defend=("3 knights",),
                 area="harrenhal", origin="blackwater")
    b = battle(state, everyone(state, "baratheon", area="harrenhal", origin="blackwater"))
    b.run(play("baratheon", "patchface"), play("lannister", "ser_jaime_lannister"))
    assert b.requests()[0].default == Casualties(units=(UnitSpec("siege_engine", 1),))
    b.run(deadline=True)
    b.run(deadline=True)
    assert b.units("blackwater", "baratheon") == ["footman"]


def test_R272_a_skull_on_the_victor_still_defaults_to_its_cheapest_unit(battle):
    """Checked: the victor keeps its siege engines, so a skull it takes defaults to a footman."""
    state = duel("lannister", "stark", attack=("footman", "siege_engine", "knight"), defend=("footman",),
                 area="harrenhal", origin="riverrun",
                 options='[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n'
                         '[decks]\ntides = ["two", "skull"]\n')
    b = battle(state, everyone(state, "lannister", area="harrenhal", origin="riverrun"))
    b.run(play("lannister", "ser_jaime_lannister"), play("stark", "catelyn_stark"))
    assert b.of(CombatResolved)[0].winner == "lannister"
    assert b.asked() == [("casualties", "lannister")]
    assert b.requests()[0].default == Casualties(units=(UnitSpec("footman", 1),))


def test_R219_the_report_of_routed_units_destroyed_speaks_of_footmen(battle):
    """Wrong before: two footmen destroyed were reported as "2 footmans"."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=(),
                 areas='kingswood = ["lannister footman", "2 lannister footmen routed"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "the_hound"), say("lannister", Retreat(areas=("the_reach",))))
    routed = [e for e in b.of(UnitsDestroyed) if "R219" in e.cause]
    assert [e.describe() for e in routed] == ["Lannister loses 2 footmen in Kingswood (routed units cannot retreat, R219)."]


# --- the Blade, ties and strength (R199-R202) -------------------------------------------------------


def test_R199_the_blade_is_offered_only_after_the_cards_immediate_texts(battle):
    """Checked: step 4 comes after the texts: Mace Tyrell has already destroyed a footman when
    the Blade's holder is asked, so it decides on the strength as it now stands."""
    fiefdoms = ["tyrell", "lannister", "stark", "baratheon", "greyjoy", "martell"]
    state = duel("tyrell", "lannister", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("lannister", "cersei_lannister"))
    assert b.asked() == [("blade", "tyrell")]
    assert [e.units for e in b.of(UnitsDestroyed)] == [("footman",)]


def test_R200_R202_a_strength_below_zero_counts_zero_and_ties_go_to_the_fiefdoms_track(battle):
    """Checked: a siege engine (0 here) with a March -1 counts 0, not -1, against a routed footman
    (0): a tie, which the attacker wins, being higher on the Fiefdoms track."""
    state = duel("baratheon", "stark", attack=("siege_engine",), defend=(), token="march-1",
                 areas='kingswood = ["stark footman routed"]')
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"), say("baratheon", CardChoice(card="patchface", option="no")))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total, final.tie_broken, final.winner) == (0, 0, True, "baratheon")


def test_R232_the_blade_is_never_offered_against_a_neutral_force(battle):
    """Checked: the Blade's holder attacking a neutral force is not asked, and the Blade stays unused."""
    fiefdoms = ["baratheon", "stark", "lannister", "tyrell", "greyjoy", "martell"]
    state = duel("baratheon", "stark", attack=("2 knights", "footman"), defend=(), area="kings_landing",
                 origin="kingswood", fiefdoms=fiefdoms, areas="kings_landing = { neutral_force = 5 }")
    b = battle(state, everyone(state, "baratheon", area="kings_landing", origin="kingswood"))
    b.run()
    assert b.done and b.results()[0].attacker_won and not b.state.blade_used


# --- retreats by sea, ports, transport (R208, R212, R214, R217, Q5) ----------------------------------


def test_ruling_55_defeated_ships_retreat_into_their_own_port(battle):
    """Checked (Q5): the only legal retreat of Stark's ships in the Bay of Ice is Winterfell's port."""
    state = duel("greyjoy", "stark", attack=("3 ships",), defend=("2 ships",), area="bay_of_ice", origin="sunset_sea",
                 areas='port_of_winterfell = ["stark ship"]\nwinterfell = ["stark footman"]')
    b = battle(state, everyone(state, "greyjoy", area="bay_of_ice", origin="sunset_sea"))
    b.run(play("greyjoy", "euron_crows_eye"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(r.to_area, r.units) for r in b.of(Retreated)] == [("port_of_winterfell", ("ship",))]
    assert b.units("port_of_winterfell", "stark", routed=True) == ["ship"]


def test_ruling_55_ships_never_retreat_into_a_port_that_would_hold_more_than_three(battle):
    """Checked (Q5): two ships cannot join two in the port (R250); with no other area they are lost (R214)."""
    state = duel("greyjoy", "stark", attack=("3 ships",), defend=("2 ships",), area="bay_of_ice", origin="sunset_sea",
                 areas='port_of_winterfell = ["2 stark ships"]\nwinterfell = ["stark footman"]')
    state.houses["stark"].supply = 2
    b = battle(state, everyone(state, "greyjoy", area="bay_of_ice", origin="sunset_sea"))
    b.run(play("greyjoy", "victarion_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done and not b.of(Retreated)
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [(("ship", "ship"), "no legal area to retreat to (R214)")]


def test_R208_a_defeated_attacker_from_a_port_stays_in_the_port_routed(battle):
    """Checked: ships that attacked out of a port go back into it, routed; casualties come from them."""
    state = duel("stark", "greyjoy", attack=("2 ships",), defend=("3 ships",), area="bay_of_ice",
                 origin="port_of_winterfell", areas='winterfell = ["stark footman"]')
    b = battle(state, everyone(state, "stark", area="bay_of_ice", origin="port_of_winterfell"))
    b.run(play("stark", "catelyn_stark"), play("greyjoy", "euron_crows_eye"))
    assert b.done and b.of(AttackRepelled)[0].area == "port_of_winterfell"
    assert b.units("port_of_winterfell", "stark", routed=True) == ["ship"]


KINGSWOOD_SHUT = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]\nstorms_end = ["tyrell footman"]\n'


def test_R217_a_routed_ship_still_carries_a_retreat(battle):
    """Checked: routed ships transport (R158): Lannister's only way out of the Kingswood is by sea,
    over Shipbreaker Bay to Crackclaw Point (Dragonstone, Baratheon's home, is closed to it, Q6)."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",),
                 areas=KINGSWOOD_SHUT + 'shipbreaker_bay = ["lannister ship routed"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.done
    assert [(r.to_area, r.units) for r in b.of(Retreated)] == [("crackclaw_point", ("footman",))]


def test_R212_a_retreat_by_ship_never_reaches_the_area_the_attackers_came_from(battle):
    """Checked: King's Landing, reachable over Blackwater Bay, is still the attackers' origin."""
    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",),
                 areas=KINGSWOOD_SHUT + 'shipbreaker_bay = ["lannister ship"]\nblackwater_bay = ["lannister ship"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("kings_landing",))))
    assert b.unusable("lannister") == ['the only legal answer, "retreat to Crackclaw Point", was taken without asking; '
                                       "King's Landing is the area the attackers marched from (R212)"]
    assert b.done and [r.to_area for r in b.of(Retreated)] == ["crackclaw_point"]


# --- support from ports, port capture (R185, R246) ---------------------------------------------------


def test_R185_port_ships_may_support_another_house_in_their_own_sea(battle):
    """Checked: Greyjoy's ships in Pyke's port support Lannister's attack in Ironman's Bay."""
    state = duel("lannister", "stark", attack=("ship",), defend=("ship",), area="ironmans_bay", origin="the_golden_sound",
                 areas='port_of_pyke = { units = ["2 greyjoy ships"], order = "support+0" }\npyke = ["greyjoy footman"]')
    b = battle(state, everyone(state, "lannister", area="ironmans_bay", origin="the_golden_sound"))
    b.run(say("greyjoy", Support(side="lannister")), play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"))
    final = b.of(CombatResolved)[0]
    assert ("support:greyjoy:port_of_pyke", 2) in final.attacker_strength and final.attacker_total == 3


def test_R246_a_conqueror_with_no_ship_left_removes_the_enemy_ships_unasked(battle):
    """Checked: with its six ships on the board, Lannister places none; Stark's ships are removed."""
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), area="white_harbor", origin="moat_cailin",
                 areas='port_of_white_harbor = ["2 stark ships"]\nwidows_watch = ["baratheon footman"]\n'
                       'winterfell = ["baratheon footman"]\nsunset_sea = ["3 lannister ships"]\n'
                       'the_golden_sound = ["3 lannister ships"]')
    state.houses["lannister"].supply = 6
    b = battle(state, everyone(state, "lannister", area="white_harbor", origin="moat_cailin"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    assert b.done
    captured = b.of(PortCaptured)[0]
    assert (captured.replaced, captured.removed) == (0, 2) and b.units("port_of_white_harbor") == []


def test_ruling_56_no_retreat_into_an_enemy_home_area_or_a_neutral_force(battle):
    """Checked (Q6, Q15): from the Searoad Marches, Highgarden (Tyrell's empty home) and Stoney Sept
    (a neutral force) are no retreat; Blackwater and, over the Golden Sound, Riverrun are."""
    state = duel("stark", "greyjoy", attack=("2 knights",), defend=("footman",), area="searoad_marches",
                 origin="the_reach", areas='stoney_sept = { neutral_force = 3 }\nthe_golden_sound = ["greyjoy ship"]')
    b = battle(state, everyone(state, "stark", area="searoad_marches", origin="the_reach"))
    b.run(play("stark", "catelyn_stark"), play("greyjoy", "dagmar_cleftjaw"),
          say("greyjoy", Retreat(areas=("highgarden",))))
    b.run(say("greyjoy", Retreat(areas=("stoney_sept",))))
    assert set(b.unusable("greyjoy")) == {"Highgarden is the home area of Tyrell, who controls it (ruling 56)",
                                          "Stoney Sept holds a neutral force (ruling 56)"}
    assert b.requests()[0].context["legal_areas"] == ["blackwater", "riverrun"]


# --- orders stay on the board until their combat is over (R220, R221, ruling 50; issue 14) ---------


def test_R221_a_defense_order_whose_units_cannot_retreat_is_removed_at_clean_up_and_reported(battle):
    """Wrong before: the defender's siege engine, which cannot retreat (R218), took its Defense order
    with it when it was destroyed, silently; the report never said the order was removed."""
    from adjudicator.engine.events.combat import CombatOrderRemoved

    state = duel("stark", "lannister", attack=("2 knights",), defend=("siege_engine",), defense="defense+1",
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.of(CombatResolved)[0].winner == "stark"
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [(("siege_engine",), "siege engines cannot retreat (R218)")]
    assert ("kingswood", "defense+1", "the defender lost the combat (R221)") in [
        (e.area, e.token, e.cause) for e in b.of(CombatOrderRemoved)]
    assert b.units("kingswood") == ["knight", "knight"] and b.state.area("kingswood").order is None


def test_R220_a_repelled_attack_whose_units_all_fall_reports_its_march_order_removed(battle):
    """Wrong before: a defeated attacker's siege engine, destroyed in the area it marched from (R218),
    took the March order with it at once and silently."""
    from adjudicator.engine.events.combat import CombatOrderRemoved

    state = duel("stark", "lannister", attack=("siege_engine",), defend=("footman",), area="blackwater",
                 origin="stoney_sept", token="march+0", areas='the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark", area="blackwater", origin="stoney_sept"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done and b.of(CombatResolved)[0].winner == "lannister"
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [(("siege_engine",), "siege engines cannot retreat (R218)")]
    assert [(e.area, e.token, e.cause) for e in b.of(CombatOrderRemoved)] == [
        ("stoney_sept", "march+0", "its combat is over (R220)")]
    assert b.units("stoney_sept") == [] and b.state.area("stoney_sept").order is None


# --- gaps found by mutation testing (retreat.py) -----------------------------------------------------


def test_ruling_55_ships_may_fill_their_own_port_to_exactly_three(battle):
    """Two ships in the port and one retreating make three: allowed (R250 says never more than three)."""
    state = duel("greyjoy", "stark", attack=("3 ships",), defend=("ship",), area="bay_of_ice", origin="sunset_sea",
                 areas='port_of_winterfell = ["2 stark ships"]\nwinterfell = ["stark footman"]')
    state.houses["stark"].supply = 2
    b = battle(state, everyone(state, "greyjoy", area="bay_of_ice", origin="sunset_sea"))
    b.run(play("greyjoy", "victarion_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done and [(r.to_area, r.units) for r in b.of(Retreated)] == [("port_of_winterfell", ("ship",))]
    assert b.units("port_of_winterfell", "stark") == ["ship", "ship", "ship"]


def test_R213_the_one_retreat_that_needs_losses_destroys_them_unasked(battle):
    """A single legal area and a single kind of unit: the losses the supply needs are taken without asking."""
    state = duel("lannister", "stark", attack=("3 knights",), defend=("3 footmen",),
                 areas='the_reach = ["tyrell footman"]\nthe_boneway = ["tyrell footman"]\nstorms_end = ["stark footman"]')
    state.houses["stark"].supply = 1  # armies of 3 and 2: Storm's End takes 3 footmen at most
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [(("footman",), "retreat over the supply limit (R213)")]
    assert b.units("storms_end", "stark") == ["footman", "footman", "footman"]


def test_R209_a_retreat_answer_for_another_combat_waits_and_one_for_this_role_is_used(battle):
    from adjudicator.game.commands import CombatFilter

    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("the_reach",), when=CombatFilter(area="winterfell"))))
    assert b.asked() == [("retreat", "lannister")] and b.unusable("lannister") == []
    b.run(say("lannister", Retreat(areas=("the_reach",), when=CombatFilter(role="defender"))))
    assert b.done and b.of(Retreated)[0].to_area == "the_reach"


def test_R213_a_retreat_naming_a_unit_twice_destroys_both(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=("2 footmen", "knight"),
                 areas='the_reach = ["tyrell footman"]\nstorms_end = ["stark footman"]\nthe_boneway = ["stark footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"),
          say("stark", Retreat(areas=("storms_end",), destroy=(UnitSpec("footman"), UnitSpec("footman")))))
    assert any("needs 1 unit(s) destroyed first" in r and "not 2" in r for r in b.unusable("stark"))


def test_R221_the_order_of_a_defender_whose_routed_units_are_destroyed_is_reported_removed(battle):
    """Routed units cannot retreat (R219); the Defense order goes at clean-up, said so (ruling 50)."""
    from adjudicator.engine.events.combat import CombatOrderRemoved

    state = duel("stark", "lannister", attack=("knight",), defend=(), defense=None,
                 areas='kingswood = { units = ["lannister footman routed"], order = "defense+1" }')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "cersei_lannister"))
    assert b.done and [(e.units, e.cause) for e in b.of(UnitsDestroyed)] == [
        (("footman",), "routed units cannot retreat (R219)")]
    assert ("kingswood", "the defender lost the combat (R221)") in [(e.area, e.cause) for e in b.of(CombatOrderRemoved)]


def test_R221_the_order_of_a_defender_with_no_retreat_is_reported_removed(battle):
    from adjudicator.engine.events.combat import CombatOrderRemoved

    state = duel("stark", "lannister", attack=("2 knights",), defend=("footman",), defense="defense+1",
                 areas='the_reach = ["tyrell footman"]\nthe_boneway = ["tyrell footman"]\nstorms_end = ["tyrell footman"]')
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    assert b.done and ("kingswood", "the defender lost the combat (R221)") in [
        (e.area, e.cause) for e in b.of(CombatOrderRemoved)]


def test_R220_a_march_order_whose_returning_attackers_exceed_supply_is_reported_removed(battle):
    """The attackers sent back over supply are destroyed (ruling 58); the March order goes at clean-up, said so."""
    from adjudicator.engine.events.combat import AttackRepelled, CombatOrderRemoved

    state = duel("stark", "lannister", attack=("2 footmen",), defend=("3 footmen",),
                 areas='the_reach = ["stark footman", "stark knight"]\nstorms_end = ["stark footman", "stark knight"]')
    state.houses["stark"].supply = 0  # two armies of 2: the returning pair would be a third
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("lannister", "the_hound"))
    assert b.done
    assert [e.cause for e in b.of(UnitsDestroyed)] == ["over supply after the retreat (R213, Q9)"]
    assert [(e.house, e.area, e.units) for e in b.of(AttackRepelled)] == [("stark", "kings_landing", ("footman",))]
    assert [(e.area, e.cause) for e in b.of(CombatOrderRemoved)] == [("kings_landing", "its combat is over (R220)")]
