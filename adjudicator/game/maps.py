"""Every map Maester has, by the name a box's ``box.toml`` gives it (game/boxes.py).

The lowest place that knows the maps, so that a box's description can name its map as data:
``classic`` is the base game's, ``feast`` the same with House Arryn seated in the Eyrie (A Feast
for Crows), ``westeros_mod`` Mother of Dragons' Westeros with the Eyrie and
Bite overlays and ``with_essos`` the same with the Essos side board (M008, M009).

>>> len(board_named("classic").areas), board_named("with_essos").map
(58, 'with_essos')
>>> board_named("chess")
Traceback (most recent call last):
...
ValueError: unknown map 'chess' (known: classic, feast, westeros_mod, with_essos)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .board import Board

__all__ = ["MAPS", "board_named"]


# The expansions' maps are loaded with their modules, when a game first asks for one: Mother of Dragons'
# module reads its box's data as it is imported, which a base game's command would pay (start-up).
def _feast() -> Board:
    from .feast_board import feast_board

    return feast_board()


def _mod(essos: bool) -> Board:
    from .mod_board import mod_board

    return mod_board(essos=essos)


MAPS: dict[str, Callable[[], Board]] = {
    "classic": Board.classic,
    "feast": _feast,
    "westeros_mod": partial(_mod, False),
    "with_essos": partial(_mod, True),
}
"""Each map's maker (each loads its map once)."""


def board_named(name: str) -> Board:
    """The map called ``name``.

    :raises ValueError: for a map this Maester does not have.
    """
    try:
        make = MAPS[name]
    except KeyError:
        raise ValueError(f"unknown map {name!r} (known: {', '.join(MAPS)})") from None
    return make()
