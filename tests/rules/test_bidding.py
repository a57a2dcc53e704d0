"""Bidding on the influence tracks (R081-R089) and shifts on them (R097), through ``advance``.

The Clash of Kings card in deck II brings the bidding; deck I and III cards are quiet ones.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core import bidding
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable, OnlyOption
from adjudicator.engine.events.westeros import (
    BidsRevealed,
    InfluenceTrackChanged,
    TieBroken,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import Bid, TieBreak
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

HOUSES = ["stark", "lannister", "baratheon"]  # Iron Throne: baratheon, lannister, stark
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def clash(houses: list[str] = HOUSES) -> GameState:
    """Round 2, Westeros phase, Clash of Kings on top of deck II."""
    s = new_game(houses, seed="bidding")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for deck, card in enumerate(("supply", "clash_of_kings", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"b{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bids(track: str, **amounts: int) -> list[dict]:
    return [answer(h, Bid(track=track, amount=n)) for h, n in amounts.items()]


def test_R081_the_tracks_are_bid_one_at_a_time_iron_throne_first():
    step = advance(clash())
    assert {(r.kind, r.context["track"]) for r in step.requests} == {("bid", "iron_throne")}
    step = advance(step.state, bids("iron_throne", stark=0, lannister=1, baratheon=2))
    assert {r.context["track"] for r in step.requests} == {"fiefdoms"}
    step = advance(step.state, bids("fiefdoms", stark=0, lannister=1, baratheon=2))
    assert {r.context["track"] for r in step.requests} == {"kings_court"}


def test_R082_a_house_may_bid_for_all_three_tracks_ahead():
    answers = [a for t in TRACKS for a in bids(t, stark=1, lannister=0, baratheon=0)]
    step = advance(clash(), answers, deadline=True)
    assert [s[0] for s in step.state.tracks.values()] == ["stark", "stark", "stark"]
    assert step.state.houses["stark"].power == 2


def test_R082_bids_stay_secret_until_every_house_has_bid():
    step = advance(clash(), bids("iron_throne", stark=3))
    assert not [e for e in step.events if isinstance(e, BidsRevealed)]
    seen_by_others = [e for e in step.events if e.visible_to != "stark"]
    assert not [e for e in seen_by_others if "Bid" in e.describe() or "bid" in e.describe().lower()]
    assert step.state.houses["stark"].power == 5
    assert sorted(r.house for r in step.requests) == ["baratheon", "lannister"]
    assert all(r.secret for r in step.requests)


def test_R082_a_bid_above_available_power_is_refused_and_changes_nothing():
    s = clash()
    step = advance(s, bids("iron_throne", stark=6, lannister=0, baratheon=0))
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert len(refused) == 1 and refused[0].house == "stark" and refused[0].visible_to == "stark"
    assert "more than your 5 available power (R082)" in refused[0].reason
    assert [r.house for r in step.requests] == ["stark"]
    assert step.state.tracks == s.tracks and step.state.houses["stark"].power == 5


def test_R082_a_negative_bid_is_refused():
    step = advance(clash(), bids("iron_throne", stark=-1, lannister=0, baratheon=0))
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "cannot be negative (R082)" in refused[0].reason


def test_R082_a_house_with_no_power_bids_zero_without_being_asked():
    s = clash()
    s.houses["stark"].power = 0
    step = advance(s, bids("iron_throne", lannister=1, baratheon=2))
    assert any(isinstance(e, OnlyOption) and e.house == "stark" for e in step.events)
    assert {r.context["track"] for r in step.requests} == {"fiefdoms"}


def test_R083_the_highest_bid_takes_position_one_and_so_on():
    step = advance(clash(), bids("iron_throne", stark=3, lannister=1, baratheon=2))
    assert step.state.tracks["iron_throne"] == ["stark", "baratheon", "lannister"]
    revealed = next(e for e in step.events if isinstance(e, BidsRevealed))
    assert revealed.bids == (("baratheon", 2), ("lannister", 1), ("stark", 3)) and revealed.visible_to == "public"


def test_R084_ties_are_ordered_by_the_iron_throne_holder():
    s = clash()
    first = advance(s, bids("iron_throne", stark=0, lannister=1, baratheon=3))
    step = advance(first.state, bids("fiefdoms", stark=1, lannister=1, baratheon=0))
    assert [(r.kind, r.house) for r in step.requests] == [("tie_break", "baratheon")]
    assert step.requests[0].context == {"tie": "fiefdoms", "tied": ["stark", "lannister"]}  # old track order
    step = advance(step.state, [answer("baratheon", TieBreak(order=("lannister", "stark")))])
    assert step.state.tracks["fiefdoms"] == ["lannister", "stark", "baratheon"]
    assert [e.order for e in step.events if isinstance(e, TieBroken)] == [("lannister", "stark")]


def test_R084_a_tie_break_that_omits_a_tied_house_is_refused():
    step = advance(clash(), [*bids("iron_throne", stark=0, lannister=0, baratheon=0),
                             answer("baratheon", TieBreak(order=("stark", "lannister")))])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "must name baratheon, tied here (R084)" in refused[0].reason
    assert [r.kind for r in step.requests] == ["tie_break"]


def test_R084_a_tie_break_that_invents_a_house_is_refused():
    step = advance(clash(), [*bids("iron_throne", stark=0, lannister=0, baratheon=1),
                             answer("baratheon", TieBreak(order=("stark", "martell", "lannister")))])
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "martell, not a house in this game (R084)" in refused[0].reason
    assert step.state.tracks["iron_throne"] == ["baratheon", "lannister", "stark"]


def test_R084_a_tie_break_naming_a_house_twice_is_refused():
    step = advance(clash(), [*bids("iron_throne", stark=0, lannister=0, baratheon=1),
                             answer("baratheon", TieBreak(order=("stark", "stark", "lannister")))])
    assert any("more than once (R084)" in e.reason for e in step.events if isinstance(e, AnswerUnusable))


def test_R084_a_standing_tie_break_serves_every_tie_its_house_breaks():
    # Baratheon orders the Iron Throne tie; Stark, holding the throne after it, the two others.
    standing = [answer(h, TieBreak(order=("stark", "lannister", "baratheon"))) for h in ("baratheon", "stark")]
    answers = [a for t in TRACKS for a in bids(t, stark=0, lannister=0, baratheon=0)]
    step = advance(clash(), [*standing, *answers])
    assert step.state.tracks == {t: ["stark", "lannister", "baratheon"] for t in TRACKS}
    assert [e.house for e in step.events if isinstance(e, TieBroken)] == ["baratheon", "stark", "stark"]
    assert {a["id"] for a in standing} <= {a["id"] for a in step.state.answers}  # still standing


def test_R084_a_tie_break_for_another_track_is_not_read():
    only_kc = answer("baratheon", TieBreak(order=("stark", "lannister", "baratheon"), context="kings_court"))
    step = advance(clash(), [only_kc, *bids("iron_throne", stark=0, lannister=0, baratheon=0)])
    assert [r.kind for r in step.requests] == ["tie_break"]
    assert not [e for e in step.events if isinstance(e, AnswerUnusable)]


def test_R084_the_deadline_default_keeps_the_tied_houses_in_their_old_track_order():
    step = advance(clash(), [a for t in TRACKS for a in bids(t, stark=0, lannister=0, baratheon=0)], deadline=True)
    assert step.state.tracks == clash().tracks


def test_R085_the_old_iron_throne_holder_breaks_ties_on_the_iron_throne_track():
    step = advance(clash(), [*bids("iron_throne", stark=2, lannister=2, baratheon=0),
                             answer("lannister", TieBreak(order=("lannister", "stark"), context="iron_throne"))])
    assert [(r.kind, r.house) for r in step.requests] == [("tie_break", "baratheon")]


def test_R086_every_bid_goes_to_the_pool_whatever_the_result():
    step = advance(clash(), bids("iron_throne", stark=3, lannister=1, baratheon=2))
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 2, "lannister": 4, "baratheon": 3}


def test_R087_position_one_of_each_track_takes_its_dominance_token_as_it_is():
    s = clash()
    s.blade_used = True  # the blade keeps its state when it changes hands
    answers = [*bids("iron_throne", stark=0, lannister=0, baratheon=0),
               *bids("fiefdoms", stark=0, lannister=2, baratheon=0),
               *bids("kings_court", stark=1, lannister=0, baratheon=0)]
    step = advance(s, answers, deadline=True)
    tokens = step.state.dominance()
    assert tokens["valyrian_steel_blade"] == {"holder": "lannister", "used": True}
    assert tokens["messenger_raven"] == {"holder": "stark", "used": False}
    changed = [e for e in step.events if isinstance(e, InfluenceTrackChanged)]
    assert [e.track for e in changed] == list(TRACKS)


def test_R088_power_not_bid_stays_available():
    answers = [a for t in TRACKS for a in bids(t, stark=1, lannister=1, baratheon=0)]
    step = advance(clash(), answers, deadline=True)
    assert {h: x.power for h, x in step.state.houses.items()} == {"stark": 2, "lannister": 2, "baratheon": 5}


def test_R089_with_fewer_houses_the_track_has_only_their_positions():
    s = clash(["stark", "lannister", "baratheon", "greyjoy"])
    answers = [a for t in TRACKS for a in bids(t, stark=0, lannister=0, baratheon=0, greyjoy=1)]
    step = advance(s, answers, deadline=True)
    assert all(len(order) == 4 and order[0] == "greyjoy" for order in step.state.tracks.values())


def test_R097_a_house_moved_to_the_top_shifts_the_others_down():
    s = new_game(HOUSES, seed="shift")
    bidding.move_on_track(s, "kings_court", "baratheon", 1)
    assert s.tracks["kings_court"] == ["baratheon", "lannister", "stark"]
    bidding.move_on_track(s, "kings_court", "baratheon", 3)
    assert s.tracks["kings_court"] == ["lannister", "stark", "baratheon"]
    with pytest.raises(ValueError):
        bidding.move_on_track(s, "kings_court", "stark", 4)


def test_R107_a_wildlings_tie_break_refused_or_not_used_cites_the_wildlings_rule():
    s = new_game(HOUSES, seed="r107")
    order = TieBreak(order=("stark", "martell"))
    assert bidding.check_tie_break(s, "wildlings", ["stark", "lannister"], order) == \
        "the tie-break order names martell, not a house in this game (R107)"
    assert bidding.not_the_tie_breaker("baratheon", "wildlings") == \
        "Baratheon holds the Iron Throne and breaks this tie (R107)"
    assert bidding.not_the_tie_breaker("baratheon", "fiefdoms") == \
        "Baratheon holds the Iron Throne and breaks this tie (R084)"


def test_R097_a_house_moved_to_the_place_it_holds_moves_nothing_and_nothing_is_told():
    from adjudicator.game.state import Segment

    s = new_game(HOUSES, seed="r097")
    ctx = Context(s, s.board(), Segment("westeros", {}), [], False)
    first, last = s.tracks["fiefdoms"][0], s.tracks["fiefdoms"][-1]
    bidding.shift_on_track(ctx, "fiefdoms", last, 3, "a wildling card")
    assert ctx.events == []
    bidding.shift_on_track(ctx, "fiefdoms", first, 3, "a wildling card")
    assert [(e.track, e.order[-1], e.cause) for e in ctx.events if isinstance(e, InfluenceTrackChanged)] == [
        ("fiefdoms", first, "a wildling card")]


def test_R097_a_move_to_a_place_off_the_track_is_refused_naming_it():
    s = new_game(HOUSES, seed="r097")
    with pytest.raises(ValueError, match=r"^position 4 is not on the fiefdoms track of 3 houses$"):
        bidding.move_on_track(s, "fiefdoms", "stark", 4)
    assert s.tracks["fiefdoms"] == new_game(HOUSES, seed="r097").tracks["fiefdoms"]


def test_R084_each_tie_break_refusal_names_every_house_at_fault():
    s = new_game(HOUSES, seed="r084")
    tied = ["stark", "lannister"]
    check = bidding.check_tie_break
    assert check(s, "fiefdoms", tied, TieBreak(order=("stark", "martell", "tyrell"))) == \
        "the tie-break order names martell, tyrell, not a house in this game (R084)"
    assert check(s, "fiefdoms", tied, TieBreak(order=("stark", "stark", "lannister", "lannister"))) == \
        "the tie-break order names lannister, stark more than once (R084)"
    assert check(s, "fiefdoms", tied, TieBreak(order=())) == \
        "the tie-break order must name stark, lannister, tied here (R084)"


def test_R084_the_holder_is_asked_to_break_a_tie_by_default_in_the_tracks_order():
    import re

    s = clash()
    first = advance(s, bids("iron_throne", stark=0, lannister=1, baratheon=3))
    step = advance(first.state, bids("fiefdoms", stark=1, lannister=1, baratheon=0))
    [req] = step.requests
    assert re.fullmatch(r"r\d+\.westeros\.\d+\.tie_break\.baratheon", req.key)  # as pending.json names it
    assert req.prompt.endswith(": the first named takes the better place")
    assert req.default == TieBreak(order=tuple(step.state.tracks["fiefdoms"]), context="fiefdoms")  # as it stood


def test_R086_R097_each_house_is_asked_for_its_bid_and_the_new_order_is_told_as_the_biddings():
    import re

    step = advance(clash())
    assert sorted(r.house for r in step.requests) == sorted(HOUSES)
    assert all(re.fullmatch(rf"r2\.westeros\.\d+\.bid\.{r.house}", r.key) for r in step.requests)  # as pending.json
    step = advance(step.state, bids("iron_throne", stark=0, lannister=1, baratheon=2))
    [changed] = [e for e in step.events if isinstance(e, InfluenceTrackChanged)]
    assert (changed.track, changed.order, changed.cause) == ("iron_throne", ("baratheon", "lannister", "stark"), "bidding")
