"""Review of the Westeros phase runner (R037-R057): the draw, the threat, the attacks, the order.

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
Three houses; Iron Throne Baratheon, Lannister, Stark; each has 5 power.
"""

from __future__ import annotations

import itertools

import pytest
from rules.helpers import westeros_phase_only, westeros_round

from adjudicator.engine.core.common import GameWon, PowerChanged
from adjudicator.engine.core.context import pool_entry
from adjudicator.engine.events.westeros import (
    WesterosCardResolved,
    WesterosCardRevealed,
    WesterosDeckShuffled,
    WildlingAttackBegins,
    WildlingAttackResolved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import Bid, WesterosChoice, WildlingChoice
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    westeros_phase_only(monkeypatch)


def position(cards: tuple[str, str, str], *, threat: int = 0, wildling: str | None = None) -> GameState:
    """Round 2's Westeros phase with ``cards`` on top of decks I-III (and ``wildling`` on top)."""
    return westeros_round(HOUSES, cards, seed="review-westeros", threat=threat, wildling=wildling)


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"rx{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def bids(**amounts: int) -> list[dict]:
    return [answer(h, Bid(track="wildlings", amount=n)) for h, n in amounts.items()]


def of(events: list, cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def test_R049_winter_is_coming_drawn_again_for_itself_shuffles_again_then_its_replacement_resolves(
        monkeypatch: pytest.MonkeyPatch):
    """The trap: the shuffled deck can give Winter is Coming back at once; the card says to repeat."""
    shuffles = iter([["winter_is_coming", "last_days_of_summer"], ["last_days_of_summer", "winter_is_coming"]])
    monkeypatch.setattr(westeros, "draw_shuffle", lambda state, items: next(shuffles))
    s = position(("winter_is_coming", "game_of_thrones", "storm_of_swords"))
    s.westeros_discards["1"] = [c for c in s.westeros_decks["1"][1:] if c != "last_days_of_summer"]
    s.westeros_decks["1"] = ["winter_is_coming", "last_days_of_summer"]
    step = advance(s)
    deck_one = [e.card for e in of(step.events, WesterosCardRevealed) if e.deck == 1]
    assert deck_one == ["winter_is_coming", "winter_is_coming", "last_days_of_summer"]
    assert [e.cause for e in of(step.events, WesterosDeckShuffled)] == ["Winter is Coming", "Winter is Coming"]
    assert step.state.westeros_decks["1"] == ["winter_is_coming"]  # back in its deck, not discarded
    assert step.state.westeros_discards["1"][-1] == "last_days_of_summer"
    assert step.state.wildling_threat == 4  # storm of swords in step 3, last days of summer when drawn


def test_R041_after_a_wildling_victory_at_12_the_card_attacks_at_the_threat_moved_back_two_spaces():
    """The trap: the second attack of a phase takes its strength from the track as the first left it."""
    s = position(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=8,
                 wildling="silence_at_the_wall")
    step = advance(s, bids(stark=1, lannister=1, baratheon=1))  # 3 against 12: the wildlings win
    assert [(e.strength, e.nights_watch_won) for e in of(step.events, WildlingAttackResolved)] == [(12, False)]
    assert step.state.wildling_threat == 8
    assert [e.strength for e in of(step.events, WildlingAttackBegins)] == [12, 8]
    resolved = [e.card for e in of(step.events, WesterosCardResolved)]
    assert resolved == ["last_days_of_summer", "last_days_of_summer", "wildlings_attack"]


def test_R044_a_throne_of_blades_is_chosen_by_the_house_the_attack_at_12_put_on_the_iron_throne():
    """The trap: the attack at 12 comes before any card resolves, and its reward (A King Beyond
    the Wall) can change who holds the Iron Throne; the new holder chooses for deck I's card."""
    s = position(("a_throne_of_blades", "last_days_of_summer", "web_of_lies"), threat=6,
                 wildling="a_king_beyond_the_wall")
    step = advance(s, [*bids(stark=5, lannister=4, baratheon=3),
                       answer("stark", WildlingChoice(card="a_king_beyond_the_wall", track="iron_throne"))])
    assert step.state.tracks["iron_throne"] == ["stark", "baratheon", "lannister"]
    (req,) = step.requests
    assert (req.kind, req.house, req.context["card"]) == ("westeros_choice", "stark", "a_throne_of_blades")


def test_R262_a_lesser_wildling_penalty_that_returns_a_home_area_wins_before_the_next_card():
    """The trap: a unit destroyed by a wildling card can give an occupied home area back to its
    house (R247); seven castles end the game there, before any Westeros card resolves."""
    s = position(("mustering", "last_days_of_summer", "web_of_lies"), threat=8, wildling="the_horde_descends")
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    s.area_mut("winterfell").units = [Unit("lannister", "footman")]  # Lannister's only unit
    s.area_mut("winterfell").garrison = None
    for area in ("white_harbor", "moat_cailin", "the_eyrie", "flints_finger", "harrenhal", "riverrun"):
        s.area_mut(area).units = [Unit("stark", "footman")]
        s.area_mut(area).neutral_force = None
    s.area_mut("dragonstone").units = [Unit("baratheon", "footman")]
    assert s.castles("stark", Board.classic()) == 6
    # 2 against 12: Baratheon bid least and loses 2 units (it has one); Lannister loses 1 (its only one).
    step = advance(s, bids(stark=2, lannister=1, baratheon=0))
    assert step.state.phase == "game_over" and step.state.winner == "stark"
    assert [e.reason for e in of(step.events, GameWon)] == ["7 castles and strongholds"]
    assert of(step.events, WesterosCardResolved) == []  # the game ended in step 3
    assert step.requests == []


def test_R047_dark_wings_collect_is_game_of_thrones_chosen_by_the_raven_holder():
    """The trap (ruling 62): option (b) pays crowns and trading ports, as Game of Thrones does;
    a port whose sea holds an enemy ship pays nothing."""
    s = position(("supply", "dark_wings_dark_words", "web_of_lies"))
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    s.area_mut("winterfell").units = [Unit("stark", "footman")]  # 1 crown
    s.area_mut("white_harbor").units = [Unit("stark", "footman")]  # no crown
    s.area_mut("port_of_winterfell").units = [Unit("stark", "ship")]
    s.area_mut("port_of_white_harbor").units = [Unit("stark", "ship")]
    s.area_mut("bay_of_ice").units = [Unit("lannister", "ship")]  # Winterfell's port does not trade
    step = advance(s, [answer("stark", WesterosChoice(card="dark_wings_dark_words", option="collect"))])
    assert [r.house for r in step.requests] == ["lannister"]  # the Raven's holder, not Stark
    step = advance(step.state, [answer("lannister", WesterosChoice(card="dark_wings_dark_words", option="collect"))])
    gains = {e.house: e.amount for e in of(step.events, PowerChanged) if e.cause == "Dark Wings, Dark Words"}
    assert gains["stark"] == 2  # Winterfell's crown and White Harbor's port
