"""The Westeros Phase, the tracks' ties, the wildlings, supply and control (R091, R100, R109, R239, R245).

Each test plays a Westeros Phase through ``advance`` from a three-player position (turn order
Baratheon, Lannister, Stark; Baratheon holds the Iron Throne, Stark the Blade, Lannister the
Raven) and stops as the Planning Phase begins; R245 plays an action phase instead.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.cards.wildlings import WILDLING_CARDS
from adjudicator.engine.core.common import ControlChanged, UnitsDestroyed
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.action import PowerTokenPlaced
from adjudicator.engine.events.westeros import (
    InfluenceTrackChanged,
    TieBroken,
    WildlingAttackBegins,
    WildlingAttackResolved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import (
    Bid,
    Located,
    March,
    Move,
    PlayCard,
    Reconcile,
    TieBreak,
    UnitSpec,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

from .helpers import at_action, entry, game, of, phases, put, run  # noqa: F401

BOARD = Board.classic()
THREE = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def answer(house: str, command: Any) -> dict[str, Any]:
    return pool_entry(id=f"w{next(_ids)}", house=house, round=2, command=command)


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def position(cards: tuple[str, str, str], *, threat: int = 0, wildling: str = "silence_at_the_wall") -> GameState:
    """Round 2's Westeros Phase, a bare board, ``cards`` on top of decks I-III, ``wildling`` on top."""
    s = new_game(THREE, seed="coverage-westeros")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    s.wildling_deck.remove(wildling)
    s.wildling_deck.insert(0, wildling)
    return s


def bids(track: str, **amounts: int) -> list[dict[str, Any]]:
    return [answer(h, Bid(track=track, amount=n)) for h, n in amounts.items()]  # type: ignore[arg-type]


# --- R091: the Iron Throne holder breaks every tie outside combat and the win ---------------------------------


def test_R091_a_tie_on_the_fiefdoms_track_is_broken_by_the_iron_throne_holder_not_the_blade_holder(westeros_only):
    s = position(("last_days_of_summer", "clash_of_kings", "web_of_lies"))
    assert (s.holder("iron_throne"), s.holder("fiefdoms")) == ("baratheon", "stark")
    step = advance(s, [*bids("iron_throne", baratheon=2, lannister=1, stark=0),
                       *bids("fiefdoms", stark=1, lannister=1, baratheon=0),
                       answer("stark", TieBreak(order=("stark", "lannister")))])
    assert [(r.kind, r.house, r.context["tied"]) for r in step.requests] == [("tie_break", "baratheon", ["stark", "lannister"])]
    step = advance(step.state, [answer("baratheon", TieBreak(order=("lannister", "stark")))])
    assert [(e.house, e.order) for e in of(step.events, TieBroken)] == [("baratheon", ("lannister", "stark"))]
    fiefdoms = [e.order for e in of(step.events, InfluenceTrackChanged) if e.track == "fiefdoms"]
    assert fiefdoms == [("lannister", "stark", "baratheon")]


# --- R100: the wildlings' strength ------------------------------------------------------------------------


@pytest.mark.parametrize("threat, losing, winning", [
    (2, {"baratheon": 1, "lannister": 0, "stark": 0}, {"baratheon": 1, "lannister": 1, "stark": 0}),
    (6, {"baratheon": 2, "lannister": 2, "stark": 1}, {"baratheon": 2, "lannister": 2, "stark": 2}),
    (10, {"baratheon": 5, "lannister": 4, "stark": 0}, {"baratheon": 5, "lannister": 4, "stark": 1}),
])
def test_R100_the_wildlings_attack_with_the_number_printed_where_the_token_stands(westeros_only, threat, losing, winning):
    cards = ("supply", "game_of_thrones", "wildlings_attack")  # no wildling icon: the token stays put
    for amounts, watch_wins in ((losing, False), (winning, True)):
        step = advance(position(cards, threat=threat), bids("wildlings", **amounts))
        assert [e.strength for e in of(step.events, WildlingAttackBegins)] == [threat]
        [result] = of(step.events, WildlingAttackResolved)
        assert (result.total, result.nights_watch_won) == (sum(amounts.values()), watch_wins)


