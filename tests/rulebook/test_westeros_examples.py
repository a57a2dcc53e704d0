"""The rulebook's worked examples for the Westeros phase, with the rulebook's own numbers.

E05-E07 supply, E08 mustering, E09-E10 bidding, E21-E22 wildlings, E24 ports, E26 influence
shifts (see the project's list of rulebook examples). Each is played through ``advance``.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core import bidding
from adjudicator.engine.core.common import fits_supply
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.westeros import (
    SupplyTrackMoved,
    TieBroken,
    WildlingAttackBegins,
    WildlingBidderNamed,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.board import Board
from adjudicator.game.commands import (
    Bid,
    Located,
    Muster,
    MusterAction,
    Reconcile,
    TieBreak,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit

BOARD = Board.classic()
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def westeros_phase(houses: list[str], cards: tuple[str, str, str], *, bare: bool = True, threat: int = 0) -> GameState:
    s = new_game(houses, seed="examples")
    s.round, s.phase, s.wildling_threat = 3, "westeros", threat
    if bare:
        for st in s.areas.values():
            st.units.clear()
            st.neutral_force = None
        s.tidy()
    for deck, card in enumerate(cards, 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def put(s: GameState, area: str, house: str, *units: str) -> None:
    s.area_mut(area).units.extend(Unit(house, u) for u in units)


def named(events: list, role: str) -> str:
    """The house a wildling attack named as its highest or lowest bidder."""
    return next(e.house for e in events if isinstance(e, WildlingBidderNamed) and e.role == role)


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"x{next(_ids)}", house=house, round=3, command=command)  # type: ignore[arg-type]


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


# --- supply ---------------------------------------------------------------------------------


def test_E05_supply_3_allows_one_army_of_3_and_three_of_2():
    assert BOARD.supply_limits(3) == (3, 2, 2, 2)
    assert fits_supply([3, 2, 2, 2], BOARD.supply_limits(3)) and not fits_supply([3, 3, 2, 2], BOARD.supply_limits(3))


def test_E06_supply_2_allows_two_armies_of_2_and_one_of_3():
    assert BOARD.supply_limits(2) == (3, 2, 2)
    assert not fits_supply([2, 2, 2, 2], BOARD.supply_limits(2))


def e07() -> GameState:
    """Lannister at supply 5 with armies of 4 (The Twins), 3 (Harrenhal), 2 and 2; Greyjoy has
    just taken Riverrun and Seagard, so Lannister's barrels are down to 3."""
    s = westeros_phase(["stark", "lannister", "baratheon", "greyjoy"], ("supply", "last_days_of_summer", "storm_of_swords"))
    s.houses["lannister"].supply = 5
    put(s, "the_twins", "lannister", "footman", "footman", "footman", "knight")
    put(s, "harrenhal", "lannister", "footman", "footman", "knight")
    put(s, "lannisport", "lannister", "footman", "knight")
    put(s, "searoad_marches", "lannister", "footman", "footman")
    put(s, "stoney_sept", "lannister", "footman")  # single units: never armies
    put(s, "port_of_lannisport", "lannister", "ship")
    put(s, "riverrun", "greyjoy", "footman")
    put(s, "seagard", "greyjoy", "footman")
    return s


def test_E07_supply_example_lannister_drops_from_5_to_3_and_destroys_two_footmen():
    step = advance(e07())
    assert (step.state.houses["lannister"].supply, step.state.houses["greyjoy"].supply) == (3, 3)
    moved = [e.house for e in step.events if isinstance(e, SupplyTrackMoved)]
    assert moved == step.state.turn_order()  # greyjoy's supply is recounted in turn order too
    assert [(r.house, r.context["units_to_destroy"]) for r in step.requests] == [("lannister", 2)]
    step = advance(step.state, [answer("lannister", Reconcile(removals=(
        Located(area="the_twins", unit="footman"), Located(area="harrenhal", unit="footman"))))])
    assert kinds(step.state, "the_twins") == ["footman", "footman", "knight"]
    assert kinds(step.state, "harrenhal") == ["footman", "knight"]
    assert kinds(step.state, "stoney_sept") == ["footman"] and kinds(step.state, "port_of_lannisport") == ["ship"]
    assert step.requests == []


def test_E07_a_reconciliation_that_leaves_an_army_too_big_is_rejected():
    removals = (Located(area="the_twins", unit="footman"), Located(area="searoad_marches", unit="footman"))
    step = advance(e07(), [answer("lannister", Reconcile(removals=removals))])
    refused = [e.reason for e in step.events if isinstance(e, AnswerUnusable)]
    assert refused == ["your armies (3, 3, 2) are over supply 3 (3, 2, 2, 2): destroy 2 units (R060)"]
    assert kinds(step.state, "the_twins") == ["footman", "footman", "footman", "knight"]


# --- mustering ------------------------------------------------------------------------------


