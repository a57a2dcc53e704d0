"""``maester leave``: a player leaves a Mother of Dragons game and its house becomes a vassal (M124, ruling 276).

The moderator names the house at any moment of a round. The command writes one ``leave`` line in
the log, naming the snapshot it was given at; the next ``maester adjudicate`` derives a step that
announces it in the public report (the snapshot and its ``snapshot`` line record ``leaving``, so
``maester replay`` derives it again byte for byte), and the house becomes a vassal when that round
is over, before the next one's Westeros phase (ruling 262). A rollback to the snapshot it was given
at, or a later one, keeps it; a rollback to an earlier one undoes it.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.rules.leaving import leave_problem
from . import registry
from .audit import BatchError
from .gamedir import GameDir
from .ledger import log
from .undo import open_settled


def leave(root: str | Path, house: str, *, reason: str = "") -> str:
    """Log that ``house``'s player leaves at the end of the round in progress; returns what was done.

    :raises BatchError: for a game without the expansion, an unknown house, Targaryen, a vassal, a
        house named already, too few Westerosi players staying, the last round, a game over, or a
        game not adjudicated yet. Nothing is written then.
    """
    gd = GameDir.open(root)
    with gd.lock():
        folder, ledger = open_settled(gd)
        numbers = folder.numbers()
        if not numbers:
            raise BatchError(f"no step was resolved yet: run 'maester adjudicate {root}' first")
        snap = folder.read_snapshot(numbers[-1])
        state = snap.state.copy()
        named = ledger.leaves.get(snap.number, [])
        state.leaving = [*state.leaving, *(h for h in named if h not in state.leaving)]
        who = _house_id(house)
        if who not in state.houses_in_play:
            raise BatchError(f"{house!r} is not a house of this game; its players' houses are {', '.join(state.players())}")
        if why := leave_problem(state, who):
            raise BatchError(f"{registry.house_name(who)} cannot leave: {why}")
        entry = {"action": "leave", "house": who, "at": snap.number, "round": state.round}
        log(gd.root, entry | ({"reason": reason.strip()} if reason.strip() else {}))
    return (f"{registry.house_name(who)}'s player leaves at the end of round {state.round}: from round "
            f"{state.round + 1} on, {who.title()} is a vassal (M124). The next 'maester adjudicate {root}' says so in "
            "the public report; until the round ends the house plays as before.")


def _house_id(text: str) -> str:
    """``"House Stark"``, ``"STARK"``, ``" stark "``: ``"stark"``."""
    words = text.strip().lower().split()
    if len(words) > 1 and words[0] == "house":
        words = words[1:]
    return " ".join(words)
