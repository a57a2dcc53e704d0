"""Setting up a new game for 3-6 players exactly as the rulebook (pp. 4 and 28) says.

>>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> s.tracks["iron_throne"], s.kings_court_overlay
(['baratheon', 'lannister', 'stark'], True)
>>> new_game(["stark", "martell"], seed="x")
Traceback (most recent call last):
...
adjudicator.game.setup.SetupError: a game has 3 to 6 houses, not 2
>>> check_houses(["stark", "lanister", "baratheon"], Board.classic())
Traceback (most recent call last):
...
adjudicator.game.setup.SetupError: unknown house 'lanister'; did you mean 'lannister'? The houses are stark, lannister, greyjoy, tyrell, baratheon and martell
"""

from __future__ import annotations

from ..util.suggest import close_matches
from .board import ALL_HOUSES, Board, HouseId
from .boxes import DEFAULT_BOX, box_named
from .cards import HOUSE_DECKS, dealt_sets
from .state import GameState


class SetupError(ValueError):
    """The houses or options asked for cannot make a game."""


def check_houses(houses: list[str], board: Board) -> list[HouseId]:
    """The houses in canonical order, or a clear reason why they cannot play together.

    :raises SetupError: for a wrong count, an unknown, repeated or ineligible house.
    """
    known = tuple(h for h in ALL_HOUSES if h in board.houses)  # a map seats its own (A Feast for Crows: Arryn)
    wanted = named_houses(houses, known)
    n = len(wanted)
    if not 3 <= n <= 6:
        raise SetupError(f"a game has 3 to 6 houses, not {n}")
    if n not in board.setups:  # a map with the setups of some counts only (A Feast for Crows: four)
        raise SetupError(f"a game on this map has {' or '.join(map(str, sorted(board.setups)))} houses, not {n}")
    eligible = board.setups[n].houses
    for h in wanted:
        if h not in eligible:
            raise SetupError(
                f"{h} cannot play in a {n}-player game; a {n}-player game is played by "
                f"{_and(eligible)} (rulebook p. 28)"
            )
    return [h for h in known if h in wanted]


def named_houses(houses: list[str], known: tuple[str, ...] | list[str]) -> list[str]:
    """The houses as named (trimmed, lower case), each one of ``known`` and named once.

    :raises SetupError: for an unknown house (with the closest name) or one named twice.
    """
    wanted = [h.strip().lower() for h in houses if h.strip()]
    for h in wanted:
        if h not in known:
            close = close_matches(h.removeprefix("house ").strip(), known, n=1, cutoff=0.6)
            guess = f"; did you mean {close[0]!r}? The houses are" if close else "; the houses are"
            raise SetupError(f"unknown house {h!r}{guess} {_and(known)}")
    repeated = sorted({h for h in wanted if wanted.count(h) > 1})
    if repeated:
        raise SetupError(f"house {repeated[0]!r} is named twice")
    return wanted


def _and(words: tuple[str, ...] | list[str]) -> str:
    """``'stark, lannister and baratheon'``."""
    return f"{', '.join(words[:-1])} and {words[-1]}" if len(words) > 1 else "".join(words)


def new_game(
    houses: list[str],
    *,
    seed: str,
    game_id: str = "game",
    tides_of_battle: bool = False,
    board: Board | None = None,
    house_cards: str = "base",
) -> GameState:
    """A fresh game at round 1, planning phase (the Westeros phase is skipped in round 1, R034): the
    rulebook's printed setup for the number of houses (:func:`~adjudicator.game.box_setup.printed_layout`).

    ``house_cards`` is the house deck dealt (:data:`~adjudicator.game.cards.HOUSE_DECKS`): "adwd"
    deals A Dance with Dragons' cards instead of the base ones, a table setting (ruling 370).

    :raises SetupError: see :func:`check_houses`.
    """
    from .box_setup import lay_out, printed_layout  # here: a new game's layout, not every reader's of houses (start-up)

    board = board or Board.classic()
    in_play = check_houses(houses, board)
    check_house_deck(house_cards)
    box = box_named(DEFAULT_BOX)
    layout = printed_layout(board, in_play, dealt_sets(box.card_sets, house_cards))
    return lay_out(box, layout, board, seed=seed, game_id=game_id, tides_of_battle=tides_of_battle,
                   house_cards=house_cards)


def check_house_deck(deck: str) -> None:
    """:raises SetupError: for a house deck Maester does not have."""
    if deck not in HOUSE_DECKS:
        raise SetupError(f"unknown house deck {deck!r}; the house decks are {_and(list(HOUSE_DECKS))}")


