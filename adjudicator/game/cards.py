"""The cards of the box as data: 42 house cards, the Westeros decks, wildlings, Tides of Battle.

>>> CARDS.house_cards["eddard_stark"].strength
4
>>> len(CARDS.westeros_deck(1)), len(CARDS.wildling_cards)
(10, 9)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class HouseCard:
    id: str
    house: str
    name: str
    strength: int
    swords: int
    fortifications: int
    has_ability: bool
    when: str
    ability: str
    condition: str = ""  # when the ability applies ("always", "you win the combat", ...)
    optional: bool = False  # the owner may decline it


@dataclass(frozen=True, slots=True)
class WesterosCard:
    deck: int
    id: str
    name: str
    copies: int
    wildling_icon: bool
    effect: str


@dataclass(frozen=True, slots=True)
class WildlingCard:
    id: str
    name: str
    texts: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TidesCard:
    id: str
    value: int
    swords: int
    fortifications: int
    skull: bool
    copies: int


@dataclass(frozen=True)
class CardData:
    house_cards: dict[str, HouseCard]
    westeros: tuple[WesterosCard, ...]
    wildling_cards: dict[str, WildlingCard]
    tides: dict[str, TidesCard]

    @staticmethod
    @cache
    def load() -> CardData:
        text = resources.files("adjudicator.game").joinpath("data/cards.toml").read_text("utf-8")
        d = tomllib.loads(text)
        return CardData(
            house_cards={c["id"]: _house_card(c) for c in d["house_card"]},
            westeros=tuple(_westeros(c) for c in d["westeros_card"]),
            wildling_cards={
                c["id"]: WildlingCard(c["id"], c["name"], {k: v for k, v in c.items() if k not in ("id", "name")})
                for c in d["wildling_card"]
            },
            tides={c["id"]: _tides(c) for c in d["tides_of_battle"]},
        )

    def hand_of(self, house: str) -> list[str]:
        """The seven house cards of a house, strongest first."""
        cards = [c for c in self.house_cards.values() if c.house == house]
        return [c.id for c in sorted(cards, key=lambda c: (-c.strength, c.id))]

    def westeros_deck(self, deck: int) -> list[str]:
        """The card ids of one Westeros deck, one entry per copy (unshuffled)."""
        return [c.id for c in self.westeros if c.deck == deck for _ in range(c.copies)]

    def westeros_card(self, deck: int, card_id: str) -> WesterosCard:
        return next(c for c in self.westeros if c.deck == deck and c.id == card_id)

    def tides_deck(self) -> list[str]:
        return [c.id for c in self.tides.values() for _ in range(c.copies)]


def _house_card(c: dict[str, Any]) -> HouseCard:
    return HouseCard(
        c["id"], c["house"], c["name"], c["strength"], c["swords"], c["fortifications"],
        c["has_ability"], c["when"], c.get("ability", ""), c.get("condition", ""), bool(c.get("optional", False)),
    )


def _westeros(c: dict[str, Any]) -> WesterosCard:
    return WesterosCard(c["deck"], c["id"], c["name"], c["copies"], c["wildling_icon"], c["effect"])


def _tides(c: dict[str, Any]) -> TidesCard:
    return TidesCard(c["id"], c["value"], c["swords"], c["fortifications"], c["skull"], c["copies"])


CARDS = CardData.load()
