"""Gifts of power (Mother of Dragons, M121, ruling 261): ``give 2 power to Stark``.

A gift is not an answer to a request. The step machine hands every gift waiting in the pool to
:func:`apply_gifts` when the game stands at the start of a step, before anything of that step is
decided; a waiting step in which nothing is decided yet (secret bids, orders) takes them too: its
start is changed and it replays. Inside a combat, whose march is decided already, gifts wait for the
combat to end, except while it calls for support: :func:`gifts_at_support` makes them just before a
support declaration the combat waits for, as a decision of the step, so that its replay makes them
again at the same point. A gift that cannot be made is refused with its rule and changes nothing.
"""

from __future__ import annotations

from typing import Any

from ...game.board import Board
from ...game.commands import Give
from ...game.state import GameState
from ..core.context import Context, PoolEntry
from ..events import AnswerUnusable, AnswerUsed, Event
from ..events import from_dict as event_from_dict


def gift_problem(state: GameState, board: Board, giver: str, cmd: Give) -> str | None:
    """Why ``giver`` cannot make this gift now, or ``None`` (ruling 261)."""
    if not state.box.has("gifts"):
        return "houses never give each other anything in the base game (R266); gifts of power are Mother of Dragons' (M121)"
    if state.is_vassal(giver):
        return "a vassal gives no power: vassals never collect or spend power tokens (M067, ruling 261)"
    if cmd.to == giver:
        return "a gift goes to another player (ruling 261)"
    if cmd.to not in state.houses_in_play:
        return f"{cmd.to.title()} is not in this game (ruling 261)"
    if state.is_vassal(cmd.to):
        return f"{cmd.to.title()} is a vassal, which holds no power; gifts go to players (M067, ruling 261)"
    if state.houses[giver].power < cmd.power:
        return f"you have {state.houses[giver].power} available power, not {cmd.power} (M121)"
    return None


def make_gifts(state: GameState, board: Board, entries: list[PoolEntry]) -> tuple[list[Event], list[list[Any]]]:
    """Make these gifts (oldest first) on ``state``: their events, and each power moved as
    ``[giver, receiver, power]``."""
    from ..events.bank import PowerGiven  # Mother of Dragons' events: loaded only in its games

    events: list[Event] = []
    moves: list[list[Any]] = []
    for entry in entries:
        cmd = entry.command
        assert isinstance(cmd, Give)
        why = gift_problem(state, board, entry.house, cmd)
        if why:  # an answer's events are its house's alone (events.private_to_house)
            events.append(AnswerUnusable(house=entry.house, answer=entry.text, reason=why, ids=(entry.id,)))
            continue
        taker = state.houses[cmd.to]
        room = max(0, board.power_cap(cmd.to) - taker.power - state.power_on_board(cmd.to))
        moved = min(cmd.power, room)  # only what the receiver can take leaves the giver (ruling 261)
        state.houses[entry.house].power -= moved
        taker.power += moved
        moves.append([entry.house, cmd.to, moved])
        events.append(AnswerUsed(house=entry.house, decision="give power", answer=entry.text, ids=(entry.id,)))
        events.append(PowerGiven(house=entry.house, to=cmd.to, power=moved, asked=cmd.power))
    return events, moves


def apply_gifts(state: GameState, board: Board) -> list[Event]:
    """Make every gift waiting in ``state.answers`` (oldest first) and drop them from the pool."""
    gifts = [a for a in state.answers if a.get("command", {}).get("type") == "Give"]
    if not gifts:
        return []
    events, _ = make_gifts(state, board, [PoolEntry.from_dict(a) for a in gifts])
    ids = {a["id"] for a in gifts}
    state.answers = [a for a in state.answers if a["id"] not in ids]
    return events


def gifts_at_support(ctx: Context, declaration: str) -> None:
    """Ruling 261: before the support declaration ``declaration`` (a request key), the gifts waiting in
    the pool are made, when the combat reaches that declaration for the first time or recorded
    them there. A replay past the declaration makes the recorded gifts again and takes no new one."""
    if not ctx.state.box.has("gifts"):
        return  # no gifts in the base game: one sent is refused at the next step (R266)
    key = f"{declaration}.gifts"
    rec = ctx.segment.decisions.get(key)
    if rec is not None:
        ctx.replayed.add(key)
        for giver, to, moved in rec["moves"]:
            ctx.state.houses[giver].power -= moved
            ctx.state.houses[to].power += moved
        ctx.emit(*(event_from_dict(e) for e in rec.get("events", [])))
        return
    if declaration in ctx.segment.decisions:
        return  # declared before these gifts came: they wait for the end of the combat
    used = set(ctx.segment.used)
    waiting = [e for e in ctx.pool if isinstance(e.command, Give) and e.id not in used]
    if not waiting:
        return
    events, moves = make_gifts(ctx.state, ctx.board, waiting)
    ctx.segment.decisions[key] = {"gifts": True, "moves": moves, "events": [e.to_dict() for e in events]}
    ctx.segment.used.extend(e.id for e in waiting)
    ctx.emit(*events)


def has_gifts(answers: list[dict[str, Any]]) -> bool:
    return any(a.get("command", {}).get("type") == "Give" for a in answers)
