"""Review of supply and reconciling armies (R058-R066, R238, R239, rulings 63 and 64).

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
Three houses on a bare board; turn order Baratheon, Lannister, Stark.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.westeros import SupplyTrackMoved
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import Bid, Located, Reconcile, WesterosChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def bare(cards: tuple[str, str, str], *, threat: int = 0) -> GameState:
    s = new_game(HOUSES, seed="review-supply")
    s.round, s.phase, s.wildling_threat = 2, "westeros", threat
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


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"rs{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def destroy(*where: tuple[str, str]) -> Reconcile:
    return Reconcile(removals=tuple(Located(area=a, unit=u) for a, u in where))


def test_R060_R239_a_throne_of_blades_supply_lets_the_house_choose_which_army_to_cut():
    """The trap: the house over its limit chooses; the engine neither picks for it nor takes more."""
    s = bare(("a_throne_of_blades", "last_days_of_summer", "web_of_lies"))
    s.houses["stark"].supply = 3  # Winterfell's barrel alone gives 1: two armies, of 3 and 2
    put(s, "winterfell", "stark", "footman", "knight", "footman")
    put(s, "white_harbor", "stark", "footman", "footman")
    put(s, "the_shivering_sea", "stark", "ship", "ship")
    step = advance(s, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="supply"))])
    assert [(e.house, e.old, e.new) for e in step.events if isinstance(e, SupplyTrackMoved) and e.house == "stark"] \
        == [("stark", 3, 1)]
    (req,) = step.requests
    assert (req.kind, req.house, req.context["units_to_destroy"]) == ("reconcile", "stark", 1)
    too_many = destroy(("the_shivering_sea", "ship"), ("white_harbor", "footman"))
    wrong = destroy(("winterfell", "footman"))  # Winterfell 2, White Harbor 2, sea 2: three armies still
    step = advance(step.state, [answer("stark", too_many), answer("stark", wrong)])
    assert [e.reason for e in step.events if isinstance(e, AnswerUnusable)] == [
        "your armies (2, 2, 2) are over supply 1 (3, 2): destroy 1 unit (R060)",
        "destroy exactly 1 unit, the fewest that fit your supply, not 2 (ruling 64)"]
    assert sorted(u.type for u in step.state.area("the_shivering_sea").units) == ["ship", "ship"]
    step = advance(step.state, [answer("stark", destroy(("the_shivering_sea", "ship")))])
    assert step.requests == []
    assert [(e.area, e.units) for e in step.events if isinstance(e, UnitsDestroyed)] == [("the_shivering_sea", ("ship",))]


def test_R063_rattleshirts_raiders_reconciles_the_lowest_bidder_and_everyone_else_together():
    """The trap: a supply move by a wildling card is a supply adjustment: armies are reconciled."""
    s = bare(("supply", "last_days_of_summer", "wildlings_attack"), threat=4)  # the attack at 6
    s.wildling_deck.remove("rattleshirts_raiders")
    s.wildling_deck.insert(0, "rattleshirts_raiders")
    for house in HOUSES:
        s.houses[house].supply = 2  # (3, 2, 2)
    put(s, "winterfell", "stark", "footman", "footman", "footman")  # 3: too big at supply 0 (2, 2)
    put(s, "lannisport", "lannister", "footman", "footman", "footman")  # 3: fits supply 1 (3, 2)
    put(s, "dragonstone", "baratheon", "footman", "footman", "footman")
    put(s, "kingswood", "baratheon", "footman", "footman")
    put(s, "the_reach", "baratheon", "footman", "footman")  # 3, 2, 2: too many armies at supply 1
    bids = [answer(h, Bid(track="wildlings", amount=n)) for h, n in (("stark", 0), ("lannister", 1), ("baratheon", 1))]
    # The Supply card first sets 1, 2, 2 from the barrels (Winterfell; Lannisport; Dragonstone and
    # Kingswood): everything fits. Then Stark, lowest, drops 2 and the others 1.
    step = advance(s, bids)
    moved = [(e.house, e.new) for e in step.events if isinstance(e, SupplyTrackMoved) and e.cause == "Rattleshirt's Raiders"]
    assert moved == [("stark", 0), ("baratheon", 1), ("lannister", 1)]
    # Both are over their limits and decided together: Stark has one way only (a footman of
    # Winterfell), taken unasked once Baratheon, which must choose an army, has answered.
    assert [(r.kind, r.house, r.context["units_to_destroy"]) for r in step.requests] == [("reconcile", "baratheon", 1)]
    step = advance(step.state, [answer("baratheon", destroy(("kingswood", "footman")))])
    assert [(e.house, e.area) for e in step.events if isinstance(e, UnitsDestroyed)] == [
        ("stark", "winterfell"), ("baratheon", "kingswood")]
