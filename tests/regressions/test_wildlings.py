"""Review of the wildling attack and the nine wildling cards (R098-R111, rulings 65-71, 74, 76).

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.

Every attack here comes from the Wildlings Attack card of deck III, after deck II's Last Days of
Summer moved the threat one space: an attack's strength is the threat set here plus 2. Three
houses, each with 5 power; turn order Baratheon, Lannister, Stark.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events.westeros import (
    WildlingBidderNamed,
    WildlingCardBuried,
    WildlingCardRevealed,
    WildlingThreatMoved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import Bid, TieBreak
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

HOUSES = ["stark", "lannister", "baratheon"]  # Iron Throne: baratheon, lannister, stark
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def attack_at(strength: int, card: str, *, deck_one: str = "supply") -> GameState:
    """Round 2's Westeros phase: the Wildlings Attack card attacks at ``strength``, ``card`` on top."""
    s = new_game(HOUSES, seed="review-wildlings")
    s.round, s.phase, s.wildling_threat = 2, "westeros", strength - 2
    for deck, c in enumerate((deck_one, "last_days_of_summer", "wildlings_attack"), 1):
        s.westeros_decks[str(deck)].remove(c)
        s.westeros_decks[str(deck)].insert(0, c)
    s.wildling_deck.remove(card)
    s.wildling_deck.insert(0, card)
    return s


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"rw{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bids(**amounts: int) -> list[dict]:
    return [answer(h, Bid(track="wildlings", amount=n)) for h, n in amounts.items()]


