"""The step machine: ``advance(state, answers) -> Step(state, events, requests)``.

It runs the phases of a round (:mod:`adjudicator.engine.rules`) one segment at a time, each with
a :class:`~adjudicator.engine.core.context.Context` to ask its decisions through. A phase that
lacks an answer stops with :class:`~adjudicator.engine.core.context.NeedAnswers`; the half-resolved
segment is saved in the state and replayed from its start by the next ``advance``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from ..game.board import Board
from ..game.state import GameState, Segment
from .core.context import (
    Context,
    Deadline,
    GameOver,
    NeedAnswers,
    PoolEntry,
    Step,
    is_standing,
)
from .events import AnswersExpired, AnswerUnusable, AnswerUsed, Event
from .rules.gifts import apply_gifts, has_gifts
from .rules.lapsed import lapsed
from .rules.standing import standing_changes

PhaseRunner = Callable[[Context], None]


def _runners() -> dict[str, PhaseRunner]:
    return {"westeros": _westeros, "planning": _planning, "action": _action}


# Each phase's rules are imported when a step first reaches that phase: a step loads no other phase's.
def _westeros(ctx: Context) -> None:
    from .rules import westeros

    westeros.run(ctx)


def _planning(ctx: Context) -> None:
    from .rules import planning

    planning.run(ctx)


def _action(ctx: Context) -> None:
    from .rules import action

    action.run(ctx)


def advance(
    state: GameState,
    answers: Iterable[dict[str, Any]] = (),
    *,
    deadline: Deadline = False,
    board: Board | None = None,
) -> Step:
    """Resolve as far as the answers allow. Pure: ``state`` is not changed.

    ``answers`` are pool entries (see :func:`pool_entry`), appended to the standing pool.
    ``deadline`` says which decisions without an answer take their documented default: with a set
    of request keys only those requests do, with a predicate ``deadline(request)`` those it names
    (the requests past due: the caller decides that from its own clock, the engine has none), and
    decisions that come up afterwards and are not named are asked as usual. ``True`` names every
    decision, up to the end of the game (the rules' tests and the robots' soaks use it).
    """
    board = board or state.board()
    # A shallow copy is enough: the loop below builds every position it changes afresh from data.
    live = copy.copy(state)
    arriving = [dict(a) for a in answers]
    live.answers = [*state.answers, *arriving]
    runners = _runners()
    events: list[Event] = []
    if any(a.get("standing") or a["command"].get("type") == "Withdraw" for a in arriving):
        live.answers, changed = standing_changes(live, board, live.answers, {a["id"] for a in arriving})
        events.extend(changed)
    while live.phase != "game_over":
        if live.leaving:  # Mother of Dragons: maester leave (M124, ruling 276)
            from .rules.leaving import between_rounds, leave_between_rounds

            if between_rounds(live):
                live, left = leave_between_rounds(live)
                events.extend(left)
        events.extend(_refuse_lapsed(live, board))
        if has_gifts(live.answers):
            live, given = _gifts(live, board)
            events.extend(given)
        seg = live.segment or Segment(name=live.phase, start=_position(live))
        pos = GameState.from_dict(seg.start, validate=False)  # checked when the state was read
        pool = [PoolEntry.from_dict(a) for a in live.answers]
        work = Segment(seg.name, seg.start, dict(seg.decisions), list(seg.used), seg.events_seen)
        ctx = Context(pos, board, work, pool, deadline)
        try:
            _run_segment(runners[seg.name], ctx)
        except NeedAnswers as need:
            events.extend(ctx.events[seg.events_seen:])
            events.extend(ctx.transient)
            work.events_seen = len(ctx.events)
            pos.answers = _mark_judged(live.answers, [*ctx.events, *ctx.transient])
            pos.segment = work
            pos.pending = [r.to_dict() for r in need.requests]
            pos.tidy()
            return Step(pos, events, need.requests)
        except GameOver:
            pass  # the winner and phase "game_over" were set where the game ended
        events.extend(ctx.events[seg.events_seen:])
        pos.answers = _mark_judged([a for a in live.answers if a["id"] not in set(work.used)], ctx.events)
        if pos.round != live.round or pos.phase == "game_over":
            events.extend(_expire(pos, pool, set(work.used)))
        pos.decisions_asked = ctx.asked if pos.phase == seg.name else 0
        pos.segment = None
        pos.pending = []
        pos.tidy()
        live = pos
    return Step(live, events, [])


def _gifts(live: GameState, board: Board) -> tuple[GameState, list[Event]]:
    """Mother of Dragons' gifts of power (M121, ruling 261), made where the game stands: at the start
    of a step, or in a waiting step where nothing is decided yet (its start changes and it replays).
    Otherwise they wait for the next step."""
    if live.segment is None:
        live.houses = {h: copy.copy(hs) for h, hs in live.houses.items()}  # advance never changes its input
        return live, apply_gifts(live, board)
    if live.segment.decisions:
        return live, []
    seg = live.segment
    pos = GameState.from_dict(seg.start, validate=False)
    pos.answers = live.answers
    given = apply_gifts(pos, board)
    live.answers = pos.answers
    live.segment = Segment(seg.name, _position(pos), {}, list(seg.used), seg.events_seen)
    return live, given


def _run_segment(runner: PhaseRunner, ctx: Context) -> None:
    """Run one step of the phase (a segment), and on while decisions recorded for it remain.

    A phase runner resolves one step of its phase and returns; the next step starts a segment of
    its own. A segment saved by an earlier Maester spans a whole phase: its recorded decisions are
    replayed through as many steps as they reach.
    """
    phase = ctx.state.phase
    runner(ctx)
    while ctx.state.phase == phase and ctx.recorded - ctx.replayed:
        runner(ctx)


def _position(state: GameState) -> dict[str, Any]:
    d = state.to_dict()
    for k in ("segment", "answers", "pending"):
        d.pop(k, None)
    return d


def _refuse_lapsed(state: GameState, board: Board) -> list[Event]:
    """Drop from the pool, with their verdict, the answers no decision left in their round can use
    (ruling 161): not needed when the part of the round that asks for them is over, refused when no
    decision could ever have used them. Run when a file's answers arrive and as each step of a
    phase begins, on the position as it stands. An answer a decision already refused has had its
    verdict: it is dropped without another.
    """
    used = set(state.segment.used) if state.segment else set()
    out: list[Event] = []
    kept = []
    for a in state.answers:
        # A standing answer a decision has used keeps its verdict, "used", to the end of its round.
        verdict = None if a["id"] in used or a.get("verdict") == "used" else lapsed(state, board, PoolEntry.from_dict(a))
        if verdict is None:
            kept.append(a)
            continue
        status, why = verdict
        house, text, ids = a["house"], str(a.get("text", "")), (a["id"],)
        if a.get("verdict") == "refused":
            continue
        out.append(AnswersExpired(house=house, answers=(text,), ids=ids, reason=why, visible_to=house)
                   if status == "expired" else
                   AnswerUnusable(house=house, answer=text, reason=why, ids=ids, visible_to=house))  # fmt: skip
    if len(kept) != len(state.answers):
        state.answers = kept
    return out


def _mark_judged(answers: list[dict[str, Any]], events: list[Event]) -> list[dict[str, Any]]:
    """The pool with each answer's last verdict while the game holds it (``verdict``): "used" for a
    standing answer a decision took, which is then dropped at the end of its round as used, not as
    not needed; "refused" for one a decision refused, which the next judgement drops quietly."""
    used = {i for e in events if isinstance(e, AnswerUsed) for i in e.ids}
    refused = {i for e in events if isinstance(e, AnswerUnusable) for i in e.ids}
    out = []
    for a in answers:
        if a.get("standing"):  # a standing instruction keeps no verdict: each decision judges it anew (ruling 355)
            out.append(a)
            continue
        # Used stays used: a later refusal of a standing answer is for another decision.
        mark = "used" if a["id"] in used or a.get("verdict") == "used" else "refused" if a["id"] in refused else ""
        out.append({**a, "verdict": mark} if mark and a.get("verdict") != mark else a)
    return out


def _expire(state: GameState, pool: list[PoolEntry], used: set[str]) -> list[Event]:
    """At the end of a round, answers sent during it that no decision used are dropped (ruling 160);
    standing instructions stay until withdrawn (ruling 353), and end with the game.

    Each is reported to its house as not needed, standing answers among them, unless it had its
    verdict already: a standing answer a decision used, an answer a decision refused.
    """
    over = state.phase == "game_over"
    stale = [e for e in pool if e.id not in used and (over or (e.round < state.round and not e.standing))]
    verdicts = {a["id"]: a.get("verdict", "") for a in state.answers}  # marked with this segment's events
    told = {e.id for e in stale if verdicts.get(e.id) == "refused"
            or (verdicts.get(e.id) == "used" and is_standing(e.command))}
    out: list[Event] = []
    for house in sorted({e.house for e in stale}):
        mine = [e for e in stale if e.house == house and e.id not in told]
        if mine:
            out.append(AnswersExpired(house=house, answers=tuple(e.text for e in mine), ids=tuple(e.id for e in mine),
                                      visible_to=house))
    stale_ids = {e.id for e in stale}
    state.answers = [a for a in state.answers if a["id"] not in stale_ids]
    state.unasked = []  # the round's decisions taken without asking are past (ruling 351)
    return out
