"""One test (or more) per Westeros card (R042-R056), each played through ``advance``.

The Planning Phase is replaced by a stop, so each returned state is what the Westeros phase left.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events.westeros import (
    BidsRevealed,
    OrdersRestricted,
    UnitsMustered,
    WildlingAttackBegins,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import (
    Bid,
    Located,
    Muster,
    MusterAction,
    Reconcile,
    WesterosChoice,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def position(cards: tuple[str, str, str], *, threat: int = 0) -> GameState:
    """Round 2, Westeros phase, ``cards`` on top of decks I-III; the threat low enough to stay quiet."""
    s = new_game(HOUSES, seed="cards")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"c{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def power(s: GameState) -> dict[str, int]:
    return {h: x.power for h, x in s.houses.items()}


def test_every_westeros_card_has_a_resolver():
    assert {c.id for c in CARDS.westeros if c.deck <= 3 and c.set == "base"} == set(westeros.RESOLVERS) | {"winter_is_coming"}


def test_R042_supply_moves_every_supply_token_to_its_barrels():
    s = position(("supply", "game_of_thrones", "storm_of_swords"))
    s.area_mut("riverrun").units.append(Unit("stark", "footman"))  # +1 barrel for stark
    step = advance(s)
    # stark: winterfell 1 + white harbor 0 + riverrun 1; lannister: lannisport 2 + stoney sept 0;
    # baratheon: dragonstone 1 + kingswood 1
    assert {h: x.supply for h, x in step.state.houses.items()} == {"stark": 2, "lannister": 2, "baratheon": 2}


def test_R043_mustering_asks_each_house_in_turn_order_area_by_area():
    s = position(("mustering", "game_of_thrones", "storm_of_swords"))
    step = advance(s)
    assert [(r.house, r.context["area"]) for r in step.requests] == [("baratheon", "dragonstone")]
    step = advance(step.state, [answer("baratheon", Muster(area="dragonstone", actions=(MusterAction(unit="footman"),)))])
    assert [(r.house, r.context["area"]) for r in step.requests] == [("lannister", "lannisport")]
    assert sorted(u.type for u in step.state.area("dragonstone").units) == ["footman", "footman", "knight"]


def test_R044_a_throne_of_blades_mustering():
    """The Iron Throne holder's "muster" is a whole Mustering: every house, in turn order (R043)."""
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    step = advance(s, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="muster"))])
    assert [(r.kind, r.house) for r in step.requests] == [("muster", "baratheon")]
    musters = [answer("baratheon", Muster(area="dragonstone", actions=(MusterAction(unit="footman"),))),
               answer("lannister", Muster(area="lannisport", actions=(MusterAction(unit="knight"),))),
               answer("stark", Muster(area="winterfell", actions=(MusterAction(unit="footman"),)))]
    step = advance(step.state, musters, deadline=True)  # White Harbor musters nothing by default
    mustered = [(e.house, e.area) for e in step.events if isinstance(e, UnitsMustered) and e.placed]
    assert mustered == [("baratheon", "dragonstone"), ("lannister", "lannisport"), ("stark", "winterfell")]
    assert sorted(u.type for u in step.state.area("dragonstone").units) == ["footman", "footman", "knight"]
    assert sorted(u.type for u in step.state.area("lannisport").units) == ["footman", "knight", "knight"]
    assert sorted(u.type for u in step.state.area("winterfell").units) == ["footman", "footman", "knight"]


def test_R044_a_throne_of_blades_supply():
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    s.houses["stark"].supply = 4
    step = advance(s, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="supply"))])
    assert step.state.houses["stark"].supply == 1


def test_R044_a_throne_of_blades_nothing():
    s = position(("a_throne_of_blades", "game_of_thrones", "storm_of_swords"))
    s.houses["stark"].supply = 4
    step = advance(s, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="nothing"))])
    assert step.state.houses["stark"].supply == 4 and step.requests == []


def test_R045_game_of_thrones_gives_a_power_per_crown_and_per_trading_port():
    s = position(("last_days_of_summer", "game_of_thrones", "storm_of_swords"))
    s.area_mut("castle_black").units.append(Unit("stark", "footman"))  # one crown
    s.area_mut("port_of_winterfell").units.append(Unit("stark", "ship"))  # trades: bay of ice is clear
    # lannister's port trades too; baratheon's port is empty
    step = advance(s)
    # stark: winterfell 1 + castle black 1 + port 1; lannister: stoney sept 1 + port 1; baratheon: dragonstone 1 + kingswood 1
    assert power(step.state) == {"stark": 8, "lannister": 7, "baratheon": 7}