def e08() -> GameState:
    """Lannister, supply 3 and first in turn order, holds Lannisport, Harrenhal (2 footmen),
    Riverrun (3 knights) and Stoney Sept; enemy ships close Ironman's Bay to it."""
    s = westeros_phase(["stark", "lannister", "baratheon"], ("mustering", "last_days_of_summer", "storm_of_swords"))
    s.tracks["iron_throne"] = ["lannister", "baratheon", "stark"]
    s.houses["lannister"].supply = 3
    put(s, "lannisport", "lannister", "footman")
    put(s, "harrenhal", "lannister", "footman", "footman")
    put(s, "riverrun", "lannister", "knight", "knight", "knight")
    put(s, "stoney_sept", "lannister", "footman")
    put(s, "ironmans_bay", "stark", "ship")
    return s


SHIP_GS = MusterAction(unit="ship", to="the_golden_sound")


def test_E08_mustering_example():
    answers = [
        answer("lannister", Muster(area="lannisport", actions=(MusterAction(unit="footman"), SHIP_GS))),
        answer("lannister", Muster(area="harrenhal", actions=(MusterAction(unit="knight", upgrade=True),))),
        answer("lannister", Muster(area="riverrun", actions=(SHIP_GS,))),
    ]
    step = advance(e08(), answers)
    assert kinds(step.state, "lannisport") == ["footman", "footman"]
    assert kinds(step.state, "the_golden_sound") == ["ship", "ship"]
    assert kinds(step.state, "harrenhal") == ["footman", "knight"]
    assert kinds(step.state, "riverrun") == ["knight"] * 3
    assert kinds(step.state, "stoney_sept") == ["footman"]  # no castle: no mustering
    assert [(r.house, r.context["area"]) for r in step.requests] == [("baratheon", "dragonstone")]  # the next house


def test_E08_riverrun_cannot_use_its_second_point():
    answers = [
        answer("lannister", Muster(area="lannisport", actions=(MusterAction(unit="footman"), SHIP_GS))),
        answer("lannister", Muster(area="harrenhal", actions=(MusterAction(unit="knight", upgrade=True),))),
    ]
    step = advance(e08(), answers)
    assert step.requests[0].context["area"] == "riverrun"
    assert step.requests[0].context["ship_to"] == ["the_golden_sound"]
    tries = {
        (MusterAction(unit="footman"),): "a footman in Riverrun would exceed your supply limit (R072)",
        (SHIP_GS, SHIP_GS): "a ship in The Golden Sound would exceed your supply limit (R072)",
        (SHIP_GS, MusterAction(unit="ship", to="ironmans_bay")):
            "Ironman's Bay holds enemy ships; no ship can be mustered there (R075)",
    }
    for actions, reason in tries.items():
        got = advance(step.state, [answer("lannister", Muster(area="riverrun", actions=actions))])
        assert [e.reason for e in got.events if isinstance(e, AnswerUnusable)] == [reason]
        assert kinds(got.state, "riverrun") == ["knight"] * 3


# --- bidding --------------------------------------------------------------------------------


FIVE = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]


