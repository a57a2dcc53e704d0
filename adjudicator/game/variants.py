"""Where a box's setup is plugged in: its description (:mod:`~adjudicator.game.boxes`) and its setup.

The base game is ``"classic"``: :func:`~adjudicator.game.setup.new_game`. The Mother of Dragons
expansion is ``"mother-of-dragons"`` (``maester new --expansion mother-of-dragons``):
:mod:`~adjudicator.game.mod_setup`. What a box has (houses, card sets, decks, map, features) is its
``box.toml``, read below the game state; only the setup, which builds a state, sits up here.

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
adjudicator.game.boxes.UnknownBox: unknown variant 'mother_of_dragons' (known: classic, mother-of-dragons)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from .board import Board, HouseId
from .boxes import Box, UnknownBox, box_named
from .cards import CARDS, CardData
from .mod_setup import new_mod_game
from .setup import new_game
from .state import GameState

__all__ = ["SETUPS", "Setup", "UnknownVariant", "Variant", "variant", "variant_of"]

UnknownVariant = UnknownBox  # the name callers knew it by


class Setup(Protocol):
    """Lays out a new game from the houses in play, the seed and the options (as :func:`new_game` does)."""

    def __call__(self, houses: list[str], *, seed: str, game_id: str = ..., tides_of_battle: bool = ...,
                 board: Board | None = ..., house_cards: str = ...) -> GameState: ...


SETUPS: dict[str, Setup] = {"classic": new_game, "mother-of-dragons": new_mod_game}
"""Each box's setup, by the box's name."""


@dataclass(frozen=True)
class Variant:
    """One box: its description and its setup."""

    box: Box
    setup: Setup

    @property
    def name(self) -> str:
        return self.box.name

    @property
    def houses(self) -> tuple[HouseId, ...]:
        return self.box.houses

    @property
    def card_sets(self) -> frozenset[str]:
        return self.box.card_sets

    def board(self, houses: Iterable[HouseId]) -> Board:
        """The map for these houses in play."""
        return self.box.board(houses)

    @staticmethod
    def cards() -> CardData:
        return CARDS


def variant(name: str) -> Variant:
    """The box called ``name`` with its setup.

    :raises UnknownBox: naming the known ones.
    """
    return Variant(box_named(name), SETUPS[name])


def variant_of(state: GameState) -> Variant:
    """The box a state is played with."""
    return variant(state.variant)
