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
adjudicator.game.boxes.UnknownBox: unknown variant 'mother_of_dragons' (known: classic, a-dance-with-dragons, a-feast-for-crows, mother-of-dragons)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from .board import Board, HouseId
from .box_setup import Changes, Layout, changed_layout, lay_out, printed_layout, read_changes
from .boxes import DEFAULT_BOX, Box, UnknownBox, box_file, box_named
from .cards import CARDS, CardData, dealt_sets
from .mod_setup import new_mod_game
from .setup import SetupError, check_house_deck, check_houses, new_game
from .state import GameState

__all__ = ["SETUPS", "Setup", "UnknownVariant", "Variant", "box_changes", "box_layout", "laid_out_as_data",
           "variant", "variant_of"]

UnknownVariant = UnknownBox  # the name callers knew it by


class Setup(Protocol):
    """Lays out a new game from the houses in play, the seed and the options (as :func:`new_game` does)."""

    def __call__(self, houses: list[str], *, seed: str, game_id: str = ..., tides_of_battle: bool = ...,
                 board: Board | None = ..., house_cards: str = ...) -> GameState: ...


SETUPS: dict[str, Setup] = {"classic": new_game, "mother-of-dragons": new_mod_game}
"""The boxes whose setup is code, by the box's name; every other box's is data (:func:`data_setup`)."""


def box_changes(box: Box) -> Changes:
    """How a data-only box's setup differs from the printed one (its ``setup.toml``; none for the base game)."""
    return read_changes(box_file(box.name, "setup.toml") or {}, f"{box.name}: setup.toml", box.board(box.houses))


def box_layout(box: Box, board: Board, in_play: list[HouseId], house_cards: str) -> Layout:
    """A data-only box's layout for these houses: the printed setup changed as its ``setup.toml`` says."""
    return changed_layout(printed_layout(board, in_play, dealt_sets(box.card_sets, house_cards)), box_changes(box))


def laid_out_as_data(box: Box) -> bool:
    """True when the box's setup is the printed one changed by data (the base game's, a data-only
    box's), which a setup file may change further; False for a setup that is code of its own."""
    return box.name == DEFAULT_BOX or box.name not in SETUPS


def data_setup(box: Box) -> Setup:
    """The setup of a box that is data only: the rulebook's printed setup for the number of houses,
    changed as the box's ``setup.toml`` says (:mod:`~adjudicator.game.box_setup`)."""
    changes = box_changes(box)

    def setup(houses: list[str], *, seed: str, game_id: str = "game", tides_of_battle: bool = False,
              board: Board | None = None, house_cards: str = "base") -> GameState:
        board = board or box.board(houses)
        in_play = check_houses(houses, board)
        check_house_deck(house_cards)
        if len(in_play) not in changes.players:
            raise SetupError(f"{box.title} is played by {_counts(changes)} players, not {len(in_play)}")
        layout = box_layout(box, board, in_play, house_cards)
        state = lay_out(box, layout, board, seed=seed, game_id=game_id, tides_of_battle=tides_of_battle,
                        house_cards=house_cards)
        problems = state.check(board)
        if problems:  # the box's data is at fault, not the houses asked for
            raise SetupError(f"{box.title}'s setup.toml cannot be laid out: " + "; ".join(problems))
        return state

    return setup


def _counts(changes: Changes) -> str:
    n = [str(c) for c in changes.players]
    return " or ".join([", ".join(n[:-1]), n[-1]] if len(n) > 1 else n)


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
    box = box_named(name)
    return Variant(box, SETUPS.get(name) or data_setup(box))


def variant_of(state: GameState) -> Variant:
    """The box a state is played with."""
    return variant(state.variant)
