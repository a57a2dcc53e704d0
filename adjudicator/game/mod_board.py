"""Mother of Dragons' box: its two maps, houses, vassal setups and the facts its setup needs.

The expansion's data (``data/mother_of_dragons/board.toml``) says only what it adds to or changes in
the base board; this module merges the two. Every expansion game is played on the Westeros map with
the Eyrie and Bite overlays (``westeros_mod``, 61 areas, M008); with a Targaryen player the Essos side
board is added to its right (``with_essos``, 75 areas, M009), its seas linked to four Westeros seas
(M027). Both are ordinary :class:`~adjudicator.game.board.Board` objects: every rule that asks a
board asks the merged one (M028).

>>> west, essos = mod_board(essos=False), mod_board(essos=True)
>>> len(west.areas), len(west.border_pairs), len(essos.areas), len(essos.border_pairs)
(61, 152, 75, 188)
>>> essos.area("the_eyrie").fortification, essos.area("braavos").board
('stronghold', 'essos')
>>> essos.adjacent("the_narrow_sea", "braavosian_coastlands"), "braavos" in west.areas
(True, False)
>>> essos.unit_limit("dragon", "targaryen"), essos.unit_limit("dragon", "stark"), essos.unit_limit("footman", "arryn")
(3, 0, 10)
>>> MOD.tracks["iron_throne"][-1], MOD.vassal_setups["baratheon"].home_area
('targaryen', 'dragonstone')
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from ..util.datafile import load_toml
from ..util.resources import package_files
from .board import TRACKS, Area, Board, House, HouseId, StartingUnit, area_from_data, house_from_data

WESTEROSI: tuple[HouseId, ...] = ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell", "arryn")
"""The seven houses of Westeros: in an expansion game each is a player or a vassal (M005)."""
TARGARYEN: HouseId = "targaryen"
MOD_HOUSES: tuple[HouseId, ...] = (*WESTEROSI, TARGARYEN)
AREA_FIELDS = frozenset(f.name for f in fields(Area))


def _load(name: str) -> dict[str, Any]:
    text = package_files("adjudicator.game").joinpath("data", "mother_of_dragons", name).read_text("utf-8")
    return load_toml(text, "mod-" + name.removesuffix(".toml"))


def _base_data() -> dict[str, Any]:
    return load_toml(package_files("adjudicator.game").joinpath("data/board.toml").read_text("utf-8"), "board")


@dataclass(frozen=True, slots=True)
class VassalSetup:
    """A vassal setup card (M020): where a house's units start when no player chose it."""

    house: HouseId
    home_area: str
    supply_start: int
    starting_units: tuple[StartingUnit, ...]


@dataclass(frozen=True, slots=True)
class NeutralForceToken:
    """A neutral force of the expansion (M022): King's Landing always, Braavos with Targaryen."""

    area: str
    strength: int
    with_targaryen_only: bool


@dataclass(frozen=True)
class ModBox:
    """The expansion's setup facts that are not areas or borders (``board.toml`` beside the maps)."""

    tracks: dict[str, tuple[HouseId, ...]]  # all eight houses, position 1 first (M015, ruling 201)
    vassal_setups: dict[HouseId, VassalSetup]
    garrisons: dict[HouseId, tuple[str, int]]  # house -> (home area, strength) (M021, ruling 200)
    neutral_forces: tuple[NeutralForceToken, ...]
    constants: dict[str, Any]
    iron_bank: dict[str, Any]
    rivers: tuple[str, ...]  # land areas beside a river (Watering the Seed, ruling 210)
    sea_order_tokens: tuple[dict[str, Any], ...]
    vassal_order_tokens: tuple[dict[str, Any], ...]

    @staticmethod
    @cache
    def load() -> ModBox:
        d = _load("board.toml")
        vassals = {v["house"]: VassalSetup(v["house"], v["home_area"], v["supply_start"],
                                           tuple(StartingUnit(u["area"], u["unit"], u["count"])
                                                 for u in v["starting_units"]))
                   for v in d["vassal_setup"]}  # fmt: skip
        neutral = tuple(NeutralForceToken(n["area"], n["strength"], n["used"] == "with_targaryen")
                        for n in d["neutral_force_token"])  # fmt: skip
        return ModBox(
            tracks={t: tuple(d["tracks"][t]) for t in TRACKS},
            vassal_setups=vassals,
            garrisons={h: (g["area"], g["strength"]) for h, g in d["garrisons"].items()},
            neutral_forces=neutral,
            constants=dict(d["constants"]),
            iron_bank=dict(d["iron_bank"]),
            rivers=tuple(d["rivers"]["adjacent_land_areas"]),
            sea_order_tokens=tuple(d["sea_order_token"]),
            vassal_order_tokens=tuple(d["vassal_order_token"]),
        )


MOD = ModBox.load()


@cache
def mod_board(*, essos: bool) -> Board:
    """The expansion's map: Westeros with the Eyrie and Bite overlays, and Essos when ``essos``.

    Loaded once per map; the base board's data is read afresh, so the classic board is never touched.
    """
    base, d = _base_data(), _load("board.toml")
    areas: dict[str, Area] = {a["id"]: area_from_data(a) for a in base["area"]}
    for change in d["area_change"]:
        fields = {k: v for k, v in change.items() if k in AREA_FIELDS and k != "id"}
        areas[change["id"]] = replace(areas[change["id"]], **fields)
    for a in d["area"]:
        if a["board"] == "westeros" or essos:
            areas[a["id"]] = area_from_data(a)
    borders = d["borders"]
    pairs = (set(map(tuple, base["borders"]["pairs"])) - set(map(tuple, borders["removed_pairs"]))) | set(
        map(tuple, borders["added_pairs"]))
    if essos:
        pairs |= set(map(tuple, borders["essos_pairs"])) | set(map(tuple, borders["cross_board_pairs"]))
    border_pairs = tuple(sorted((str(a), str(b)) for a, b in pairs))
    nbrs: dict[str, set[str]] = {a: set() for a in areas}
    for a, b in border_pairs:
        nbrs[a].add(b)
        nbrs[b].add(a)
    houses: dict[HouseId, House] = {h["id"]: house_from_data(h) for h in base["house"]}
    for h in d["house"]:
        if h["id"] != TARGARYEN or essos:
            houses[h["id"]] = house_from_data(h)
    for h, (area, strength) in MOD.garrisons.items():  # Arryn's garrison is 4 (ruling 200)
        if h in houses:
            houses[h] = replace(houses[h], home_area=area, garrison_strength=strength)
    return Board(
        areas=areas,
        neighbours={a: frozenset(n) for a, n in nbrs.items()},
        houses=houses,
        setups={},  # the base game's per-count setups do not apply (M001); see MOD and mod_setup
        constants=_constants(base["constants"], d["constants"]),
        order_tokens=tuple(base["order_token"]),
        border_pairs=border_pairs,
        map="with_essos" if essos else "westeros_mod",
    )


def _constants(base: dict[str, Any], mod: dict[str, Any]) -> dict[str, Any]:
    """The base constants with the expansion's over them; Arryn's and Targaryen's unit limits as tables
    of their own beside the base houses' (``Board.unit_limit(unit, house)``)."""
    merged = dict(base) | {k: v for k, v in mod.items() if k not in ("unit_limits", "unit_strength")}
    merged["unit_limits"] = dict(base["unit_limits"]) | dict(mod.get("unit_limits", {}))
    return merged


def is_mod_board(board: Board) -> bool:
    """True for either of the expansion's maps."""
    return board.map in ("westeros_mod", "with_essos")
