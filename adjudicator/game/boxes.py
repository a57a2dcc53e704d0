"""What a game's box has: its houses, rounds, card sets, decks, map and features, read from data.

Every box has a ``box.toml`` in a folder of its own in the package's data (``data/classic/``,
``data/mother_of_dragons/``); :func:`box_named` reads it once. The module sits below the game
state, so every layer can ask: the state (``state.box``), its checks, position files, the turn-file
reader, the engine, the reports and the robots. They ask what a box *has*, never what it is called:

>>> classic, mod = box_named("classic"), box_named("mother-of-dragons")
>>> classic.has("vassals"), mod.has("vassals"), mod.has("objectives")
(False, True, False)
>>> mod.westeros_decks, len(mod.houses), classic.rounds
((1, 2, 3, 4), 8, 10)
>>> len(mod.board(["stark", "targaryen"]).areas), len(mod.board(["stark", "arryn"]).areas)
(75, 61)
>>> box_named("chess")
Traceback (most recent call last):
...
adjudicator.game.boxes.UnknownBox: unknown variant 'chess' (known: classic, a-dance-with-dragons, a-feast-for-crows, mother-of-dragons)

Adding a box is adding its folder: ``data/<name with underscores>/box.toml`` with the keys below
(``docs/engine.md``, "Worked example: a box that is data only"). A feature not in :data:`FEATURES`
is refused when the box is read, so that a misspelt feature cannot silently leave a rule out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..util.datafile import load_toml
from ..util.resources import package_files
from .board import Board, HouseId
from .maps import board_named

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["DEFAULT_BOX", "FEATURES", "Box", "UnknownBox", "board_for", "box_named", "box_names"]

DEFAULT_BOX = "classic"
"""The box of a state, position or game folder that names none (every file written before boxes)."""

FEATURES: dict[str, str] = {
    "vassals": "houses in play that no player plays, their orders, cards and commanders",
    "sea_orders": "a player's sea order tokens",
    "iron_bank": "the Iron Bank's loans and the improvement tokens they place",
    "deck_iv": "a fourth Westeros deck",
    "dragons": "the dragon unit and the dragon strength tokens",
    "loyalty": "loyalty tokens and a victory counted in them",
    "fixed_last": "a house that keeps the last place of every influence track",
    "gifts": "gifts of power between players",
    "objectives": "objective cards and a victory counted in points",
}
"""Every feature a box may have, and what it brings."""


class UnknownBox(KeyError):
    """A box name that no box folder describes."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class SideBoard:
    """A board added to the map when a house plays (Mother of Dragons' Essos with Targaryen, M009)."""

    map: str  # the map with the side board (game/maps.py)
    with_house: HouseId


@dataclass(frozen=True)
class Box:
    """One box as its ``box.toml`` describes it."""

    name: str  # as a state, position and game folder name it
    title: str  # as a sentence names it: "the base game", "Mother of Dragons"
    expansion: bool  # chosen with --expansion NAME; the one box that is not is the base game
    schema_version: int  # the state format its new states are written in (1: without a variant key)
    houses: tuple[HouseId, ...]  # every house the box has, in canonical order
    rounds: int  # the last round
    card_sets: frozenset[str]  # the house-card sets it deals (cards.HouseCard.set)
    westeros_decks: tuple[int, ...]  # the numbers of its Westeros decks
    map: str  # its map (game/maps.py)
    side_board: SideBoard | None
    features: frozenset[str]
    header: str = ""  # a line every report's header shows under its title (a scenario's name and limits)
    hooks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # hook point -> its own modules there
    westeros_sets: dict[int, str] = field(default_factory=dict)  # a deck of another set's cards (A Feast for Crows' I)
    # The table of a state file that holds the box's own parts of a game (written, read and checked by
    # its modules at the state_written, state_read and state_checked hook points); "" for a box without.
    state_table: str = ""

    def has(self, feature: str) -> bool:
        """True when the box has this feature (one of :data:`FEATURES`)."""
        assert feature in FEATURES, feature  # a misspelt feature is a bug, not a box without it
        return feature in self.features

    def board(self, houses: Iterable[HouseId]) -> Board:
        """The map for these houses in play (with the side board when its house plays)."""
        side = self.side_board
        return board_named(side.map if side is not None and side.with_house in houses else self.map)

    @property
    def deck_keys(self) -> tuple[str, ...]:
        """Its Westeros decks as a state's keys: ``("1", "2", "3")``."""
        return tuple(str(n) for n in self.westeros_decks)

    def westeros_set(self, deck: int) -> str:
        """The set of cards one of its Westeros decks holds (cards.WesterosCard.set): ``"base"`` but
        where the box replaces a deck."""
        return self.westeros_sets.get(deck, "base")


