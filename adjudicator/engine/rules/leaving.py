"""A player leaving between rounds (Mother of Dragons, M124, M125, rulings 262, 276): its house becomes a vassal.

:func:`player_leaves` is the rule alone, pure like ``advance``: the position between two rounds in,
the new position and its event out. In a game folder the moderator's ``maester leave`` names the
house at any moment of a round (:func:`leave_problem` says whether it may); the house joins
``state.leaving``, and the step machine calls :func:`leave_between_rounds` when the round is over and
the next has not begun (ruling 276).
"""

from __future__ import annotations

from ...game.state import GameState
from ..events import AnswersExpired, Event
from ..events.bank import PlayerLeft

TARGARYEN = "targaryen"
MIN_WESTEROSI_PLAYERS = 3  # ruling 262: the box holds four sets of vassal orders (ruling 228)
LAST_ROUND = 10  # R035: the game ends after round 10, with no round after it to leave before


class LeavingRefused(ValueError):
    """Why a house cannot leave now; the message ends with its rule."""


def leave_problem(state: GameState, house: str) -> str | None:
    """Why ``house``'s player cannot be named to leave at the end of this round, or ``None``
    (``maester leave``, rulings 262 and 276)."""
    if why := _who_problem(state, house):
        return why
    if house in state.leaving:
        return f"{house.title()}'s player leaves at the end of round {state.round} already (M124, ruling 276)"
    if state.phase == "game_over":
        return "the game is over (M124)"
    if state.round >= LAST_ROUND:
        return f"the game ends with round {LAST_ROUND}: no round follows for a vassal to play (R035, M124, ruling 276)"
    return _count_problem(state, {house, *state.leaving})


def leaving_problem(state: GameState, house: str) -> str | None:
    """Why ``house``'s player cannot leave now, or ``None``."""
    if why := _who_problem(state, house):
        return why
    if not between_rounds(state) or state.round == 1:
        return "a player leaves only between two rounds, before the next round's Westeros phase begins (M124, ruling 262)"
    return _count_problem(state, {house})


def between_rounds(state: GameState) -> bool:
    """The clean-up of a round is done and nothing of the next one (its Westeros phase) has begun."""
    return state.phase == "westeros" and not state.step and state.segment is None


def _who_problem(state: GameState, house: str) -> str | None:
    if not state.box.has("vassals"):
        return "only a Mother of Dragons game turns a leaving player's house into a vassal (M124)"
    if house not in state.houses_in_play:
        return f"{house.title()} is not in this game (M124)"
    if house == TARGARYEN:
        return "Targaryen's player cannot leave that way: Targaryen never becomes a vassal (M125, ruling 220)"
    if state.is_vassal(house):
        return f"{house.title()} is a vassal already (M124)"
    return None


def _count_problem(state: GameState, going: set[str]) -> str | None:
    westerosi = [h for h in state.players() if h != TARGARYEN and h not in going]
    if len(westerosi) < MIN_WESTEROSI_PLAYERS:
        return f"at least {MIN_WESTEROSI_PLAYERS} Westerosi players must stay: the box has four sets of vassal orders (ruling 262)"
    return None


def player_leaves(state: GameState, house: str) -> tuple[GameState, list[PlayerLeft]]:
    """M124 (ruling 262): the house and all its units become a vassal. It keeps its units, garrison,
    power tokens on the board, track places, supply and loans (which cost it nothing more); its
    available power goes back to the pool and its house cards are set aside; a dominance token it
    held passes to the highest player (``state.holder``); the vassals it commanded, and the new one,
    have no commander until the next Planning phase, and the other vassals keep theirs until then.

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
    # The sets are dealt again as the next Planning phase begins (M033); none stays with a vassal.
    new.vassal_sets = [h for h in new.vassal_sets if h != house]
    new.leaving = [h for h in new.leaving if h != house]
    if new.braavos_token == house:
        new.braavos_token = None  # a vassal keeps no Braavos token (ruling 257)
    new.answers = [a for a in new.answers if a.get("house") != house]
    return new, [PlayerLeft(house=house, power_returned=power)]


def leave_between_rounds(state: GameState) -> tuple[GameState, list[Event]]:
    """Ruling 276: the players ``maester leave`` named during the round leave now, in the order named.

    The answers a leaving player sent ahead for the coming round are dropped with a word to it. A
    leave the rules no longer allow (a position edited by hand) is dropped and said publicly.
    """
    events: list[Event] = []
    for house in list(state.leaving):
        try:
            new, left = player_leaves(state, house)
        except LeavingRefused as e:
            state = state.copy()
            state.leaving = [h for h in state.leaving if h != house]
            events.append(PlayerLeft(house=house, power_returned=0, refused=str(e)))
            continue
        gone = [a for a in state.answers if a.get("house") == house]
        if gone:
            events.append(AnswersExpired(house=house, answers=tuple(str(a.get("text", "")) for a in gone),
                                         ids=tuple(str(a["id"]) for a in gone),
                                         reason=f"{house.title()} is a vassal now: its player left the game (M124)"))  # fmt: skip
        events.extend(left)
        state = new
    return state, events
