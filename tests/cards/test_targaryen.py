"""House Targaryen's fourteen cards (Mother of Dragons sets A and B), one test (or more) each.

The abilities are called with a small stand-in view of a combat (what ``CombatView`` promises), so
that each test states exactly the combat the card reads; the strength and removal rules that apply
their effects are tested through real combats in ``tests/mother_of_dragons/test_targaryen_combat.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from adjudicator.engine.cards.registry import (
    Bonus,
    DiscardFromHand,
    Fighter,
    GainPower,
    Icons,
    LosePower,
    Me,
    RemoveFromGame,
    ReturnToHand,
    Role,
    Skip,
    UnitValue,
    ability,
    removal,
)
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import CardChoice
from adjudicator.game.state import Order, Unit

T = "targaryen"


@dataclass
class View:
    """The parts of a combat a card reads; ``picks`` answers its questions."""

    fighting: list[Fighter] = field(default_factory=list)
    area: str = "the_disputed_lands"
    origin: str = "volantis"
    march_token: str = "march+0"
    houses: dict[str, str] = field(default_factory=lambda: {"attacker": T, "defender": "stark"})
    totals: dict[str, int] = field(default_factory=lambda: {"attacker": 5, "defender": 3})
    won: Role | None = None
    hands: dict[str, list[str]] = field(default_factory=dict)
    piles: dict[str, list[str]] = field(default_factory=dict)
    powers: dict[str, int] = field(default_factory=dict)
    castle: bool = False
    land: bool = True
    neighbours: dict[str, list[str]] = field(default_factory=dict)
    units: dict[str, list[Unit]] = field(default_factory=dict)
    picks: list[CardChoice] = field(default_factory=list)
    asked: list[Sequence[CardChoice]] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)

    def house(self, role: Role) -> str | None: return self.houses.get(role)
    def card(self, role: Role) -> str | None: return None
    def fighters(self) -> Sequence[Fighter]: return self.fighting
    def supported(self, role: Role) -> bool: return False
    def order(self, area: str) -> Order | None: return None
    def orders_of(self, house: str) -> Sequence[tuple[str, Order]]: return ()
    def adjacent(self, area: str) -> Sequence[str]: return self.neighbours.get(area, [])
    def has_castle(self, area: str) -> bool: return self.castle
    def is_land(self, area: str) -> bool: return self.land
    def hand(self, house: str) -> Sequence[str]: return self.hands.get(house, [])
    def playable(self, house: str) -> Sequence[str]: return self.hand(house)
    def discards(self, house: str) -> Sequence[str]: return self.piles.get(house, [])
    def power(self, house: str) -> int: return self.powers.get(house, 0)
    def position(self, track: str, house: str) -> int: return 1
    def units_in(self, area: str) -> Sequence[Unit]: return self.units.get(area, [])
    def knights_available(self, house: str) -> int: return 0
    def winner(self) -> Role | None: return self.won
    def retreat_losses(self) -> dict[str, int]: return {}
    def advanced(self) -> bool: return False
    def final_strength(self, role: Role) -> int: return self.totals[role]

    def choose(self, me: Me, prompt: str, options: Sequence[CardChoice], *, default: CardChoice,
               house: str | None = None, secret: bool = False) -> CardChoice:
        self.asked.append(options)
        self.prompts.append(prompt)
        return self.picks.pop(0) if self.picks else default


def f(house: str, unit: str, side: Role = "attacker", supporting: bool = False) -> Fighter:
    return Fighter(house, unit, "somewhere", side, supporting, False)


def run(card: str, view: View, role: Role = "attacker") -> list[object]:
    found = ability(card)
    assert found is not None and found.when == CARDS.house_cards[card].when
    return list(found.fn(view, Me(role, T, card)))  # type: ignore[arg-type]


def test_the_fourteen_cards_have_their_printed_numbers():
    a = {c: (CARDS.house_cards[c].strength, CARDS.house_cards[c].swords, CARDS.house_cards[c].fortifications)
         for c in CARDS.of_set("targaryen_a")}
    assert a == {"khal_drogo": (4, 0, 0), "arstan_whitebeard": (3, 1, 1), "xaro_xhoan_daxos": (2, 0, 0),
                 "ser_jorah_mormont": (2, 1, 1), "daenerys_targaryen_a": (1, 0, 0), "viserys_targaryen": (1, 0, 0),
                 "illyrio_mopatis": (0, 0, 0)}
    b = {c: (CARDS.house_cards[c].strength, CARDS.house_cards[c].swords, CARDS.house_cards[c].fortifications)
         for c in CARDS.of_set("targaryen_b")}
    assert b == {"daenerys_targaryen_b": (4, 0, 0), "daario_naharis": (3, 1, 0), "gray_worm": (2, 1, 1),
                 "strong_belwas": (2, 2, 0), "captain_groleo": (1, 0, 0), "rakharo": (1, 0, 0), "missandei": (0, 0, 0)}


def test_every_targaryen_card_with_a_text_has_its_ability():
    cards = [CARDS.house_cards[c] for c in CARDS.of_set("targaryen_a") + CARDS.of_set("targaryen_b")]
    assert {c.id for c in cards if c.has_ability} == {c.id for c in cards if ability(c.id) is not None}


@pytest.mark.parametrize("card", ["arstan_whitebeard", "ser_jorah_mormont", "daario_naharis", "gray_worm",
                                  "strong_belwas"])
def test_cards_with_icons_only_have_no_text(card):
    assert ability(card) is None and removal(card) is None and CARDS.house_cards[card].house == T


# --- set A --------------------------------------------------------------------------------------------


def test_khal_drogo_adds_a_strength_and_a_sword_per_targaryen_knight_in_the_area_and_leaves_the_game():
    view = View([f(T, "knight"), f(T, "knight"), f(T, "knight", supporting=True), f(T, "footman"),
                 f("stark", "knight", "defender")])
    assert run("khal_drogo", view) == [Bonus("attacker", 2), Icons(swords=2)]
    assert run("khal_drogo", View([f(T, "footman")])) == []
    leaves = removal("khal_drogo")
    assert leaves is not None and leaves(view, Me("attacker", T, "khal_drogo")) and \
        leaves(View(won="attacker"), Me("attacker", T, "khal_drogo"))


def test_ruling_352_khal_drogo_counts_no_routed_knight():
    """A routed Targaryen knight defending the embattled area gives no combat strength (R186): Khal
    Drogo's +1 and sword per knight count only the knights that fight (ruling 352)."""
    routed = Fighter(T, "knight", "somewhere", "defender", False, True)
    view = View([f(T, "knight", "defender"), routed, f("stark", "knight")],
                houses={"attacker": "stark", "defender": T})
    assert run("khal_drogo", view, "defender") == [Bonus("defender", 1), Icons(swords=1)]
    assert run("khal_drogo", View([routed], houses={"attacker": "stark", "defender": T}), "defender") == []


