"""House Martell's A Dance with Dragons cards: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved, TrackRaised
from adjudicator.game.commands import CardChoice, UseBlade

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_areo_hotah_adwd_has_strength_3_and_two_fortifications(battle):
    check_adwd_icons(battle, "martell", "areo_hotah_adwd", strength=3, swords=0, forts=2)


def test_bastard_of_godsgrace_has_strength_2_and_a_fortification(battle):
    check_adwd_icons(battle, "martell", "bastard_of_godsgrace", strength=2, swords=0, forts=1)


def test_big_man_has_strength_2_and_one_sword(battle):
    check_adwd_icons(battle, "martell", "big_man", strength=2, swords=1, forts=0)


def test_nymeria_sand_adwd_has_strength_0_a_sword_and_a_fortification(battle):
    check_adwd_icons(battle, "martell", "nymeria_sand_adwd", strength=0, swords=1, forts=1)


def test_doran_martell_adwd_trades_strength_for_icons_card_by_card(battle):
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("3 footmen",), areas=BLOCKED,
                      hands={"martell": ["doran_martell_adwd", "big_man", "quentyn_martell"]})
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "doran_martell_adwd"), play("stark", "damon_dance_for_me"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("card:doran_martell_adwd", 4 - 2) in final.attacker_strength and final.winner == "martell"
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(2, 2)]  # two cards left in the hand


def test_doran_martell_adwd_never_drops_below_zero(battle):
    hand = ["doran_martell_adwd", "areo_hotah_adwd", "bastard_of_godsgrace", "big_man", "ser_gerris_drinkwater",
            "quentyn_martell", "nymeria_sand_adwd"]
    state = adwd_duel("stark", "martell", attack=("knight",), defend=("footman",), areas=BLOCKED, hands={"martell": hand})
    b = battle(state, everyone(state, "stark"))
    b.run(play("martell", "doran_martell_adwd"), play("stark", "roose_bolton_adwd"))
    final = b.of(CombatResolved)[0]
    assert ("card:doran_martell_adwd", 0) in final.defender_strength and final.defender_total == 1
    assert [(d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [(6, 0)]  # six fortifications: Roose's sword


def gerris_battle(battle):
    order = ["lannister", "stark", "martell", "tyrell", "baratheon", "greyjoy"]
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      iron_throne=order, fiefdoms=order)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "ser_gerris_drinkwater"), play("stark", "damon_dance_for_me"))
    return b


def test_ser_gerris_drinkwater_moves_up_one_space_on_a_track(battle):
    b = gerris_battle(battle)
    b.run(say("martell", CardChoice(card="ser_gerris_drinkwater", track="iron_throne")))
    assert b.done
    assert b.state.tracks["iron_throne"][:3] == ["lannister", "martell", "stark"]
    assert b.of(TrackRaised)[0].track == "iron_throne"


def test_ser_gerris_drinkwater_may_decline(battle):
    b = gerris_battle(battle)
    b.run(say("martell", CardChoice(card="ser_gerris_drinkwater", option="no")))
    assert b.done and b.state.tracks["iron_throne"][2] == "martell"
    assert b.told("ser_gerris_drinkwater") == ["Martell's Ser Gerris Drinkwater has no effect: declined."]


def test_quentyn_martell_gains_one_per_discarded_card(battle):
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("3 footmen",), areas=BLOCKED,
                      discards={"martell": ["big_man", "areo_hotah_adwd"]})
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "quentyn_martell"), play("stark", "damon_dance_for_me"))
    final = b.of(CombatResolved)[0]
    assert ("ability:quentyn_martell", 2) in final.attacker_strength and final.attacker_total == 2 + 1 + 2


def test_quentyn_martell_with_nothing_discarded_is_plain(battle):
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "quentyn_martell"), play("stark", "damon_dance_for_me"))
    assert b.of(CombatResolved)[0].attacker_total == 2 + 1


def test_ser_gerris_drinkwater_offers_only_the_tracks_martell_does_not_head(battle):
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      iron_throne=["martell", "lannister", "stark", "tyrell", "baratheon", "greyjoy"],
                      fiefdoms=["lannister", "martell", "stark", "tyrell", "baratheon", "greyjoy"])
    state.tracks["kings_court"] = ["lannister", "stark", "martell", "tyrell", "baratheon", "greyjoy"]
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "ser_gerris_drinkwater"), play("stark", "damon_dance_for_me"))
    (asked,) = b.requests()
    assert asked.prompt == "Ser Gerris Drinkwater: move up one space on an influence track (name it), or 'no'"
    assert [o.track for o in asked.options] == ["fiefdoms", "kings_court", None] and asked.default.option == "no"


def test_ser_gerris_drinkwater_heading_every_track_is_told_so(battle):
    order = ["martell", "lannister", "stark", "tyrell", "baratheon", "greyjoy"]
    state = adwd_duel("martell", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      iron_throne=order, fiefdoms=order)
    state.tracks["kings_court"] = order
    b = battle(state, everyone(state, "martell"))
    b.run(play("martell", "ser_gerris_drinkwater"), play("stark", "damon_dance_for_me"), say("martell", UseBlade(use=False)))
    assert b.done and b.state.tracks["kings_court"] == order
    assert b.told("ser_gerris_drinkwater") == [
        "Martell's Ser Gerris Drinkwater has no effect: Martell already heads every track."]
