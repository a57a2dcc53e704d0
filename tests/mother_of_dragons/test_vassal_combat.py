"""Combat with vassals (M057-M062, rulings 235-241): the commander fights for its vassal with the
shared vassal deck, may use the Blade for it, and gains 1 power when it wins."""

from __future__ import annotations

from rules.test_combat_harness import Assault, play, say

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events import OnlyOption
from adjudicator.engine.events.combat import BladeUsed, CombatResolved, HouseCardsDiscarded, SupportRefused, TidesDrawn
from adjudicator.engine.events.vassals import (
    CommanderRewarded,
    VassalCardsDrawn,
    VassalDeckShuffled,
    VassalHandShown,
)
from adjudicator.engine.rules.vassal_combat import free_vassal_cards
from adjudicator.folder.check import check_turn_file
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import PlayCard, RefuseSupport, Support, UseBlade
from adjudicator.game.state import Order
from adjudicator.turnfile.parser import parse_turn_file
from mother_of_dragons.vassal_battles import (
    COMMANDERS,
    ON_THE_REACH,
    battle,  # noqa: F401 (a fixture)
    drawn,
    fight,
    for_vassal,
    quiet,
    rig,
    stark_attacks_the_reach,
    vassal_plays,
)
from mother_of_dragons.vassal_helpers import mod_game


def test_M057_the_commander_takes_every_decision_of_its_vassals_combat(battle):
    b = battle(stark_attacks_the_reach(defend=("footman", "knight")), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    assert b.asked() == [("house_card", "lannister")]  # Tyrell's card, put to Lannister (M030)
    assert b.requests()[0].vassal == "tyrell" and b.requests()[0].prompt.startswith("for Tyrell: ")
    b.run(vassal_plays("tyrell", quiet(b)))
    asked = []
    while not b.done:  # casualties, retreat: each put to Lannister for Tyrell, taken at its deadline
        asked += [(r.kind, r.house, r.vassal) for r in b.requests()]
        keys = {r.key for r in b.requests()}
        b.run(deadline=lambda r, keys=keys: r.key in keys)
    assert ("casualties", "lannister", "tyrell") in asked and ("retreat", "lannister", "tyrell") in asked
    assert all(house == "lannister" and vassal == "tyrell" for _, house, vassal in asked)
    assert b.units("the_reach") == ["knight"] and not b.unusable()


def test_M057_the_commander_refuses_support_offered_to_its_vassal(battle):
    # Baratheon supports Tyrell from Kingswood; Lannister turns it down for Tyrell (R180)
    state = stark_attacks_the_reach(areas='kingswood = { units = ["baratheon knight"], order = "support+0" }')
    b = battle(state, ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), say("baratheon", Support(side="tyrell")),
          for_vassal("tyrell", RefuseSupport(supporter="baratheon")))
    b.run(vassal_plays("tyrell", quiet(b)), deadline=True)
    assert [(e.house, e.supporter) for e in b.of(SupportRefused)] == [("tyrell", "baratheon")]
    assert not [p for p, _ in b.of(CombatResolved)[0].defender_strength if p.startswith("support:")]


