"""House Greyjoy's A Dance with Dragons cards: one test (or more) each."""

from __future__ import annotations

from rules.adwd_cards import adwd_duel, check_adwd_icons
from rules.test_combat_harness import battle, everyone, play, say  # noqa: F401

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.combat import CardAbility, CombatResolved
from adjudicator.engine.events.westeros import WesterosDeckShuffled
from adjudicator.game.commands import CardChoice

BLOCKED = 'the_boneway = ["tyrell footman"]\nthe_reach = ["tyrell footman"]'


def test_victarion_greyjoy_adwd_has_strength_3_and_two_swords(battle):
    check_adwd_icons(battle, "greyjoy", "victarion_greyjoy_adwd", strength=3, swords=2, forts=0)


def test_asha_greyjoy_adwd_has_strength_2_and_a_fortification(battle):
    check_adwd_icons(battle, "greyjoy", "asha_greyjoy_adwd", strength=2, swords=0, forts=1)


def test_ser_harras_harlaw_has_strength_1_and_one_sword(battle):
    check_adwd_icons(battle, "greyjoy", "ser_harras_harlaw", strength=1, swords=1, forts=0)


def test_euron_crows_eye_adwd_gains_one_against_a_house_above_him_on_fiefdoms(battle):
    order = ["lannister", "stark", "greyjoy", "tyrell", "baratheon", "martell"]
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), fiefdoms=order, areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "euron_crows_eye_adwd"), play("stark", "black_walder"))
    assert ("ability:euron_crows_eye_adwd", 1) in b.of(CombatResolved)[0].attacker_strength


def test_euron_crows_eye_adwd_gains_nothing_against_a_house_below_him(battle):
    order = ["lannister", "greyjoy", "stark", "tyrell", "baratheon", "martell"]
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), fiefdoms=order, areas=BLOCKED)
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "euron_crows_eye_adwd"), play("stark", "black_walder"))
    assert b.of(CombatResolved)[0].attacker_total == 2 + 4


def rodrik_battle(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    state.westeros_decks["3"] = ["put_to_the_sword", "web_of_lies", "wildlings_attack", "sea_of_storms"]
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "rodrik_the_reader"), play("stark", "damon_dance_for_me"))
    return b


def test_ruling_383_rodrik_the_reader_puts_the_card_of_his_choice_on_top_of_its_deck(battle):
    b = rodrik_battle(battle)
    assert ("card_choice", "greyjoy") in b.asked()
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", westeros_card="wildlings_attack")))
    assert b.done
    deck = b.state.westeros_decks["3"]
    assert deck[0] == "wildlings_attack" and sorted(deck) == ["put_to_the_sword", "sea_of_storms", "web_of_lies",
                                                              "wildlings_attack"]
    assert b.of(WesterosDeckShuffled)[0].deck == 3
    told = [e for e in b.of(CardAbility) if e.card == "rodrik_the_reader"]
    assert told and all(e.visible_to == "greyjoy" for e in told)  # the others never learn the card


def test_rodrik_the_reader_needs_the_deck_of_a_card_in_two_decks(battle):
    b = rodrik_battle(battle)
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", westeros_card="winter_is_coming")))
    assert any("not a choice" in r for r in b.unusable("greyjoy"))
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", westeros_card="winter_is_coming", deck=2)))
    assert b.done and b.state.westeros_decks["2"][0] == "winter_is_coming"


def test_rodrik_the_reader_may_decline(battle):
    b = rodrik_battle(battle)
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", option="no")))
    assert b.done and b.state.westeros_decks["3"][0] == "put_to_the_sword"


def test_qarl_the_maid_gains_three_power_when_attacking_and_losing(battle):
    state = adwd_duel("greyjoy", "stark", attack=("footman",), defend=("2 knights",), areas=BLOCKED, power={"greyjoy": 1})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "qarl_the_maid"), play("stark", "black_walder"))
    assert b.done and b.state.houses["greyjoy"].power == 4
    assert any(isinstance(e, PowerChanged) and e.cause == "Qarl the Maid" and e.amount == 3 for e in b.events)


def test_qarl_the_maid_gains_nothing_when_defending_and_losing(battle):
    state = adwd_duel("stark", "greyjoy", attack=("2 knights",), defend=("footman",), areas=BLOCKED, power={"greyjoy": 1})
    b = battle(state, everyone(state, "stark"))
    b.run(play("greyjoy", "qarl_the_maid"), play("stark", "black_walder"))
    assert b.done and b.state.houses["greyjoy"].power == 1


def test_aeron_damphair_adwd_buys_strength_with_power(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED, power={"greyjoy": 4})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair_adwd"), play("stark", "black_walder"),
          say("greyjoy", CardChoice(card="aeron_damphair_adwd", amount=3)))
    assert b.done
    final = b.of(CombatResolved)[0]
    assert ("ability:aeron_damphair_adwd", 3) in final.attacker_strength and final.winner == "greyjoy"
    assert b.state.houses["greyjoy"].power == 1


