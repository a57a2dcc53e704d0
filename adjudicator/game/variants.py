"""Where a game's box is chosen by name: the board, the cards and the setup of each variant.

The base game is ``"classic"``: the map and setups of ``data/board.toml``, the cards of
``data/cards.toml`` and :func:`~adjudicator.game.setup.new_game`. An expansion (Mother of Dragons)
registers a variant of its own here - its data files beside the base ones, its own setup - and
its own rules modules in :mod:`adjudicator.engine`, without changing the base game's.

>>> classic = variant("classic")
>>> len(classic.board().areas) == len(Board.classic().areas), classic.cards() is CARDS
(True, True)
>>> classic.setup(["stark", "lannister", "baratheon"], seed="doc").houses_in_play
['stark', 'lannister', 'baratheon']
>>> variant("mother_of_dragons")
Traceback (most recent call last):
...
adjudicator.game.variants.UnknownVariant: unknown variant 'mother_of_dragons' (known: classic)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .board import Board
from .cards import CARDS, CardData
from .setup import new_game
from .state import GameState

__all__ = ["CLASSIC", "VARIANTS", "Setup", "UnknownVariant", "Variant", "register", "variant"]


class Setup(Protocol):
    """Lays out a new game from the houses in play, the seed and the options (as :func:`new_game` does)."""

    def __call__(self, houses: list[str], *, seed: str, game_id: str = ..., tides_of_battle: bool = ...,
                 board: Board | None = ...) -> GameState: ...


class UnknownVariant(KeyError):
    """A variant name that no module registered."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Variant:
    """One box: its name, how to load its board and cards, and how to lay out a new game."""

    name: str
    board: Callable[[], Board]
    cards: Callable[[], CardData]
    setup: Setup


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


CLASSIC = register(Variant("classic", board=Board.classic, cards=lambda: CARDS, setup=new_game))
