"""Gifts of power (Mother of Dragons, M121, ruling 261): ``give 2 power to Stark``.

A gift is not an answer to a request: the step machine hands every gift waiting in the pool to
:func:`apply_gifts` when the game stands at the start of a step, before anything of that step is
decided (so never inside a combat, whose march is decided already). A waiting step in which
nothing is decided yet (secret bids, orders) takes them too: its start is changed and it replays.
A gift that cannot be made is refused with its rule and changes nothing.
"""

from __future__ import annotations

from typing import Any

from ...game.board import Board
from ...game.commands import Give
from ...game.maps import CLASSIC
from ...game.state import GameState
from ..core.context import PoolEntry
from ..events import AnswerUnusable, AnswerUsed, Event
from ..events.bank import PowerGiven


def gift_problem(state: GameState, board: Board, giver: str, cmd: Give) -> str | None:
    """Why ``giver`` cannot make this gift now, or ``None`` (ruling 261)."""
    if state.variant == CLASSIC:
        return "houses never give each other anything in the base game (R266); gifts of power are Mother of Dragons' (M121)"
    if state.is_vassal(giver):
        return "a vassal gives no power (ruling 261)"
    if cmd.to == giver:
        return "a gift goes to another player (ruling 261)"
    if cmd.to not in state.houses_in_play:
        return f"{cmd.to.title()} is not in this game (ruling 261)"
    if state.is_vassal(cmd.to):
        return f"{cmd.to.title()} is a vassal, which holds no power; gifts go to players (M067, ruling 261)"
    if state.houses[giver].power < cmd.power:
        return f"you have {state.houses[giver].power} available power, not {cmd.power} (M121)"
    return None


def apply_gifts(state: GameState, board: Board) -> list[Event]:
    """Make every gift waiting in ``state.answers`` (oldest first) and drop them from the pool."""
    gifts = [a for a in state.answers if a.get("command", {}).get("type") == "Give"]
    if not gifts:
        return []
    events: list[Event] = []
    room_max = int(board.constants["power_tokens_max_per_house"])
    for a in gifts:
        entry = PoolEntry.from_dict(a)
        cmd = entry.command
        assert isinstance(cmd, Give)
        why = gift_problem(state, board, entry.house, cmd)
        if why:
            events.append(AnswerUnusable(house=entry.house, answer=entry.text, reason=why, ids=(entry.id,),
                                         visible_to=entry.house))
            continue
        taker = state.houses[cmd.to]
        room = max(0, room_max - taker.power - state.power_on_board(cmd.to))
        moved = min(cmd.power, room)  # only what the receiver can take leaves the giver (ruling 261)
        state.houses[entry.house].power -= moved
        taker.power += moved
        events.append(AnswerUsed(house=entry.house, decision="give power", answer=entry.text, ids=(entry.id,),
                                 visible_to=entry.house))
        events.append(PowerGiven(house=entry.house, to=cmd.to, power=moved, asked=cmd.power))
    ids = {a["id"] for a in gifts}
    state.answers = [a for a in state.answers if a["id"] not in ids]
    return events


def has_gifts(answers: list[dict[str, Any]]) -> bool:
    return any(a.get("command", {}).get("type") == "Give" for a in answers)