def test_xaro_xhoan_daxos_doubles_your_ships_when_you_have_more_there():
    more = View([f(T, "ship"), f(T, "ship"), f("stark", "ship", "defender")])
    assert run("xaro_xhoan_daxos", more) == [UnitValue("ship", 2, ("attacker",), house=T, supporting=False)]
    even = View([f(T, "ship"), f("stark", "ship", "defender"), f(T, "ship", supporting=True)])
    assert run("xaro_xhoan_daxos", even) == []


def test_daenerys_targaryen_a_gains_2_with_a_dragon_of_either_side_in_the_area():
    assert run("daenerys_targaryen_a", View([f(T, "dragon")])) == [Bonus("attacker", 2)]
    assert run("daenerys_targaryen_a", View([f("stark", "dragon", "defender")]), "attacker") == [Bonus("attacker", 2)]
    assert run("daenerys_targaryen_a", View([f(T, "footman"), f(T, "dragon", supporting=True)])) == []  # ruling 214


def test_viserys_targaryen_discards_another_card_for_its_printed_strength_and_leaves_if_he_loses():
    view = View(hands={T: ["khal_drogo", "illyrio_mopatis"]}, picks=[CardChoice(card="viserys_targaryen",
                                                                                house_card="khal_drogo")])
    assert run("viserys_targaryen", view) == [DiscardFromHand(T, "khal_drogo"), Bonus("attacker", 4)]
    declined = View(hands={T: ["khal_drogo"]})
    assert run("viserys_targaryen", declined) == [Skip("declined")]
    leaves = removal("viserys_targaryen")
    assert leaves is not None
    assert leaves(View(won="defender"), Me("attacker", T, "viserys_targaryen"))
    assert not leaves(View(won="attacker"), Me("attacker", T, "viserys_targaryen"))


