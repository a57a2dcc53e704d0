"""Which map a game is played on: the board of a variant for the houses in play.

The lowest place that knows every variant's board, so that the state, its checks and its readers
can find their board without the setup code (``variants.py`` sits above them and adds the cards and
the setup). ``"classic"`` is the base game; ``"mother-of-dragons"`` is the expansion, whose map has
the Essos side board only when Targaryen plays (M009).

>>> len(board_for("classic", ["stark", "lannister", "baratheon"]).areas)
58
>>> board_for(MOTHER_OF_DRAGONS, ["stark", "arryn", "targaryen"]).map
'with_essos'
>>> board_for("chess", [])
Traceback (most recent call last):
...
ValueError: unknown variant 'chess' (known: classic, mother-of-dragons)
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import Board, HouseId
from .mod_board import TARGARYEN, mod_board

CLASSIC = "classic"
MOTHER_OF_DRAGONS = "mother-of-dragons"
VARIANT_NAMES: tuple[str, ...] = (CLASSIC, MOTHER_OF_DRAGONS)


def board_for(variant: str, houses: Iterable[HouseId]) -> Board:
    """The board of a variant for these houses in play (loaded once per map).

    :raises ValueError: for a variant this Maester does not know.
    """
    if variant == CLASSIC:
        return Board.classic()
    if variant == MOTHER_OF_DRAGONS:
        return mod_board(essos=TARGARYEN in houses)
    raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANT_NAMES)})")
