"""Coming up for you (issue 15): decisions answered before they are asked, and robots that do it.

Ruling 123: the raven's card placement sent with the look, as a conditional on the card seen.
Ruling 124: the private report lists what comes up later in the step, from what the house may know.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from clikit import reports_of

from adjudicator.engine import machine
from adjudicator.engine.ahead import cards_to_come, upcoming
from adjudicator.engine.core.context import Request, pool_entry
from adjudicator.engine.events.action import WildlingCardPlaced
from adjudicator.engine.rules.planning import areas_needing_orders, default_orders
from adjudicator.folder.check import check_turn_file
from adjudicator.game.board import Board
from adjudicator.game.commands import Bid, Raven, RavenKeep
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState
from adjudicator.reports.report import render_report
from adjudicator.robots.simulate import simulate
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.turnfile.printer import format_command

BOARD = Board.classic()
THREE = ["stark", "lannister", "baratheon"]


# --- ruling 123: the raven's look in one mail ----------------------------------------------------


def _raven_round(keep: RavenKeep) -> tuple[GameState, list[Any]]:
    """Round 1 with every house's default orders, and the raven holder looking with ``keep``."""
    state = new_game(THREE, seed="raven-ahead", game_id="g")
    entries = []
    for h in THREE:
        for i, cmd in enumerate(default_orders(state, BOARD, h, areas_needing_orders(state, BOARD, h))):
            entries.append(pool_entry(id=f"{h}/1.planning/seq1/L{i}", house=h, round=1, command=cmd))
    holder = state.holder("kings_court")
    entries += [pool_entry(id=f"{holder}/1.planning/seq1/L90", house=holder, round=1, command=Raven(action="look")),
                pool_entry(id=f"{holder}/1.planning/seq1/L91", house=holder, round=1, command=keep)]
    step = machine.advance(state, entries)
    return state, step.events


def test_ruling_123_the_card_seen_goes_to_the_bottom_when_it_is_named() -> None:
    top = new_game(THREE, seed="raven-ahead", game_id="g").wildling_deck[0]
    _state, events = _raven_round(RavenKeep(choice="bottom", cards=(top, "crow_killers")))
    (placed,) = [e for e in events if isinstance(e, WildlingCardPlaced)]
    assert placed.where == "bottom"


def test_ruling_123_a_card_not_named_stays_on_top_without_a_second_mail() -> None:
    top = new_game(THREE, seed="raven-ahead", game_id="g").wildling_deck[0]
    other = next(c for c in ("crow_killers", "mammoth_riders") if c != top)
    _state, events = _raven_round(RavenKeep(choice="bottom", cards=(other,)))
    (placed,) = [e for e in events if isinstance(e, WildlingCardPlaced)]
    assert placed.where == "top"
    # and "top if" is the reverse: the card named stays, any other goes down
    _, events = _raven_round(RavenKeep(choice="top", cards=(other,)))
    assert [e.where for e in events if isinstance(e, WildlingCardPlaced)] == ["bottom"]


def test_ruling_123_the_conditional_line_reads_prints_and_is_checked() -> None:
    tf = parse_turn_file("wildling card: bottom if crow killers and Mammoth riders, preemptive raid\n")
    (cmd,) = tf.commands
    assert cmd == RavenKeep(choice="bottom", cards=("crow_killers", "mammoth_riders", "preemptive_raid"))
    assert format_command(cmd) == "wildling card: bottom if Crow Killers, Mammoth Riders, Preemptive Raid"
    assert parse_turn_file(format_command(cmd) + "\n").commands == (cmd,)
    assert [p.code for p in parse_turn_file("wildling card: top if crow killers, crow killers\n").problems] == ["E206"]
    assert [p.code for p in parse_turn_file("wildling card: top if winterfell\n").problems] == ["E209"]
    state = new_game(THREE, seed="raven-ahead", game_id="g")
    holder, other = state.holder("kings_court"), next(h for h in THREE if h != state.holder("kings_court"))
    for house, codes in ((holder, []), (other, ["E409"])):
        text = f"game g · house {house} · round 1 · planning · seq 1\nwildling card: bottom if crow killers\n"
        assert [p.code for p in check_turn_file(parse_turn_file(text), state, engine=False).problems] == codes


# --- ruling 124: what is coming up -------------------------------------------------------------


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """Every state of a 4-player robot game whose robots answer ahead (many answers wait in the pool)."""
    seen: list[GameState] = []
    simulate(4, 2, rounds=6, text=False, chaos=0.0, ahead=True, on_step=seen.append)
    return seen


def _requests(state: GameState) -> list[Request]:
    return [Request.from_dict(p) for p in state.pending]