def test_ruling_226_viserys_targaryen_asks_nothing_when_no_other_card_is_in_hand():
    """Compared with another implementation of the expansion (ruling 226): no question when the hand
    holds no other card; otherwise use or not, then one card of the hand other than Viserys."""
    empty = View(hands={T: []})
    assert run("viserys_targaryen", empty) == [Skip("no other card in hand")] and empty.asked == []
    two = View(hands={T: ["khal_drogo", "illyrio_mopatis"]})
    run("viserys_targaryen", two)
    assert [[c.house_card for c in options if c.house_card] for options in two.asked] == [["khal_drogo",
                                                                                        "illyrio_mopatis"]]


def test_illyrio_mopatis_takes_the_difference_and_leaves_with_5_power():
    assert run("illyrio_mopatis", View(totals={"attacker": 2, "defender": 6}, powers={T: 0})) == [GainPower(4)]
    assert run("illyrio_mopatis", View(totals={"attacker": 2, "defender": 6}, powers={T: 1})) == \
        [GainPower(4), RemoveFromGame()]
    assert run("illyrio_mopatis", View(totals={"attacker": 3, "defender": 3}, powers={T: 2})) == []


# --- set B --------------------------------------------------------------------------------------------


def test_daenerys_targaryen_b_makes_the_opponent_discard_the_difference():
    assert run("daenerys_targaryen_b", View(totals={"attacker": 7, "defender": 3})) == [LosePower("stark", 4)]
    assert run("daenerys_targaryen_b", View(totals={"attacker": 3, "defender": 3})) == [Skip("no difference to pay")]


def test_captain_groleo_counts_targaryen_ships_beside_an_area_reached_by_sea():
    view = View([f(T, "footman")], area="the_disputed_lands", origin="myr",
                neighbours={"myr": ["volantis"], "the_disputed_lands": ["sea_of_myrth", "volantis"]},
                units={"sea_of_myrth": [Unit(T, "ship"), Unit(T, "ship"), Unit("stark", "ship")]})
    assert run("captain_groleo", view) == [Bonus("attacker", 2)]
    overland = View([f(T, "footman")], origin="volantis", neighbours={"volantis": ["the_disputed_lands"]})
    assert run("captain_groleo", overland) == []
    assert run("captain_groleo", view, "defender") == []


def test_rakharo_makes_knights_count_4_outside_castles():
    assert run("rakharo", View([f(T, "knight")])) == [UnitValue("knight", 4, ("attacker",), house=T, supporting=False)]
    assert run("rakharo", View([f(T, "knight")], castle=True)) == []


def test_rakharo_and_xaro_xhoan_daxos_count_their_units_in_the_embattled_area_not_supporting_ones():
    """Rakharo's knights and Xaro's ships "there": a unit supporting from next door counts as usual."""
    (knights,) = run("rakharo", View([f(T, "knight")]))
    (ships,) = run("xaro_xhoan_daxos", View([f(T, "ship"), f(T, "ship"), f("stark", "ship", "defender")]))
    for effect, unit in ((knights, "knight"), (ships, "ship")):
        assert isinstance(effect, UnitValue) and effect.applies(f(T, unit))
        assert not effect.applies(f(T, unit, supporting=True))
        assert not effect.applies(f("stark", unit, "defender"))


def test_missandei_takes_a_card_back_when_losing_by_2_or_less():
    view = View(won="defender", totals={"attacker": 4, "defender": 6}, piles={T: ["khal_drogo"]},
                picks=[CardChoice(card="missandei", house_card="khal_drogo")])
    assert run("missandei", view) == [ReturnToHand("khal_drogo")]
    far = View(won="defender", totals={"attacker": 1, "defender": 6}, piles={T: ["khal_drogo"]})
    assert run("missandei", far) == [Skip("Targaryen did not lose by 2 or less")]


