"""A Feast for Crows' objective cards and special objectives, as data (``data/a_feast_for_crows/cards.toml``).

Each objective names a condition (one of the conditions of :mod:`adjudicator.engine.rules.objective_conditions`),
the facts it reads (areas, a track, a count) and the points it is worth to each house (F030); each house
has one special objective of its own, open to all (F031).

>>> OBJECTIVES["stop_the_storm"].points["stark"], OBJECTIVES["stop_the_storm"].areas
(3, ('storms_end',))
>>> len(OBJECTIVES), SPECIAL_OBJECTIVES["arryn"].condition
(28, 'more_available_power_and_the_eyrie')
>>> objective_deck()[:3]
['stop_the_storm', 'cavalry_charge', 'backdoor_politics']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..util.datafile import load_toml
from ..util.resources import package_files
from .board import AreaId, HouseId

__all__ = ["OBJECTIVES", "SPECIAL_OBJECTIVES", "Objective", "objective_deck"]


@dataclass(frozen=True)
class Objective:
    """One objective card, or a house's special objective (``id`` ``special_HOUSE``, no points: it
    scores 1 each time, F031)."""

    id: str
    name: str
    condition: str  # the condition's name (engine/rules/objective_conditions.py)
    text: str
    points: dict[HouseId, int] = field(default_factory=dict)
    areas: tuple[AreaId, ...] = ()
    bridges: tuple[tuple[AreaId, AreaId], ...] = ()
    track: str = ""
    count: int = 0  # a number the condition reads (Ample Harvest's supply, The People's Chosen's areas)


def _objective(d: dict[str, Any], **extra: Any) -> Objective:
    return Objective(
        id=extra.get("id", d.get("id", "")), name=extra.get("name", d.get("name", "")), condition=d["condition"],
        text=d["text"], points=dict(d.get("points", {})), areas=tuple(d.get("areas", ())),
        bridges=tuple((str(a), str(b)) for a, b in d.get("bridges", ())), track=d.get("track", ""),
        count=int(d.get("count", d.get("supply", 0))),
    )


def _load() -> tuple[dict[str, Objective], dict[HouseId, Objective]]:
    text = package_files("adjudicator.game").joinpath("data/a_feast_for_crows/cards.toml").read_text("utf-8")
    d = load_toml(text, "affc-cards")
    cards = {o["id"]: _objective(o) for o in d["objective"]}
    special = {s["house"]: _objective(s, id=f"special_{s['house']}", name=f"{s['house'].title()}'s special objective")
               for s in d["special_objective"]}  # fmt: skip
    return cards, special


OBJECTIVES, SPECIAL_OBJECTIVES = _load()


def objective_deck() -> list[str]:
    """The 28 objective cards, unshuffled, in the data's order."""
    return list(OBJECTIVES)
