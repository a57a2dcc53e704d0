"""A player leaving between rounds (M124, M125, rulings 262, 276)."""

from __future__ import annotations

import pytest
from rules.helpers import entry, of

from adjudicator.engine.events import AnswersExpired, PhaseStarted
from adjudicator.engine.events.bank import PlayerLeft
from adjudicator.engine.invariants import check_invariants
from adjudicator.engine.machine import advance
from adjudicator.engine.rules.leaving import LeavingRefused, leave_problem, player_leaves
from adjudicator.game.commands import Bid
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "targaryen"]


def between_rounds(houses: list[str] = SIX) -> GameState:
    s = new_mod_game(houses, seed="leave")
    s.round, s.phase, s.step = 3, "westeros", ""
    s.dragon_tokens = [r for r in s.dragon_tokens if r > s.round]  # rounds 2 and 3 began (M090, ruling 274)
    s.pending = [{"key": "r3.westeros.stand-in", "kind": "westeros_choice", "house": "stark", "prompt": "..."}]
    return s


def test_M124_a_leaving_players_house_becomes_a_vassal_with_all_its_units():
    s = between_rounds()
    s.houses["stark"].power, s.houses["stark"].loans = 6, ["customs_officer"]
    s.loan_slots = [x if x != "customs_officer" else "" for x in s.loan_slots]
    s.loan_deck = [x for x in s.loan_deck if x != "customs_officer"]
    units = s.units_of("stark")
    t, events = player_leaves(s, "stark")
    assert "stark" in t.vassals and "stark" not in t.players()
    assert t.units_of("stark") == units and t.houses["stark"].loans == ["customs_officer"]
    assert (t.houses["stark"].power, t.houses["stark"].hand) == (0, []) and events[0].power_returned == 6
    assert t.tracks == s.tracks and "stark" not in t.vassal_sets
    assert check_invariants(t) == [] and "stark" not in s.vassals  # the position given is left alone


def test_M124_ruling_262_only_between_rounds_and_while_three_westerosi_players_stay():
    s = between_rounds()
    s.phase = "planning"
    with pytest.raises(LeavingRefused, match="between two rounds"):
        player_leaves(s, "stark")
    s = between_rounds(["stark", "lannister", "baratheon", "targaryen"])
    with pytest.raises(LeavingRefused, match="ruling 262"):
        player_leaves(s, "stark")


def test_M125_targaryens_player_cannot_leave_that_way():
    with pytest.raises(LeavingRefused, match="M125"):
        player_leaves(between_rounds(), "targaryen")


# --- ruling 276: named during a round, gone between rounds ---------------------------------------


def test_M124_ruling_276_a_player_named_during_the_round_leaves_when_it_ends():
    s = new_mod_game(SIX, seed="leave")
    s.round, s.leaving = 3, ["stark"]
    assert leave_problem(s, "stark") is not None  # named already
    step = advance(s, [entry("stark", Bid(track="fiefdoms", amount=1), round=3)])  # mid-round: nothing yet
    assert "stark" not in step.state.vassals and step.state.leaving == ["stark"]
    gap = between_rounds()
    gap.leaving = ["stark"]
    gap.answers = [entry("stark", Bid(track="fiefdoms", amount=1), round=3)]  # sent ahead, now not needed
    step = advance(gap, deadline=True)
    assert "stark" in step.state.vassals and not step.state.leaving
    left = of(step.events, PlayerLeft)
    assert [(e.house, e.refused) for e in left] == [("stark", "")]
    expired = [e for e in of(step.events, AnswersExpired) if e.house == "stark"]
    assert expired and "M124" in expired[0].reason
    assert check_invariants(step.state) == []


def test_M124_ruling_276_who_may_be_named_to_leave():
    s = new_mod_game(SIX, seed="leave")
    assert leave_problem(s, "stark") is None
    assert "M125" in (leave_problem(s, "targaryen") or "")
    assert "vassal already" in (leave_problem(s, s.vassals[0]) or "")
    s.leaving = ["stark", "lannister"]
    assert "ruling 262" in (leave_problem(s, "baratheon") or "")  # of five Westerosi players, two would stay
    s.leaving, s.round = [], 10
    assert "R035" in (leave_problem(s, "stark") or "")
    classic = new_game(["stark", "lannister", "baratheon"], seed="leave")
    assert "Mother of Dragons" in (leave_problem(classic, "stark") or "")


def test_M124_ruling_276_a_leave_no_longer_allowed_is_said_and_dropped():
    gap = between_rounds()
    gap.leaving = ["stark", "lannister", "baratheon"]  # edited by hand: of five Westerosi players, two would stay
    step = advance(gap, deadline=True)
    left = {e.house: e.refused for e in of(step.events, PlayerLeft)}
    assert left["stark"] == left["lannister"] == "" and "ruling 262" in left["baratheon"]
    assert "baratheon" not in step.state.vassals and not step.state.leaving


def test_M124_ruling_262_the_other_vassals_keep_their_commanders_until_the_planning_phase():
    """Found by a 7-player game through maester leave: a vassal commanded by a player who stays kept
    its commander, and the sets of vassal orders were dealt again for every vassal, one too many."""
    s = between_rounds()
    vassal = s.vassals[0]
    s.commanders, s.vassal_sets = {vassal: "targaryen", s.vassals[1]: "stark"}, []
    t, _ = player_leaves(s, "stark")
    assert t.commanders == {vassal: "targaryen"} and t.vassal_sets == []
    assert check_invariants(t) == []