def test_illyrio_mopatis_leaves_with_5_power_even_with_no_difference_to_take():
    assert run("illyrio_mopatis", View(totals={"attacker": 3, "defender": 3}, powers={T: 5})) == [RemoveFromGame()]
    assert run("illyrio_mopatis", View(totals={"attacker": 3, "defender": 3}, powers={T: 4})) == []


def test_captain_groleo_gives_nothing_at_sea_for_dragons_that_flew_or_with_no_ship_beside():
    by_sea = dict(area="the_disputed_lands", origin="myr",
                  neighbours={"myr": ["volantis"], "the_disputed_lands": ["sea_of_myrth", "volantis"]},
                  units={"sea_of_myrth": [Unit(T, "ship"), Unit(T, "ship")]})
    assert run("captain_groleo", View([f(T, "footman"), f(T, "dragon")], **by_sea)) == [Bonus("attacker", 2)]
    flew = View([f(T, "dragon"), f(T, "dragon"), f(T, "footman", supporting=True), f("stark", "footman", "defender")],
                **by_sea)
    assert run("captain_groleo", flew) == []  # the dragons flew, no ship carried them (M091)
    assert run("captain_groleo", View([f(T, "ship")], land=False, **by_sea)) == []  # a sea combat
    no_ships = {**by_sea, "units": {"sea_of_myrth": [Unit("stark", "ship")], "volantis": [Unit(T, "footman")]}}
    assert run("captain_groleo", View([f(T, "footman")], **no_ships)) == []


def test_rakharo_gives_nothing_in_a_sea_area():
    assert run("rakharo", View([f(T, "ship")], land=False)) == []


def test_missandei_takes_nothing_back_when_winning_declining_or_with_no_other_card():
    lost = dict(won="defender", totals={"attacker": 4, "defender": 6})
    assert run("missandei", View(**lost, piles={T: ["khal_drogo"]})) == [Skip("declined")]
    assert run("missandei", View(**lost, piles={T: ["missandei"]})) == [Skip("no other card in the discard pile")]
    won = View(won="attacker", totals={"attacker": 6, "defender": 5}, piles={T: ["khal_drogo"]})
    assert run("missandei", won) == [Skip("Targaryen did not lose by 2 or less")] and won.asked == []
    view = View(**lost, piles={T: ["missandei", "khal_drogo", "rakharo"]},
                picks=[CardChoice(card="missandei", house_card="rakharo")])
    assert run("missandei", view) == [ReturnToHand("rakharo")]
    assert [[c.house_card for c in options if c.house_card] for options in view.asked] == [["khal_drogo", "rakharo"]]


def test_missandei_takes_nothing_back_losing_by_3():
    view = View(won="defender", totals={"attacker": 3, "defender": 6}, piles={T: ["khal_drogo"]})
    assert run("missandei", view) == [Skip("Targaryen did not lose by 2 or less")] and view.asked == []


def test_viserys_targaryen_and_missandei_ask_their_owner_in_the_cards_words():
    viserys = View(hands={T: ["khal_drogo"]})
    run("viserys_targaryen", viserys)
    assert viserys.prompts == ["discard another card from your hand to add its printed strength (name it), or 'no'"]
    missandei = View(won="defender", totals={"attacker": 4, "defender": 6}, piles={T: ["khal_drogo"]})
    run("missandei", missandei)
    assert missandei.prompts == ["take a card back from your discard pile (name it), or 'no'"]


def test_ruling_456_daenerys_targaryen_a_counts_a_routed_defending_dragon():
    routed = Fighter(T, "dragon", "somewhere", "defender", False, True)
    view = View([f("stark", "knight"), routed], houses={"attacker": "stark", "defender": T})
    assert run("daenerys_targaryen_a", view, "defender") == [Bonus("defender", 2)]


def test_ruling_456_xaro_xhoan_daxos_counts_a_routed_ship_among_his_own():
    routed = Fighter(T, "ship", "somewhere", "defender", False, True)
    view = View([f("stark", "ship"), f(T, "ship", "defender"), routed], houses={"attacker": "stark", "defender": T})
    assert run("xaro_xhoan_daxos", view, "defender") == [UnitValue("ship", 2, ("defender",), house=T, supporting=False)]