def test_M058_the_commander_draws_three_vassal_cards_and_plays_one_of_them(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    cards = drawn(b)
    assert len(cards) == 3 and set(cards) <= set(CARDS.vassal_deck())
    assert [o.card for o in b.requests()[0].options] == list(cards)
    not_drawn = next(c for c in CARDS.vassal_deck() if c not in cards)
    b.run(vassal_plays("tyrell", not_drawn), vassal_plays("tyrell", "eddard_stark"))
    assert b.asked() == [("house_card", "lannister")]
    refused = b.unusable("lannister")
    assert any("was not drawn for Tyrell in this combat" in r and r.endswith("(M058)") for r in refused)
    assert any("is not a vassal house card" in r for r in refused)
    b.run(vassal_plays("tyrell", cards[1]), deadline=True)
    resolved = b.of(CombatResolved)[0]
    assert resolved.defender_card == cards[1]
    shown = b.of(VassalHandShown)[0]  # the other two are the vassal's hand, open once revealed (ruling 236)
    assert shown.is_public() and shown.cards == (cards[0], cards[2])


def test_M058_ruling_236_the_drawn_cards_are_the_commanders_secret_while_it_chooses(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    event = b.of(VassalCardsDrawn)[0]
    assert event.visible_to == "lannister" and event.commander == "lannister"
    assert not b.of(VassalHandShown)  # nothing public before the reveal
    saved = b.state.to_dict()  # the waiting game, as a public report reads it: no vassal holds a card
    assert saved["houses"]["tyrell"].get("hand", []) == [] and not b.state.check()


def test_M058_ruling_236_an_unanswered_vassal_card_defaults_to_the_weakest_drawn(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    cards = drawn(b)
    b.run(deadline=True)
    weakest = min(cards, key=lambda c: (CARDS.house_cards[c].strength, c))
    assert b.of(CombatResolved)[0].defender_card == weakest


def test_M058_ruling_235_two_vassals_draw_from_the_one_deck_the_attacker_first(battle):
    # Martell (Arryn's vassal) marches from the Boneway into Tyrell's Dornish Marches
    state = fight("martell", "tyrell", area="dornish_marches", origin="the_boneway", token="vassal_march")
    b = battle(state, Assault("dornish_marches", "martell", "the_boneway", ("knight",)))
    b.run()
    first, second = b.of(VassalCardsDrawn)
    assert (first.vassal, first.commander, second.vassal, second.commander) == ("martell", "arryn", "tyrell", "lannister")
    assert not set(first.cards) & set(second.cards)
    assert sorted(b.asked()) == [("house_card", "arryn"), ("house_card", "lannister")]
    b.run(deadline=True)
    assert b.done and len(b.of(VassalDeckShuffled)) == 2


def test_M059_every_draw_is_from_the_whole_deck_of_seven(battle):
    """The deck is whole before each draw (M059, M061), shuffled by the game's seeded generator."""
    assert free_vassal_cards({}, []) == CARDS.vassal_deck() and len(CARDS.vassal_deck()) == 7
    assert free_vassal_cards({"martell": ["bronn", "varys", "jaqen_hghar"]}, []) == [
        "beric_dondarrion", "janos_slynt", "jon_connington", "syrio_forel"]
    twice = [Assault("the_reach", "stark", "blackwater", ("knight",)), Assault("highgarden", "stark", "the_reach", ("knight",))]
    state = stark_attacks_the_reach(areas='highgarden = { units = ["tyrell footman"] }')
    b = battle(state, *twice)
    b.run(play("stark", "eddard_stark"), play("stark", "robb_stark"), deadline=True)
    hands = [e.cards for e in b.of(VassalCardsDrawn)]
    assert len(hands) == 2 and all(len(h) == 3 for h in hands)
    again = battle(stark_attacks_the_reach(areas='highgarden = { units = ["tyrell footman"] }'), *twice)
    again.run(play("stark", "eddard_stark"), play("stark", "robb_stark"), deadline=True)
    assert [e.cards for e in again.of(VassalCardsDrawn)] == hands  # reproducible from the seed


def test_M060_a_commander_holding_the_blade_may_use_it_for_its_vassal(battle):
    b = battle(stark_attacks_the_reach(first="lannister"), ON_THE_REACH)  # Lannister holds the Blade
    b.run(play("stark", "eddard_stark"), vassal_plays("tyrell", "janos_slynt"))
    cards = drawn(b)
    b.run(vassal_plays("tyrell", cards[0]))
    assert ("blade", "lannister") in b.asked() and b.requests()[0].vassal == "tyrell"
    b.run(for_vassal("tyrell", UseBlade(use=True)), deadline=True)
    assert [(e.house, e.effect, e.vassal) for e in b.of(BladeUsed)] == [("lannister", "+1", "tyrell")]
    # was "Lannister uses the Valyrian Steel Blade in The Reach for +1 combat strength.", of a combat
    # Lannister is not in: the public line now says for whom
    assert b.of(BladeUsed)[0].describe() == ("Lannister uses the Valyrian Steel Blade for its vassal Tyrell in The "
                                             "Reach, for +1 combat strength (M060).")
    assert ("blade", 1) in b.of(CombatResolved)[0].defender_strength
    assert b.state.blade_used  # ruling 239: the round's one use


def test_M060_ruling_239_a_used_blade_is_not_offered_for_the_vassal(battle):
    state = stark_attacks_the_reach(first="lannister")
    state.blade_used = True
    b = battle(state, ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), for_vassal("tyrell", UseBlade(use=True)))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    assert not b.of(BladeUsed)
    assert any("already been used this round" in r for r in b.unusable("lannister"))


def test_M060_a_commander_without_the_blade_cannot_use_it_for_its_vassal(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)  # Baratheon holds it
    b.run(play("stark", "eddard_stark"), for_vassal("tyrell", UseBlade(use=True)))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    assert not b.of(BladeUsed)
    assert any("may use it for Tyrell, and Baratheon holds it, not Lannister (M060, R199)" in r
               for r in b.unusable("lannister"))
    assert not [e for e in b.of(OnlyOption) if "Valyrian Steel Blade" in e.decision]  # never asked, never said


def test_M060_ruling_241_the_commander_sees_its_vassals_tides_of_battle_card(battle):
    state = stark_attacks_the_reach(areas='[options]\ntides_of_battle = true\ntides_reshuffle_each_combat = false\n'
                                          '[decks]\ntides = ["blank", "blank", "blank"]')
    b = battle(state, ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    seen = {e.house: e.visible_to for e in b.of(TidesDrawn)}
    assert seen == {"stark": "stark", "tyrell": "lannister"}


def test_M061_every_vassal_card_goes_back_to_the_deck_at_clean_up(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    card = drawn(b)[0]
    b.run(vassal_plays("tyrell", card), deadline=True)
    assert b.done
    assert [e.vassal for e in b.of(VassalDeckShuffled)] == ["tyrell"]
    assert [e.cards for e in b.of(HouseCardsDiscarded)] == [("eddard_stark",)]  # Tyrell's card is not discarded
    tyrell = b.state.houses["tyrell"]
    assert (tyrell.hand, tyrell.discards) == ([], []) and not b.state.check()


def test_M062_a_vassal_that_wins_as_defender_earns_its_commander_one_power(battle):
    b = battle(stark_attacks_the_reach(attack=("footman",), defend=("2 knights",)),
               Assault("the_reach", "stark", "blackwater", ("footman",)))
    before = b.state.houses["lannister"].power
    b.run(play("stark", "catelyn_stark"))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    assert b.of(CombatResolved)[0].winner == "tyrell"
    assert [(e.vassal, e.commander) for e in b.of(CommanderRewarded)] == [("tyrell", "lannister")]
    assert [e.amount for e in b.of(PowerChanged) if e.house == "lannister"] == [1]
    assert b.state.houses["lannister"].power == before + 1


def test_M062_the_commander_s_reward_is_told_as_one_gain_of_one_power(battle):
    """Was two lines, "Lannister gains 1 power for Tyrell's victory." and "Lannister gains 1 power
    (Tyrell's victory, M062); now N.", which read as 2 power: the amount is said once."""
    b = battle(stark_attacks_the_reach(attack=("footman",), defend=("2 knights",)),
               Assault("the_reach", "stark", "blackwater", ("footman",)))
    b.run(play("stark", "catelyn_stark"))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    told = [e.describe() for e in b.of(CommanderRewarded) + b.of(PowerChanged) if "M062" in e.describe()]
    assert told[0] == "Tyrell won as Lannister's vassal: Lannister earns the commander's reward (M062)."
    assert [t for t in told if "gains" in t] == [f"Lannister gains 1 power (Tyrell's victory, M062); now "
                                                 f"{b.state.houses['lannister'].power}."]


def test_M062_a_vassal_that_wins_as_attacker_earns_its_commander_one_power(battle):
    state = fight("tyrell", "stark", area="the_reach", origin="highgarden", token="vassal_march",
                  attack=("2 knights",), defend=("footman",))
    b = battle(state, Assault("the_reach", "tyrell", "highgarden", ("knight", "knight")))
    b.run(play("stark", "catelyn_stark"))
    b.run(deadline=True)
    assert b.of(CombatResolved)[0].winner == "tyrell"
    assert [e.commander for e in b.of(CommanderRewarded)] == ["lannister"]


def test_M062_a_vassal_that_loses_earns_nothing(battle):
    b = battle(stark_attacks_the_reach(attack=("3 knights",)), Assault("the_reach", "stark", "blackwater", ("knight",) * 3))
    b.run(play("stark", "eddard_stark"), deadline=True)
    assert b.of(CombatResolved)[0].winner == "stark" and not b.of(CommanderRewarded)


def test_M062_ruling_237_a_vassal_destroying_a_neutral_force_earns_nothing(battle):
    state = fight("tyrell", "stark", area="kings_landing", origin="blackwater", token="vassal_march",
                  attack=("3 knights", "2 footmen"), defend=(), areas="kings_landing = { neutral_force = 5 }")
    b = battle(state, Assault("kings_landing", "tyrell", "blackwater", ("knight",) * 3 + ("footman",) * 2))
    b.run(deadline=True)
    assert b.results()[0].attacker_won and not b.of(CommanderRewarded) and not b.of(VassalCardsDrawn)


def test_M057_the_commanders_answers_for_one_vassal_never_play_for_another(battle):
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), say("lannister", PlayCard(card="janos_slynt")))
    assert b.asked() == [("house_card", "lannister")]  # a line without 'for tyrell:' is Lannister's own
    assert COMMANDERS["tyrell"] == "lannister"


def test_M058_maester_check_sends_a_vassal_card_to_the_for_vassal_line():
    state = mod_game(["stark", "lannister", "baratheon"])
    head = "game game · house lannister · round 1 · planning · seq 1\n"
    checked = check_turn_file(parse_turn_file(head + "play bronn\nbronn: pay\njon connington: highgarden\n"
                                              "for tyrell: play bronn\nfor tyrell: jon connington: highgarden\n",
                                              variant=state.variant), state, engine=False)
    problems = [(p.where.line, p.code, p.message) for p in checked.problems]
    assert [(line, code) for line, code, _ in problems] == [(2, "E409"), (4, "E409")]
    assert "for VASSAL: play Bronn' (M058)" in problems[0][2]
    assert "for VASSAL: Jon Connington: ...' (M058)" in problems[1][2]


def test_M057_the_commander_declares_its_vassals_support(battle):
    # Greyjoy's Raid/Support, kept as a support order in the Searoad Marches next to The Reach (M047):
    # Lannister declares it for Tyrell, which it also commands
    state = stark_attacks_the_reach(areas='searoad_marches = { units = ["greyjoy footman"] }')
    state.area_mut("searoad_marches").order = Order("greyjoy", "vassal_support")  # no position writes a kept token
    b = battle(state, ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    assert [(r.kind, r.house, r.vassal) for r in b.requests()] == [("support", "lannister", "greyjoy")]
    b.run(for_vassal("greyjoy", Support(side="tyrell")))
    b.run(vassal_plays("tyrell", quiet(b)), deadline=True)
    assert ("support:greyjoy:searoad_marches", 2) in b.of(CombatResolved)[0].defender_strength  # footman, +1 (M048)


def test_M058_the_three_cards_drawn_for_a_vassal_are_shown_strongest_first_then_by_name(battle, monkeypatch):
    rig(monkeypatch, ("varys", "syrio_forel", "jaqen_hghar"))
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    assert drawn(b) == ("jaqen_hghar", "syrio_forel", "varys")  # strengths 1, 1, 0
    rig(monkeypatch, ("varys", "janos_slynt", "bronn"))
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    assert drawn(b) == ("bronn", "janos_slynt", "varys")  # 4, 2, 0
    rig(monkeypatch, ("varys", "beric_dondarrion", "bronn"))
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"))
    assert drawn(b) == ("bronn", "beric_dondarrion", "varys")  # 4, 3, 0: by strength, not by name


def test_M058_ruling_361_the_first_card_of_the_commanders_preference_drawn_for_the_vassal_is_played(battle):
    """Sent ahead, before the cards are drawn: a line for each vassal card (ruling 361)."""
    deck = list(CARDS.vassal_deck())
    b = battle(stark_attacks_the_reach(), ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), for_vassal("tyrell", *(PlayCard(card=c) for c in deck)))
    assert ("house_card", "lannister") not in b.asked()
    b.run(deadline=True)
    preferred = next(c for c in reversed(deck) if c in drawn(b))  # the newest line that fits is used
    assert b.of(CombatResolved)[0].defender_card == preferred


def test_M060_ruling_239_a_used_blade_asked_for_the_vassal_is_refused_with_its_reason_alone(battle):
    """Taken at once, not asked: the refusal says why (R093), not that an only option was taken."""
    state = stark_attacks_the_reach(first="lannister")
    state.blade_used = True
    b = battle(state, ON_THE_REACH)
    b.run(play("stark", "eddard_stark"), for_vassal("tyrell", UseBlade(use=True)))
    b.run(vassal_plays("tyrell", drawn(b)[0]), deadline=True)
    assert b.unusable("lannister") == ["the Valyrian Steel Blade has already been used this round (R093)"]
