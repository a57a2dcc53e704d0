"""House Tyrell's A Dance with Dragons cards: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.events.combat import CardAbility, CombatResolved
from adjudicator.game.commands import Support

BLOCKED = 'the_boneway = ["martell footman"]\nthe_reach = ["martell footman"]'


def test_mace_tyrell_adwd_has_strength_4_a_sword_and_a_fortification(battle):
    check_adwd_icons(battle, "tyrell", "mace_tyrell_adwd", strength=4, swords=1, forts=1)


def test_randyll_tarly_adwd_has_strength_3_and_two_swords(battle):
    check_adwd_icons(battle, "tyrell", "randyll_tarly_adwd", strength=3, swords=2, forts=0)


def test_willas_tyrell_has_strength_2_and_a_fortification(battle):
    check_adwd_icons(battle, "tyrell", "willas_tyrell", strength=2, swords=0, forts=1)


def test_ser_jon_fossoway_has_strength_2_and_one_sword(battle):
    check_adwd_icons(battle, "tyrell", "ser_jon_fossoway", strength=2, swords=1, forts=0)


def test_queen_of_thorns_adwd_ignores_the_opponents_text(battle):
    state = adwd_duel("stark", "tyrell", attack=("knight",), defend=("3 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "ramsay_bolton"), play("tyrell", "queen_of_thorns_adwd"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert not any(s.startswith("ability:") for s, _ in final.attacker_strength)  # Ramsay's +1 ignored
    assert b.units("storms_end", "tyrell", routed=True) == ["footman"] * 3  # and his three swords too
    assert any(e.card == "queen_of_thorns_adwd" and "ignored" in e.effect for e in b.of(CardAbility))


def test_queen_of_thorns_adwd_silences_an_immediate_text_and_an_after_combat_one(battle):
    state = adwd_duel("baratheon", "tyrell", attack=("knight",), defend=("footman",), areas=BLOCKED,
                      power={"baratheon": 5})
    b = battle(state, everyone(state, "baratheon"))
    b.run(play("baratheon", "melisandre_adwd"), play("tyrell", "queen_of_thorns_adwd"))
    assert b.done  # Melisandre never asks
    assert b.state.houses["baratheon"].discards == ["melisandre_adwd"]


def test_paxter_redwyne_ships_count_two_in_a_sea_area(battle):
    state = adwd_duel("tyrell", "greyjoy", attack=("2 ships",), defend=("3 ships",), area="the_golden_sound",
                      origin="sunset_sea", areas='ironmans_bay = { units = ["tyrell ship"], order = "support+0" }\n'
                                                 'port_of_lannisport = ["lannister ship"]')
    b = battle(state, everyone(state, "tyrell", area="the_golden_sound", origin="sunset_sea"))
    b.run(say("tyrell", Support(side="tyrell")), play("tyrell", "paxter_redwyne"), play("greyjoy", "ser_harras_harlaw"))
    final = b.of(CombatResolved)[0]
    assert ("ability:paxter_redwyne", 3) in final.attacker_strength  # +1 for each of the three ships
    assert final.attacker_total == 2 + 1 + 1 + 3 and final.winner == "tyrell"


def test_paxter_redwyne_on_land_is_plain(battle):
    state = adwd_duel("tyrell", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "paxter_redwyne"), play("stark", "damon_dance_for_me"))
    assert b.of(CombatResolved)[0].attacker_total == 2 + 1


def test_margaery_tyrell_adwd_sets_the_attackers_final_strength_to_two_at_home(battle):
    state = adwd_duel("martell", "tyrell", attack=("3 knights",), defend=("footman", "knight"), area="highgarden",
                      origin="dornish_marches")
    b = battle(state, everyone(state, "martell", area="highgarden", origin="dornish_marches"))
    b.run(play("martell", "big_man"), play("tyrell", "margaery_tyrell_adwd"))
    final = b.of(CombatResolved)[0]
    assert final.attacker_total == 2 and final.defender_total == 3 and final.winner == "tyrell"


def test_margaery_tyrell_adwd_holds_an_area_with_a_tyrell_power_token(battle):
    state = adwd_duel("stark", "tyrell", attack=("3 knights",), defend=("footman", "knight"), areas=BLOCKED)
    state.area_mut("kingswood").power_token = "tyrell"
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "roose_bolton_adwd"), play("tyrell", "margaery_tyrell_adwd"))
    final = b.of(CombatResolved)[0]
    assert final.attacker_total == 2 and final.winner == "tyrell"


def test_margaery_tyrell_adwd_away_from_home_is_plain(battle):
    state = adwd_duel("stark", "tyrell", attack=("3 knights",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "roose_bolton_adwd"), play("tyrell", "margaery_tyrell_adwd"))
    assert b.of(CombatResolved)[0].attacker_total == 6 + 4


def test_ruling_377_mance_rayder_against_margaery_the_lower_final_strength_wins(battle):
    """Ruling 377: two texts setting one side's final strength: the lower counts."""
    state = adwd_duel("baratheon", "tyrell", attack=("knight",), defend=("footman",), area="highgarden",
                      origin="dornish_marches")
    state.wildling_threat = 6
    b = battle(state, everyone(state, "baratheon", area="highgarden", origin="dornish_marches"))
    b.run(play("baratheon", "mance_rayder"), play("tyrell", "margaery_tyrell_adwd"))
    assert b.of(CombatResolved)[0].attacker_total == 2


def test_queen_of_thorns_adwd_against_a_card_without_text_has_nothing_to_ignore(battle):
    state = adwd_duel("stark", "tyrell", attack=("knight",), defend=("footman",), areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "black_walder"), play("tyrell", "queen_of_thorns_adwd"))
    said = [e.effect for e in b.of(CardAbility) if e.card == "queen_of_thorns_adwd"]
    assert said == ["no effect (the opponent's card has no text)"]


def test_ruling_381_queen_of_thorns_adwd_keeps_reek_from_going_back_to_the_hand(battle):
    state = adwd_duel("tyrell", "stark", attack=("2 knights",), defend=("footman",), areas=BLOCKED,
                      discards={"stark": ["ramsay_bolton"]})
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "queen_of_thorns_adwd"), play("stark", "reek"))
    assert b.done  # Reek asks nothing: neither Ramsay's return nor his own
    stark = b.state.houses["stark"]
    assert stark.discards == ["ramsay_bolton", "reek"] and "ramsay_bolton" not in stark.hand


def test_paxter_redwyne_counts_tyrells_own_ships_only_not_a_supporting_allys(battle):
    state = adwd_duel("tyrell", "greyjoy", attack=("2 ships",), defend=("3 ships",), area="the_golden_sound",
                      origin="sunset_sea", areas='ironmans_bay = { units = ["tyrell ship"], order = "support+0" }\n'
                                                 'port_of_lannisport = { units = ["lannister ship"], order = "support+0" }')
    b = battle(state, everyone(state, "tyrell", area="the_golden_sound", origin="sunset_sea"))
    b.run(say("tyrell", Support(side="tyrell")), say("lannister", Support(side="tyrell")),
          play("tyrell", "paxter_redwyne"), play("greyjoy", "ser_harras_harlaw"))
    final = b.of(CombatResolved)[0]
    assert ("ability:paxter_redwyne", 3) in final.attacker_strength  # +1 for each of Tyrell's three ships
    assert ("support:lannister:port_of_lannisport", 1) in final.attacker_strength
