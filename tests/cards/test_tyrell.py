"""House Tyrell's seven cards, one test (or more) each."""

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

from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.events.combat import (
    CardAbility,
    CasualtiesDue,
    CombatOrderRemoved,
    CombatResolved,
    CombatStrengths,
)
from adjudicator.game.commands import Support
from adjudicator.game.state import Order

BLOCKED = 'the_boneway = ["martell footman"]\nthe_reach = ["martell footman"]'


def test_randyll_tarly_has_strength_2_and_one_sword(battle):
    check_icons(battle, "tyrell", "randyll_tarly", strength=2, swords=1, forts=0)


def test_ser_garlan_tyrell_has_strength_2_and_two_swords(battle):
    check_icons(battle, "tyrell", "ser_garlan_tyrell", strength=2, swords=2, forts=0)


def test_margaery_tyrell_has_strength_1_and_one_fortification(battle):
    check_icons(battle, "tyrell", "margaery_tyrell", strength=1, swords=0, forts=1)


def test_alester_florent_has_strength_1_and_one_fortification(battle):
    check_icons(battle, "tyrell", "alester_florent", strength=1, swords=0, forts=1)


def test_mace_tyrell_destroys_one_defending_footman(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(e.house, e.units, e.cause) for e in b.of(UnitsDestroyed)] == [("stark", ("footman",), "Mace Tyrell")]
    assert b.of(CombatResolved)[0].defender_total == 1


def test_mace_tyrell_destroys_an_attacking_footman_when_defending(battle):
    state = duel("stark", "tyrell", attack=("footman", "knight"), defend=("footman",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("tyrell", "mace_tyrell"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"units:knight": 2, "card:catelyn_stark": 0}
    assert b.units("kings_landing", "stark") == ["knight"]


def test_mace_tyrell_may_destroy_the_last_defender_and_the_combat_goes_on(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("footman",),
                 areas='the_reach = { units = ["2 stark knights"], order = "support+0" }')
    b = battle(state, everyone(state, "tyrell"))
    b.run(say("stark", Support(side="stark")), play("tyrell", "mace_tyrell"), play("stark", "eddard_stark"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {"support:stark:the_reach": 4, "card:eddard_stark": 4}  # ruling 34
    assert final.winner == "stark"
    assert b.units("kingswood") == [] and b.units("kings_landing") == []  # Eddard's swords kill the knight


def test_mace_tyrell_never_destroys_a_supporting_footman(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("knight",), areas=BLOCKED.replace(
        'the_reach = ["martell footman"]', 'the_reach = { units = ["stark footman"], order = "support+0" }'))
    b = battle(state, everyone(state, "tyrell"))
    b.run(say("stark", Support(side="stark")), play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert not b.of(UnitsDestroyed)
    assert any("no attacking or defending footman" in e.effect for e in b.of(CardAbility))


def test_mace_tyrell_is_stopped_by_the_blackfish(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "the_blackfish"))
    assert b.done and not b.of(UnitsDestroyed)
    assert b.of(CombatResolved)[0].defender_total == 3


def test_ser_loras_tyrell_moves_the_march_order_into_the_conquered_area(battle):
    state = duel("tyrell", "stark", attack=("2 knights",), defend=("footman",), token="march+1", areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "ser_loras_tyrell"), play("stark", "catelyn_stark"))
    assert b.done
    assert b.state.area("kingswood").order == Order("tyrell", "march+1")
    assert b.state.area("kings_landing").order is None


def test_ser_loras_tyrell_losing_leaves_the_march_removed(battle):
    state = duel("tyrell", "stark", attack=("footman",), defend=("3 footmen",), token="march+1")
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "ser_loras_tyrell"), play("stark", "eddard_stark"))
    assert b.done and b.state.area("kingswood").order is None and b.state.area("kings_landing").order is None


def test_queen_of_thorns_removes_an_adjacent_order_and_its_support(battle):
    state = duel("stark", "tyrell", attack=("knight",), defend=("3 footmen",),
                 areas='the_reach = { units = ["stark knight"], order = "support+0" }')
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", Support(side="stark")), play("stark", "catelyn_stark"), play("tyrell", "queen_of_thorns"))
    assert b.done
    assert b.of(CombatStrengths)[0].attacker_total == 4
    assert [(e.area, e.cause) for e in b.of(CombatOrderRemoved) if e.house == "stark" and e.area == "the_reach"] == [
        ("the_reach", "Queen of Thorns")]
    final = b.of(CombatResolved)[0]
    assert (final.attacker_total, final.defender_total) == (2, 3)  # the support left with its order (R200)
    assert final.winner == "tyrell"


def test_queen_of_thorns_cannot_remove_the_march_that_began_the_combat(battle):
    state = duel("stark", "tyrell", attack=("knight",), defend=("3 footmen",))
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "catelyn_stark"), play("tyrell", "queen_of_thorns"))
    assert b.done, "no other Stark order next to the Kingswood: skipped, not stuck"
    assert any("no order of the opponent" in e.effect for e in b.of(CardAbility))
    assert not b.of(CasualtiesDue)


