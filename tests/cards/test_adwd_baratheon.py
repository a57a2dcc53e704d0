"""House Baratheon's A Dance with Dragons cards: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.events.combat import CombatOrderRemoved, CombatResolved, HandReturned
from adjudicator.engine.events.westeros import WildlingThreatMoved
from adjudicator.game.commands import CardChoice, Retreat, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_bastard_of_nightsong_has_strength_2_and_a_fortification(battle):
    check_adwd_icons(battle, "baratheon", "bastard_of_nightsong", strength=2, swords=0, forts=1)


def test_ser_davos_seaworth_adwd_has_strength_1_a_sword_and_a_fortification(battle):
    check_adwd_icons(battle, "baratheon", "ser_davos_seaworth_adwd", strength=1, swords=1, forts=1)


def test_ser_axell_florent_has_strength_1_and_one_sword(battle):
    check_adwd_icons(battle, "baratheon", "ser_axell_florent", strength=1, swords=1, forts=0)


def test_stannis_baratheon_adwd_unsupported_removes_every_support_order_next_to_the_combat(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["tyrell footman"], order = "support+0" }\n'
                      'the_boneway = { units = ["martell footman"], order = "support+0" }\n'
                      'shipbreaker_bay = { units = ["stark ship"], order = "support+0" }')
    b = battle(state, everyone(state, "baratheon"))
    b.run(say("tyrell", Support(side="stark")), say("martell", Support(side=None)), say("stark", Support(side="stark")),
          play("baratheon", "stannis_baratheon_adwd"), play("stark", "black_walder"),
          say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    removed = {e.area for e in b.of(CombatOrderRemoved) if e.cause == "Stannis Baratheon"}
    assert removed == {"the_reach", "the_boneway", "shipbreaker_bay"}  # Martell's too, though it supported nobody
    final = b.of(CombatResolved)[0]
    assert not any(s.startswith("support") for s, _ in final.defender_strength) and final.winner == "baratheon"


def test_stannis_baratheon_adwd_supported_removes_nothing(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["baratheon footman"], order = "support+0" }\n'
                      'shipbreaker_bay = { units = ["stark ship"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "baratheon"))
    b.run(say("baratheon", Support(side="baratheon")), say("stark", Support(side="stark")),
          play("baratheon", "stannis_baratheon_adwd"), play("stark", "black_walder"),
          say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    assert not [e for e in b.of(CombatOrderRemoved) if e.cause == "Stannis Baratheon"]
    assert ("support:stark:shipbreaker_bay", 1) in b.of(CombatResolved)[0].defender_strength


def jon_snow_battle(battle, threat: int):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    state.wildling_threat = threat
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "jon_snow"), play("stark", "black_walder"))
    return b


def test_jon_snow_moves_the_wildling_threat_up_one_space(battle):
    b = jon_snow_battle(battle, 4)
    b.run(say("baratheon", CardChoice(card="jon_snow", option="up")))
    assert b.done and b.state.wildling_threat == 6
    assert b.of(WildlingThreatMoved)[0].cause == "Jon Snow"


def test_jon_snow_moves_the_wildling_threat_down_one_space(battle):
    b = jon_snow_battle(battle, 4)
    b.run(say("baratheon", CardChoice(card="jon_snow", option="down")))
    assert b.done and b.state.wildling_threat == 2


def test_ruling_375_jon_snow_never_moves_the_threat_onto_the_attack_or_below_zero(battle):
    b = jon_snow_battle(battle, 10)
    b.run(say("baratheon", CardChoice(card="jon_snow", option="up")))
    assert any("not a choice" in r for r in b.unusable("baratheon"))
    b.run(say("baratheon", CardChoice(card="jon_snow", option="down")))
    assert b.done and b.state.wildling_threat == 8
    b = jon_snow_battle(battle, 0)
    b.run(say("baratheon", CardChoice(card="jon_snow", option="down")))
    assert any("not a choice" in r for r in b.unusable("baratheon"))


def test_melisandre_adwd_takes_a_discarded_card_back_for_its_strength_in_power(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"baratheon": ["jon_snow", "mance_rayder"]}, power={"baratheon": 3})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("stark", "black_walder"),
          say("baratheon", CardChoice(card="melisandre_adwd", house_card="jon_snow")))
    assert b.done
    bar = b.state.houses["baratheon"]
    assert "jon_snow" in bar.hand and bar.power == 0 and sorted(bar.discards) == ["mance_rayder", "melisandre_adwd"]


def test_melisandre_adwd_may_take_herself_back(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      power={"baratheon": 2})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("stark", "black_walder"),
          say("baratheon", CardChoice(card="melisandre_adwd", house_card="melisandre_adwd")))
    assert b.done
    assert "melisandre_adwd" in b.state.houses["baratheon"].hand and b.state.houses["baratheon"].power == 0
    assert b.of(HandReturned)[-1].cards == ("melisandre_adwd",)


def test_melisandre_adwd_offers_only_cards_the_power_pays_for(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"baratheon": ["stannis_baratheon_adwd"]}, power={"baratheon": 3})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("stark", "black_walder"),
          say("baratheon", CardChoice(card="melisandre_adwd", house_card="stannis_baratheon_adwd")))
    assert any("not a choice" in r for r in b.unusable("baratheon"))
    b.run(say("baratheon", CardChoice(card="melisandre_adwd", option="no")))
    assert b.done and b.state.houses["baratheon"].power == 3


def test_mance_rayder_final_strength_is_the_wildling_threat(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    state.wildling_threat = 8
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "mance_rayder"), play("stark", "roose_bolton_adwd"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert final.attacker_total == 8 and ("final:mance_rayder", 8 - 2) in final.attacker_strength
    assert final.defender_total == 2 + 4 and final.winner == "baratheon"


def test_mance_rayder_at_threat_zero_fights_with_nothing(battle):
    state = adwd_duel("baratheon", "stark", attack=("3 knights",), defend=("footman",), areas=BLOCKED)
    state.wildling_threat = 0
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "mance_rayder"), play("stark", "damon_dance_for_me"))
    final = b.of(CombatResolved)[0]
    assert final.attacker_total == 0 and final.winner == "stark"


def test_stannis_baratheon_adwd_supported_is_told_so(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["baratheon footman"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "baratheon"))
    b.run(say("baratheon", Support(side="baratheon")), play("baratheon", "stannis_baratheon_adwd"),
          play("stark", "black_walder"), say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    assert b.told("stannis_baratheon_adwd") == [
        "Baratheon's Stannis Baratheon has no effect: Stannis Baratheon is supported."]


def test_stannis_baratheon_adwd_with_no_support_order_next_to_the_combat_is_told_so(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "stannis_baratheon_adwd"), play("stark", "black_walder"),
          say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    assert b.told("stannis_baratheon_adwd") == [
        "Baratheon's Stannis Baratheon has no effect: no Support Order next to the embattled area."]


def test_stannis_baratheon_adwd_removing_support_orders_is_not_told_it_has_no_effect(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=
                      'the_reach = { units = ["tyrell footman"], order = "support+0" }\n'
                      'the_boneway = ["martell footman"]')
    b = battle(state, everyone(state, "baratheon"))
    b.run(say("tyrell", Support(side="stark")), play("baratheon", "stannis_baratheon_adwd"),
          play("stark", "black_walder"), say("stark", Retreat(areas=("storms_end",))))
    assert b.done
    assert [e.area for e in b.of(CombatOrderRemoved) if e.cause == "Stannis Baratheon"] == ["the_reach"]
    assert not [t for t in b.told("stannis_baratheon_adwd") if "no effect" in t]


def test_jon_snow_asks_up_or_down_and_no_is_told_declined(battle):
    b = jon_snow_battle(battle, 4)
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert asked.prompt == "Jon Snow: move the Wildling threat one space 'up' or 'down', or 'no'"
    assert [o.option for o in asked.options] == ["up", "down", "no"]
    b.run(say("baratheon", CardChoice(card="jon_snow", option="no")))
    assert b.done and b.state.wildling_threat == 4
    assert b.told("jon_snow") == ["Baratheon's Jon Snow has no effect: declined."]


def test_ruling_375_jon_snow_moves_the_threat_down_from_one_space_to_zero(battle):
    b = jon_snow_battle(battle, 2)
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert [o.option for o in asked.options] == ["up", "down", "no"]
    b.run(say("baratheon", CardChoice(card="jon_snow", option="down")))
    assert b.done and b.state.wildling_threat == 0


def test_melisandre_adwd_asks_which_card_to_take_back_and_no_is_told_declined(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"baratheon": ["jon_snow"]}, power={"baratheon": 3})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("stark", "black_walder"))
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert asked.prompt == ("Melisandre: take a card of your discard pile back for its strength in power "
                            "('take back CARD'), or 'no'")
    b.run(say("baratheon", CardChoice(card="melisandre_adwd", option="no")))
    assert b.done and b.told("melisandre_adwd") == ["Baratheon's Melisandre has no effect: declined."]
    assert b.state.houses["baratheon"].power == 3


def test_melisandre_adwd_without_the_power_for_any_discarded_card_is_told_so(battle):
    state = adwd_duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"baratheon": ["stannis_baratheon_adwd"]}, power={"baratheon": 0})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("stark", "black_walder"))
    assert b.done and b.told("melisandre_adwd") == [
        "Baratheon's Melisandre has no effect: no discarded card that the available power pays for."]


def test_jon_snow_asks_in_the_open_each_option_naming_the_card(battle):
    b = jon_snow_battle(battle, 4)
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert not asked.secret, "where the threat may go is public"
    assert [(o.card, o.option) for o in asked.options] == [("jon_snow", "up"), ("jon_snow", "down"), ("jon_snow", "no")]
