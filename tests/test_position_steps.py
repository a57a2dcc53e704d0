"""Every sub-step of the engine as a position file (issue 14): the segment starts of robot games,
written out and read back, and the game played on from the file is the same game.

The engine starts a segment at every sub-step of a phase (``state.STEPS``: the Westeros cards
revealed, the threat moved, each card, the orders revealed before the Messenger Raven, each raid,
march and consolidate power order). A spy on the step machine records the position at each fresh
segment start with the answers waiting then; for a sample of each sub-step, ``dump -> load -> dump``
must give the same text and an equal state, and ``advance`` from the loaded position must end
where the robot game's own ``advance`` call ended: the same state, requests and closing events.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, Step, pool_entry
from adjudicator.game.position import load_position
from adjudicator.game.position_dump import dump_position
from adjudicator.game.state import STEPS, GameState
from adjudicator.robots import simulate as sim

PER_STEP = 3  # samples of each sub-step (more of the cycles, where cycle_done varies)


def _sub_step(state: GameState) -> str:
    return f"{state.phase}:{state.step or 'start'}" + (":mid-cycle" if state.cycle_done else "")


@pytest.fixture(scope="module")
def samples() -> dict[str, list[tuple[GameState, Any, Step]]]:
    """Segment starts of two robot games, by sub-step: (position with its answers, deadline, the call's result)."""
    records: list[tuple[GameState, Any, int]] = []
    results: list[Step] = []
    run_segment, real_advance = machine._run_segment, sim.advance

    def spy(runner: Any, ctx: Context) -> None:
        if not ctx.segment.decisions and not ctx.segment.events_seen:
            start = GameState.from_dict(copy.deepcopy(ctx.segment.start))
            start.answers = [pool_entry(id=e.id, house=e.house, round=e.round, command=e.command, text=e.text,
                                        verdict=e.verdict) for e in ctx.pool]
            records.append((start, ctx.deadline, len(results)))
        run_segment(runner, ctx)

    def advance(*args: Any, **kwargs: Any) -> Step:
        step = real_advance(*args, **kwargs)
        results.append(step)
        return step

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(machine, "_run_segment", spy)
        mp.setattr(sim, "advance", advance)
        for players, seed in ((6, 14), (4, 3)):
            sim.simulate(players, seed, rounds=3, text=False, chaos=0.1)
    by_step: dict[str, list[tuple[GameState, Any, Step]]] = defaultdict(list)
    for start, deadline, call in records:
        kind = _sub_step(start)
        limit = PER_STEP * (3 if start.cycle_done else 1)
        if len(by_step[kind]) < limit and (start.answers or len(by_step[kind]) < limit - 1):
            by_step[kind].append((start, deadline, results[call]))
    return by_step


def test_every_sub_step_of_the_engine_was_sampled(samples):
    wanted = {f"{phase}:{step or 'start'}" for phase, steps in STEPS.items() if phase != "game_over" for step in steps}
    wanted |= {f"action:{s}:mid-cycle" for s in ("raids", "marches", "consolidate")}
    assert wanted <= set(samples), sorted(wanted - set(samples))


def test_every_sub_step_round_trips_through_a_position_file(samples):
    for kind, found in samples.items():
        for start, _, _ in found:
            text = dump_position(start)
            again = load_position(text, filename=f"{kind}.toml")
            assert again == start, kind
            assert dump_position(again) == text, kind


def test_advance_from_a_loaded_sub_step_gives_the_same_game(samples):
    for kind, found in samples.items():
        for start, deadline, result in found:
            loaded = load_position(dump_position(start), filename=f"{kind}.toml")
            step = machine.advance(loaded, deadline=deadline)
            assert step.state == result.state, kind
            assert [r.to_dict() for r in step.requests] == [r.to_dict() for r in result.requests], kind
            assert step.events == result.events[len(result.events) - len(step.events):], kind


# --- the examples of docs/positions.md, one per sub-step ----------------------------------------------

# What the game does first from each example: (the first event's type and fields, the open requests).
EXAMPLES: dict[str, tuple[tuple[str, dict[str, Any]], list[tuple[str, str]] | None]] = {
    "westeros": (("PhaseStarted", {"phase": "westeros"}), None),
    "westeros threat": (("WildlingThreatMoved", {"old": 4, "new": 8}), [("bid", "baratheon"), ("bid", "lannister"),
                                                                        ("bid", "stark")]),
    "westeros card_1": (("WesterosCardResolved", {"deck": 1, "card": "supply"}), None),
    "westeros card_2": (("WesterosCardResolved", {"deck": 2, "card": "clash_of_kings"}), [
        ("bid", "baratheon"), ("bid", "lannister"), ("bid", "stark")]),
    "westeros card_3": (("WesterosCardResolved", {"deck": 3, "card": "storm_of_swords"}), [
        ("orders", "baratheon"), ("orders", "lannister"), ("orders", "stark")]),
    "planning": (("PhaseStarted", {"phase": "planning"}), [
        ("orders", "baratheon"), ("orders", "lannister"), ("orders", "stark")]),
    "planning raven": (("", {}), [("raven", "lannister")]),
    "action": (("PhaseStarted", {"phase": "action"}), [("raid", "stark")]),
    "action raids": (("", {}), [("raid", "lannister")]),
    "action marches": (("", {}), [("march", "lannister")]),
    "action consolidate": (("PowerChanged", {"house": "baratheon"}), [("consolidate", "lannister")]),
}


def test_positions_md_has_an_example_of_every_sub_step():
    from test_docs_examples import step_blocks

    marks = [mark for mark, _ in step_blocks("positions.md")]
    wanted = [f"{phase} {step}".strip() for phase, steps in STEPS.items() if phase != "game_over" for step in steps]
    assert sorted(marks) == sorted(wanted) == sorted(EXAMPLES)


def test_positions_md_sub_step_examples_go_on_as_the_text_says():
    from test_docs_examples import step_blocks

    for mark, text in step_blocks("positions.md"):
        state = load_position(text, filename="example.toml")
        phase, _, step = mark.partition(" ")
        assert (state.phase, state.step) == (phase, step), mark
        assert load_position(dump_position(state), filename="again.toml") == state, mark
        result = machine.advance(state)
        (kind, fields), asked = EXAMPLES[mark]
        events = [e for e in result.events if type(e).__name__ not in ("AnswerUnusable", "OnlyOption")]
        if kind:
            first = events[0]
            assert type(first).__name__ == kind and all(getattr(first, k) == v for k, v in fields.items()), (mark, first)
        if asked is not None:
            assert sorted((r.kind, r.house) for r in result.requests) == sorted(asked), (mark, result.requests)
