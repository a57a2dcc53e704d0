"""House Martell's seven cards, one test (or more) each."""

from __future__ import annotations

from rules.test_combat_harness import (  # noqa: F401
    Assault,
    battle,
    check_icons,
    duel,
    everyone,
    play,
    say,
)

from adjudicator.engine.events.combat import (
    AttackRepelled,
    BladeUsed,
    CasualtiesDue,
    CombatResolved,
    TrackMoved,
)
from adjudicator.game.commands import CardChoice, Casualties, UnitSpec, UseBlade

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_the_red_viper_has_strength_4_two_swords_and_a_fortification(battle):
    check_icons(battle, "martell", "the_red_viper", strength=4, swords=2, forts=1)


def test_areo_hotah_has_strength_3_and_one_fortification(battle):
    check_icons(battle, "martell", "areo_hotah", strength=3, swords=0, forts=1)


def test_darkstar_has_strength_2_and_one_sword(battle):
    check_icons(battle, "martell", "darkstar", strength=2, swords=1, forts=0)


def test_obara_sand_has_strength_2_and_one_sword(battle):
    check_icons(battle, "martell", "obara_sand", strength=2, swords=1, forts=0)


def test_arianne_martell_keeps_the_attackers_out_of_the_area(battle):
    state = duel("stark", "martell", attack=("2 knights",), defend=("footman",), areas=BLOCKED)
    state.area_mut("kingswood").power_token = "martell"
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("martell", "arianne_martell"))
    assert b.done and b.results()[0].winner == "stark"
    assert b.units("kings_landing", "stark", routed=False) == ["knight", "knight"]  # back home, standing
    assert b.units("kingswood") == [] and b.state.area("kingswood").power_token is None
    assert b.units("storms_end", "martell", routed=True) == ["footman"]  # Martell still retreats
    assert b.of(AttackRepelled)[0].routed is False
    assert b.state.area("kings_landing").order is None


def test_nymeria_sand_defending_gains_a_fortification(battle):
    state = duel("stark", "martell", attack=("2 knights",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "greatjon_umber"), play("martell", "nymeria_sand"))
    assert b.done
    due = b.of(CasualtiesDue)[0]
    assert (due.swords, due.fortifications, due.count) == (1, 1, 0)


def test_nymeria_sand_attacking_gains_a_sword(battle):
    state = duel("martell", "stark", attack=("2 knights",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "nymeria_sand"), play("stark", "catelyn_stark"))
    assert b.done and [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(1, 1)]


def test_doran_martell_moves_the_opponent_to_the_bottom_of_a_track(battle):
    order = ["stark", "martell", "lannister", "baratheon", "tyrell", "greyjoy"]
    state = duel("martell", "stark", attack=("2 knights",), defend=("2 footmen",), iron_throne=order,
                 fiefdoms=["greyjoy", *[h for h in order if h != "greyjoy"]], areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell"), play("stark", "catelyn_stark"),
          say("martell", CardChoice(card="doran_martell", track="iron_throne")))
    assert b.done
    assert b.state.tracks["iron_throne"] == ["martell", "lannister", "baratheon", "tyrell", "greyjoy", "stark"]
    assert b.of(TrackMoved)[0].house == "stark"


def test_doran_martell_passes_the_blade_in_its_state_and_its_new_holder_may_use_it(battle):
    fiefdoms = ["stark", "martell", "lannister", "baratheon", "tyrell", "greyjoy"]
    state = duel("martell", "stark", attack=("knight",), defend=("2 footmen",), fiefdoms=fiefdoms, areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell"), play("stark", "catelyn_stark"),
          say("martell", CardChoice(card="doran_martell", track="fiefdoms")))
    assert b.asked() == [("blade", "martell")], "Martell now holds the Blade, still unused"
    b.run(say("martell", UseBlade(use=True)))
    assert b.done and b.of(BladeUsed)[0].house == "martell"
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total) == (3, 2) and final.winner == "martell"


def test_doran_martell_asks_for_a_track_and_unanswered_drops_the_opponent_on_the_iron_throne(battle):
    order = ["stark", "martell", "lannister", "baratheon", "tyrell", "greyjoy"]
    state = duel("martell", "stark", attack=("2 knights",), defend=("2 footmen",), iron_throne=order,
                 fiefdoms=["greyjoy", *[h for h in order if h != "greyjoy"]], areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell"), play("stark", "catelyn_stark"))
    (asked,) = b.requests()
    assert asked.prompt == "Doran Martell: choose the track on which Stark drops to the bottom"
    assert [o.track for o in asked.options] == ["iron_throne", "fiefdoms", "kings_court"]
    assert asked.default.track == "iron_throne"
    b.run(deadline=True)
    assert b.done and b.state.tracks["iron_throne"] == ["martell", "lannister", "baratheon", "tyrell", "greyjoy", "stark"]
    assert b.state.tracks["fiefdoms"][0] == "greyjoy"


def test_arianne_martell_played_by_an_attacker_that_loses_holds_nobody_back(battle):
    state = duel("martell", "stark", attack=("2 footmen", "knight"), defend=("2 knights",))
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "arianne_martell"), play("stark", "eddard_stark"),
          say("martell", Casualties(units=(UnitSpec("footman", 2),))))
    assert b.done and b.results()[0].winner == "stark"
    assert b.units("kings_landing", "martell", routed=True) == ["knight"]  # retreated, routed (R207)
    assert [e.routed for e in b.of(AttackRepelled)] == [True]