def test_R045_a_port_whose_sea_holds_enemy_ships_does_not_trade():
    s = position(("last_days_of_summer", "game_of_thrones", "storm_of_swords"))
    s.area_mut("the_golden_sound").units = [Unit("baratheon", "ship")]
    step = advance(s)
    assert step.state.houses["lannister"].power == 6  # stoney sept only


def test_R045_power_tokens_on_the_board_are_not_crowns():
    s = position(("last_days_of_summer", "game_of_thrones", "storm_of_swords"))
    s.area_mut("castle_black").power_token = "stark"  # controlled: its printed crown counts once
    s.houses["stark"].power = 4
    step = advance(s)
    assert step.state.houses["stark"].power == 6  # winterfell 1 + castle black 1


def test_R046_clash_of_kings_bids_for_the_three_tracks():
    s = position(("last_days_of_summer", "clash_of_kings", "storm_of_swords"))
    bids = {"stark": (3, 0, 1), "lannister": (1, 2, 0), "baratheon": (0, 1, 2)}
    answers = [answer(h, Bid(track=t, amount=n)) for h, ns in bids.items()
               for t, n in zip(("iron_throne", "fiefdoms", "kings_court"), ns)]
    step = advance(s, answers)
    assert step.state.tracks == {"iron_throne": ["stark", "lannister", "baratheon"],
                                 "fiefdoms": ["lannister", "baratheon", "stark"],
                                 "kings_court": ["baratheon", "stark", "lannister"]}
    assert power(step.state) == {"stark": 1, "lannister": 2, "baratheon": 2}


def test_R047_dark_wings_dark_words_bid():
    """The Raven holder's "bid" is a Clash of Kings: the three tracks bid in turn, the bids spent (R046)."""
    s = position(("last_days_of_summer", "dark_wings_dark_words", "storm_of_swords"))
    step = advance(s, [answer("lannister", WesterosChoice(card="dark_wings_dark_words", option="bid"))])
    assert {r.kind for r in step.requests} == {"bid"} and len(step.requests) == 3
    bids = {"stark": (3, 0, 1), "lannister": (1, 2, 0), "baratheon": (0, 1, 2)}
    answers = [answer(h, Bid(track=t, amount=n)) for h, ns in bids.items()
               for t, n in zip(("iron_throne", "fiefdoms", "kings_court"), ns)]
    step = advance(step.state, answers)
    assert step.state.tracks == {"iron_throne": ["stark", "lannister", "baratheon"],
                                 "fiefdoms": ["lannister", "baratheon", "stark"],
                                 "kings_court": ["baratheon", "stark", "lannister"]}
    assert power(step.state) == {"stark": 1, "lannister": 2, "baratheon": 2}
    assert len([e for e in step.events if isinstance(e, BidsRevealed)]) == 3


def test_ruling_62_dark_wings_collect_counts_trading_ports_like_game_of_thrones():
    s = position(("last_days_of_summer", "dark_wings_dark_words", "storm_of_swords"))
    step = advance(s, [answer("lannister", WesterosChoice(card="dark_wings_dark_words", option="collect"))])
    assert power(step.state) == {"stark": 6, "lannister": 7, "baratheon": 7}


def test_R047_dark_wings_dark_words_nothing():
    s = position(("last_days_of_summer", "dark_wings_dark_words", "storm_of_swords"))
    step = advance(s, [answer("lannister", WesterosChoice(card="dark_wings_dark_words", option="nothing"))])
    assert power(step.state) == power(s) and step.requests == []


def test_R047_only_the_raven_holder_chooses_for_dark_wings():
    s = position(("last_days_of_summer", "dark_wings_dark_words", "storm_of_swords"))
    step = advance(s, [answer("baratheon", WesterosChoice(card="dark_wings_dark_words", option="collect"))])
    assert [r.house for r in step.requests] == ["lannister"] and power(step.state) == power(s)


def test_R048_wildlings_attack_attacks_at_the_current_threat():
    s = position(("supply", "game_of_thrones", "wildlings_attack"), threat=6)
    step = advance(s)
    assert [e.strength for e in step.events if isinstance(e, WildlingAttackBegins)] == [6]
    assert {r.kind for r in step.requests} == {"bid"}


