"""House Baratheon's seven cards, one test (or more) each."""

from __future__ import annotations

from rules.test_combat_harness import (  # noqa: F401
    SIX,
    Assault,
    battle,
    check_icons,
    duel,
    everyone,
    play,
    say,
)

from adjudicator.engine.events.combat import CasualtiesDue, CombatResolved, HandReturned
from adjudicator.game.commands import CardChoice, Retreat, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_brienne_of_tarth_has_strength_2_a_sword_and_a_fortification(battle):
    check_icons(battle, "baratheon", "brienne_of_tarth", strength=2, swords=1, forts=1)


def test_melisandre_has_strength_1_and_one_sword(battle):
    check_icons(battle, "baratheon", "melisandre", strength=1, swords=1, forts=0)


def test_stannis_baratheon_gains_one_against_a_house_above_him_on_the_iron_throne(battle):
    order = ["stark", "baratheon", "lannister", "tyrell", "greyjoy", "martell"]
    state = duel("baratheon", "stark", attack=("knight",), defend=("2 footmen",), iron_throne=order, areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "stannis_baratheon"), play("stark", "catelyn_stark"))
    assert ("ability:stannis_baratheon", 1) in b.of(CombatResolved)[0].attacker_strength


def test_stannis_baratheon_gains_nothing_against_a_house_below_him(battle):
    order = ["baratheon", "stark", "lannister", "tyrell", "greyjoy", "martell"]
    state = duel("baratheon", "stark", attack=("knight",), defend=("2 footmen",), iron_throne=order, areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "stannis_baratheon"), play("stark", "catelyn_stark"))
    assert b.of(CombatResolved)[0].attacker_total == 2 + 4


def test_renly_baratheon_upgrades_a_footman_to_a_knight(battle):
    state = duel("baratheon", "stark", attack=("footman", "knight"), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="renly_baratheon", area="kings_landing")))
    assert b.done and b.units("kingswood", "baratheon") == ["knight", "knight"]


def test_renly_baratheon_may_upgrade_a_supporting_footman(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = { units = ["baratheon footman"], order = "support+0" }')
    b = battle(state, everyone(state, "baratheon"))
    b.run(say("baratheon", Support(side="baratheon")), play("baratheon", "renly_baratheon"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="renly_baratheon", area="kingswood")))  # no Baratheon footman there
    assert any("not a choice" in r for r in b.unusable("baratheon"))
    b.run(say("baratheon", CardChoice(card="renly_baratheon", area="the_reach")))
    assert b.done and b.units("the_reach", "baratheon") == ["knight"]


def test_ser_davos_seaworth_gains_strength_and_a_sword_with_stannis_discarded(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("2 footmen",), discards={"baratheon": ["stannis_baratheon"]},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "ser_davos_seaworth"), play("stark", "catelyn_stark"))
    assert b.done
    assert ("ability:ser_davos_seaworth", 1) in b.of(CombatResolved)[0].attacker_strength
    assert b.units("kingswood", "stark") == [] and b.units("kingswood", "baratheon") == ["knight"]  # 1 sword, 1 left


def test_ser_davos_seaworth_without_stannis_discarded_is_plain(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "ser_davos_seaworth"), play("stark", "eddard_stark"))
    assert b.of(CombatResolved)[0].attacker_total == 4


def test_salladhor_saan_supported_makes_other_ships_count_zero(battle):
    state = duel("baratheon", "lannister", attack=("ship",), defend=("2 ships",), area="shipbreaker_bay",
                 origin="blackwater_bay",
                 areas='port_of_dragonstone = { units = ["baratheon ship"], order = "support+0" }\n'
                       'the_narrow_sea = { units = ["lannister ship"], order = "support+0" }')
    b = battle(state, everyone(state, "baratheon", area="shipbreaker_bay", origin="blackwater_bay"))
    b.run(say("baratheon", Support(side="baratheon")), say("lannister", Support(side="lannister")),
          play("baratheon", "salladhor_saan"), play("lannister", "cersei_lannister"),
          say("lannister", Retreat(areas=("east_summer_sea",))))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"units:ship": 2, "support:lannister:the_narrow_sea": 1,
                                             "card:cersei_lannister": 0, "ability:salladhor_saan": -3}
    assert (final.attacker_total, final.defender_total) == (3, 0)


