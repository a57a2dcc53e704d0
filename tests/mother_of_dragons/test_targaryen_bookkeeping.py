"""House Targaryen's shared bookkeeping (``engine/core/targaryen.py``): what the players are told
when a loyalty token cannot be placed (ruling 269), Pentos's garrison coming back to Targaryen only
(M086, ruling 248), and a distribution of the bid naming a house twice (M100)."""

from __future__ import annotations

import re

import pytest
from rules.helpers import entry

from adjudicator.engine.core.bidding import bid_for_track
from adjudicator.engine.core.common import after_control_change
from adjudicator.engine.core.context import Context, NeedAnswers, PoolEntry
from adjudicator.engine.core.targaryen import loyalty_left, place_loyalty
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.targaryen import LoyaltyPlaced, PentosGarrisonReturned
from adjudicator.game.commands import Bid, DistributeBid, Gift
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Segment, Unit

T = "targaryen"


def tgame() -> GameState:
    return new_mod_game(["stark", "lannister", "arryn", T], seed="targ")


def ctx_of(state: GameState) -> Context:
    return Context(state, state.board(), Segment("action", {}), [], False)


def test_ruling_269_a_token_with_none_left_is_reported_as_not_placed_where_and_why():
    s = tgame()
    ctx = ctx_of(s)
    for _ in range(loyalty_left(s, s.board())):
        place_loyalty(ctx, "riverrun", "a Westeros card")
    assert loyalty_left(s, s.board()) == 0
    ctx.events.clear()
    assert not place_loyalty(ctx, "seagard", "a Westeros card")
    told = [e for e in ctx.events if isinstance(e, LoyaltyPlaced)]
    assert [(e.area, e.cause, e.placed) for e in told] == [("seagard", "a Westeros card", False)]
    assert s.area("seagard").loyalty == 0


def test_M086_ruling_248_pentos_held_by_another_house_gets_no_garrison_back():
    s = tgame()
    s.area_mut("pentos").garrison = 0
    s.area_mut("pentos").units = [Unit("stark", "knight")]
    ctx = ctx_of(s)
    after_control_change(ctx)
    assert s.area("pentos").garrison == 0
    assert not [e for e in ctx.events if isinstance(e, PentosGarrisonReturned)]


def test_M086_pentos_with_its_garrison_standing_is_not_given_it_again():
    s = tgame()
    assert s.area("pentos").garrison == 2 and s.controller("pentos", s.board()) == T
    ctx = ctx_of(s)
    after_control_change(ctx)
    assert not [e for e in ctx.events if isinstance(e, PentosGarrisonReturned)]


def test_M100_a_distribution_naming_a_house_twice_is_refused_and_asked_again():
    s = tgame()
    s.round = 2
    bids = [("stark", Bid(track="fiefdoms", amount=1)), ("lannister", Bid(track="fiefdoms", amount=2)),
            ("arryn", Bid(track="fiefdoms", amount=0)), (T, Bid(track="fiefdoms", amount=3))]
    twice = DistributeBid(track="fiefdoms", gifts=(Gift("stark", 2), Gift("stark", 1)))
    pool = [PoolEntry.from_dict(entry(h, c, round=2)) for h, c in [*bids, (T, twice)]]
    ctx = Context(s, s.board(), Segment("westeros", {}), pool, False)
    with pytest.raises(NeedAnswers) as waiting:
        bid_for_track(ctx, "fiefdoms")
    refusals = [e.reason for e in [*ctx.events, *ctx.transient] if isinstance(e, AnswerUnusable)]
    assert refusals == ["name each house once, with all the power it receives (M100)"]
    assert [r.kind for r in waiting.value.requests] == ["distribute"]


def _fiefdoms(s: GameState, stark: int, lannister: int, targaryen: int, *more: tuple[str, object],
              deadline: bool = False) -> Context:
    bids = [("stark", Bid(track="fiefdoms", amount=stark)), ("lannister", Bid(track="fiefdoms", amount=lannister)),
            ("arryn", Bid(track="fiefdoms", amount=0)), (T, Bid(track="fiefdoms", amount=targaryen)), *more]
    pool = [PoolEntry.from_dict(entry(h, c, round=2)) for h, c in bids]
    ctx = Context(s, s.board(), Segment("westeros", {}), pool, deadline or (lambda r: r.kind == "tie_break"))
    bid_for_track(ctx, "fiefdoms")
    return ctx


def test_M100_ruling_252_targaryen_is_asked_with_the_revealed_bids_and_the_houses_it_may_give_to():
    s = tgame()
    s.round = 2
    with pytest.raises(NeedAnswers) as waiting:
        _fiefdoms(s, 1, 2, 3)
    [req] = waiting.value.requests
    assert (req.kind, req.house) == ("distribute", T) and "give away the 3 power you bid" in req.prompt
    assert re.fullmatch(r"r2\.westeros\.\d+\.distribute\.targaryen", req.key)  # as pending.json names it
    others = [h for h in s.tracks["fiefdoms"] if h != T]
    assert req.context == {"track": "fiefdoms", "bid": 3, "houses": others,
                           "bids": {"stark": 1, "lannister": 2, "arryn": 0, T: 3, **dict.fromkeys(s.vassals, 0)}}
    assert req.default == DistributeBid(track="fiefdoms", gifts=(Gift("lannister", 3),))


def test_M100_ruling_252_by_default_a_tie_for_the_highest_bid_gives_it_all_to_the_first_in_the_tracks_order():
    s = tgame()
    s.round = 2
    first = [h for h in s.tracks["fiefdoms"] if h in ("stark", "lannister")][0]
    ctx = _fiefdoms(s, 2, 2, 1, deadline=True)
    assert [e.gifts for e in ctx.events if type(e).__name__ == "BidGiven"] == [((first, 1),)]


def test_M078_M081_tokens_gained_add_to_the_spaces_loyalty_gave_before():
    s = tgame()
    s.loyalty_gained = 2
    s.area_mut("winterfell").loyalty = 1
    s.area_mut("winterfell").units = [Unit(T, "dragon")]
    ctx = ctx_of(s)
    after_control_change(ctx)
    assert s.loyalty_gained == 3 and s.victory(T, s.board()) == 3 + 1  # and Pentos's point (M084)