def test_ruling_124_a_house_mustering_after_another_is_told_it_may_send_it_now() -> None:
    found = None
    for seed in range(1, 20):
        seen: list[GameState] = []
        simulate(4, seed, rounds=4, text=False, chaos=0.0, on_step=seen.append)
        for state in seen:
            asked = [r for r in _requests(state) if r.kind == "muster"]
            if asked:
                order = state.turn_order()
                later = [h for h in order[order.index(asked[0].house) + 1:]
                         if any(u.request.kind == "muster" for u in upcoming(state, h, _requests(state)))]
                if later:
                    found = state, asked[0].house, later[0]
                    break
        if found:
            break
    assert found is not None
    state, first, later = found
    items = [u for u in upcoming(state, later, _requests(state)) if u.request.kind == "muster"]
    assert all(u.why == f"you muster after {first.title()} (turn order): you may send it now" for u in items)
    text = render_report(state, [], viewer=later, requests=state.pending)
    assert "None: nothing is asked of you now." not in text
    assert "None asked now; what comes up for you may be answered now (below)." in text
    section = text.split("COMING UP FOR YOU")[1].split("YOUR TURN FILE")[0]
    assert f"you muster after {first.title()}" in section
    assert "e.g." not in section, "the lines to fill in are given once, in the turn file (ruling 310)"
    skeleton = text.split("seal and send\n")[1].split("YOUR HAND")[0]
    coming = [line for line in skeleton.split("# Coming up, not asked yet")[1].splitlines()[1:]
              if line and not line.startswith("---")]
    assert coming and all(line.startswith("#") for line in coming)  # commented: sent back as it is, nothing is said
    assert any(line.startswith("# muster in ") for line in coming)


def _wildlings_win(card: str) -> GameState:
    """Round 2's Westeros phase: Wildlings Attack at threat 4 with ``card`` on top of the wildling
    deck, and bids of Stark 1, Lannister 0, Baratheon 1 sent: the wildlings win, Lannister bid lowest."""
    s = new_game(THREE, seed="wildling-cards")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 2
    for deck, c in enumerate(("supply", "last_days_of_summer", "wildlings_attack"), 1):
        s.westeros_decks[str(deck)].remove(c)
        s.westeros_decks[str(deck)].insert(0, c)
    s.wildling_deck.remove(card)
    s.wildling_deck.insert(0, card)
    bids = [pool_entry(id=f"{h}/b", house=h, round=2, command=Bid(track="wildlings", amount=n))
            for h, n in (("stark", 1), ("lannister", 0), ("baratheon", 1))]
    return machine.advance(s, bids).state


def test_ruling_124_a_wildling_card_s_choice_asked_in_turn_order_may_be_answered_before_the_earlier_house() -> None:
    state = _wildlings_win("a_king_beyond_the_wall")
    asked = _requests(state)
    assert [(r.house, r.kind) for r in asked] == [("baratheon", "wildling_choice")]
    (later,) = upcoming(state, "stark", asked)  # the dry run, Baratheon taking its default
    assert later.request.kind == "wildling_choice" and later.request.house == "stark"
    assert later.why == "asked after Baratheon answer: you may answer now"
    assert upcoming(state, "lannister", asked) == []  # the lowest bidder is not asked again