def test_R049_winter_is_coming_puts_itself_back_and_resolves_a_replacement():
    s = position(("winter_is_coming", "game_of_thrones", "storm_of_swords"))
    step = advance(s, deadline=True)
    deck = step.state.westeros_decks["1"]
    assert "winter_is_coming" in deck and len(deck) == 9
    assert len(step.state.westeros_discards["1"]) == 1
    assert step.state.westeros_discards["1"][0] != "winter_is_coming"


def test_R050_last_days_of_summer_does_nothing_but_its_icon():
    s = position(("last_days_of_summer", "game_of_thrones", "put_to_the_sword"))
    step = advance(s, deadline=True)
    assert step.state.wildling_threat == 2
    assert {h: x.supply for h, x in step.state.houses.items()} == {h: x.supply for h, x in s.houses.items()}


def test_R051_rains_of_autumn_bans_the_special_march():
    step = advance(position(("supply", "game_of_thrones", "rains_of_autumn")))
    assert step.state.restrictions == ["march+1"]
    assert [e.tokens for e in step.events if isinstance(e, OrdersRestricted)] == [("march+1",)]


def test_R052_storm_of_swords_bans_defense_orders():
    assert advance(position(("supply", "game_of_thrones", "storm_of_swords"))).state.restrictions == ["defense"]


def test_R053_sea_of_storms_bans_raid_orders():
    assert advance(position(("supply", "game_of_thrones", "sea_of_storms"))).state.restrictions == ["raid"]


def test_R054_feast_for_crows_bans_consolidate_power_orders():
    assert advance(position(("supply", "game_of_thrones", "feast_for_crows"))).state.restrictions == ["consolidate"]


def test_R055_web_of_lies_bans_support_orders():
    assert advance(position(("supply", "game_of_thrones", "web_of_lies"))).state.restrictions == ["support"]


@pytest.mark.parametrize("option, banned", [("no march+1", ["march+1"]), ("no defense", ["defense"]), ("nothing", [])])
def test_R056_put_to_the_sword_the_blade_holder_chooses(option: str, banned: list[str]):
    s = position(("supply", "game_of_thrones", "put_to_the_sword"))
    assert s.holder("fiefdoms") == "stark"
    step = advance(s, [answer("stark", WesterosChoice(card="put_to_the_sword", option=option))])
    assert step.state.restrictions == banned


def test_R056_put_to_the_sword_is_decided_by_whoever_holds_the_blade_when_it_resolves():
    s = position(("supply", "clash_of_kings", "put_to_the_sword"))
    bids = [answer(h, Bid(track=t, amount=int(h == "lannister" and t == "fiefdoms")))
            for h in HOUSES for t in ("iron_throne", "fiefdoms", "kings_court")]
    early = answer("lannister", WesterosChoice(card="put_to_the_sword", option="no defense"))
    step = advance(s, [*bids, early], deadline=True)  # ties by the deadline default
    assert step.state.holder("fiefdoms") == "lannister" and step.state.restrictions == ["defense"]


def test_supply_card_reconciles_a_house_over_its_new_limit():
    s = position(("supply", "game_of_thrones", "storm_of_swords"))
    s.area_mut("winterfell").units.append(Unit("stark", "footman"))  # an army of 3 at supply 1: fine
    s.area_mut("white_harbor").units.append(Unit("stark", "footman"))  # and one of 2
    s.area_mut("castle_black").units += [Unit("stark", "footman"), Unit("stark", "footman")]  # a third army
    step = advance(s)
    assert [r.kind for r in step.requests] == ["reconcile"]
    step = advance(step.state, [answer("stark", Reconcile(removals=(Located(area="castle_black", unit="footman"),)))])
    assert [u.type for u in step.state.area("castle_black").units] == ["footman"]


def test_mustering_card_publishes_what_each_house_musters():
    s = position(("mustering", "game_of_thrones", "storm_of_swords"))
    step = advance(s, deadline=True)
    mustered = [(e.house, e.area, e.placed) for e in step.events if isinstance(e, UnitsMustered)]
    assert mustered == [("baratheon", "dragonstone", ()), ("lannister", "lannisport", ()),
                        ("stark", "white_harbor", ()), ("stark", "winterfell", ())]


def test_clash_of_kings_reveals_the_bids_only_when_all_are_in():
    s = position(("supply", "clash_of_kings", "storm_of_swords"))
    step = advance(s, [answer("stark", Bid(track="iron_throne", amount=2))])
    assert not [e for e in step.events if isinstance(e, BidsRevealed)]
    assert all(e.visible_to == "stark" for e in step.events if "Bid" in getattr(e, "answer", ""))
