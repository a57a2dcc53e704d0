"""Ruling 340: a garrison a box's setup places outside its house's home area (A Dance with Dragons'
Storm's End and Oldtown) is that house's garrison, as a home area's is (R155, R226-R228)."""

from __future__ import annotations

from adjudicator.engine.events.combat import CombatStarted, CombatStrengths, GarrisonDefeated

from .test_combat_harness import battle, duel, everyone, play  # noqa: F401

RIVERRUN = 'riverrun = { garrison = 3, garrison_house = "stark" }'


def test_ruling_340_a_garrison_outside_a_home_area_defends_alone_for_its_house(battle):
    state = duel("lannister", "stark", attack=("knight",), defend=(), area="riverrun", origin="lannisport",
                 areas=RIVERRUN)
    b = battle(state, everyone(state, "lannister", area="riverrun", origin="lannisport"))
    b.run()
    assert b.of(CombatStarted)[0].garrison_only
    assert b.of(CombatStrengths)[0].defender_strength == (("garrison", 3),)


def test_ruling_340_that_garrison_is_removed_when_its_house_loses_there(battle):
    state = duel("lannister", "stark", attack=("3 knights",), defend=(), area="riverrun", origin="lannisport",
                 areas=RIVERRUN)
    b = battle(state, everyone(state, "lannister", area="riverrun", origin="lannisport"))
    b.run(play("lannister", "the_hound"), play("stark", "catelyn_stark"))
    assert b.done and b.of(GarrisonDefeated)[0].house == "stark"
    assert (b.state.area("riverrun").garrison, b.state.area("riverrun").garrison_house) == (0, None)
