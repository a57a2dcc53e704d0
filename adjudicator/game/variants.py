"""Where a game's box is chosen by name: the board, the cards and the setup of each variant.

The base game is ``"classic"``: the map and setups of ``data/board.toml``, the cards of
``data/cards.toml`` and :func:`~adjudicator.game.setup.new_game`. The Mother of Dragons expansion is
``"mother-of-dragons"`` (``maester new --expansion mother-of-dragons``): its data files beside the
base ones (``data/mother_of_dragons/``), its map (:mod:`~adjudicator.game.mod_board`), its setup
(:mod:`~adjudicator.game.mod_setup`) and, in :mod:`adjudicator.engine`, its own rules modules. A
state names its variant (``GameState.variant``); ``state.board()`` is its map.

>>> classic = variant("classic")
>>> len(classic.board(["stark"]).areas) == len(Board.classic().areas), classic.cards() is CARDS
(True, True)
>>> classic.setup(["stark", "lannister", "baratheon"], seed="doc").houses_in_play
['stark', 'lannister', 'baratheon']
>>> mod = variant("mother-of-dragons")
>>> len(mod.board(["stark", "targaryen"]).areas), sorted(mod.card_sets)
(75, ['arryn_mod', 'base', 'targaryen_a', 'vassal'])
>>> variant("mother_of_dragons")
Traceback (most recent call last):
...
adjudicator.game.variants.UnknownVariant: unknown variant 'mother_of_dragons' (known: classic, mother-of-dragons)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from .board import HOUSES, Board, HouseId
from .cards import CARDS, STANDARD_SETS, VASSAL, CardData
from .maps import CLASSIC as CLASSIC_NAME
from .maps import MOTHER_OF_DRAGONS, board_for
from .mod_board import MOD_HOUSES
from .mod_setup import new_mod_game
from .setup import new_game
from .state import GameState

__all__ = ["CLASSIC", "MOD", "VARIANTS", "Setup", "UnknownVariant", "Variant", "register", "variant", "variant_of"]


class Setup(Protocol):
    """Lays out a new game from the houses in play, the seed and the options (as :func:`new_game` does)."""

    def __call__(self, houses: list[str], *, seed: str, game_id: str = ..., tides_of_battle: bool = ...,
                 board: Board | None = ..., house_cards: str = ...) -> GameState: ...


class UnknownVariant(KeyError):
    """A variant name that no module registered."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Variant:
    """One box: its name, its houses, its map for the houses in play, its cards and its setup."""

    name: str
    board: Callable[[Iterable[HouseId]], Board]  # the map for these houses in play
    cards: Callable[[], CardData]
    setup: Setup
    houses: tuple[HouseId, ...] = HOUSES  # every house the box has, in canonical order
    card_sets: frozenset[str] = frozenset({"base"})  # the house-card sets it deals (cards.HouseCard.set)


VARIANTS: dict[str, Variant] = {}


def register(v: Variant) -> Variant:
    """Make a variant known by its name (once: a second box under a taken name is a mistake)."""
    assert v.name not in VARIANTS, v.name
    VARIANTS[v.name] = v
    return v


def variant(name: str) -> Variant:
    """The variant called ``name``.

    :raises UnknownVariant: naming the known ones.
    """
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None


def variant_of(state: GameState) -> Variant:
    """The variant a state is played with."""
    return variant(state.variant)


CLASSIC = register(Variant(CLASSIC_NAME, board=partial(board_for, CLASSIC_NAME), cards=lambda: CARDS, setup=new_game))
MOD = register(Variant(
    MOTHER_OF_DRAGONS, board=partial(board_for, MOTHER_OF_DRAGONS), cards=lambda: CARDS, setup=new_mod_game,
    houses=MOD_HOUSES, card_sets=STANDARD_SETS | {VASSAL},
))