# --- R109: the nine wildling cards ---------------------------------------------------------------------------


def test_R109_every_wildling_card_has_its_texts_and_one_resolver():
    """The seeds name one wildling card; the nine cards' texts are data (``data/cards.toml``).

    What can be checked: the nine are there, A King Beyond the Wall among them, each with the
    texts of both outcomes, and each with exactly one function that resolves it.
    """
    assert len(CARDS.wildling_cards) == 9 and "a_king_beyond_the_wall" in CARDS.wildling_cards
    assert sorted(WILDLING_CARDS) == sorted(CARDS.wildling_cards)
    for card in CARDS.wildling_cards.values():
        watch, wildlings = card.texts["nights_watch_victory"], card.texts["wildling_victory"]
        assert watch["highest_bidder"] and wildlings["lowest_bidder"] and wildlings["everyone_else"], card.id
        assert WILDLING_CARDS[card.id].card == card.id


# --- R239: reconciliation is the house's choice ---------------------------------------------------------------


@pytest.mark.parametrize("cut", ["winterfell", "white_harbor"])
def test_R239_the_house_over_its_limit_chooses_which_army_to_cut(westeros_only, cut):
    s = position(("supply", "game_of_thrones", "storm_of_swords"))
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white_harbor", "stark", "footman", "footman", "footman")
    step = advance(s)
    assert step.state.houses["stark"].supply == 1  # armies of 3 and 2: one of the two 3s loses a unit
    [req] = step.requests
    assert (req.kind, req.house, req.context["units_to_destroy"]) == ("reconcile", "stark", 1)
    step = advance(step.state, [answer("stark", Reconcile(removals=(Located(cut, "footman"),)))])
    assert [(e.area, e.units) for e in of(step.events, UnitsDestroyed)] == [(cut, ("footman",))]
    sizes = {a: len(step.state.area(a).units) for a in ("winterfell", "white_harbor")}
    assert sizes[cut] == 2 and sum(sizes.values()) == 5


def test_R239_a_choice_that_is_not_the_houses_own_units_is_refused(westeros_only):
    s = position(("supply", "game_of_thrones", "storm_of_swords"))
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white_harbor", "stark", "footman", "footman", "footman")
    put(s, "lannisport", "lannister", "footman")
    step = advance(s, [answer("stark", Reconcile(removals=(Located("lannisport", "footman"),)))])
    assert [e.reason for e in of(step.events, AnswerUnusable)] == ["you have 0 footman(s) in lannisport, not 1 (R060)"]
    assert [(r.kind, r.house) for r in step.requests] == [("reconcile", "stark")]
    assert step.state.area("lannisport").units == [Unit("lannister", "footman")]


# --- R245: control is established only by a march that empties an area --------------------------------------


@pytest.mark.usefixtures("phases")
@pytest.mark.parametrize("leave_power", [False, True])
def test_R245_an_area_emptied_by_casualties_is_nobodys_unless_the_march_left_a_token(leave_power):
    s = game()
    put(s, "karhold", "stark", "knight", order="march+0")
    put(s, "castle_black", "lannister", "footman", "footman")
    step = run(at_action(s), entry("stark", March(origin="karhold", leave_power=leave_power, moves=(
        Move(units=(UnitSpec("knight"),), destination="castle_black"),))),
        entry("stark", PlayCard(card="ser_rodrick_cassel")), entry("lannister", PlayCard(card="ser_gregor_clegane")))
    assert step.state.round == 2, [r.key for r in step.requests]
    # The knight stood in Karhold until the combat ended; it is reported lost where it fought.
    assert [(e.house, e.area, e.units) for e in of(step.events, UnitsDestroyed)] == [("stark", "castle_black", ("knight",))]
    assert not step.state.area("karhold").units
    if leave_power:
        assert of(step.events, PowerTokenPlaced) and step.state.controller("karhold", BOARD) == "stark"
        assert step.state.houses["stark"].power == 4
    else:
        assert step.state.controller("karhold", BOARD) is None and not of(step.events, PowerTokenPlaced)
        assert ("karhold", "stark", "") in [(e.area, e.old, e.new) for e in of(step.events, ControlChanged)]
        assert step.state.houses["stark"].power == 5
