"""House Greyjoy's seven cards, one test (or more) each."""

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
    CasualtiesDue,
    CombatResolved,
    HouseCardChosen,
)
from adjudicator.game.commands import CardChoice, Support

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_euron_crows_eye_has_strength_4_and_one_sword(battle):
    check_icons(battle, "greyjoy", "euron_crows_eye", strength=4, swords=1, forts=0)


def test_dagmar_cleftjaw_has_strength_1_a_sword_and_a_fortification(battle):
    check_icons(battle, "greyjoy", "dagmar_cleftjaw", strength=1, swords=1, forts=1)


def test_victarion_greyjoy_doubles_attacking_and_supporting_greyjoy_ships(battle):
    state = duel("greyjoy", "lannister", attack=("2 ships",), defend=("ship",), area="the_golden_sound",
                 origin="ironmans_bay", areas='sunset_sea = { units = ["greyjoy ship"], order = "support+0" }')
    b = battle(state, everyone(state, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run(say("greyjoy", Support(side="greyjoy")), play("greyjoy", "victarion_greyjoy"), play("lannister", "cersei_lannister"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:ship": 2, "support:greyjoy:sunset_sea": 1,
                                             "card:victarion_greyjoy": 3, "ability:victarion_greyjoy": 3}
    assert b.units("port_of_lannisport", "lannister", routed=True) == ["ship"]  # its own port (Q5)


def test_victarion_greyjoy_does_nothing_in_defense(battle):
    state = duel("lannister", "greyjoy", attack=("ship",), defend=("2 ships",), area="the_golden_sound",
                 origin="port_of_lannisport")
    b = battle(state, everyone(state, "lannister", area="the_golden_sound", origin="port_of_lannisport"))
    b.run(play("greyjoy", "victarion_greyjoy"), play("lannister", "cersei_lannister"))
    assert b.of(CombatResolved)[0].defender_total == 2 + 3


def test_balon_greyjoy_makes_the_opponents_printed_strength_zero(battle):
    state = duel("stark", "greyjoy", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("greyjoy", "balon_greyjoy"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("card:eddard_stark", 0) in final.attacker_strength and final.attacker_total == 2
    assert final.winner == "greyjoy"


def test_theon_greyjoy_defending_a_castle_gains_strength_and_a_sword(battle):
    state = duel("stark", "greyjoy", attack=("knight",), defend=("footman",), area="the_reach")
    b = battle(state, everyone(state, "stark", area="the_reach"))
    b.run(play("stark", "catelyn_stark"), play("greyjoy", "theon_greyjoy"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"units:footman": 1, "card:theon_greyjoy": 2, "ability:theon_greyjoy": 1}
    assert b.of(CasualtiesDue)[0].swords == 1 and b.units("kings_landing") == []


def test_theon_greyjoy_gains_nothing_without_a_castle(battle):
    state = duel("stark", "greyjoy", attack=("knight",), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("greyjoy", "theon_greyjoy"))
    assert b.of(CombatResolved)[0].defender_total == 3 and not b.of(CasualtiesDue)


def test_asha_greyjoy_unsupported_gains_two_swords_and_a_fortification(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",))
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "asha_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(d.swords, d.count) for d in b.of(CasualtiesDue)] == [(2, 2)]


def test_asha_greyjoy_supported_gains_nothing(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",),
                 areas='the_boneway = ["tyrell footman"]\nthe_reach = { units = ["greyjoy footman"], order = "support+0" }')
    b = battle(state, everyone(state, "greyjoy"))
    b.run(say("greyjoy", Support(side="greyjoy")), play("greyjoy", "asha_greyjoy"), play("stark", "catelyn_stark"))
    assert b.done and not b.of(CasualtiesDue)
    assert b.units("storms_end", "stark") == ["footman", "footman"]


def test_aeron_damphair_pays_two_power_to_play_another_card(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("stark", "catelyn_stark"),
          say("greyjoy", CardChoice(card="aeron_damphair", house_card="euron_crows_eye")))
    assert b.done
    assert b.state.houses["greyjoy"].power == 3
    assert b.of(HouseCardChosen)[0].card == "euron_crows_eye"
    final = b.of(CombatResolved)[0]
    assert final.attacker_card == "euron_crows_eye" and final.attacker_total == 2 + 4
    assert b.state.houses["greyjoy"].discards == ["aeron_damphair", "euron_crows_eye"]


def test_aeron_damphair_without_two_power_stays(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("footman",), power={"greyjoy": 1}, areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("stark", "catelyn_stark"))
    assert b.done and b.of(CombatResolved)[0].attacker_card == "aeron_damphair"
    assert b.told("aeron_damphair") == [
        "Greyjoy's Aeron Damphair has no effect: needs 2 available power and another card in hand."]


def test_asha_greyjoy_unsupported_and_losing_has_her_fortification_cancel_a_sword(battle):
    state = duel("greyjoy", "stark", attack=("footman",), defend=("2 knights",))
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "asha_greyjoy"), play("stark", "eddard_stark"))
    assert b.results()[0].winner == "stark"
    assert [(d.house, d.swords, d.fortifications, d.count) for d in b.of(CasualtiesDue)] == [("greyjoy", 2, 1, 1)]


def test_aeron_damphair_with_exactly_two_power_pays_them(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), power={"greyjoy": 2}, areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("stark", "catelyn_stark"),
          say("greyjoy", CardChoice(card="aeron_damphair", house_card="euron_crows_eye")))
    assert b.done and b.state.houses["greyjoy"].power == 0
    assert b.of(CombatResolved)[0].attacker_card == "euron_crows_eye"


def test_aeron_damphair_asks_naming_the_cards_in_hand_and_no_is_told_declined(battle):
    state = duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED,
                 hands={"greyjoy": ["aeron_damphair", "euron_crows_eye", "theon_greyjoy"]})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair"), play("stark", "catelyn_stark"))
    (asked,) = b.requests()
    assert asked.prompt == ("Aeron Damphair: pay 2 power to play another card instead "
                            "(Euron Crow's Eye, Theon Greyjoy), or 'no'")
    b.run(say("greyjoy", CardChoice(card="aeron_damphair", option="no")))
    assert b.done and b.of(CombatResolved)[0].attacker_card == "aeron_damphair"
    assert b.state.houses["greyjoy"].power == 5
    assert b.told("aeron_damphair") == ["Greyjoy's Aeron Damphair has no effect: declined."]
