"""Review of bidding on the influence tracks (R081-R097): Clash of Kings, Dark Wings, ties, tokens.

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.board import Board
from adjudicator.commands import Bid, TieBreak, WesterosChoice
from adjudicator.events import AnswerUnusable, OnlyOption
from adjudicator.events.westeros import InfluenceTrackChanged, TieBroken
from adjudicator.rules import machine, westeros
from adjudicator.rules.machine import NeedAnswers, advance, pool_entry
from adjudicator.setup import new_game
from adjudicator.state import GameState

BOARD = Board.classic()
THREE = ["stark", "lannister", "baratheon"]  # Iron Throne B, L, S; Fiefdoms S, B, L; King's Court L, S, B
_ids = itertools.count()


def _stop(ctx: machine.Context) -> None:
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