def e09(tie_break: tuple[str, ...]) -> Step:
    s = westeros_phase(FIVE, ("supply", "clash_of_kings", "storm_of_swords"), bare=False)
    old = s.holder("iron_throne")
    answers = [answer(h, Bid(track="iron_throne", amount=int(h == "greyjoy"))) for h in FIVE]
    answers.append(answer(old, TieBreak(order=tuple(s.tracks["iron_throne"]), context="iron_throne")))
    fiefdoms = {"lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2, "greyjoy": 0}
    answers += [answer(h, Bid(track="fiefdoms", amount=n)) for h, n in fiefdoms.items()]
    answers.append(answer("greyjoy", TieBreak(order=tie_break, context="fiefdoms")))
    return advance(s, answers)


def test_E09_fiefdoms_bidding_example():
    step = e09(("baratheon", "stark"))
    assert step.state.holder("iron_throne") == "greyjoy"
    assert step.state.tracks["fiefdoms"] == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert len(step.state.tracks["fiefdoms"]) == 5  # position 6 stays empty
    assert step.state.holder("fiefdoms") == "lannister"  # the Valyrian Steel Blade
    assert [e.house for e in step.events if isinstance(e, TieBroken)][-1] == "greyjoy"
    assert {h: x.power for h, x in step.state.houses.items()} == \
        {"lannister": 1, "baratheon": 2, "stark": 2, "tyrell": 3, "greyjoy": 4}
    assert {r.context["track"] for r in step.requests} == {"kings_court"}  # King's Court bidding follows


def test_E09_the_opposite_tie_break_puts_stark_second():
    step = e09(("stark", "baratheon"))
    assert step.state.tracks["fiefdoms"][:3] == ["lannister", "stark", "baratheon"]


def test_E10_the_old_iron_throne_holder_breaks_the_iron_throne_tie_and_loses_the_throne():
    s = westeros_phase(["stark", "lannister", "baratheon"], ("supply", "clash_of_kings", "storm_of_swords"), bare=False)
    assert s.holder("iron_throne") == "baratheon"
    answers = [answer("baratheon", Bid(track="iron_throne", amount=0)),
               answer("stark", Bid(track="iron_throne", amount=2)),
               answer("lannister", Bid(track="iron_throne", amount=2)),
               answer("baratheon", TieBreak(order=("stark", "lannister"), context="iron_throne"))]
    step = advance(s, answers)
    assert step.state.tracks["iron_throne"] == ["stark", "lannister", "baratheon"]
    assert step.state.holder("iron_throne") == "stark"
    assert [e.house for e in step.events if isinstance(e, TieBroken)] == ["baratheon"]


# --- wildlings ------------------------------------------------------------------------------


def test_E21_the_iron_throne_holder_names_the_lowest_of_two_tied_bidders():
    s = westeros_phase(["stark", "lannister", "baratheon"], ("supply", "last_days_of_summer", "wildlings_attack"),
                       bare=False, threat=6)
    s.wildling_deck.remove("skinchanger_scout")
    s.wildling_deck.insert(0, "skinchanger_scout")
    answers = [answer("stark", Bid(track="wildlings", amount=1)), answer("lannister", Bid(track="wildlings", amount=1)),
               answer("baratheon", Bid(track="wildlings", amount=3)),
               answer("baratheon", TieBreak(order=("lannister", "stark"), context="wildlings"))]
    step = advance(s, answers)
    assert named(step.events, "lowest") == "stark"
    assert step.state.houses["stark"].power == 0  # the severe penalty: all its power
    assert step.state.houses["lannister"].power == 2


def test_E22_two_wildling_attacks_in_one_westeros_phase():
    s = westeros_phase(["stark", "lannister", "baratheon"], ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"),
                       bare=False, threat=8)
    s.wildling_deck = ["silence_at_the_wall", "rattleshirts_raiders"] + [
        c for c in s.wildling_deck if c not in ("silence_at_the_wall", "rattleshirts_raiders")]
    first = [answer(h, Bid(track="wildlings", amount=n)) for h, n in (("stark", 1), ("lannister", 1), ("baratheon", 2))]
    step = advance(s, first, deadline=False)
    assert [e.strength for e in step.events if isinstance(e, WildlingAttackBegins)] == [12, 8]
    assert step.state.wildling_threat == 8  # 12, the wildlings won: back two spaces
    second = [answer(h, Bid(track="wildlings", amount=n)) for h, n in (("stark", 4), ("lannister", 2), ("baratheon", 2))]
    step = advance(step.state, second)
    assert step.state.wildling_threat == 0  # 8 against 8: the watch holds
    assert step.state.houses["stark"].supply == 2  # Rattleshirt's Raiders rewards the highest bidder


# --- ports and influence shifts -------------------------------------------------------------


def test_E24_mustering_into_a_port_whose_sea_holds_enemy_ships_and_no_trade_from_it():
    six = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
    s = westeros_phase(six, ("mustering", "game_of_thrones", "storm_of_swords"))
    s.tracks["iron_throne"] = ["martell", "stark", "lannister", "greyjoy", "tyrell", "baratheon"]
    put(s, "east_summer_sea", "tyrell", "ship")
    step = advance(s)
    assert (step.requests[0].house, step.requests[0].context["area"]) == ("martell", "sunspear")
    assert step.requests[0].context["ship_to"] == ["port_of_sunspear", "sea_of_dorne"]
    refused = advance(step.state, [answer("martell", Muster(area="sunspear", actions=(
        MusterAction(unit="ship", to="east_summer_sea"),)))])
    assert [e.reason for e in refused.events if isinstance(e, AnswerUnusable)] == \
        ["East Summer Sea holds enemy ships; no ship can be mustered there (R075)"]
    step = advance(step.state, [answer("martell", Muster(area="sunspear", actions=(
        MusterAction(unit="footman"), MusterAction(unit="ship", to="port_of_sunspear"))))], deadline=True)
    assert kinds(step.state, "sunspear") == ["footman"] and kinds(step.state, "port_of_sunspear") == ["ship"]
    # Game of Thrones: Sunspear's crown, but no trade while Tyrell ships hold the East Summer Sea
    assert step.state.houses["martell"].power == 6


def test_E26_a_house_moved_to_the_top_pushes_the_others_down_and_takes_the_token_as_it_is():
    s = new_game(["stark", "lannister", "baratheon"], seed="e26")
    s.raven_used = True
    s.area_mut("winterfell").order = Order("stark", "march+1")  # a special order placed while stark had stars
    assert s.tracks["kings_court"] == ["lannister", "stark", "baratheon"]
    bidding.move_on_track(s, "kings_court", "baratheon", 1)
    assert s.tracks["kings_court"] == ["baratheon", "lannister", "stark"]
    assert s.dominance()["messenger_raven"] == {"holder": "baratheon", "used": True}
    assert s.area("winterfell").order == Order("stark", "march+1")  # placed orders stay