def test_salladhor_saan_unsupported_does_nothing(battle):
    state = duel("baratheon", "lannister", attack=("ship",), defend=("ship",), area="shipbreaker_bay", origin="blackwater_bay")
    b = battle(state, everyone(state, "baratheon", area="shipbreaker_bay", origin="blackwater_bay"))
    b.run(play("baratheon", "salladhor_saan"), play("lannister", "cersei_lannister"))
    assert b.of(CombatResolved)[0].defender_total == 1


def test_patchface_discards_a_card_from_the_opponents_hand(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="patchface", house_card="eddard_stark")))
    assert b.done
    stark = b.state.houses["stark"]
    assert "eddard_stark" not in stark.hand and stark.discards == ["catelyn_stark", "eddard_stark"]


def test_patchface_may_take_the_last_card_and_the_hand_comes_back(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED,
                 hands={"stark": ["eddard_stark", "catelyn_stark"]},
                 discards={"stark": ["robb_stark", "roose_bolton", "greatjon_umber", "ser_rodrick_cassel", "the_blackfish"]})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"),
          say("baratheon", CardChoice(card="patchface", house_card="eddard_stark")))
    assert b.done
    stark = b.state.houses["stark"]
    assert stark.discards == ["eddard_stark"]  # ruling 39: the card Patchface took stays discarded
    assert sorted(stark.hand) == sorted(["robb_stark", "roose_bolton", "greatjon_umber", "ser_rodrick_cassel",
                                         "the_blackfish", "catelyn_stark"])
    assert b.of(HandReturned)[-1].house == "stark"


def renly_wins_with_knights_elsewhere(battle, knights: int):
    """Baratheon attacks with a footman and a knight, and has ``knights`` more knights on Dragonstone."""
    more = ", ".join(['"baratheon knight"'] * knights)
    state = duel("baratheon", "stark", attack=("footman", "knight"), defend=("footman",),
                 areas=BLOCKED + f"\ndragonstone = [{more}]")
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "renly_baratheon"), play("stark", "catelyn_stark"))
    return b


def test_renly_baratheon_with_the_last_knight_of_the_supply_asks_and_no_is_told_declined(battle):
    b = renly_wins_with_knights_elsewhere(battle, 3)  # 4 of Baratheon's 5 knights on the board (R011)
    (asked,) = b.requests()
    assert asked.prompt == "Renly Baratheon: upgrade a footman to a knight (name its area), or 'no'"
    assert [o.area for o in asked.options] == ["kingswood", "kings_landing", None] and asked.default.option == "no"
    b.run(say("baratheon", CardChoice(card="renly_baratheon", option="no")))
    assert b.done and b.units("kingswood", "baratheon") == ["footman", "knight"]
    assert b.told("renly_baratheon") == ["Baratheon's Renly Baratheon has no effect: declined."]


def test_renly_baratheon_with_no_knight_left_in_the_supply_upgrades_nothing_and_says_why(battle):
    b = renly_wins_with_knights_elsewhere(battle, 4)  # all 5 knights on the board (R011)
    assert b.done and b.units("kingswood", "baratheon") == ["footman", "knight"]
    assert b.told("renly_baratheon") == [
        "Baratheon's Renly Baratheon has no effect: no footman to upgrade, or no knight left in the supply."]


def test_patchface_asks_which_card_and_no_discards_nothing(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "patchface"), play("stark", "catelyn_stark"))
    (asked,) = b.requests()
    assert asked.prompt == "Patchface: discard one card from Stark's hand (name it), or 'no'" and asked.default.option == "no"
    b.run(say("baratheon", CardChoice(card="patchface", option="no")))
    assert b.done and b.state.houses["stark"].discards == ["catelyn_stark"]
    assert b.told("patchface") == ["Baratheon's Patchface has no effect: declined."]


def test_ser_davos_seaworth_with_stannis_discarded_has_exactly_one_sword(battle):
    state = duel("baratheon", "stark", attack=("knight",), defend=("2 footmen",), discards={"baratheon": ["stannis_baratheon"]},
                 areas=BLOCKED)
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "ser_davos_seaworth"), play("stark", "catelyn_stark"))
    assert b.results()[0].winner == "baratheon"
    assert [(d.house, d.swords, d.count) for d in b.of(CasualtiesDue)] == [("stark", 1, 1)]
