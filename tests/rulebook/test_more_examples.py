"""Two short rulebook illustrations: a single unit is not an army (E04), a Defense Order lasts all round (E28)."""

from __future__ import annotations

import itertools

import pytest
from rules.test_combat_harness import Assault, battle, play, position, say  # noqa: F401

from adjudicator.engine import machine
from adjudicator.engine.core.common import UnitsDestroyed
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.combat import (
    CombatOrderRemoved,
    CombatResolved,
    CombatStrengths,
)
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import Located, Reconcile, Retreat
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Order, Unit
from rulebook.test_westeros_examples import e07

_ids = itertools.count()


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})


def answer(house: str, command: object) -> dict:
    return pool_entry(id=f"e{next(_ids)}", house=house, round=3, command=command)  # type: ignore[arg-type]


def kinds(s: GameState, area: str) -> list[str]:
    return sorted(u.type for u in s.area(area).units)


# --- E04: a single unit is not an army (000:345-348, 489-491, 530-532) -------------------------------


def test_E04_single_units_are_untouched_when_the_supply_drops(westeros_only):
    s = new_game(["stark", "lannister", "baratheon"], seed="e04")
    s.round, s.phase = 3, "westeros"
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    for deck, card in enumerate(("supply", "last_days_of_summer", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    s.houses["stark"].supply = 6
    alone = ("castle_black", "karhold", "white_harbor", "moat_cailin", "the_twins", "harrenhal", "crackclaw_point")
    for area in alone:
        s.area_mut(area).units.append(Unit("stark", "knight" if area == "harrenhal" else "footman"))
    s.area_mut("bay_of_ice").units.append(Unit("stark", "ship"))
    step = advance(s)
    assert step.state.houses["stark"].supply == 1  # Winterfell's barrel only: from 6 down to 1
    assert step.requests == [] and not [e for e in step.events if isinstance(e, UnitsDestroyed)]
    assert all(len(step.state.area(a).units) == 1 for a in (*alone, "bay_of_ice"))


def test_E04_in_the_supply_example_destroying_a_single_unit_does_not_help(westeros_only):
    """E07: Lannister must cut two units from its armies; Stoney Sept's lone footman is no army."""
    step = advance(e07(), [answer("lannister", Reconcile(removals=(
        Located(area="the_twins", unit="footman"), Located(area="stoney_sept", unit="footman"))))])
    assert [e.reason for e in step.events if isinstance(e, AnswerUnusable)] == [
        "your armies (3, 3, 2, 2) are over supply 3 (3, 2, 2, 2): destroy 2 units (R060)"]
    assert kinds(step.state, "stoney_sept") == ["footman"]
    assert [(r.kind, r.house) for r in step.requests] == [("reconcile", "lannister")]


# --- E28: a Defense Order lasts all round (000:919-922) ------------------------------------------------


E28 = """houses = ["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"]
[areas]
kingswood = { units = ["2 lannister footmen"], order = "defense+1" }
kings_landing = { units = ["stark knight"], order = "march+0" }
storms_end = { units = ["3 baratheon knights"], order = "march+0" }
"""


def test_E28_a_defense_order_counts_against_every_attack_until_its_defence_is_lost(battle):
    b = battle(position(E28), Assault("kingswood", "stark", "kings_landing", ("knight",)),
               Assault("kingswood", "baratheon", "storms_end", ("knight", "knight", "knight")))
    b.run(play("stark", "ser_rodrick_cassel"), play("lannister", "the_hound"))
    first = b.of(CombatResolved)[0]
    assert (first.attacker_total, first.defender_total, first.winner) == (3, 5, "lannister")
    assert b.state.area("kingswood").order == Order("lannister", "defense+1"), "a won defence keeps the order"
    b.run(play("baratheon", "brienne_of_tarth"), play("lannister", "ser_jaime_lannister"))
    b.run(say("lannister", Retreat(areas=("the_reach",))))
    assert b.done
    initial = [dict(e.defender_strength) for e in b.of(CombatStrengths)]
    assert [d.get("defense") for d in initial] == [1, 1], "the bonus counts against both attacks"
    second = b.of(CombatResolved)[1]
    assert (second.attacker_total, second.defender_total, second.winner) == (8, 5, "baratheon")
    removed = [(e.area, e.house, e.token) for e in b.of(CombatOrderRemoved) if e.area == "kingswood"]
    assert removed == [("kingswood", "lannister", "defense+1")]
    assert b.state.area("kingswood").order is None and kinds(b.state, "kingswood") == ["knight"] * 3
