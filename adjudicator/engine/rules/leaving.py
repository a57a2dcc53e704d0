"""A player leaving between rounds (Mother of Dragons, M124, M125, ruling 262): its house becomes a vassal.

:func:`player_leaves` is the rule alone, pure like ``advance``: the position between two rounds in,
the new position and its event out. Carrying it out in a game folder (a moderator's command that
``maester replay`` can re-derive) is the folder's business and not built yet.
"""

from __future__ import annotations

from ...game.mod_setup import deal_vassal_sets
from ...game.state import GameState
from ..events.bank import PlayerLeft

TARGARYEN = "targaryen"
MIN_WESTEROSI_PLAYERS = 3  # ruling 262: the box holds four sets of vassal orders (ruling 228)


class LeavingRefused(ValueError):
    """Why a house cannot leave now; the message ends with its rule."""


def leaving_problem(state: GameState, house: str) -> str | None:
    """Why ``house``'s player cannot leave now, or ``None``."""
    if state.variant == "classic":
        return "only a Mother of Dragons game turns a leaving player's house into a vassal (M124)"
    if house not in state.houses_in_play:
        return f"{house.title()} is not in this game (M124)"
    if house == TARGARYEN:
        return "Targaryen's player cannot leave that way: Targaryen never becomes a vassal (M125, ruling 220)"
    if state.is_vassal(house):
        return f"{house.title()} is a vassal already (M124)"
    if state.phase != "westeros" or state.step or state.segment is not None or state.round == 1:
        return "a player leaves only between two rounds, before the next round's Westeros phase begins (M124, ruling 262)"
    westerosi = [h for h in state.players() if h not in (TARGARYEN, house)]
    if len(westerosi) < MIN_WESTEROSI_PLAYERS:
        return f"at least {MIN_WESTEROSI_PLAYERS} Westerosi players must stay: the box has four sets of vassal orders (ruling 262)"
    return None


def player_leaves(state: GameState, house: str) -> tuple[GameState, list[PlayerLeft]]:
    """M124 (ruling 262): the house and all its units become a vassal. It keeps its units, garrison,
    power tokens on the board, track places, supply and loans (which cost it nothing more); its
    available power goes back to the pool and its house cards are set aside; a dominance token it
    held passes to the highest player (``state.holder``); the vassals it commanded, and the new one,
    have no commander until the next Planning phase.

    :raises LeavingRefused: when the house cannot leave now (see :func:`leaving_problem`).
    """
    why = leaving_problem(state, house)
    if why:
        raise LeavingRefused(why)
    new = state.copy()
    hs = new.houses[house]
    power = hs.power
    hs.power, hs.hand, hs.discards = 0, [], []
    new.vassals = [h for h in new.houses_in_play if h in new.vassals or h == house]
    new.commanders = {v: c for v, c in new.commanders.items() if c != house}
    new.vassal_sets = deal_vassal_sets(new)
    if new.braavos_token == house:
        new.braavos_token = None  # a vassal keeps no Braavos token (ruling 257)
    new.answers = [a for a in new.answers if a.get("house") != house]
    return new, [PlayerLeft(house=house, power_returned=power)]
