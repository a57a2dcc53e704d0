"""House Lannister's seven cards, one test (or more) each."""

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

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.combat import (
    CardAbility,
    CombatOrderRemoved,
    CombatResolved,
    HouseCardChosen,
)
from adjudicator.game.commands import CardChoice, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_ser_gregor_clegane_has_strength_3_and_three_swords(battle):
    check_icons(battle, "lannister", "ser_gregor_clegane", strength=3, swords=3, forts=0)


def test_ser_jaime_lannister_has_strength_2_and_one_sword(battle):
    check_icons(battle, "lannister", "ser_jaime_lannister", strength=2, swords=1, forts=0)


def test_the_hound_has_strength_2_and_two_fortifications(battle):
    check_icons(battle, "lannister", "the_hound", strength=2, swords=0, forts=2)


def test_tywin_lannister_gains_two_power_on_a_win(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED, power={"lannister": 3})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "tywin_lannister"), play("stark", "catelyn_stark"))
    assert b.done and b.state.houses["lannister"].power == 5
    assert [(e.house, e.amount) for e in b.of(PowerChanged)] == [("lannister", 2)]


def test_tywin_lannister_gains_nothing_on_a_loss(battle):
    state = duel("lannister", "stark", attack=("footman",), defend=("3 footmen",), power={"lannister": 3})
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "tywin_lannister"), play("stark", "eddard_stark"))
    assert b.done and b.state.houses["lannister"].power == 3


def test_ser_kevan_lannister_doubles_attacking_and_supporting_footmen(battle):
    state = duel("lannister", "stark", attack=("2 footmen",), defend=("3 footmen",),
                 areas='the_reach = { units = ["lannister footman"], order = "support+0" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(say("lannister", Support(side="lannister")), play("lannister", "ser_kevan_lannister"),
          play("stark", "catelyn_stark"))
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:footman": 2, "support:lannister:the_reach": 1,
                                             "card:ser_kevan_lannister": 1, "ability:ser_kevan_lannister": 3}
    assert final.attacker_total == 7


def test_ser_kevan_lannister_does_nothing_in_defense(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("lannister", "ser_kevan_lannister"), play("stark", "catelyn_stark"))
    assert b.of(CombatResolved)[0].defender_total == 3


def test_tyrion_lannister_cancels_and_the_opponent_chooses_again(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    assert b.asked() == [("house_card", "stark")]
    assert not b.requests()[0].secret, "the new choice is made in the open"
    b.run(play("stark", "eddard_stark"))  # the cancelled card may not come back
    assert any("Tyrion" in r for r in b.unusable("stark"))
    b.run(play("stark", "catelyn_stark"))
    assert b.done
    assert b.of(HouseCardChosen)[0].card == "catelyn_stark"
    assert "eddard_stark" in b.state.houses["stark"].hand
    assert b.of(CombatResolved)[0].attacker_card == "catelyn_stark"


def test_tyrion_lannister_leaves_an_opponent_with_one_card_without_any(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), hands={"stark": ["eddard_stark"]},
                 discards={"stark": ["robb_stark", "roose_bolton", "greatjon_umber", "ser_rodrick_cassel",
                                     "the_blackfish", "catelyn_stark"]})
    b = battle(state, everyone(state, "stark"))
    b.run(play("lannister", "tyrion_lannister"), say("lannister", CardChoice(card="tyrion_lannister", option="cancel")))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert final.attacker_card == "" and final.attacker_total == 2
    assert b.state.houses["stark"].hand == ["eddard_stark"]  # still in hand: it was never played


def test_tyrion_lannister_may_let_the_card_stand(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "greatjon_umber"), play("lannister", "tyrion_lannister"),
          say("lannister", CardChoice(card="tyrion_lannister", option="no")))
    assert b.done and b.of(CombatResolved)[0].attacker_card == "greatjon_umber"
    assert b.state.houses["stark"].discards == ["greatjon_umber"]


def test_cersei_lannister_removes_an_order_of_the_loser_anywhere(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",),
                 areas=BLOCKED + '\nwinterfell = { units = ["stark footman"], order = "consolidate*" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"),
          say("lannister", CardChoice(card="cersei_lannister", area="winterfell")))
    assert b.done and b.state.area("winterfell").order is None
    assert [(e.area, e.cause) for e in b.of(CombatOrderRemoved) if e.house == "stark"] == [("winterfell", "Cersei Lannister")]


def test_cersei_lannister_without_a_target_is_skipped(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"))
    assert b.done, "no Stark order on the board: nothing to ask"
    assert any("no effect" in e.effect for e in b.of(CardAbility) if e.card == "cersei_lannister")


def test_cersei_lannister_without_a_target_is_told_why_word_for_word(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"))
    assert b.done
    assert [e.describe() for e in b.of(CardAbility) if e.card == "cersei_lannister"] == [
        "Lannister's Cersei Lannister has no effect: the opponent has no order token on the board."]


def test_tyrion_lannister_asks_cancel_or_no_and_no_is_told_declined(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "greatjon_umber"), play("lannister", "tyrion_lannister"))
    (asked,) = b.requests()
    assert asked.house == "lannister"
    assert asked.prompt == "Tyrion Lannister: cancel your opponent's House card? ('cancel' or 'no')"
    assert [o.option for o in asked.options] == ["cancel", "no"] and asked.default.option == "no"
    b.run(say("lannister", CardChoice(card="tyrion_lannister", option="no")))
    assert b.told("tyrion_lannister") == ["Lannister's Tyrion Lannister has no effect: declined."]


def test_cersei_lannister_declined_removes_nothing_and_is_told_declined(battle):
    state = duel("lannister", "stark", attack=("2 knights",), defend=("footman",),
                 areas=BLOCKED + '\nwinterfell = { units = ["stark footman"], order = "consolidate*" }')
    b = battle(state, everyone(state, "lannister"))
    b.run(play("lannister", "cersei_lannister"), play("stark", "catelyn_stark"),
          say("lannister", CardChoice(card="cersei_lannister", option="no")))
    assert b.done and b.state.area("winterfell").order is not None
    assert b.told("cersei_lannister") == ["Lannister's Cersei Lannister has no effect: declined."]
