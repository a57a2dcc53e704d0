"""House Lannister's A Dance with Dragons cards: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.core.common import PowerChanged, UnitsDestroyed
from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved
from adjudicator.game.commands import CardChoice, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_ser_jaime_lannister_adwd_has_strength_4_a_sword_and_a_fortification(battle):
    check_adwd_icons(battle, "lannister", "ser_jaime_lannister_adwd", strength=4, swords=1, forts=1)


def test_ser_kevan_lannister_adwd_has_strength_3_and_a_fortification(battle):
    check_adwd_icons(battle, "lannister", "ser_kevan_lannister_adwd", strength=3, swords=0, forts=1)


def test_daven_lannister_has_strength_2_and_one_sword(battle):
    check_adwd_icons(battle, "lannister", "daven_lannister", strength=2, swords=1, forts=0)


def test_cersei_lannister_adwd_has_strength_1_and_a_fortification(battle):
    check_adwd_icons(battle, "lannister", "cersei_lannister_adwd", strength=1, swords=0, forts=1)


def ilyn_battle(battle, elsewhere: str):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED + "\n" + elsewhere)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_ilyn_payne"), play("stark", "black_walder"))
    return b


def test_ser_ilyn_payne_destroys_an_opponents_footman_outside_the_combat(battle):
    b = ilyn_battle(battle, 'winterfell = { units = ["stark footman"], order = "defense+1" }\n'
                            'white_harbor = ["stark footman", "stark knight"]')
    assert ("card_choice", "lannister") in b.asked()
    b.run(say("lannister", CardChoice(card="ser_ilyn_payne", area="white_harbor")))
    assert b.done
    assert b.units("white_harbor", "stark") == ["knight"] and b.units("winterfell", "stark") == ["footman"]
    assert any(isinstance(e, UnitsDestroyed) and e.cause == "Ser Ilyn Payne" for e in b.events)


def test_ser_ilyn_payne_removes_the_order_of_the_last_unit(battle):
    b = ilyn_battle(battle, 'winterfell = { units = ["stark footman"], order = "defense+1" }')
    b.run(say("lannister", CardChoice(card="ser_ilyn_payne", area="winterfell")))
    assert b.done
    assert b.units("winterfell") == [] and b.state.area("winterfell").order is None


def test_ruling_373_ser_ilyn_payne_may_not_take_a_footman_of_the_combat(battle):
    b = ilyn_battle(battle, 'winterfell = ["stark footman"]')
    (asked,) = b.requests()
    assert asked.prompt == ("Ser Ilyn Payne: destroy one Stark footman outside this combat "
                            "('destroy footman in AREA'), or 'no'")
    b.run(say("lannister", CardChoice(card="ser_ilyn_payne", area="kingswood")))
    assert any("not a choice" in r for r in b.unusable("lannister"))
    b.run(say("lannister", CardChoice(card="ser_ilyn_payne", option="no")))
    assert b.done and b.units("winterfell", "stark") == ["footman"]
    assert b.told("ser_ilyn_payne") == ["Lannister's Ser Ilyn Payne has no effect: declined."]


def test_ser_ilyn_payne_does_nothing_when_lannister_loses(battle):
    state = adwd_duel("lannister", "stark", attack=("footman",), defend=("2 knights",), areas=BLOCKED + '\nwinterfell = ["stark footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "ser_ilyn_payne"), play("stark", "black_walder"))
    assert b.done and b.units("winterfell", "stark") == ["footman"]


def test_ser_addam_marbrand_attacking_knights_count_three(battle):
    state = adwd_duel("lannister", "stark", attack=("knight", "footman"), defend=("3 footmen",), areas=
                      'the_reach = { units = ["lannister knight"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("lannister", Support(side="lannister")), play("lannister", "ser_addam_marbrand"),
          play("stark", "damon_dance_for_me"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("ability:ser_addam_marbrand", 2) in final.attacker_strength  # +1 each: the attacker's and the supporter's
    assert final.attacker_total == 2 + 1 + 2 + 1 + 2


def test_ser_addam_marbrand_defending_is_plain(battle):
    state = adwd_duel("stark", "lannister", attack=("2 knights",), defend=("knight",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("lannister", "ser_addam_marbrand"), play("stark", "damon_dance_for_me"))
    final = b.of(CombatResolved)[0]
    assert final.defender_total == 2 + 1


def test_qyburn_copies_a_discarded_cards_strength_and_icons_for_two_power(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("3 footmen",), areas=BLOCKED,
                      discards={"stark": ["roose_bolton_adwd"]}, power={"lannister": 3})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "qyburn"), play("stark", "damon_dance_for_me"),
          say("lannister", CardChoice(card="qyburn", house_card="roose_bolton_adwd")))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("card:qyburn", 4) in final.attacker_strength and final.winner == "lannister"
    assert [d.swords for d in b.of(CasualtiesDue)] == [1]  # Roose's sword, copied
    assert b.state.houses["lannister"].power == 1
    assert any(isinstance(e, PowerChanged) and e.amount == -2 and e.cause == "Qyburn" for e in b.events)


def test_qyburn_may_copy_its_owners_own_discards_or_decline(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"lannister": ["daven_lannister"]})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "qyburn"), play("stark", "damon_dance_for_me"),
          say("lannister", CardChoice(card="qyburn", option="no")))
    assert b.done
    assert ("card:qyburn", 0) in b.of(CombatResolved)[0].attacker_strength and b.state.houses["lannister"].power == 5
    assert b.told("qyburn") == ["Lannister's Qyburn has no effect: declined."]


def test_qyburn_asks_nothing_without_two_power(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      discards={"stark": ["roose_bolton_adwd"]}, power={"lannister": 1})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "qyburn"), play("stark", "damon_dance_for_me"))
    assert b.done and ("card:qyburn", 0) in b.of(CombatResolved)[0].attacker_strength
    assert b.told("qyburn") == [
        "Lannister's Qyburn has no effect: fewer than 2 available power tokens, or every discard pile is empty."]


def test_ser_addam_marbrand_counts_lannisters_own_knights_only_not_a_supporting_allys(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("3 footmen",), areas=
                      'the_reach = { units = ["tyrell knight"], order = "support+0" }\n'
                      'the_boneway = ["tyrell footman"]')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("tyrell", Support(side="lannister")), play("lannister", "ser_addam_marbrand"),
          play("stark", "damon_dance_for_me"))
    final = b.of(CombatResolved)[0]
    assert ("ability:ser_addam_marbrand", 1) in final.attacker_strength  # Lannister's one knight
    assert ("support:tyrell:the_reach", 2) in final.attacker_strength


def test_qyburn_with_exactly_two_power_offers_every_discard_strongest_first(battle):
    state = adwd_duel("lannister", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED, power={"lannister": 2},
                      discards={"stark": ["damon_dance_for_me", "roose_bolton_adwd"], "lannister": ["daven_lannister"]})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "qyburn"), play("stark", "black_walder"))
    (asked,) = b.requests()
    assert asked.prompt == "Qyburn: copy one card of any discard pile for 2 power (name it), or 'no'"
    assert [o.house_card for o in asked.options] == ["roose_bolton_adwd", "daven_lannister", "damon_dance_for_me", None]
    b.run(say("lannister", CardChoice(card="qyburn", house_card="daven_lannister")))
    assert b.done and b.state.houses["lannister"].power == 0


def test_ser_ilyn_payne_destroys_one_footman_of_an_area_and_none_of_its_other_units(battle):
    b = ilyn_battle(battle, 'white_harbor = ["stark knight", "stark footman", "stark footman"]')
    b.run(say("lannister", CardChoice(card="ser_ilyn_payne", area="white_harbor")))
    assert b.done
    assert b.units("white_harbor", "stark") == ["footman", "knight"]
    assert [(e.area, e.units) for e in b.of(UnitsDestroyed) if e.cause == "Ser Ilyn Payne"] == [("white_harbor", ("footman",))]


def test_qyburn_is_told_the_strength_and_icons_it_copies(battle):
    for owner, copied, told in (
            ("stark", "roose_bolton_adwd", "Roose Bolton: 4 strength, 1 sword, no fortification"),
            ("greyjoy", "victarion_greyjoy_adwd", "Victarion Greyjoy: 3 strength, 2 swords, no fortification"),
            ("stark", "steelshanks_walton", "Steelshanks Walton: 2 strength, no sword, 1 fortification")):
        state = adwd_duel("lannister", "stark", attack=("knight",), defend=("3 footmen",), areas=BLOCKED,
                          discards={owner: [copied]}, power={"lannister": 3})
        b = battle(state, everyone(state, "lannister"))
        b.run(play("lannister", "qyburn"), play("stark", "damon_dance_for_me"),
              say("lannister", CardChoice(card="qyburn", house_card=copied)))
        assert b.done and b.told("qyburn") == [f"Lannister's Qyburn: it takes the strength and icons of {told}."]