def test_M124_ruling_353_a_standing_instruction_ends_when_its_player_leaves():
    from adjudicator.game.commands import Standing, WesterosChoice

    gap = between_rounds()
    gap.leaving = ["stark"]
    standing = entry("stark", Standing(command=WesterosChoice(card="a_throne_of_blades", option="muster")), round=1)
    gap.answers = [standing]
    step = advance(gap, deadline=True)
    assert "stark" in step.state.vassals
    assert standing["id"] not in {a["id"] for a in step.state.answers}
    assert any(isinstance(e, AnswersExpired) and standing["id"] in e.ids and e.visible_to == "stark"
               for e in step.events)


def test_M124_M125_ruling_276_the_refusals_of_maester_leave_word_for_word():
    s = new_mod_game(SIX, seed="leave")
    assert leave_problem(s, "targaryen") == (
        "Targaryen's player cannot leave that way: Targaryen never becomes a vassal (M125, ruling 220)")
    assert leave_problem(s, s.vassals[0]) == f"{s.vassals[0].title()} is a vassal already (M124)"
    s.leaving = ["stark"]
    assert leave_problem(s, "stark") == "Stark's player leaves at the end of round 1 already (M124, ruling 276)"
    s.leaving, s.round, s.phase, s.winner = [], 5, "game_over", "lannister"  # seven castles won it (R036)
    assert leave_problem(s, "stark") == "the game is over (M124)"
    classic = new_game(["stark", "lannister", "baratheon"], seed="leave")
    assert leave_problem(classic, "stark") == (
        "only a Mother of Dragons game turns a leaving player's house into a vassal (M124)")


def test_M124_ruling_262_a_player_leaves_between_rounds_1_and_2_but_not_during_a_phase():
    s = between_rounds()
    s.round = 2  # round 1 is over; round 2's Westeros phase has not begun
    t, _ = player_leaves(s, "stark")
    assert "stark" in t.vassals
    s.phase = "planning"
    with pytest.raises(LeavingRefused) as refused:
        player_leaves(s, "stark")
    assert str(refused.value) == ("a player leaves only between two rounds, before the next round's Westeros phase "
                                  "begins (M124, ruling 262)")


def test_M124_ruling_257_the_leaving_house_gives_up_its_braavos_token_and_its_set_of_vassal_orders_only():
    s = between_rounds()
    s.braavos_token, s.vassal_sets = "stark", ["stark", "lannister"]
    t, _ = player_leaves(s, "stark")
    assert t.braavos_token is None and t.vassal_sets == ["lannister"]
    s.braavos_token = "lannister"
    t, _ = player_leaves(s, "stark")
    assert t.braavos_token == "lannister"


def test_M124_ruling_276_the_answers_of_the_players_who_stay_are_kept():
    s = between_rounds()
    mine, theirs = entry("stark", Bid(track="fiefdoms", amount=1), round=3), entry("lannister", Bid(track="fiefdoms", amount=2), round=3)
    s.answers = [mine, theirs]
    t, _ = player_leaves(s, "stark")
    assert t.answers == [theirs]


def test_M124_ruling_276_the_answers_a_leaving_player_sent_ahead_are_told_back_to_it_as_sent():
    gap = between_rounds()
    gap.leaving = ["stark"]
    sent = entry("stark", Bid(track="fiefdoms", amount=1), round=3)
    untitled = {k: v for k, v in entry("stark", Bid(track="kings_court", amount=1), round=3).items() if k != "text"}
    gap.answers = [sent, untitled]  # a position's answer need not carry its text
    step = advance(gap, deadline=True)
    (expired,) = [e for e in of(step.events, AnswersExpired) if e.house == "stark"]
    assert expired.answers == (sent["text"], "") and expired.ids == (sent["id"], untitled["id"])
    assert expired.visible_to == "stark"
    assert expired.reason == "Stark is a vassal now: its player left the game (M124)"


def test_M124_ruling_276_a_leave_dropped_does_not_stop_the_next_one_named():
    gap = between_rounds()
    gap.leaving = ["targaryen", "stark"]  # edited by hand: Targaryen never becomes a vassal (M125)
    step = advance(gap, deadline=True)
    left = {e.house: e for e in of(step.events, PlayerLeft)}
    assert "M125" in left["targaryen"].refused and left["targaryen"].power_returned == 0
    assert "targaryen" not in step.state.vassals
    assert left["stark"].refused == "" and "stark" in step.state.vassals and not step.state.leaving


def test_M124_ruling_276_a_leave_dropped_does_not_put_off_the_next_one_named_to_a_later_round():
    gap = between_rounds()
    gap.leaving = ["targaryen", "stark"]  # edited by hand: Targaryen never becomes a vassal (M125)
    step = advance(gap)
    told = [(e.house, bool(e.refused)) if isinstance(e, PlayerLeft) else (e.round, e.phase)
            for e in step.events if isinstance(e, (PlayerLeft, PhaseStarted))]
    assert told[:3] == [("targaryen", True), ("stark", False), (3, "westeros")], "both before round 3 goes on"
    assert "stark" in step.state.vassals and not step.state.leaving
