"""The Westeros phase runner (R037-R041, R057): drawing, the threat, resolution order, choices.

Each test plays the phase through ``advance`` from a position whose ``phase = "westeros"``; the
Planning Phase is replaced by a stop, so the returned state is the one the Westeros phase left.
The cards themselves are tested one by one in ``tests/cards/test_westeros_cards.py``.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import GameWon
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable, PhaseStarted
from adjudicator.engine.events.westeros import (
    WesterosCardResolved,
    WesterosCardRevealed,
    WesterosDeckShuffled,
    WildlingAttackBegins,
    WildlingThreatMoved,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import Bid, WesterosChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def position(cards: tuple[str, str, str], *, threat: int = 0, houses: list[str] = HOUSES) -> GameState:
    """A game at the start of round 2's Westeros phase with ``cards`` on top of decks I-III."""
    s = new_game(houses, seed="westeros")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"a{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def play(state: GameState, *answers: dict, deadline: bool = False) -> Step:
    return advance(state, list(answers), deadline=deadline)


QUIET = ("last_days_of_summer", "last_days_of_summer", "web_of_lies")  # no decisions; 3 icons


def test_R037_the_phase_runs_in_the_round_the_clean_up_set():
    step = play(position(QUIET))
    started = [e for e in step.events if isinstance(e, PhaseStarted)]
    assert [(e.round, e.phase) for e in started] == [(2, "westeros")]
    assert step.state.round == 2 and step.state.phase == "planning"


def test_R038_the_top_card_of_each_deck_is_revealed_and_then_discarded():
    s = position(QUIET)
    seconds = [s.westeros_decks[d][1] for d in "123"]
    step = play(s)
    revealed = [(e.deck, e.card) for e in step.events if isinstance(e, WesterosCardRevealed)]
    assert revealed == [(1, "last_days_of_summer"), (2, "last_days_of_summer"), (3, "web_of_lies")]
    assert [step.state.westeros_decks[d][0] for d in "123"] == seconds
    assert step.state.westeros_discards == {"1": ["last_days_of_summer"], "2": ["last_days_of_summer"], "3": ["web_of_lies"]}


def test_R039_each_wildling_icon_moves_the_threat_one_space_of_two():
    step = play(position(QUIET, threat=2))
    assert step.state.wildling_threat == 8
    moved = [e for e in step.events if isinstance(e, WildlingThreatMoved)]
    assert [(e.old, e.new) for e in moved] == [(2, 8)]


def test_R039_reaching_12_attacks_at_once_before_any_card_and_surplus_icons_are_lost():
    s = position(QUIET, threat=10)  # three icons: 10 -> 12 with two to spare
    s.wildling_deck.remove("silence_at_the_wall")
    s.wildling_deck.insert(0, "silence_at_the_wall")
    step = play(s, *(answer(h, Bid(track="wildlings", amount=4)) for h in HOUSES))
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("WildlingAttackBegins") < kinds.index("WesterosCardResolved")
    attack = next(e for e in step.events if isinstance(e, WildlingAttackBegins))
    assert attack.strength == 12
    assert step.state.wildling_threat == 0  # 12 bid against 12: the Night's Watch holds; nothing carried


def test_R040_cards_resolve_in_deck_order_one_two_three():
    step = play(position(("last_days_of_summer", "game_of_thrones", "storm_of_swords")))
    resolved = [e.card for e in step.events if isinstance(e, WesterosCardResolved)]
    assert resolved == ["last_days_of_summer", "game_of_thrones", "storm_of_swords"]


def test_R041_two_attacks_in_one_phase_the_second_at_the_strength_left_by_the_first():
    s = position(("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), threat=8)
    s.wildling_deck = ["silence_at_the_wall", "skinchanger_scout"] + [
        c for c in s.wildling_deck if c not in ("silence_at_the_wall", "skinchanger_scout")]
    bids = [answer(h, Bid(track="wildlings", amount=0)) for h in HOUSES for _ in (1, 2)]
    step = play(s, *bids, deadline=True)
    strengths = [e.strength for e in step.events if isinstance(e, WildlingAttackBegins)]
    assert strengths == [12, 8]  # the wildlings won the first: 12 back two spaces to 8
    assert step.state.wildling_threat == 4


def test_R057_ruling_75_restrictions_of_an_earlier_round_are_cleared_before_the_new_cards():
    s = position(("last_days_of_summer", "game_of_thrones", "sea_of_storms"))
    s.restrictions = ["defense", "support"]
    assert play(s).state.restrictions == ["raid"]


def test_the_phase_ends_by_handing_over_to_planning():
    step = play(position(QUIET))
    assert step.state.phase == "planning" and step.state.segment is not None
    assert step.state.segment.name == "planning"


# --- the choices of the dominance token holders ---------------------------------------------


def test_R044_a_choice_from_a_house_without_the_iron_throne_is_refused_and_changes_nothing():
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    assert s.holder("iron_throne") == "baratheon"
    step = play(s, answer("stark", WesterosChoice(card="a_throne_of_blades", option="supply")))
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert len(refused) == 1 and refused[0].visible_to == "stark"
    assert "Iron Throne" in refused[0].reason and "R044" in refused[0].reason
    assert [r.house for r in step.requests] == ["baratheon"]
    assert step.state.houses["stark"].supply == s.houses["stark"].supply


def test_ruling_73_a_choice_from_a_house_without_the_token_is_refused_once_even_after_the_holder_answers():
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    stray = answer("stark", WesterosChoice(card="a_throne_of_blades", option="supply"))
    first = play(s, stray)
    second = advance(first.state, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="nothing"))])
    refused = [e for e in second.events if isinstance(e, AnswerUnusable)]
    assert [e.house for e in refused] == ["stark"]  # said again with the decision, then done
    assert all(a["id"] != stray["id"] for a in second.state.answers)


