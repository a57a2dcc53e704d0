"""The wildling track and attack (R098-R111, rulings 65, 66, 74, 76), through ``advance``.

The attacks come from the Wildlings Attack card in deck III; deck II's Last Days of Summer adds
one icon first, so an attack's strength is the threat set here plus 2. Every house has 5 power.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.westeros import (
    BidsRevealed,
    TieBroken,
    WildlingAttackResolved,
    WildlingBidderNamed,
    WildlingCardBuried,
    WildlingCardRevealed,
    WildlingThreatMoved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import Bid, Located, TieBreak, WildlingChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]  # turn order: baratheon, lannister, stark
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def attack_at(strength: int, card: str = "silence_at_the_wall") -> GameState:
    """A Westeros phase whose Wildlings Attack card comes at ``strength`` (at most 10: at 12 the
    wildlings would already have attacked), ``card`` on top of the wildling deck."""
    s = new_game(HOUSES, seed="wildlings")
    s.round, s.phase, s.wildling_threat = 2, "westeros", strength - 2
    for deck, c in enumerate(("supply", "last_days_of_summer", "wildlings_attack"), 1):
        s.westeros_decks[str(deck)].remove(c)
        s.westeros_decks[str(deck)].insert(0, c)
    s.wildling_deck.remove(card)
    s.wildling_deck.insert(0, card)
    return s


def named(events: list, role: str) -> str:
    """The house a wildling attack named as its highest or lowest bidder."""
    return next(e.house for e in events if isinstance(e, WildlingBidderNamed) and e.role == role)


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"w{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bids(**amounts: int) -> list[dict]:
    return [answer(h, Bid(track="wildlings", amount=n)) for h, n in amounts.items()]


def power(s: GameState) -> dict[str, int]:
    return {h: x.power for h, x in s.houses.items()}


def test_R098_the_threat_starts_on_2_and_moves_in_spaces_of_2():
    assert new_game(HOUSES, seed="x").wildling_threat == 2
    assert Board.classic().constants["wildling_track"] == [0, 2, 4, 6, 8, 10, 12]


def test_R099_R100_the_wildlings_attack_card_attacks_with_the_threat_as_strength():
    step = advance(attack_at(6))
    assert sorted(r.house for r in step.requests) == sorted(HOUSES)
    assert all(r.kind == "bid" and r.secret and r.context["track"] == "wildlings" for r in step.requests)
    step = advance(step.state, bids(stark=2, lannister=2, baratheon=2))
    assert [(e.strength, e.total) for e in step.events if isinstance(e, WildlingAttackResolved)] == [(6, 6)]


def test_R101_a_wildling_bid_above_available_power_is_refused_and_changes_nothing():
    s = attack_at(6)
    step = advance(s, bids(stark=6, lannister=0, baratheon=0))
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and refused[0].reason == "a bid of 6 is more than your 5 available power (R101)"
    assert power(step.state) == power(s) and [r.house for r in step.requests] == ["stark"]


def test_R102_bids_are_revealed_together_and_summed():
    step = advance(attack_at(6), bids(stark=1, lannister=3, baratheon=0))
    revealed = [e for e in step.events if isinstance(e, BidsRevealed)]
    assert [(e.track, e.bids, e.visible_to) for e in revealed] == \
        [("wildlings", (("baratheon", 0), ("lannister", 3), ("stark", 1)), "public")]


def test_R103_the_watch_wins_when_its_strength_equals_the_wildlings():
    step = advance(attack_at(6), bids(stark=1, lannister=3, baratheon=2))
    assert [e.nights_watch_won for e in step.events if isinstance(e, WildlingAttackResolved)] == [True]


def test_R103_the_wildlings_win_when_their_strength_is_higher():
    step = advance(attack_at(6), bids(stark=1, lannister=3, baratheon=1))
    assert [e.nights_watch_won for e in step.events if isinstance(e, WildlingAttackResolved)] == [False]


def test_R104_a_watch_victory_resets_the_threat_to_0():
    step = advance(attack_at(10), bids(stark=5, lannister=5, baratheon=0))
    assert step.state.wildling_threat == 0


def test_R104_a_wildling_victory_moves_the_threat_back_two_spaces_not_below_0():
    step = advance(attack_at(10), bids(stark=0, lannister=1, baratheon=0), deadline=True)
    assert step.state.wildling_threat == 6
    s = attack_at(2)
    s.wildling_threat = 0  # deck II's icon makes it 2
    step = advance(s, bids(stark=0, lannister=1, baratheon=0), deadline=True)
    assert step.state.wildling_threat == 0


def test_R105_every_bid_goes_to_the_pool():
    step = advance(attack_at(10), bids(stark=5, lannister=4, baratheon=0), deadline=True)
    assert power(step.state) == {"stark": 0, "lannister": 1, "baratheon": 5}


def test_R106_the_watch_rewards_only_the_highest_bidder():
    step = advance(attack_at(6, "skinchanger_scout"), bids(stark=1, lannister=4, baratheon=1))
    assert power(step.state) == {"stark": 4, "lannister": 5, "baratheon": 4}  # lannister's 4 come back


def test_R106_the_lowest_bidder_takes_the_severe_penalty_the_others_the_lesser_in_turn_order():
    step = advance(attack_at(10, "skinchanger_scout"), bids(stark=1, lannister=0, baratheon=2))
    assert power(step.state) == {"stark": 2, "lannister": 0, "baratheon": 1}
    losses = [e.house for e in step.events if isinstance(e, PowerChanged) and e.cause == "Skinchanger Scout"]
    assert losses == ["lannister", "baratheon", "stark"]


def test_R107_a_tie_for_lowest_bidder_is_broken_by_the_iron_throne_holder():
    step = advance(attack_at(10, "skinchanger_scout"), bids(stark=1, lannister=1, baratheon=2))
    assert [(r.kind, r.house, r.context) for r in step.requests] == \
        [("tie_break", "baratheon", {"tie": "wildlings", "tied": ["lannister", "stark"]})]
    assert [e.card for e in step.events if isinstance(e, WildlingCardRevealed)] == ["skinchanger_scout"]  # seen first
    step = advance(step.state, [answer("baratheon", TieBreak(order=("stark", "lannister")))])
    assert named(step.events, "lowest") == "lannister" and step.state.houses["lannister"].power == 0


def test_R107_a_tie_for_highest_bidder_is_broken_by_the_iron_throne_holder():
    s = attack_at(6, "skinchanger_scout")
    step = advance(s, [*bids(stark=3, lannister=3, baratheon=0),
                       answer("baratheon", TieBreak(order=("lannister", "stark", "baratheon"), context="wildlings"))])
    assert named(step.events, "highest") == "lannister" and power(step.state) == {"stark": 2, "lannister": 5, "baratheon": 5}
    assert [e.house for e in step.events if isinstance(e, TieBroken)] == ["baratheon"]


def test_R107_the_deadline_default_orders_a_wildling_tie_by_turn_order():
    step = advance(attack_at(10, "skinchanger_scout"), bids(stark=1, lannister=1, baratheon=2), deadline=True)
    assert named(step.events, "lowest") == "stark"


def test_R108_the_used_card_goes_to_the_bottom_of_the_deck():
    s = attack_at(6)
    second = s.wildling_deck[1]
    step = advance(s, bids(stark=2, lannister=2, baratheon=2))
    assert step.state.wildling_deck[-1] == "silence_at_the_wall" and step.state.wildling_deck[0] == second
    assert [e.card for e in step.events if isinstance(e, WildlingCardBuried)] == ["silence_at_the_wall"]


def test_R110_units_destroyed_by_wildlings_leave_their_area_uncontrolled():
    s = attack_at(10, "mammoth_riders")
    s.area_mut("castle_black").units = [Unit("stark", "footman")]
    step = advance(s, bids(stark=0, lannister=1, baratheon=1), deadline=False)
    assert [(r.house, r.context["units_to_destroy"]) for r in step.requests] == [("stark", 3)]
    kill = (Located(area="castle_black", unit="footman"), Located(area="white_harbor", unit="footman"),
            Located(area="the_shivering_sea", unit="ship"))
    step = advance(step.state, [answer("stark", WildlingChoice(card="mammoth_riders", units=kill))], deadline=True)
    assert step.state.controller("castle_black", Board.classic()) is None
    assert step.state.area("castle_black").power_token is None and step.state.houses["stark"].power == 5


def test_R110_a_home_area_emptied_by_wildlings_returns_to_its_house():
    s = attack_at(10, "mammoth_riders")
    s.area_mut("white_harbor").units = []
    s.area_mut("winterfell").units = [Unit("lannister", "footman")]  # lannister holds stark's home
    s.area_mut("winterfell").garrison = 0
    s.tidy()
    kill = (Located(area="winterfell", unit="footman"), Located(area="stoney_sept", unit="footman"),
            Located(area="the_golden_sound", unit="ship"))
    step = advance(s, [*bids(stark=1, lannister=0, baratheon=2),
                       answer("lannister", WildlingChoice(card="mammoth_riders", units=kill))], deadline=True)
    assert step.state.controller("winterfell", Board.classic()) == "stark"


def test_R111_the_attack_draws_whatever_card_is_on_top_now():
    s = attack_at(6, "crow_killers")
    s.wildling_deck.append(s.wildling_deck.pop(0))  # the raven put it to the bottom
    top = s.wildling_deck[0]
    step = advance(s, bids(stark=2, lannister=2, baratheon=2), deadline=True)
    assert next(e for e in step.events if isinstance(e, WildlingCardRevealed)).card == top


def test_ruling_66_the_card_resolves_before_the_threat_moves():
    step = advance(attack_at(6, "skinchanger_scout"), bids(stark=1, lannister=4, baratheon=1))
    names = [type(e).__name__ for e in step.events]
    after = [i for i, e in enumerate(step.events) if isinstance(e, WildlingThreatMoved) and e.cause == "after the wildling attack"]
    gained = [i for i, e in enumerate(step.events) if isinstance(e, PowerChanged) and e.cause == "Skinchanger Scout"]
    assert gained[0] < after[0] < names.index("WildlingCardBuried")


def test_ruling_74_a_card_that_ignores_the_bidders_asks_no_tie_break():
    step = advance(attack_at(10, "silence_at_the_wall"), bids(stark=0, lannister=0, baratheon=0))
    assert step.requests == [] and not [e for e in step.events if isinstance(e, TieBroken)]


def test_ruling_76_at_strength_0_the_watch_wins_even_with_no_bids():
    s = attack_at(2, "skinchanger_scout")
    s.wildling_threat = 0
    s.westeros_decks["2"].remove("game_of_thrones")
    s.westeros_decks["2"][0] = "game_of_thrones"  # no icon this time: strength 0
    step = advance(s, bids(stark=0, lannister=0, baratheon=0), deadline=True)
    resolved = next(e for e in step.events if isinstance(e, WildlingAttackResolved))
    assert (resolved.strength, resolved.total, resolved.nights_watch_won) == (0, 0, True)
    assert named(step.events, "highest") == "baratheon"


def test_ruling_65_the_first_tied_house_named_bid_more_the_last_bid_less():
    order = answer("baratheon", TieBreak(order=("stark", "baratheon", "lannister")))
    high = advance(attack_at(6, "skinchanger_scout"), [order, *bids(stark=3, lannister=3, baratheon=0)])
    assert named(high.events, "highest") == "stark"
    low = advance(attack_at(10, "skinchanger_scout"), [order, *bids(stark=1, lannister=1, baratheon=2)])
    assert named(low.events, "lowest") == "lannister"
