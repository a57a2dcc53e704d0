"""The step machine itself, driven by a toy phase so that only the machine is under test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import (
    NOT_APPLICABLE,
    Ask,
    Context,
    Request,
    pool_entry,
)
from adjudicator.engine.events import Event
from adjudicator.engine.machine import advance
from adjudicator.game.commands import Bid, Command
from adjudicator.game.setup import new_game


@dataclass(frozen=True, slots=True, kw_only=True)
class Noted(Event):
    house: str
    amount: int

    def describe(self) -> str:
        return f"{self.house} bid {self.amount}"


def _bid_check(track: str, limit: int):
    def check(cmd: Command):
        if not isinstance(cmd, Bid) or cmd.track != track:
            return NOT_APPLICABLE
        if cmd.amount > limit:
            return f"a bid of {cmd.amount} is more than the {limit} power available (R082)"
        return None

    return check


def _toy_planning(ctx: Context) -> None:
    """Two sequential bids from stark, then one simultaneous bid from everyone."""
    st = ctx.state
    for track in ("iron_throne", "fiefdoms"):
        req = Request(key=ctx.key("bid", "stark"), kind="bid", house="stark", prompt=f"bid for {track}",
                      default=Bid(track=track, amount=0))
        cmd = ctx.ask(Ask(req, _bid_check(track, st.houses["stark"].power)))
        assert isinstance(cmd, Bid)
        st.houses["stark"].power -= cmd.amount
        ctx.emit(Noted(house="stark", amount=cmd.amount))
    asks = []
    for house in st.turn_order():
        req = Request(key=ctx.key("bid", house), kind="bid", house=house, prompt="bid wildlings",
                      default=Bid(track="wildlings", amount=0), secret=True)
        asks.append(Ask(req, _bid_check("wildlings", st.houses[house].power)))
    for house, cmd in zip(st.turn_order(), ctx.ask_all(asks)):
        assert isinstance(cmd, Bid)
        ctx.emit(Noted(house=house, amount=cmd.amount))
    st.phase = "game_over"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(machine, "_runners", lambda: {"planning": _toy_planning})
    monkeypatch.setattr(machine, "lapsed", lambda *args: None)  # the toy asks for bids in its planning phase
    return new_game(["stark", "lannister", "baratheon"], seed="m")


def entry(n: int, house: str, cmd: Command) -> dict:
    return pool_entry(id=f"{house}/1.planning/seq1/L{n}", house=house, round=1, command=cmd, text=repr(cmd))


def test_stops_at_first_missing_answer_and_names_it(toy):
    step = advance(toy)
    assert [r.key for r in step.requests] == ["r1.planning.1.bid.stark"]
    assert step.state.pending[0]["house"] == "stark"
    assert toy.segment is None, "advance must not change its input"


def test_answers_resume_by_replay_without_repeating_events(toy):
    s1 = advance(toy, [entry(1, "stark", Bid(track="iron_throne", amount=2))])
    assert [e.amount for e in s1.events if isinstance(e, Noted)] == [2]
    assert s1.requests[0].prompt == "bid for fiefdoms"
    s2 = advance(s1.state, [entry(2, "stark", Bid(track="fiefdoms", amount=1))])
    assert [e.amount for e in s2.events if isinstance(e, Noted)] == [1], "earlier events are not re-emitted"
    assert s2.state.houses["stark"].power == 2
    assert {r.house for r in s2.requests} == {"stark", "lannister", "baratheon"}


def test_standing_answers_resolve_a_whole_phase_in_one_batch(toy):
    answers = [entry(1, "stark", Bid(track="fiefdoms", amount=1)), entry(2, "stark", Bid(track="iron_throne", amount=3))]
    answers += [entry(3, h, Bid(track="wildlings", amount=0)) for h in ("stark", "lannister", "baratheon")]
    step = advance(toy, answers)
    assert step.requests == [] and step.state.phase == "game_over"
    assert step.state.houses["stark"].power == 1


def test_illegal_answer_is_reported_and_the_request_stays_open(toy):
    step = advance(toy, [entry(1, "stark", Bid(track="iron_throne", amount=9))])
    assert step.requests and step.requests[0].prompt == "bid for iron_throne"
    unusable = [e for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert len(unusable) == 1 and "R082" in unusable[0].reason and unusable[0].visible_to == "stark"
    assert step.state.houses["stark"].power == 5


def test_newest_answer_wins(toy):
    step = advance(toy, [entry(1, "stark", Bid(track="iron_throne", amount=1)), entry(2, "stark", Bid(track="iron_throne", amount=4))])
    assert step.state.houses["stark"].power == 1


def test_simultaneous_decisions_record_nothing_until_all_are_in(toy):
    s = advance(toy, [entry(1, "stark", Bid(track="iron_throne", amount=0)), entry(2, "stark", Bid(track="fiefdoms", amount=0)),
                      entry(3, "stark", Bid(track="wildlings", amount=1))])
    assert {r.house for r in s.requests} == {"lannister", "baratheon"}
    # stark may still change its secret bid while the others have not answered
    s = advance(s.state, [entry(4, "stark", Bid(track="wildlings", amount=2)), entry(5, "lannister", Bid(track="wildlings", amount=0))])
    assert [r.house for r in s.requests] == ["baratheon"]
    s = advance(s.state, [entry(6, "baratheon", Bid(track="wildlings", amount=3))])
    assert [e.amount for e in s.events if isinstance(e, Noted)] == [3, 0, 2]  # turn order: baratheon, lannister, stark


def test_deadline_fills_every_open_decision_with_its_default(toy):
    step = advance(toy, deadline=True)
    assert step.requests == [] and step.state.phase == "game_over"
    defaults = [e for e in step.events if type(e).__name__ == "DefaultUsed"]
    assert len(defaults) == 5


def test_state_round_trips_through_toml_mid_phase(toy):
    from adjudicator.game.state import GameState

    s1 = advance(toy, [entry(1, "stark", Bid(track="iron_throne", amount=2))])
    again = GameState.from_toml(s1.state.to_toml())
    assert again == s1.state
    s2 = advance(again, [entry(2, "stark", Bid(track="fiefdoms", amount=1))])
    assert s2.state.houses["stark"].power == 2


def test_deadline_for_named_requests_defaults_only_those(toy):
    first = advance(toy)
    step = advance(first.state, deadline=frozenset(r.key for r in first.requests))
    assert [e.decision for e in step.events if type(e).__name__ == "DefaultUsed"] == ["bid for iron_throne"]
    assert [r.prompt for r in step.requests] == ["bid for fiefdoms"], "a decision that comes up later is asked"


def test_deadline_as_a_predicate_defaults_only_the_requests_it_names(toy):
    """The moderator's past-due requests, decided outside the engine (which has no clock)."""
    step = advance(toy, deadline=lambda r: r.house == "stark")
    assert [e.decision for e in step.events if type(e).__name__ == "DefaultUsed"] == ["bid for iron_throne",
                                                                                       "bid for fiefdoms"]
    assert "stark" not in {r.house for r in step.requests}, "its secret bid waits, defaulted, for the others' bids"
    assert {r.house for r in step.requests} == set(toy.houses_in_play) - {"stark"}


def test_expired_answers_are_counted_in_good_english():
    from adjudicator.engine.events import AnswersExpired

    assert AnswersExpired(house="stark", answers=("bid fiefdoms 1",)).describe().startswith("1 of your answers was not")
    assert AnswersExpired(house="stark", answers=("a", "b")).describe().startswith("2 of your answers were not")
