"""Review of combat (R169-R237, R268-R273): support, strength, the victor, casualties, retreats, clean-up.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Combats are fought through the real step machine by the harness of
``tests/rules/test_combat_harness.py``: unless told otherwise a house that does not fight heads every
track, then the attacker, then the defender.
"""

from __future__ import annotations

from adjudicator.commands import Casualties, CardChoice, PlayCard, Retreat, Support, UnitSpec
from adjudicator.events.combat import (
    AttackerAdvanced,
    AttackRepelled,
    CasualtiesDue,
    CombatResolved,
    PortCaptured,
    Retreated,
)
from adjudicator.rules.common import UnitsDestroyed

from rules.test_combat_harness import Assault, battle, duel, everyone, play, say  # noqa: F401


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
    assert [e.describe() for e in routed] == ["Lannister loses 2 footmen in Kingswood (routed units cannot retreat (R219))."]