def test_aeron_damphair_adwd_may_not_pay_more_than_he_has(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED, power={"greyjoy": 2})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair_adwd"), play("stark", "black_walder"),
          say("greyjoy", CardChoice(card="aeron_damphair_adwd", amount=3)))
    assert any("not a choice" in r for r in b.unusable("greyjoy"))
    b.run(say("greyjoy", CardChoice(card="aeron_damphair_adwd", option="no")))
    assert b.done and b.state.houses["greyjoy"].power == 2 and b.of(CombatResolved)[0].winner == "stark"


def test_rodrik_the_reader_asks_in_secret_and_no_public_report_names_the_cards(battle):
    """Rodrik the Reader searches a Westeros deck: the cards in it, the one chosen and where it went
    are hidden information (R267): the request is secret, and neither a public report nor another
    house's carries its options or its answer."""
    from adjudicator.engine.events import visible
    from adjudicator.reports.report import render_report

    b = rodrik_battle(battle)
    asked = [r for r in b.requests() if r.kind == "card_choice" and r.house == "greyjoy"]
    assert asked and all(r.secret for r in asked)
    pending = [r.to_dict() for r in b.requests()]
    for viewer in (None, "stark"):
        for fmt in ("text", "html", "json"):
            text = render_report(b.state, [], viewer=viewer, fmt=fmt, requests=pending).lower()
            assert "sea of storms" not in text and "web of lies" not in text, (viewer, fmt)
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", westeros_card="wildlings_attack")))
    assert b.done
    for viewer in (None, "stark"):
        shown = visible(b.events, viewer)
        for fmt in ("text", "html", "json"):
            text = render_report(b.state, shown, viewer=viewer, fmt=fmt).lower()
            assert "wildlings attack" not in text and "wildlings_attack" not in text, (viewer, fmt)
    mine = render_report(b.state, visible(b.events, "greyjoy"), viewer="greyjoy").lower()
    assert "wildlings attack" in mine  # its own report says where the card went


def test_rodrik_the_reader_taking_its_default_at_the_deadline_is_told_to_greyjoy_alone(battle):
    """Whether Greyjoy stacked a deck is as hidden as which card it chose: the default 'no' taken at
    the deadline is told to Greyjoy alone, as a secret decision's default is."""
    from adjudicator.engine.events import DefaultUsed

    b = rodrik_battle(battle)
    b.run(deadline=True)
    assert b.done and b.state.westeros_decks["3"][0] == "put_to_the_sword"
    taken = [e for e in b.of(DefaultUsed) if "Rodrik" in e.decision]
    assert taken and all(e.visible_to == "greyjoy" for e in taken)


def test_rodrik_the_reader_asks_naming_how_to_answer_and_no_is_told_declined(battle):
    b = rodrik_battle(battle)
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert asked.prompt == "Rodrik the Reader: put a Westeros card on top of its deck ('CARD' or 'CARD, deck II'), or 'no'"
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", option="no")))
    assert b.done and b.told("rodrik_the_reader") == ["Greyjoy's Rodrik the Reader has no effect: declined."]


def test_rodrik_the_reader_may_search_westeros_deck_iv(battle):
    """Mother of Dragons' deck IV, in a game with Targaryen (M012), is a Westeros deck like the others."""
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    state.westeros_decks = {"1": [], "2": [], "3": [], "4": ["domestic_disputes", "southron_ambitions"]}
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "rodrik_the_reader"), play("stark", "damon_dance_for_me"))
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert [(o.westeros_card, o.deck, o.option) for o in asked.options] == [
        ("domestic_disputes", 4, None), ("southron_ambitions", 4, None), (None, None, "no")]
    b.run(say("greyjoy", CardChoice(card="rodrik_the_reader", westeros_card="southron_ambitions")))
    assert b.done and b.state.westeros_decks["4"][0] == "southron_ambitions"


def test_rodrik_the_reader_with_every_westeros_deck_empty_is_told_so(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("footman",), areas=BLOCKED)
    state.westeros_decks = {"1": [], "2": [], "3": []}
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "rodrik_the_reader"), play("stark", "damon_dance_for_me"))
    assert b.done and not [r for r in b.requests() if r.kind == "card_choice"]
    assert b.told("rodrik_the_reader") == ["Greyjoy's Rodrik the Reader has no effect: every Westeros deck is empty."]


def test_aeron_damphair_adwd_offers_one_to_all_of_his_power_and_no_is_told_declined(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED, power={"greyjoy": 3})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair_adwd"), play("stark", "black_walder"))
    (asked,) = [r for r in b.requests() if r.kind == "card_choice"]
    assert [(o.amount, o.option) for o in asked.options] == [(1, None), (2, None), (3, None), (None, "no")]
    b.run(say("greyjoy", CardChoice(card="aeron_damphair_adwd", option="no")))
    assert b.done and b.told("aeron_damphair_adwd") == ["Greyjoy's Aeron Damphair has no effect: declined."]


def test_aeron_damphair_adwd_without_power_is_told_so(battle):
    state = adwd_duel("greyjoy", "stark", attack=("knight",), defend=("2 footmen",), areas=BLOCKED, power={"greyjoy": 0})
    b = battle(state, everyone(state, "greyjoy"))
    b.run(play("greyjoy", "aeron_damphair_adwd"), play("stark", "black_walder"))
    assert b.done and b.told("aeron_damphair_adwd") == ["Greyjoy's Aeron Damphair has no effect: no available power tokens."]
