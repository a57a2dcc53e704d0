"""The end of the game (R260-R262): the winner after round 10 and its tie-breaks."""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import GameWon
from adjudicator.engine.core.context import (
    Context,
    GameOver,
    NeedAnswers,
    PoolEntry,
    pool_entry,
)
from adjudicator.engine.events.westeros import FinalStandings
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.engine.rules.endgame import final_winner, standings
from adjudicator.game.board import Board
from adjudicator.game.commands import Bid, Located, TieBreak, WildlingChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Segment, Unit

HOUSES = ["stark", "lannister", "baratheon"]  # Iron Throne: baratheon, lannister, stark
BOARD = Board.classic()
_ids = itertools.count()


def end_of_round_10() -> GameState:
    """Round 10 with no units: each house holds only its home (stark, lannister, baratheon: 1 castle each)."""
    s = new_game(HOUSES, seed="end")
    s.round, s.phase = 10, "action"
    for st in s.areas.values():
        st.units.clear()
        st.neutral_force = None
    s.tidy()
    return s


def hold(s: GameState, house: str, *areas: str) -> None:
    for area in areas:
        s.area_mut(area).units = [Unit(house, "footman")]


def finish(s: GameState) -> tuple[GameState, list]:
    ctx = Context(s, BOARD, Segment("action", {}), [], False)
    with pytest.raises(GameOver):
        final_winner(ctx)
    return ctx.state, ctx.events


def won(events: list) -> GameWon:
    return next(e for e in events if isinstance(e, GameWon))


def test_R260_the_house_with_the_most_castles_and_strongholds_wins():
    s = end_of_round_10()
    hold(s, "lannister", "harrenhal", "riverrun")
    state, events = finish(s)
    assert state.winner == "lannister" and state.phase == "game_over"
    assert won(events).reason == "the most castles and strongholds (3) at the end of round 10"
    assert won(events).round == 10


def test_R260_a_tie_on_castles_goes_to_more_strongholds():
    s = end_of_round_10()
    hold(s, "stark", "moat_cailin")  # castle: stark 2 (1 stronghold)
    hold(s, "lannister", "riverrun")  # stronghold: lannister 2 (2 strongholds)
    state, events = finish(s)
    assert state.winner == "lannister"
    assert won(events).reason == ("tied with Stark on castles and strongholds (2); "
                                  "decided by strongholds: 2 against 1 (R260)")


def test_R260_then_the_higher_supply_position():
    s = end_of_round_10()
    s.houses["stark"].supply, s.houses["lannister"].supply, s.houses["baratheon"].supply = 4, 3, 3
    state, events = finish(s)
    assert state.winner == "stark"
    assert won(events).reason == ("tied with Baratheon, Lannister on castles and strongholds (1), strongholds (1); "
                                  "decided by position on the Supply track: 4 against 3, 3 (R260)")


def test_R260_then_the_most_available_power():
    s = end_of_round_10()
    for h in HOUSES:
        s.houses[h].supply = 2
    s.houses["stark"].power = 7
    state, events = finish(s)
    assert state.winner == "stark" and "decided by available power: 7 against 5, 5" in won(events).reason


def test_R260_then_the_higher_place_on_the_iron_throne_track():
    s = end_of_round_10()
    for h in HOUSES:
        s.houses[h].supply = 2
    state, events = finish(s)
    assert state.winner == "baratheon"
    assert "decided by place on the Iron Throne track: 1 against 2, 3" in won(events).reason


def test_R260_the_final_standings_are_published_best_first():
    s = end_of_round_10()
    hold(s, "lannister", "harrenhal")
    _, events = finish(s)
    table = next(e for e in events if isinstance(e, FinalStandings))
    assert [row[0] for row in table.standings] == ["lannister", "baratheon", "stark"]  # baratheon: supply 2, stark 1
    assert table.visible_to == "public"
    assert standings(s, BOARD)[0] == ("lannister", 2, 1, 2, 5, 2)


def test_R261_the_iron_throne_holder_does_not_decide_a_tie_for_the_win():
    s = end_of_round_10()
    for h in HOUSES:
        s.houses[h].supply = 2
    standing = pool_entry(id="tb", house="baratheon", round=10, command=TieBreak(order=("stark", "lannister", "baratheon")))
    ctx = Context(s, BOARD, Segment("action", {}), [PoolEntry.from_dict(standing)], False)
    with pytest.raises(GameOver):
        final_winner(ctx)
    assert ctx.state.winner == "baratheon" and ctx.segment.decisions == {}


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


def test_R262_seven_castles_end_the_game_at_once_even_in_the_westeros_phase(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})
    s = new_game(HOUSES, seed="seven")
    s.round, s.phase, s.wildling_threat = 5, "westeros", 2
    for deck, card in enumerate(("supply", "last_days_of_summer", "wildlings_attack"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    s.wildling_deck.remove("mammoth_riders")
    s.wildling_deck.insert(0, "mammoth_riders")
    s.area_mut("winterfell").units = [Unit("lannister", "footman")]  # stark's home, held by lannister
    s.area_mut("winterfell").garrison = 0
    hold(s, "stark", "moat_cailin", "the_eyrie", "flints_finger", "harrenhal", "riverrun")  # + white harbor: 6
    s.area_mut("the_eyrie").neutral_force = None
    s.houses["stark"].supply = 6
    answers = [pool_entry(id=f"e{next(_ids)}", house=h, round=5, command=Bid(track="wildlings", amount=n))
               for h, n in (("stark", 2), ("lannister", 0), ("baratheon", 1))]
    kill = (Located(area="winterfell", unit="footman"), Located(area="stoney_sept", unit="footman"),
            Located(area="the_golden_sound", unit="ship"))
    answers.append(pool_entry(id="kill", house="lannister", round=5, command=WildlingChoice(card="mammoth_riders", units=kill)))
    step = advance(s, answers)
    assert step.state.phase == "game_over" and step.state.winner == "stark"
    assert [e.reason for e in step.events if isinstance(e, GameWon)] == ["7 castles and strongholds"]


def test_M076_ruling_247_targaryen_wins_after_round_10_by_its_place_on_the_victory_track():
    from adjudicator.game.mod_setup import new_mod_game

    s = new_mod_game(["stark", "lannister", "arryn", "targaryen"], seed="end")
    s.round, s.phase, s.loyalty_gained = 10, "action", 5  # and Pentos: space 6, more than any castles
    ctx = Context(s, s.board(), Segment("action", {}), [], False)
    with pytest.raises(GameOver):
        final_winner(ctx)
    assert ctx.state.winner == "targaryen"
    assert won(ctx.events).reason == "the highest place on the victory track (6) at the end of round 10"
