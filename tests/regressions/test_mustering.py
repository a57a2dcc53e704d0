"""Review of mustering (R067-R080) and the supply limits it must respect (R072, R238).

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
Three houses on a bare board (each holds only its home); Mustering is deck I's card; turn order
Baratheon, Lannister, Stark.
"""

from __future__ import annotations

import itertools

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.context import Context, NeedAnswers, Step, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.westeros import UnitsMustered
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import Muster, MusterAction, WesterosChoice
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]
_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def bare(first: str = "mustering") -> GameState:
    s = new_game(HOUSES, seed="review-muster")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for st in s.areas.values():
        st.units.clear()
        st.neutral_force = None
    s.tidy()
    for deck, card in enumerate((first, "last_days_of_summer", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    return s


def put(s: GameState, area: str, house: str, *units: str) -> None:
    s.area_mut(area).units.extend(Unit(house, u) for u in units)


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"rm{next(_ids)}", house=house, round=2, command=command)  # type: ignore[arg-type]


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


def refusals(step: Step, house: str) -> list[str]:
    return [e.reason for e in step.events if isinstance(e, AnswerUnusable) and e.house == house]


def test_R075_R076_a_ship_for_a_sea_with_enemy_ships_is_refused_the_port_stays_open():
    """The trap: enemy ships close the adjacent sea, not the castle's own port."""
    s = bare()
    put(s, "the_golden_sound", "stark", "ship")
    step = advance(s, [answer("baratheon", Muster(area="dragonstone")),
                       answer("lannister", Muster(area="lannisport", actions=(
                           MusterAction(unit="ship", to="the_golden_sound"),)))])
    assert refusals(step, "lannister") == ["The Golden Sound holds enemy ships; no ship can be mustered there (R075)"]
    assert kinds(step.state, "the_golden_sound") == ["ship"] and step.state.area("the_golden_sound").units[0].house == "stark"
    (req,) = step.requests
    assert (req.house, req.context["area"]) == ("lannister", "lannisport")
    assert "the_golden_sound" not in req.context["ship_to"] and "port_of_lannisport" in req.context["ship_to"]
    step = advance(step.state, [answer("lannister", Muster(area="lannisport", actions=(
        MusterAction(unit="ship", to="port_of_lannisport"),)))])
    assert [(e.house, e.placed) for e in step.events if isinstance(e, UnitsMustered) and e.house == "lannister"] == [
        ("lannister", (("ship", "port_of_lannisport"),))]


def test_R071_R072_an_upgrade_in_an_army_at_its_limit_is_allowed_a_new_unit_there_is_not():
    """The trap: an upgrade replaces a footman, so the army does not grow (R071); a new unit would."""
    s = bare()
    s.houses["baratheon"].supply = 0  # two armies of 2
    put(s, "dragonstone", "baratheon", "footman", "footman")
    put(s, "kingswood", "baratheon", "footman", "footman")
    grow = Muster(area="dragonstone", actions=(MusterAction(unit="footman"),))
    upgrade = Muster(area="dragonstone", actions=(MusterAction(unit="knight", upgrade=True),
                                                  MusterAction(unit="siege_engine", upgrade=True)))
    step = advance(s, [answer("baratheon", grow)])
    assert refusals(step, "baratheon") == ["a footman in Dragonstone would exceed your supply limit (R072)"]
    assert kinds(step.state, "dragonstone") == ["footman", "footman"]
    step = advance(step.state, [answer("baratheon", upgrade)])
    assert kinds(step.state, "dragonstone") == ["knight", "siege_engine"]


def test_R044_a_throne_of_blades_muster_is_the_full_mustering_for_every_house_in_turn_order():
    s = bare("a_throne_of_blades")
    footman = (MusterAction(unit="footman"),)
    step = advance(s, [answer("baratheon", WesterosChoice(card="a_throne_of_blades", option="muster")),
                       answer("stark", Muster(area="winterfell", actions=footman)),
                       answer("lannister", Muster(area="lannisport", actions=footman)),
                       answer("baratheon", Muster(area="dragonstone", actions=footman))])
    assert step.requests == []
    assert [(e.house, e.area) for e in step.events if isinstance(e, UnitsMustered)] == [
        ("baratheon", "dragonstone"), ("lannister", "lannisport"), ("stark", "winterfell")]
