"""Arryn's A Feast for Crows house cards in the scenario itself (F006), one test or more per card,
named after it: real combats on the scenario's map, where the Eyrie is Arryn's home and a castle,
and Arryn owns 19 Power tokens (F003, F004). The same cards' tests in a Mother of Dragons game are
tests/cards/test_arryn.py (M123)."""

from __future__ import annotations

import pytest
from rules.test_combat_harness import Assault, Battle, duel, play, say, wired

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.combat import CardAbility, CombatResolved
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import CardChoice
from adjudicator.game.state import GameState

AFFC = 'expansion = "a-feast-for-crows"'
FOUR = ["stark", "lannister", "baratheon", "arryn"]


class FeastBattle(Battle):
    """The harness's battle, advanced on the game's own map (the scenario's)."""

    board = None


@pytest.fixture
def battle(monkeypatch: pytest.MonkeyPatch):
    return wired(monkeypatch, FeastBattle)


def eyrie_attacked(*, arryn: int, stark: int, attack=("knight",), defend=("footman",)) -> GameState:
    """Stark marches from the Mountains of the Moon on Arryn's Eyrie; Lannister heads the tracks."""
    order = ["lannister", "stark", "arryn", "baratheon"]
    return duel("stark", "arryn", area="the_eyrie", origin="the_mountains_of_the_moon", attack=attack, defend=defend,
                houses=FOUR, options=AFFC, iron_throne=order, fiefdoms=order, power={"arryn": arryn, "stark": stark})


def defend_the_eyrie(card: str, battle, *, arryn: int, stark: int, attack=("knight",),
                     stark_card: str = "ser_rodrick_cassel") -> Battle:
    state = eyrie_attacked(arryn=arryn, stark=stark, attack=attack, defend=("3 footmen",))
    assert card in state.houses["arryn"].hand  # the scenario deals the set itself (F006)
    types = tuple(u.type for u in state.area("the_mountains_of_the_moon").units if u.house == "stark")
    b = battle(state, Assault("the_eyrie", "stark", "the_mountains_of_the_moon", types))
    b.run(play("arryn", card), play("stark", stark_card))
    return b


def gains(b: Battle, house: str) -> list[int]:
    return [e.amount for e in b.of(PowerChanged) if e.house == house]


def strength(b: Battle) -> dict[str, int]:
    return dict(b.of(CombatResolved)[0].defender_strength)


def test_the_scenario_deals_the_seven_cards_with_their_numbers():
    rows = {c: (CARDS.house_cards[c].strength, CARDS.house_cards[c].swords, CARDS.house_cards[c].fortifications)
            for c in CARDS.of_set("arryn_affc")}
    assert rows == {"bronze_yohn_royce_affc": (4, 0, 0), "littlefinger": (3, 0, 0), "nestor_royce": (2, 0, 2),
                    "lyn_corbray": (2, 1, 0), "alayne_stone": (1, 0, 0), "lothor_brune": (1, 1, 1),
                    "lysa_arryn_affc": (0, 0, 0)}


def test_bronze_yohn_royce_affc_gains_1_with_more_available_power(battle):
    assert strength(defend_the_eyrie("bronze_yohn_royce_affc", battle, arryn=4, stark=3)).get(
        "ability:bronze_yohn_royce_affc") == 1
    assert "ability:bronze_yohn_royce_affc" not in strength(
        defend_the_eyrie("bronze_yohn_royce_affc", battle, arryn=3, stark=3))


def test_littlefinger_takes_twice_the_printed_strength_holding_the_eyrie(battle):
    b = defend_the_eyrie("littlefinger", battle, arryn=1, stark=1, stark_card="greatjon_umber")
    assert b.done and b.results()[0].winner == "arryn" and gains(b, "arryn") == [4]


def test_littlefinger_takes_no_more_than_arryns_19_tokens(battle):
    b = defend_the_eyrie("littlefinger", battle, arryn=17, stark=1, stark_card="greatjon_umber")
    assert b.done and b.state.houses["arryn"].power + b.state.power_on_board("arryn") == 19  # F004


def test_littlefinger_takes_nothing_when_the_eyrie_is_lost(battle):
    b = defend_the_eyrie("littlefinger", battle, arryn=1, stark=1, attack=("4 knights",), stark_card="eddard_stark")
    assert b.done and b.results()[0].winner == "stark" and gains(b, "arryn") == []
    assert any("do not control The Eyrie" in e.effect for e in b.of(CardAbility))


def test_nestor_royce_defends_with_strength_2_and_two_fortifications(battle):
    b = defend_the_eyrie("nestor_royce", battle, arryn=1, stark=1)
    assert strength(b).get("card:nestor_royce") == 2


def test_lyn_corbray_has_strength_2_and_a_sword(battle):
    b = defend_the_eyrie("lyn_corbray", battle, arryn=1, stark=1)
    assert strength(b).get("card:lyn_corbray") == 2 and CARDS.house_cards["lyn_corbray"].swords == 1


def test_alayne_stone_makes_the_opponent_discard_all_its_power(battle):
    b = defend_the_eyrie("alayne_stone", battle, arryn=5, stark=6)
    assert b.asked() == [("card_choice", "arryn")]
    b.run(say("arryn", CardChoice(card="alayne_stone", option="pay")))
    assert b.done and b.state.houses["arryn"].power == 3 and b.state.houses["stark"].power == 0


def test_alayne_stone_asks_nothing_without_2_power(battle):
    b = defend_the_eyrie("alayne_stone", battle, arryn=1, stark=6)
    assert b.done and b.state.houses["stark"].power == 6


def test_lothor_brune_has_strength_1_a_sword_and_a_fortification(battle):
    b = defend_the_eyrie("lothor_brune", battle, arryn=1, stark=1)
    assert strength(b).get("card:lothor_brune") == 1


def test_lysa_arryn_affc_takes_3_power_when_the_opponent_has_more(battle):
    assert gains(defend_the_eyrie("lysa_arryn_affc", battle, arryn=1, stark=2), "arryn") == [3]
    assert gains(defend_the_eyrie("lysa_arryn_affc", battle, arryn=2, stark=2), "arryn") == []
