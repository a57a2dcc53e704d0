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

import difflib

from .board import HOUSES, Board, HouseId
from .cards import CARDS, HOUSE_DECKS
from .rng import shuffled
from .state import GameState, HouseState, Unit


class SetupError(ValueError):
    """The houses or options asked for cannot make a game."""


def check_houses(houses: list[str], board: Board) -> list[HouseId]:
    """The houses in canonical order, or a clear reason why they cannot play together.

    :raises SetupError: for a wrong count, an unknown, repeated or ineligible house.
    """
    wanted = named_houses(houses, HOUSES)
    n = len(wanted)
    if not 3 <= n <= 6:
        raise SetupError(f"a game has 3 to 6 houses, not {n}")
    eligible = board.setups[n].houses
    for h in wanted:
        if h not in eligible:
            raise SetupError(
                f"{h} cannot play in a {n}-player game; a {n}-player game is played by "
                f"{_and(eligible)} (rulebook p. 28)"
            )
    return [h for h in HOUSES if h in wanted]


def named_houses(houses: list[str], known: tuple[str, ...] | list[str]) -> list[str]:
    """The houses as named (trimmed, lower case), each one of ``known`` and named once.

    :raises SetupError: for an unknown house (with the closest name) or one named twice.
    """
    wanted = [h.strip().lower() for h in houses if h.strip()]
    for h in wanted:
        if h not in known:
            close = difflib.get_close_matches(h.removeprefix("house ").strip(), known, n=1, cutoff=0.6)
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
    """A fresh game at round 1, planning phase (the Westeros phase is skipped in round 1, R034).

    ``house_cards`` is the house deck dealt (:data:`~adjudicator.game.cards.HOUSE_DECKS`): "adwd"
    deals A Dance with Dragons' cards instead of the base ones, a table setting (ruling 370).

    :raises SetupError: see :func:`check_houses`.
    """
    board = board or Board.classic()
    in_play = check_houses(houses, board)
    check_house_deck(house_cards)
    setup = board.setups[len(in_play)]
    state = GameState(
        game_id=game_id,
        round=1,
        phase="planning",
        houses_in_play=in_play,
        tracks={t: list(order) for t, order in setup.tracks.items()},
        kings_court_overlay=setup.kings_court_overlay,
        impassable=sorted(setup.impassable_areas + setup.unusable_ports),  # ruling 100
        wildling_threat=board.constants["wildling_threat_start"],
        options=table_options(tides_of_battle, house_cards),
        rng_seed=seed,
    )
    for h in in_play:
        house = board.houses[h]
        state.houses[h] = HouseState(
            power=board.constants["power_tokens_start"], supply=house.supply_start, hand=CARDS.hand_of(h, state.card_sets())
        )
        for su in house.starting_units:
            state.area_mut(su.area).units.extend(Unit(h, su.unit) for _ in range(su.count))
        state.area_mut(house.home_area).garrison = house.garrison_strength
    for area, strength in setup.neutral_forces.items():
        state.area_mut(area).neutral_force = strength
    for deck in (1, 2, 3):
        state.westeros_decks[str(deck)] = draw_shuffle(state, CARDS.westeros_deck(deck))
        state.westeros_discards[str(deck)] = []
    state.wildling_deck = draw_shuffle(state, sorted(CARDS.wildling_cards))
    if tides_of_battle:
        state.tides_deck = draw_shuffle(state, CARDS.tides_deck())
    return state


def check_house_deck(deck: str) -> None:
    """:raises SetupError: for a house deck Maester does not have."""
    if deck not in HOUSE_DECKS:
        raise SetupError(f"unknown house deck {deck!r}; the house decks are {_and(list(HOUSE_DECKS))}")


def table_options(tides_of_battle: bool, house_cards: str) -> dict[str, object]:
    """A new game's ``options``: the house deck is written only when it is not the base one, so a
    base game's state is as it always was."""
    options: dict[str, object] = {"tides_of_battle": tides_of_battle, "tides_reshuffle_each_combat": True}
    if house_cards != "base":
        options["house_cards"] = house_cards
    return options


def draw_shuffle(state: GameState, items: list[str]) -> list[str]:
    """Shuffle with the game's seeded generator, advancing its counter."""
    out = shuffled(state.rng_seed, items, state.rng_counter)
    state.rng_counter += 1
    return out