def test_ruling_124_the_dry_run_is_for_choices_asked_in_turn_order_only() -> None:
    """Other requests asked in turn order are worked out without replaying the phase (a muster
    after an earlier house, orders after a house short of tokens): the dry run is not needed."""
    from adjudicator.engine import ahead

    state = _wildlings_win("a_king_beyond_the_wall")
    calls: list[str] = []
    real = machine.advance

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append("advance")
        return real(*args, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(machine, "advance", counting)
    try:
        muster = [dataclasses.replace(r, kind="muster") for r in _requests(state)]
        assert ahead._after_others(state, BOARD, "stark", muster, []) == [] and calls == []
        ahead._after_others(state, BOARD, "stark", _requests(state), [])
        assert calls
    finally:
        mp.undo()


def test_ruling_124_coming_up_reads_no_other_house_s_answers_and_no_hidden_deck(states) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for state in states:
        requests = _requests(state)
        for house in state.houses_in_play:
            seen = [(u.request.key, u.why) for u in upcoming(state, house, requests)]
            alone = copy.copy(state)
            alone.answers = [a for a in state.answers if a["house"] == house]
            assert [(u.request.key, u.why) for u in upcoming(alone, house, requests)] == seen
            if state.segment is None or state.segment.start["decks"]["wildling"] == state.wildling_deck:
                # no wildling card drawn in this phase yet: the deck's order is nobody's knowledge
                shuffled = copy.deepcopy(alone)
                shuffled.wildling_deck.reverse()
                if shuffled.segment is not None:
                    shuffled.segment.start["decks"]["wildling"].reverse()
                assert [(u.request.key, u.why) for u in upcoming(shuffled, house, requests)] == seen
            checked += bool(seen)
    assert checked > 20


def test_ruling_124_what_a_house_answered_already_is_not_listed_again(states) -> None:  # type: ignore[no-untyped-def]
    """Robots answering ahead answer each item once: after their file, nothing they answered is listed."""
    listed = sum(len(upcoming(s, h, _requests(s))) for s in states for h in s.houses_in_play)
    raw = 0
    for state in states:
        for house in state.houses_in_play:
            bare = copy.copy(state)
            bare.answers = [a for a in state.answers if a["house"] != house]
            raw += len(upcoming(bare, house, _requests(state)))
    assert listed < raw


def test_ruling_124_the_action_phase_lists_later_raids_marches_and_consolidations() -> None:
    kinds = {"raid": "raid", "march": "march", "consolidate": "consolidate", "support": "support"}
    checked = 0
    states: list[GameState] = []
    simulate(4, 2, rounds=3, text=False, chaos=0.0, on_step=states.append)  # robots that wait to be asked
    for state in states:
        if state.phase != "action":
            continue
        for house in state.houses_in_play:
            bare = copy.copy(state)
            bare.answers = []
            for u in upcoming(bare, house, _requests(state)):
                if u.request.kind in kinds:
                    order = state.area(u.request.context["origin"]).order
                    assert order is not None and order.house == house and order.token.startswith(kinds[u.request.kind])
                    checked += 1
    assert checked > 0


def test_ruling_124_westeros_cards_to_come_are_what_the_decks_lack() -> None:
    seen: list[GameState] = []
    simulate(3, 5, rounds=4, text=False, chaos=0.0, on_step=seen.append)
    westeros = [s for s in seen if s.phase == "westeros" and s.westeros_revealed]
    assert westeros
    for state in westeros:
        now, later = cards_to_come(state)
        k = int(state.step.removeprefix("card_")) if state.step.startswith("card_") else 1
        assert later == state.westeros_revealed[k:]  # revealed at the phase's start, in deck order
        assert now == state.westeros_revealed[k - 1] or state.westeros_revealed[k - 1] == "winter_is_coming"


def test_ruling_124_the_receipt_names_what_is_coming_up(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "g"
    simulate(4, 3, rounds=2, out=out, chaos=0.0)
    receipts = [p.read_text(encoding="utf-8") for p in reports_of(out).glob("*/receipts/*.txt")]
    assert any("Coming up for you, not asked yet" in r or "what comes up for you may be answered now" in r
               for r in receipts)


def test_the_skeleton_header_of_a_long_game_id_stays_within_the_width() -> None:
    from adjudicator.reports.report import skeleton
    from adjudicator.turnfile.header import find_header

    state = new_game(THREE, seed="x", game_id="a-very-long-game-identifier-2026")
    text = skeleton(state, "baratheon", [{"key": "k", "kind": "bid", "house": "baratheon", "prompt": "p"}])
    head = text.splitlines()[0]
    assert len(head) <= 80 and find_header(text) == find_header(f"game {state.game_id} · house baratheon · round 1 · "
                                                                 "planning · seq 1")


# --- robots that answer ahead ------------------------------------------------------------------


def test_robots_answering_ahead_play_the_text_path_as_the_engine_does() -> None:
    """Turn files with 'add' headers, seals and the reports give the very moves of engine-only play."""
    finals = {}
    mails = {}
    for text in (True, False):
        last: list[GameState] = []
        result = simulate(4, 21, rounds=2, text=text, chaos=0.0, ahead=True, on_step=last.append)
        assert result.problems == []
        position = last[-1].to_dict()
        for k in ("segment", "answers", "pending", "game_id"):  # the pool's ids differ: files, not a counter
            position.pop(k, None)
        finals[text], mails[text] = position, result.mail_rounds
    assert finals[True] == finals[False] and mails[True] == mails[False]


def test_robots_answering_ahead_need_fewer_mail_rounds_than_robots_answering_what_is_asked() -> None:
    for players, seed in ((3, 4), (6, 1)):
        asked = simulate(players, seed, rounds=3, text=False, chaos=0.0)
        ahead = simulate(players, seed, rounds=3, text=False, chaos=0.0, ahead=True)
        assert asked.problems == [] and ahead.problems == []
        assert 0 < len(ahead.mail_rounds) < len(asked.mail_rounds)
