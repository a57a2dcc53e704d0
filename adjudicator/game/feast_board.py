"""A Feast for Crows' map: the base game's board with House Arryn seated in the Eyrie.

The scenario is played on the base map (not Mother of Dragons' overlays): the Eyrie stays a castle
with one barrel and one crown, and becomes Arryn's home area (F003). Its data
(``data/a_feast_for_crows/board.toml``) says only what it changes: the Eyrie's home, Arryn's house
record and units, Arryn's cap of 19 Power tokens (F004) and the one count it is played with, four
houses with the south out of play (F002). The result is an ordinary
:class:`~adjudicator.game.board.Board`, so every rule asks it as it asks the base board.

>>> board = feast_board()
>>> board.map, len(board.areas), board.area("the_eyrie").home_of, board.area("the_eyrie").fortification
('feast', 58, 'arryn', 'castle')
>>> board.power_cap("arryn"), board.power_cap("stark"), board.unit_limit("knight", "arryn")
(19, 20, 5)
>>> board.setups[4].houses
('stark', 'lannister', 'baratheon', 'arryn')
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from ..util.datafile import load_toml
from ..util.resources import package_files
from .board import Board


def _load(path: str, name: str) -> dict[str, Any]:
    return load_toml(package_files("adjudicator.game").joinpath(path).read_text("utf-8"), name)


@cache
def feast_board() -> Board:
    """The scenario's map, loaded once (the base board's data read afresh, so it is never touched)."""
    base, d = _load("data/board.toml", "board"), _load("data/a_feast_for_crows/board.toml", "affc-board")
    changes = {c["id"]: c for c in d["area_change"]}
    areas = [a | {k: v for k, v in changes.get(a["id"], {}).items() if k != "id"} for a in base["area"]]
    constants = dict(base["constants"]) | {k: v for k, v in d["constants"].items() if k != "unit_limits"}
    constants["unit_limits"] = dict(base["constants"]["unit_limits"]) | dict(d["constants"]["unit_limits"])
    data = base | {"area": areas, "house": [*base["house"], *d["house"]], "player_setup": d["player_setup"],
                   "constants": constants}
    return replace(Board.from_toml(data), map="feast")