def of(events: list, cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


# --- what the report says -------------------------------------------------------------------


def test_R106_the_revealed_card_says_which_side_of_it_applies_in_plain_words():
    """Was wrong: a Night's Watch victory was reported as "the reward apply"."""
    assert (WildlingCardRevealed(card="mammoth_riders", nights_watch_won=True).describe()
            == "Wildling card: Mammoth Riders; the Night's Watch reward applies.")
    assert (WildlingCardRevealed(card="mammoth_riders", nights_watch_won=False).describe()
            == "Wildling card: Mammoth Riders; the wildling penalties apply.")


def test_R107_a_tie_for_lowest_bidder_asks_the_holder_in_words_that_say_the_last_named_is_lowest():
    """Was wrong: the Iron Throne holder was asked to "order the houses tied in the bidding for the
    Night's Watch", without being told that the tie is for the lowest bid or which end of the
    order takes the severe penalty, so the answer could not be written with confidence."""
    step = advance(attack_at(6, "skinchanger_scout"), bids(stark=1, lannister=1, baratheon=3))
    (req,) = step.requests
    assert (req.kind, req.house, req.context["tied"]) == ("tie_break", "baratheon", ["lannister", "stark"])
    assert "lowest" in req.prompt and "the last named is the lowest bidder" in req.prompt
    step = advance(step.state, [answer("baratheon", TieBreak(order=("lannister", "stark"), context="wildlings"))])
    assert [e.house for e in of(step.events, WildlingBidderNamed)] == ["stark"]


def test_R107_a_tie_for_highest_bidder_asks_the_holder_in_words_that_say_the_first_named_is_highest():
    """Was wrong: as for the lowest bidder, the prompt did not say the tie was for the highest
    bid, nor that the first house named takes the Night's Watch reward."""
    step = advance(attack_at(6, "skinchanger_scout"), bids(stark=3, lannister=3, baratheon=0))
    (req,) = step.requests
    assert req.kind == "tie_break" and req.context["tied"] == ["lannister", "stark"]
    assert "highest" in req.prompt and "the first named is the highest bidder" in req.prompt
    step = advance(step.state, [answer("baratheon", TieBreak(order=("stark", "lannister"), context="wildlings"))])
    assert [e.house for e in of(step.events, WildlingBidderNamed)] == ["stark"]
    assert step.state.houses["stark"].power == 5  # its 3 came back (Skinchanger Scout)


# --- every card, both outcomes ------------------------------------------------------------------

WATCH = dict(stark=0, lannister=4, baratheon=0)  # 4 against 4: the Night's Watch holds
WILDLINGS = dict(stark=1, lannister=0, baratheon=1)  # 2 against 4: the wildlings win


@pytest.mark.parametrize("won", [True, False], ids=["watch", "wildlings"])
@pytest.mark.parametrize("card", sorted(CARDS.wildling_cards))
def test_R104_R108_every_card_at_its_deadline_defaults_leaves_a_sound_game_and_goes_to_the_bottom(card, won):
    """The trap: each card's choices, defaults and threat move, for both outcomes, in one sweep."""
    from adjudicator.engine.invariants import check_invariants

    s = attack_at(4, card)
    step = advance(s, bids(**(WATCH if won else WILDLINGS)), deadline=True)
    assert step.state.phase == "planning" and step.requests == []
    # The planning phase is a stand-in that asks nothing: the only invariant it breaks is "stuck".
    assert [p for p in check_invariants(step.state) if not p.startswith("the game is stuck")] == []
    assert step.state.wildling_deck[-1] == card and len(step.state.wildling_deck) == 9
    assert [e.nights_watch_won for e in of(step.events, WildlingCardRevealed)][:1] == [won]
    if card != "preemptive_raid" or not won:  # Preemptive Raid's reward is a second attack
        # a watch victory resets to 0; a wildling victory at 4 moves back two spaces, to 0 as well
        assert [(e.old, e.new) for e in of(step.events, WildlingThreatMoved)][-1] == (4, 0)


def test_R106_the_highest_bidder_of_a_wildling_victory_takes_the_lesser_penalty():
    """The trap: "everyone else" includes the house that bid most."""
    step = advance(attack_at(6, "skinchanger_scout"), bids(stark=3, lannister=0, baratheon=1))
    assert [e.house for e in of(step.events, WildlingBidderNamed)] == ["lannister"]
    losses = [(e.house, e.amount) for e in of(step.events, PowerChanged) if e.cause == "Skinchanger Scout"]
    assert losses == [("lannister", -5), ("baratheon", -2), ("stark", -2)]  # lowest first, then turn order


def test_R104_a_wildling_victory_near_the_bottom_moves_the_threat_back_to_0_not_below():
    step = advance(attack_at(4, "silence_at_the_wall"), bids(stark=0, lannister=0, baratheon=0))
    assert [(e.old, e.new) for e in of(step.events, WildlingThreatMoved)][-1] == (4, 0)
    step = advance(attack_at(8, "silence_at_the_wall"), bids(stark=0, lannister=0, baratheon=0))
    assert [(e.old, e.new) for e in of(step.events, WildlingThreatMoved)][-1] == (8, 4)


def test_R108_the_card_is_buried_after_the_threat_moves_and_the_next_attack_draws_the_next_card():
    s = attack_at(4, "silence_at_the_wall")
    top_after = s.wildling_deck[1]
    step = advance(s, bids(stark=0, lannister=0, baratheon=0))
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("WildlingThreatMoved", kinds.index("WildlingCardRevealed")) < kinds.index("WildlingCardBuried")
    assert step.state.wildling_deck[0] == top_after and step.state.wildling_deck[-1] == "silence_at_the_wall"
    assert [e.card for e in of(step.events, WildlingCardBuried)] == ["silence_at_the_wall"]


def test_skinchanger_scout_a_house_without_power_is_not_reported_as_gaining_power():
    """Was wrong: a house with no power left to discard was reported as "Stark gains 0 power
    (Skinchanger Scout)", for the severe and the lesser penalty alike."""
    s = attack_at(6, "skinchanger_scout")
    s.houses["stark"].power = 0
    s.houses["lannister"].power = 0
    step = advance(s, bids(lannister=0, baratheon=3))  # Stark bids 0 unasked; Lannister bid least
    step = advance(step.state, [answer("baratheon", TieBreak(order=("stark", "lannister"), context="wildlings"))])
    text = [e.describe() for e in step.events if getattr(e, "house", None) in ("stark", "lannister")]
    assert not [t for t in text if " gains " in t]
    assert "Skinchanger Scout: Lannister has no power to discard." in text
    assert "Skinchanger Scout: Stark has no power to discard." in text
    assert [(e.house, e.amount) for e in of(step.events, PowerChanged) if e.cause == "Skinchanger Scout"] == [
        ("baratheon", -2)]


def test_ruling_78_two_wildling_bids_sent_together_answer_the_two_attacks_in_the_order_written():
    """Was wrong: with two attacks in one phase (the threat reaching 12, then the Wildlings Attack
    card, R041), a house that wrote "bid wildlings 3" then "bid wildlings 1" had its bids swapped:
    the newest line answered the first attack and the older one the second."""
    s = attack_at(10, "silence_at_the_wall", deck_one="last_days_of_summer")  # 8 + 2 icons: 12 at once
    s.wildling_deck.remove("rattleshirts_raiders")
    s.wildling_deck.insert(1, "rattleshirts_raiders")
    step = advance(s, [answer("stark", Bid(track="wildlings", amount=3)), answer("stark", Bid(track="wildlings", amount=1)),
                       *bids(lannister=0, baratheon=0), *bids(lannister=0, baratheon=0)])
    assert [e.strength for e in step.events if type(e).__name__ == "WildlingAttackBegins"] == [12, 8]
    assert [dict(e.bids)["stark"] for e in step.events if type(e).__name__ == "BidsRevealed"] == [3, 1]


def test_ruling_78_a_bid_the_house_cannot_pay_is_refused_and_the_next_one_is_read():
    s = attack_at(6, "silence_at_the_wall")
    step = advance(s, [answer("stark", Bid(track="wildlings", amount=9)), answer("stark", Bid(track="wildlings", amount=2)),
                       *bids(lannister=0, baratheon=0)])
    assert [e.reason for e in step.events if type(e).__name__ == "AnswerUnusable"] == [
        "a bid of 9 is more than your 5 available power (R101)"]
    assert [dict(e.bids)["stark"] for e in step.events if type(e).__name__ == "BidsRevealed"] == [2]


def test_ruling_78_the_refusal_of_a_bid_the_house_cannot_pay_names_that_line_and_is_its_own():
    """The refusal names the pool id of the very line refused (the receipt and report tell the player
    which of its bids was not read), and only its house sees it: a bid is secret (R086)."""
    s = attack_at(6, "silence_at_the_wall")
    unpayable, payable = answer("stark", Bid(track="wildlings", amount=9)), answer("stark", Bid(track="wildlings", amount=2))
    step = advance(s, [unpayable, payable, *bids(lannister=0, baratheon=0)])
    refused = [e for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert [(e.house, e.ids, e.visible_to) for e in refused] == [("stark", (unpayable["id"],), "stark")]


def test_ruling_78_the_refusal_is_shown_while_waiting_and_told_once_when_the_bids_are_taken():
    s = attack_at(6, "rattleshirts_raiders")
    step = advance(s, [answer("stark", Bid(track="wildlings", amount=9)), answer("stark", Bid(track="wildlings", amount=2))])
    reasons = [e.reason for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert reasons == ["a bid of 9 is more than your 5 available power (R101)"]  # while the others think
    assert sorted(r.house for r in step.requests) == ["baratheon", "lannister"]
    step = advance(step.state, bids(lannister=0, baratheon=1))  # 3 against 6: the wildlings win
    reasons = [e.reason for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert reasons == ["a bid of 9 is more than your 5 available power (R101)"]
    assert [dict(e.bids) for e in step.events if type(e).__name__ == "BidsRevealed"] == [
        {"baratheon": 1, "lannister": 0, "stark": 2}]
    assert all(e.visible_to == "stark" for e in step.events if type(e).__name__ == "AnswerUnusable")
    assert step.state.answers == []  # both of Stark's bids are used up