def test_an_unknown_westeros_choice_is_refused_with_the_choices():
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    step = play(s, answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="bid")))
    refused = [e for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused and "muster, supply, nothing" in refused[0].reason and "R044" in refused[0].reason
    assert step.requests[0].kind == "westeros_choice"


def test_westeros_choices_default_to_nothing_at_the_deadline():
    s = position(("a_throne_of_blades", "dark_wings_dark_words", "put_to_the_sword"))
    step = play(s, deadline=True)
    assert step.state.restrictions == []
    assert step.state.tracks == s.tracks
    assert {h: x.power for h, x in step.state.houses.items()} == {h: x.power for h, x in s.houses.items()}


def test_westeros_choice_spellings_are_read_as_their_canonical_option():
    assert westeros.canonical_option("a_throne_of_blades", "Mustering") == "muster"
    assert westeros.canonical_option("dark_wings_dark_words", "game of thrones") == "collect"
    assert westeros.canonical_option("put_to_the_sword", "no_march+1") == "no march+1"
    assert westeros.canonical_option("put_to_the_sword", "raid") is None


# --- rulings 60 and 61 -----------------------------------------------------------------------


def test_ruling_60_an_empty_deck_is_rebuilt_from_its_discards():
    s = position(QUIET)
    s.westeros_discards["1"] = s.westeros_decks["1"][1:]
    s.westeros_decks["1"] = []
    s.westeros_discards["1"].insert(0, "supply")
    step = play(s)
    assert any(isinstance(e, WesterosDeckShuffled) and e.deck == 1 for e in step.events)
    drawn = next(e.card for e in step.events if isinstance(e, WesterosCardRevealed) and e.deck == 1)
    assert len(step.state.westeros_decks["1"]) == 9 and step.state.westeros_discards["1"] == [drawn]


def test_ruling_60_winter_is_coming_shuffles_its_draw_pile_but_not_the_discards():
    s = position(("winter_is_coming", "last_days_of_summer", "web_of_lies"))
    s.westeros_decks["1"].remove("supply")
    s.westeros_discards["1"] = ["supply"]
    step = play(s, deadline=True)
    assert any(isinstance(e, WesterosDeckShuffled) and e.cause == "Winter is Coming" for e in step.events)
    deck, discards = step.state.westeros_decks["1"], step.state.westeros_discards["1"]
    assert "winter_is_coming" in deck and discards[0] == "supply" and len(discards) == 2
    assert len(deck) + len(discards) == 10


def test_ruling_61_the_card_drawn_for_winter_is_coming_resolves_with_its_icon():
    s = position(("winter_is_coming", "game_of_thrones", "storm_of_swords"), threat=0)
    # Make the replacement certain: only Last Days of Summer is left beside Winter is Coming.
    s.westeros_discards["1"] = s.westeros_decks["1"][1:]
    s.westeros_decks["1"] = ["winter_is_coming", "last_days_of_summer"]
    s.westeros_discards["1"].remove("last_days_of_summer")
    step = play(s)
    revealed = [e.card for e in step.events if isinstance(e, WesterosCardRevealed) and e.deck == 1]
    assert revealed[0] == "winter_is_coming" and revealed[-1] == "last_days_of_summer"
    assert step.state.wildling_threat == 4  # storm of swords, then last days of summer: 2 icons
    moved = [e.cause for e in step.events if isinstance(e, WildlingThreatMoved)]
    assert moved == ["wildling icons on the Westeros cards", "wildling icon on the card drawn for Winter is Coming"]


def test_ruling_61_the_replacement_icon_reaching_12_makes_the_wildlings_attack_then():
    s = position(("winter_is_coming", "game_of_thrones", "wildlings_attack"), threat=10)
    s.westeros_discards["1"] = [c for c in s.westeros_decks["1"][1:] if c != "last_days_of_summer"]
    s.westeros_decks["1"] = ["winter_is_coming", "last_days_of_summer"]
    step = play(s, deadline=True)
    kinds = [type(e).__name__ for e in step.events]
    first_attack = kinds.index("WildlingAttackBegins")
    resolved = [i for i, e in enumerate(step.events) if isinstance(e, WesterosCardResolved)]
    assert resolved[0] < first_attack < resolved[-1]  # after deck I began, before deck III
    assert [e.strength for e in step.events if isinstance(e, WildlingAttackBegins)] == [12, 8]


def test_ruling_77_a_westeros_phase_after_round_10_ends_the_game_instead():
    s = position(QUIET)
    s.round = 11
    step = play(s)
    assert step.state.phase == "game_over" and step.state.winner == "stark"
    assert any(isinstance(e, GameWon) for e in step.events)
