"""The cards of the boxes as data: house cards, the Westeros decks, wildlings, Tides of Battle,
Mother of Dragons' cards (``data/mother_of_dragons/cards.toml``: Arryn's and Targaryen's house
cards, the vassal deck, the Iron Bank's loans and Westeros deck IV) and A Dance with Dragons' 42
house cards (``data/a_dance_with_dragons/cards.toml``).

``CARDS`` is one catalogue of every card by its id (ids are unique across the boxes), so a rule
looks any card up the same way. Which cards a game deals is the variant's business: a house's hand is
its standard set (:data:`STANDARD_SETS`) unless the game chose another house deck
(:data:`HOUSE_DECKS`), deck IV is shuffled only with Targaryen in play.

>>> CARDS.house_cards["eddard_stark"].strength
4
>>> len(CARDS.westeros_deck(1)), len(CARDS.wildling_cards)
(10, 9)
>>> CARDS.hand_of("arryn")[0], len(CARDS.vassal_deck()), len(CARDS.loans), len(CARDS.westeros_deck(4))
('lysa_arryn_mod', 7, 12, 10)
>>> CARDS.hand_of("stark", HOUSE_DECKS["adwd"])[:2], len(CARDS.of_set("adwd"))
(['roose_bolton_adwd', 'ramsay_bolton'], 42)

A card whose text asks its player a choice says, in the same data, how a turn file answers it (its
``choice`` table: :class:`ChoiceForms`), read by the turn-file reader, ``maester check``, answering
ahead and the robots alike:

>>> CARDS.choices["house_card:tyrion_lannister"].forms
('cancel', 'nothing')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..util.datafile import load_toml
from ..util.resources import package_files


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
    set: str = "base"  # base | arryn_mod | targaryen_a | targaryen_b | arryn_affc | vassal | adwd


@dataclass(frozen=True, slots=True)
class WesterosCard:
    deck: int
    id: str
    name: str
    copies: int
    wildling_icon: bool
    effect: str
    banner: tuple[str, ...] = ()  # deck IV: the areas that get a loyalty token first (M083)
    details: dict[str, Any] | None = None  # deck IV: its costs and choices, as the data gives them
    set: str = "base"  # base (decks I-IV of the boxes) | affc (A Feast for Crows' deck I)
    # every house musters when it resolves: "always" (Mustering), "castles" (one point in each castle, none
    # in a stronghold: Rally the Men), or the holder's choice that makes it muster ("muster": A Throne of
    # Blades); answering ahead offers the musters from this, not from ids
    musters: str = ""


@dataclass(frozen=True, slots=True)
class ChoiceForms:
    """How a turn file answers one card's choice (a card's ``choice`` table in its cards.toml)."""

    forms: tuple[str, ...]  # the forms of answer it accepts (docs/turn-files.md), the refusal last
    verb: str = ""  # the verb naming the object of an area or house card choice ("discard", "retreat")
    ahead: tuple[dict[str, str], ...] = ()  # the answers that may be sent before the combat, the default last
    unclear: dict[str, str] = field(default_factory=dict)  # words it would read the wrong way: what to write


@dataclass(frozen=True, slots=True)
class LoanCard:
    """A loan of the Iron Bank (Mother of Dragons, M104): bought, then resolved at once."""

    id: str
    name: str
    effect: str
    units: dict[str, int] | None = None  # the units a loan places, by type


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


# The house-card sets dealt: the base houses' own, Arryn's Mother of Dragons set and Targaryen's set A
# (M122). The alternate sets (Targaryen B, Arryn A Feast for Crows) are in the catalogue only (M123).
STANDARD_SETS: frozenset[str] = frozenset({"base", "arryn_mod", "targaryen_a"})
VASSAL = "vassal"  # the house of the shared vassal deck's cards (M058)
# The house decks a game may deal (``state.options["house_cards"]``, "base" when absent): "adwd" gives
# the six base houses their A Dance with Dragons cards, and Arryn and Targaryen the alternate sets that
# go with them in Mother of Dragons (M123): its A Feast for Crows cards and set B.
HOUSE_DECKS: dict[str, frozenset[str]] = {
    "base": STANDARD_SETS,
    "adwd": frozenset({"adwd", "arryn_affc", "targaryen_b"}),
}


def dealt_sets(box_sets: frozenset[str], deck: str) -> frozenset[str]:
    """The house-card sets a game deals: its box's, the standard ones replaced by ``deck``'s (ruling 370).

    >>> sorted(dealt_sets(frozenset({"base"}), "adwd"))
    ['adwd', 'arryn_affc', 'targaryen_b']
    >>> sorted(dealt_sets(frozenset({"base", "arryn_mod", "targaryen_a", "vassal"}), "adwd"))
    ['adwd', 'arryn_affc', 'targaryen_b', 'vassal']
    >>> dealt_sets(frozenset({"base"}), "base")
    frozenset({'base'})
    """
    if deck == "base" or deck not in HOUSE_DECKS:
        return box_sets  # an unknown deck is the state check's to report
    return (box_sets - HOUSE_DECKS["base"]) | HOUSE_DECKS[deck]


@dataclass(frozen=True)
class CardData:
    house_cards: dict[str, HouseCard]  # every house card of every box, and the vassal cards
    westeros: tuple[WesterosCard, ...]
    wildling_cards: dict[str, WildlingCard]
    tides: dict[str, TidesCard]
    loans: dict[str, LoanCard] = field(default_factory=dict)
    choices: dict[str, ChoiceForms] = field(default_factory=dict)  # by "kind:id" ("house_card:patchface")

    @staticmethod
    @cache
    def load() -> CardData:
        pkg = package_files("adjudicator.game")
        d = load_toml(pkg.joinpath("data/cards.toml").read_text("utf-8"), "cards")
        m = load_toml(pkg.joinpath("data/mother_of_dragons/cards.toml").read_text("utf-8"), "mod-cards")
        a = load_toml(pkg.joinpath("data/a_dance_with_dragons/cards.toml").read_text("utf-8"), "adwd-cards")
        f = load_toml(pkg.joinpath("data/a_feast_for_crows/cards.toml").read_text("utf-8"), "affc-cards")
        house_cards = {c["id"]: _house_card(c) for c in d["house_card"]}
        house_cards |= {c["id"]: _house_card(c) for c in a["house_card"]}
        house_cards |= {c["id"]: _house_card(c) for c in m["house_card"]}
        house_cards |= {c["id"]: _house_card(c | {"house": VASSAL, "set": VASSAL}) for c in m["vassal_house_card"]}
        return CardData(
            house_cards=house_cards,
            westeros=tuple(_westeros(c) for c in [*d["westeros_card"], *m["westeros_card"], *f["westeros_card"]]),
            wildling_cards={
                c["id"]: WildlingCard(c["id"], c["name"], {k: v for k, v in c.items() if k not in ("id", "name", "choice")})
                for c in d["wildling_card"]
            },
            tides={c["id"]: _tides(c) for c in d["tides_of_battle"]},
            loans={c["id"]: LoanCard(c["id"], c["name"], c["effect"], c.get("units")) for c in m["loan_card"]},
            choices=_choices({"house_card": [*d["house_card"], *a["house_card"], *m["house_card"], *m["vassal_house_card"]],
                              "westeros_card": [*d["westeros_card"], *m["westeros_card"], *f["westeros_card"]],
                              "wildling_card": d["wildling_card"]}),
        )

    def hand_of(self, house: str, card_sets: frozenset[str] = STANDARD_SETS) -> list[str]:
        """The seven house cards of a house in a box that deals ``card_sets`` (a box's ``card_sets``;
        by default every standard set, M122), strongest first."""
        cards = [c for c in self.house_cards.values() if c.house == house and c.set in card_sets]
        return [c.id for c in sorted(cards, key=lambda c: (-c.strength, c.id))]

    def of_set(self, card_set: str) -> list[str]:
        """The ids of one set's house cards, strongest first (``"base"``: the 42 of the base box)."""
        cards = [c for c in self.house_cards.values() if c.set == card_set]
        return [c.id for c in sorted(cards, key=lambda c: (-c.strength, c.id))]

    def vassal_deck(self) -> list[str]:
        """The seven vassal house cards, one shared deck (M058), strongest first."""
        return self.of_set(VASSAL)

    def loan_deck(self) -> list[str]:
        """The twelve loans of the Iron Bank (unshuffled, M024)."""
        return sorted(self.loans)

    def westeros_deck(self, deck: int, card_set: str = "base") -> list[str]:
        """The card ids of one Westeros deck, one entry per copy (unshuffled): the base boxes' deck, or
        another set's (A Feast for Crows' deck I is ``card_set="affc"``, a box's ``westeros_sets``)."""
        return [c.id for c in self.westeros if c.deck == deck and c.set == card_set for _ in range(c.copies)]

    def westeros_card(self, deck: int, card_id: str) -> WesterosCard:
        return next(c for c in self.westeros if c.deck == deck and c.id == card_id)

    def tides_deck(self) -> list[str]:
        return [c.id for c in self.tides.values() for _ in range(c.copies)]