# --- Mace Tyrell kills the last unit: what the combat counted stays counted (issue 14) -------------


def test_mace_tyrell_killing_the_last_defender_keeps_the_defense_bonus_and_catelyns_doubling(battle):
    """Wrong before: the Defense +2 order left the board with its last footman, at once, so neither
    its +2 nor Catelyn Stark's doubling counted (defender 0 instead of 4). Orders leave the board
    when their combat is over (R220, R221, ruling 50), not when their units die mid-combat."""
    state = duel("tyrell", "stark", attack=("knight",), defend=("footman",), defense="defense+2",
                 areas='the_boneway = ["martell footman"]\nthe_reach = { units = ["2 stark knights"], order = "support+0" }')
    b = battle(state, everyone(state, "tyrell"))
    b.run(say("stark", Support(side="stark")), play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert b.done
    assert [(e.house, e.units, e.cause) for e in b.of(UnitsDestroyed)][0] == ("stark", ("footman",), "Mace Tyrell")
    final = b.of(CombatResolved)[0]
    assert dict(final.defender_strength) == {
        "defense": 2, "support:stark:the_reach": 4, "card:catelyn_stark": 0, "ability:catelyn_stark": 2}
    assert (final.attacker_total, final.defender_total, final.winner) == (6, 8, "stark")
    removed = [(e.area, e.token, e.cause) for e in b.of(CombatOrderRemoved)]
    assert ("kingswood", "defense+2", "no units are left to carry it") in removed  # ruling 50, at clean-up
    assert b.state.area("kingswood").order is None


def test_mace_tyrell_killing_the_last_attacker_keeps_the_march_bonus_and_removes_the_order_at_clean_up(battle):
    """Wrong before: the March +1 order left the emptied area the attackers marched from at once,
    silently: the report never said the order was removed (R220)."""
    state = duel("stark", "tyrell", attack=("footman",), defend=("footman",), token="march+1", areas=BLOCKED)
    b = battle(state, everyone(state, "stark"))
    b.run(play("stark", "eddard_stark"), play("tyrell", "mace_tyrell"))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert dict(final.attacker_strength) == {"march": 1, "card:eddard_stark": 4}
    assert [(e.area, e.token, e.cause) for e in b.of(CombatOrderRemoved)] == [
        ("kings_landing", "march+1", "its combat is over (R220)")]
    # with its march order gone only after the strengths were counted, nothing of the attack is left
    assert b.state.area("kings_landing").order is None and b.units("kings_landing") == []


def test_mace_tyrell_against_no_attacking_or_defending_footman_is_told_it_has_no_effect(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("knight",), areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "mace_tyrell"), play("stark", "catelyn_stark"))
    assert b.done and not b.of(UnitsDestroyed)
    assert [e.describe() for e in b.of(CardAbility) if e.card == "mace_tyrell"] == [
        "Tyrell's Mace Tyrell has no effect: the opponent has no attacking or defending footman."]


def test_queen_of_thorns_with_no_order_of_the_opponent_next_to_the_combat_is_told_it_has_no_effect(battle):
    state = duel("tyrell", "stark", attack=("knight",), defend=("knight",), areas=BLOCKED)
    b = battle(state, everyone(state, "tyrell"))
    b.run(play("tyrell", "queen_of_thorns"), play("stark", "catelyn_stark"))
    assert b.done
    assert [e.describe() for e in b.of(CardAbility) if e.card == "queen_of_thorns"] == [
        "Tyrell's Queen of Thorns has no effect: no order of the opponent next to the embattled area."]


def test_queen_of_thorns_asks_which_order_of_the_opponent_naming_it(battle):
    state = duel("stark", "tyrell", attack=("knight",), defend=("3 footmen",),
                 areas='the_reach = { units = ["stark knight"], order = "support+0" }\n'
                       'the_boneway = { units = ["stark footman"], order = "consolidate*" }')
    b = battle(state, everyone(state, "stark"))
    b.run(say("stark", Support(side="stark")), play("stark", "catelyn_stark"), play("tyrell", "queen_of_thorns"))
    (asked,) = b.requests()
    assert asked.house == "tyrell"
    assert asked.prompt == "Queen of Thorns: remove one Stark order next to the combat (name its area)"
    assert sorted(o.area for o in asked.options) == ["the_boneway", "the_reach"]