_ADDED: dict[str, Path] = {}  # boxes from folders outside the package (box_folder_added), by name
_READ: dict[str, dict[str, Any]] = {}  # each box folder's box.toml as read, by the folder's path (never changed)


def _data() -> Traversable:
    return package_files("adjudicator.game").joinpath("data")


def _folder(name: str) -> Traversable:
    return _ADDED[name] if name in _ADDED else _data().joinpath(name.replace("-", "_"))


@cache
def box_names() -> tuple[str, ...]:
    """Every box this Maester knows, the base game first, then by name."""
    names = [_read(d)["name"] for d in _data().iterdir() if d.joinpath("box.toml").is_file()] + list(_ADDED)
    return tuple(sorted(names, key=lambda n: (n != DEFAULT_BOX, n)))


def _read(folder: Traversable) -> dict[str, Any]:
    """A box folder's ``box.toml``, read once (``box_names`` reads every box's, ``box_named`` one's again)."""
    if (data := _READ.get(str(folder))) is None:
        data = _READ[str(folder)] = load_toml(folder.joinpath("box.toml").read_text("utf-8"), f"box-{folder.name}")
    return data


def box_file(name: str, file: str) -> dict[str, Any] | None:
    """Another data file of a box's folder (``setup.toml``), read; None when the box has none."""
    path = _folder(name).joinpath(file)
    return load_toml(path.read_text("utf-8"), f"box-{path.name}-{file}") if path.is_file() else None


@contextmanager
def box_folder_added(folder: Path) -> Iterator[str]:
    """A box described by a folder outside the package known for the duration (a box being written,
    or a test's): yields its name."""
    name = _read(folder)["name"]
    assert name not in box_names(), f"a box called {name!r} exists"
    _ADDED[name] = folder
    _forget()
    try:
        yield name
    finally:
        del _ADDED[name]
        _forget()


def _forget() -> None:
    _READ.clear()
    box_names.cache_clear()
    box_named.cache_clear()


@cache
def box_named(name: str) -> Box:
    """The box called ``name``.

    :raises UnknownBox: naming the known ones.
    """
    if name not in box_names():
        raise UnknownBox(f"unknown variant {name!r} (known: {', '.join(box_names())})")
    d = _read(_folder(name))
    unknown = sorted(set(d["features"]) - set(FEATURES))
    assert not unknown, f"box {name}: unknown features {unknown}"
    side = d.get("side_board")
    return Box(
        name=d["name"], title=d["title"], expansion=d["expansion"], schema_version=d["schema_version"],
        houses=tuple(d["houses"]), rounds=d["rounds"], card_sets=frozenset(d["card_sets"]),
        westeros_decks=tuple(d["westeros_decks"]), map=d["map"],
        side_board=SideBoard(side["map"], side["with_house"]) if side else None, features=frozenset(d["features"]),
        header=d.get("header", ""),
        hooks={point: tuple(modules) for point, modules in d.get("hooks", {}).items()},
        westeros_sets={int(deck): card_set for deck, card_set in d.get("westeros_sets", {}).items()},
        state_table=d.get("state_table", ""),
    )


def board_for(box: str, houses: Iterable[HouseId]) -> Board:
    """The board of the box called ``box`` for these houses in play.

    :raises UnknownBox: for a box this Maester does not know.
    """
    return box_named(box).board(houses)
