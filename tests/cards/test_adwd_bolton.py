"""House Stark's A Dance with Dragons cards, the Boltons: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved, HandReturned
from adjudicator.game.commands import CardChoice, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_roose_bolton_adwd_has_strength_4_and_one_sword(battle):
    check_adwd_icons(battle, "stark", "roose_bolton_adwd", strength=4, swords=1, forts=0)


def test_black_walder_has_strength_2_and_one_sword(battle):
    check_adwd_icons(battle, "stark", "black_walder", strength=2, swords=1, forts=0)


def test_steelshanks_walton_has_strength_2_and_one_fortification(battle):
    check_adwd_icons(battle, "stark", "steelshanks_walton", strength=2, swords=0, forts=1)


def test_damon_dance_for_me_has_strength_1_and_one_sword(battle):
    check_adwd_icons(battle, "stark", "damon_dance_for_me", strength=1, swords=1, forts=0)


def test_ramsay_bolton_gains_one_and_three_swords_while_reek_is_in_the_hand(battle):
    state = adwd_duel("stark", "lannister", attack=("knight",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "ramsay_bolton"), play("lannister", "qyburn"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("ability:ramsay_bolton", 1) in final.attacker_strength and final.attacker_total == 2 + 3 + 1
    assert b.units("kingswood", "lannister") == []  # three swords: all three footmen lost
    assert [d.swords for d in b.of(CasualtiesDue)] == [3]


def test_ramsay_bolton_without_reek_in_the_hand_is_plain(battle):
    state = adwd_duel("stark", "lannister", attack=("knight",), defend=("3 footmen",), areas=BLOCKED,
                      discards={"stark": ["reek"]})
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "ramsay_bolton"), play("lannister", "qyburn"), say("lannister", CardChoice(card="qyburn", option="no")))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert final.attacker_total == 2 + 3 and not any(s.startswith("ability:") for s, _ in final.attacker_strength)
    assert b.units("storms_end", "lannister", routed=True) == ["footman"] * 3  # no swords: all retreat


def test_walder_frey_takes_over_a_third_houses_support_for_the_opponent(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["tyrell footman"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("tyrell", Support(side="lannister")), play("lannister", "qyburn"), play("stark", "walder_frey"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("support:tyrell:the_reach", 1) in final.defender_strength
    assert not any(s.startswith("support") for s, _ in final.attacker_strength)
    assert final.winner == "stark"  # 1 + 1 + 1 (Walder) against 2 + 0


def test_walder_frey_leaves_the_opponents_own_support(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["lannister footman"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("lannister", Support(side="lannister")), play("lannister", "qyburn"), play("stark", "walder_frey"))
    assert b.done
    assert ("support:lannister:the_reach", 1) in b.of(CombatResolved)[0].attacker_strength
    assert b.told("walder_frey") == ["Stark's Walder Frey has no effect: no other house supports the opponent."]


def test_reek_brings_ramsay_bolton_back_immediately(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"stark": ["ramsay_bolton"]})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister_adwd"), play("stark", "reek"),
          say("stark", CardChoice(card="reek", option="no")))
    assert b.done
    stark = b.state.houses["stark"]
    assert "ramsay_bolton" in stark.hand and stark.discards == ["reek"]
    assert b.of(HandReturned)[0].cards == ("ramsay_bolton",)


def test_reek_goes_back_into_the_hand_when_lost_and_returned(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister_adwd"), play("stark", "reek"))
    assert ("card_choice", "stark") in b.asked()  # asked at the clean-up, once the combat is lost
    (asked,) = [r for r in b.requests() if r.house == "stark"]
    assert asked.prompt == "Reek: take Reek back into your hand ('return'), or 'no'"
    assert [o.option for o in asked.options] == ["return", "no"]
    b.run(say("stark", CardChoice(card="reek", option="return")))
    assert b.done
    stark = b.state.houses["stark"]
    assert "reek" in stark.hand and stark.discards == []


def test_reek_is_discarded_when_lost_and_kept_out(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_jaime_lannister_adwd"), play("stark", "reek"),
          say("stark", CardChoice(card="reek", option="no")))
    assert b.done and b.state.houses["stark"].discards == ["reek"]
    assert b.told("reek") == ["Stark's Reek has no effect: Ramsay Bolton is not in the discard pile."]


def test_reek_asks_nothing_when_stark_wins(battle):
    state = adwd_duel("lannister", "stark", attack=("footman",), defend=("2 knights",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "qyburn"), play("stark", "reek"))
    assert b.done and b.state.houses["stark"].discards == ["reek"]


def test_walder_frey_takes_over_two_houses_support_and_keeps_the_opponents_own_and_his_side_s(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["tyrell footman"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]\n'
                      'shipbreaker_bay = { units = ["baratheon ship"], order = "support+0" }\n'
                      'storms_end = { units = ["lannister footman"], order = "support+0" }\n'
                      'blackwater_bay = { units = ["stark ship"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("tyrell", Support(side="lannister")), say("baratheon", Support(side="lannister")),
          say("lannister", Support(side="lannister")), say("stark", Support(side="stark")),
          play("lannister", "qyburn"), play("stark", "walder_frey"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert sorted(s for s, _ in final.defender_strength if s.startswith("support")) == [
        "support:baratheon:shipbreaker_bay", "support:stark:blackwater_bay", "support:tyrell:the_reach"]
    assert [s for s, _ in final.attacker_strength if s.startswith("support")] == ["support:lannister:storms_end"]
    (told,) = b.told("walder_frey")
    assert told in ("Stark's Walder Frey: Tyrell, Baratheon now support Stark.",
                    "Stark's Walder Frey: Baratheon, Tyrell now support Stark.")


def test_walder_frey_taking_over_one_house_s_support_is_told_so(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["tyrell footman"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("tyrell", Support(side="lannister")), play("lannister", "qyburn"), play("stark", "walder_frey"))
    assert b.done and b.told("walder_frey") == ["Stark's Walder Frey: Tyrell now supports Stark."]