def _house_card(c: dict[str, Any]) -> HouseCard:
    return HouseCard(
        c["id"], c["house"], c["name"], c["strength"], c["swords"], c["fortifications"],
        c["has_ability"], c["when"], c.get("ability", ""), c.get("condition", ""), bool(c.get("optional", False)),
        c.get("set", "base"),
    )


_WESTEROS_KEYS = frozenset({"deck", "id", "name", "copies", "wildling_icon", "effect", "banner", "choice", "set", "musters"})


def _choices(cards: dict[str, list[dict[str, Any]]]) -> dict[str, ChoiceForms]:
    """Every card's choice forms by ``kind:id``, from the ``choice`` table of the cards that have one."""
    return {
        f"{kind}:{c['id']}": ChoiceForms(tuple(t["forms"]), t.get("verb", ""), tuple(dict(o) for o in t.get("ahead", ())),
                                         dict(t.get("unclear", {})))
        for kind, records in cards.items() for c in records if (t := c.get("choice"))
    }


def _westeros(c: dict[str, Any]) -> WesterosCard:
    extra = {k: v for k, v in c.items() if k not in _WESTEROS_KEYS}
    return WesterosCard(c["deck"], c["id"], c["name"], c["copies"], c["wildling_icon"], c["effect"],
                        tuple(c.get("banner", ())), extra or None, c.get("set", "base"), c.get("musters", ""))  # fmt: skip


def _tides(c: dict[str, Any]) -> TidesCard:
    return TidesCard(c["id"], c["value"], c["swords"], c["fortifications"], c["skull"], c["copies"])


CARDS = CardData.load()
