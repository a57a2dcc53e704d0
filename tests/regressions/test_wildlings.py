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

from adjudicator.cards.data import CARDS
from adjudicator.commands import Bid, TieBreak, WildlingChoice
from adjudicator.events.westeros import (
    TieBroken,
    WildlingBidderNamed,
    WildlingCardBuried,
    WildlingCardRevealed,
    WildlingThreatMoved,
)
from adjudicator.rules import machine, westeros
from adjudicator.rules.common import PowerChanged
from adjudicator.rules.machine import NeedAnswers, advance, pool_entry
from adjudicator.setup import new_game
from adjudicator.state import GameState

HOUSES = ["stark", "lannister", "baratheon"]  # Iron Throne: baratheon, lannister, stark
_ids = itertools.count()


def _stop(ctx: machine.Context) -> None:
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
