"""Review of bidding on the influence tracks (R081-R097): Clash of Kings, Dark Wings, ties, tokens.

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable, OnlyOption
from adjudicator.engine.events.westeros import InfluenceTrackChanged, TieBroken
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import Bid, TieBreak, WesterosChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

BOARD = Board.classic()
THREE = ["stark", "lannister", "baratheon"]  # Iron Throne B, L, S; Fiefdoms S, B, L; King's Court L, S, B
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def position(cards: tuple[str, str, str], *, houses: list[str] = THREE, threat: int = 0) -> GameState:
    """Round 2's Westeros phase with ``cards`` on top of decks I-III."""
    s = new_game(houses, seed="review-bidding")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


CLASH = ("supply", "clash_of_kings", "web_of_lies")  # supply changes nothing at the start


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"rb{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bids(track: str, **amounts: int) -> list[dict]:
    return [answer(h, Bid(track=track, amount=n)) for h, n in amounts.items()]  # type: ignore[arg-type]


def of(events: list, cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def test_R084_a_tie_on_a_track_asks_the_holder_in_words_that_say_the_first_named_takes_the_better_place():
    """Was wrong: the prompt asked to "order the houses tied in the bidding" without saying which
    end of the order takes the better place on the track."""
    step = advance(position(CLASH), bids("iron_throne", stark=1, lannister=1, baratheon=1))
    (req,) = step.requests
    assert (req.kind, req.house, req.context["tie"]) == ("tie_break", "baratheon", "iron_throne")
    assert "the first named takes the better place" in req.prompt


def test_R085_the_old_holder_breaks_the_iron_throne_tie_and_the_new_holder_the_fiefdoms_tie():
    """The trap: the Iron Throne changes hands between the first and the second track."""
    s = position(CLASH)
    step = advance(s, [*bids("iron_throne", stark=2, lannister=2, baratheon=0),
                       answer("baratheon", TieBreak(order=("lannister", "stark"), context="iron_throne")),
                       *bids("fiefdoms", stark=1, lannister=0, baratheon=1)])
    assert step.state.tracks["iron_throne"] == ["lannister", "stark", "baratheon"]
    (req,) = step.requests
    assert (req.kind, req.house, req.context["tied"]) == ("tie_break", "lannister", ["stark", "baratheon"])
    # Baratheon's own order for the Fiefdoms tie is not read: Baratheon no longer holds the throne.
    step = advance(step.state, [answer("baratheon", TieBreak(order=("baratheon", "stark"), context="fiefdoms")),
                                answer("lannister", TieBreak(order=("stark", "baratheon"), context="fiefdoms")),
                                *bids("kings_court", stark=0, lannister=1, baratheon=0)])
    assert step.state.tracks["fiefdoms"] == ["stark", "baratheon", "lannister"]
    assert [(e.house, e.context) for e in of(step.events, TieBroken)] == [("lannister", "fiefdoms")]


def test_R087_R097_a_dominance_token_changes_hands_in_the_state_it_is_in():
    """The trap: ``used`` belongs to the token, not to the house that used it."""
    s = position(CLASH)
    s.raven_used = True  # as if the Raven had been used before a move (Doran Martell, a wildling card)
    step = advance(s, [*bids("iron_throne", stark=0, lannister=1, baratheon=2),
                       *bids("fiefdoms", stark=2, lannister=1, baratheon=0),
                       *bids("kings_court", stark=1, lannister=0, baratheon=3)])
    assert step.state.dominance()["messenger_raven"] == {"holder": "baratheon", "used": True}
    assert step.state.dominance()["valyrian_steel_blade"] == {"holder": "stark", "used": False}


def test_R089_R095_clash_of_kings_with_four_houses_fills_four_places_under_the_overlay():
    four = ["stark", "lannister", "baratheon", "greyjoy"]
    s = position(CLASH, houses=four)
    assert s.kings_court_overlay
    step = advance(s, [*bids("iron_throne", stark=0, lannister=1, baratheon=2, greyjoy=3),
                       *bids("fiefdoms", stark=4, lannister=3, baratheon=2, greyjoy=0),
                       *bids("kings_court", stark=0, lannister=1, baratheon=0, greyjoy=1),
                       answer("greyjoy", TieBreak(order=("greyjoy", "lannister", "stark", "baratheon")))])
    assert step.requests == []
    assert step.state.tracks == {"iron_throne": ["greyjoy", "baratheon", "lannister", "stark"],
                                 "fiefdoms": ["stark", "lannister", "baratheon", "greyjoy"],
                                 "kings_court": ["greyjoy", "lannister", "stark", "baratheon"]}
    assert [step.state.stars(h, BOARD) for h in step.state.tracks["kings_court"]] == [3, 2, 1, 0]


def test_R082_a_bid_sent_before_the_attack_at_12_spent_the_power_is_refused_and_changes_nothing():
    """The trap: a bid is judged against the power left when its track is bid on."""
    s = position(("last_days_of_summer", "clash_of_kings", "web_of_lies"), threat=8)
    s.wildling_deck.remove("silence_at_the_wall")
    s.wildling_deck.insert(0, "silence_at_the_wall")
    step = advance(s, [*bids("wildlings", stark=5, lannister=4, baratheon=3),  # the attack at 12
                       *bids("iron_throne", stark=3, lannister=1, baratheon=2)])
    refused = [e for e in of(step.events, AnswerUnusable) if e.house == "stark"]
    assert [e.reason for e in refused] == ['the only legal answer, "bid iron throne 0", was taken without asking; '
                                           "a bid of 3 is more than your 0 available power (R082)"]
    assert any(isinstance(e, OnlyOption) and e.house == "stark" for e in step.events)  # 0, unasked
    assert step.state.houses["stark"].power == 0 and step.state.houses["lannister"].power == 0
    assert step.state.tracks["iron_throne"] == ["baratheon", "lannister", "stark"]


def test_R047_dark_wings_bid_is_a_clash_of_kings_on_all_three_tracks():
    s = position(("supply", "dark_wings_dark_words", "web_of_lies"))
    step = advance(s, [answer("lannister", WesterosChoice(card="dark_wings_dark_words", option="bid")),
                       *bids("iron_throne", stark=3, lannister=0, baratheon=1),
                       *bids("fiefdoms", stark=0, lannister=2, baratheon=1),
                       *bids("kings_court", stark=1, lannister=0, baratheon=2)])
    assert step.requests == []
    assert [(e.track, e.order[0]) for e in of(step.events, InfluenceTrackChanged)] == [
        ("iron_throne", "stark"), ("fiefdoms", "lannister"), ("kings_court", "baratheon")]
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 1, "lannister": 3, "baratheon": 1}
