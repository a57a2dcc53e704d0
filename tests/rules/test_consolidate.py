"""Resolving consolidate power orders (R161-R166) and the 20-token limit (Q11).

Turn order (6 players): Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import importlib.util

import pytest

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.action import ConsolidateResolved
from adjudicator.game.commands import Consolidate, MusterAction, Raid

from .helpers import at_action, entry, game, of, phases, put, run, units, unusable  # noqa: F401

pytestmark = pytest.mark.usefixtures("phases")

HAS_MUSTERING = importlib.util.find_spec("adjudicator.engine.core.mustering") is not None


def gains(step):
    return [(e.house, e.area, e.result, e.gained) for e in of(step.events, ConsolidateResolved)]


def test_R161_consolidate_orders_cycle_through_the_turn_order():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="consolidate")
    put(s, "riverrun", "lannister", "footman", order="consolidate")
    put(s, "winterfell", "stark", "footman", order="consolidate")
    put(s, "kingswood", "baratheon", "footman", order="consolidate")
    step = run(at_action(s))
    assert [(h, a) for h, a, _, _ in gains(step)] == [
        ("baratheon", "kingswood"), ("lannister", "riverrun"), ("stark", "winterfell"), ("lannister", "stoney_sept")]


def test_R162_consolidate_gives_one_power_plus_one_per_crown():
    s = game()
    put(s, "kings_landing", "baratheon", "footman", order="consolidate")  # two crowns
    put(s, "searoad_marches", "tyrell", "footman", order="consolidate")  # none
    step = run(at_action(s))
    assert gains(step) == [("baratheon", "kings_landing", "power", 3), ("tyrell", "searoad_marches", "power", 1)]
    assert step.state.houses["baratheon"].power == 8 and step.state.houses["tyrell"].power == 6


def test_R163_consolidate_at_sea_does_nothing():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", order="consolidate")
    step = run(at_action(s))
    assert gains(step)[0][2].startswith("no effect") and "(R163)" in gains(step)[0][2]
    assert step.state.houses["lannister"].power == 5


def test_R164_consolidate_in_a_port_gives_one_unless_enemy_ships_are_in_its_sea():
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate")
    step = run(at_action(s))
    assert gains(step) == [("lannister", "port_of_lannisport", "power", 1)]
    put(s, "the_golden_sound", "greyjoy", "ship")
    step = run(at_action(s))
    assert "enemy ships are in The Golden Sound (R164)" in gains(step)[0][2]
    assert step.state.houses["lannister"].power == 5


@pytest.mark.skipif(not HAS_MUSTERING, reason="the mustering rules (rules/mustering.py) are not in the tree yet")
def test_R165_a_special_consolidate_may_muster_in_its_own_castle_area():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    step = run(at_action(s))
    assert step.requests[0].context["may_muster"] == {"lannisport": 2}
    step = run(step.state, entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="knight"),))))
    assert units(step.state, "lannisport") == ["footman", "knight"]
    assert gains(step) == [("lannister", "lannisport", "muster", 0)]
    assert step.state.houses["lannister"].power == 5


@pytest.mark.skipif(not HAS_MUSTERING, reason="the mustering rules (rules/mustering.py) are not in the tree yet")
def test_R165_special_mustering_follows_the_mustering_rules():
    s = game()
    put(s, "harrenhal", "lannister", "footman", order="consolidate*")  # a castle: one point
    step = run(at_action(s), entry("lannister", Consolidate(area="harrenhal", muster=(MusterAction(unit="knight"),))))
    assert any("(R068, R069)" in e.reason for e in unusable(step, "lannister"))
    assert units(step.state, "harrenhal") == ["footman"]


def test_R165_a_special_consolidate_without_a_castle_or_in_a_port_only_takes_power():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="consolidate*")
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate*")
    step = run(at_action(s), entry("lannister", Consolidate(area="stoney_sept", muster=(MusterAction(unit="footman"),))),
               entry("lannister", Consolidate(area="port_of_lannisport", muster=(MusterAction(unit="ship"),))))
    why = [e.reason for e in unusable(step, "lannister")]
    assert any("no castle or stronghold" in r and "(R165)" in r for r in why)
    assert any("Port of Lannisport cannot muster" in r and "(R165)" in r for r in why)


def test_R165_a_regular_consolidate_cannot_muster():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate")
    put(s, "the_golden_sound", "lannister", "ship", order="consolidate")  # a second order: Lannister is asked
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="footman"),))))
    assert any("only a special consolidate power order can muster" in e.reason for e in unusable(step, "lannister"))


def test_R166_a_raided_special_consolidate_is_gone_with_its_mustering():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    put(s, "searoad_marches", "tyrell", "footman", order="raid")
    step = run(at_action(s), entry("tyrell", Raid(origin="searoad_marches", targets=("lannisport",))),
               entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="footman"),))))
    assert gains(step) == []
    assert units(step.state, "lannisport") == ["footman"]
    assert step.state.houses["lannister"].power == 4  # pillaged


def test_Q11_power_never_exceeds_the_twenty_tokens_of_a_house():
    s = game()
    s.houses["baratheon"].power = 19
    put(s, "kings_landing", "baratheon", "footman", order="consolidate")
    step = run(at_action(s))
    assert step.state.houses["baratheon"].power == 20
    assert gains(step) == [("baratheon", "kings_landing", "power", 1)]
    assert [e.amount for e in of(step.events, PowerChanged)] == [1]


def test_answering_for_another_houses_consolidate_is_refused():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    put(s, "stoney_sept", "tyrell", "footman", order="consolidate")
    step = run(at_action(s), entry("lannister", Consolidate(area="stoney_sept")))
    assert any("no consolidate power order in Stoney Sept" in e.reason and "(R161, R166)" in e.reason
               for e in unusable(step, "lannister"))
    assert [r.house for r in step.requests] == ["lannister"]


def test_deadline_default_takes_power_with_the_first_order():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    step = run(at_action(s), deadline=True)
    assert gains(step) == [("lannister", "lannisport", "power", 1)]


def test_ruling_14_a_house_with_only_plain_orders_is_not_asked_which_goes_first():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="consolidate")
    put(s, "riverrun", "lannister", "footman", order="consolidate")
    step = run(at_action(s))
    assert [a for _, a, _, _ in gains(step)] == ["riverrun", "stoney_sept"]  # board order
    assert len([e for e in step.events if type(e).__name__ == "OnlyOption" and e.house == "lannister"]) == 2


def test_ruling_14_a_port_among_several_orders_is_asked():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="consolidate")
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate")
    step = run(at_action(s))
    assert [(r.kind, r.house) for r in step.requests] == [("consolidate", "lannister")]


@pytest.mark.skipif(not HAS_MUSTERING, reason="the mustering rules (rules/mustering.py) are not in the tree yet")
def test_ruling_13_a_port_consolidate_looks_at_its_sea_when_it_resolves():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    put(s, "port_of_pyke", "greyjoy", "ship", order="consolidate")
    put(s, "pyke", "greyjoy", "footman")
    # Lannister (earlier in turn order) musters a ship into Ironman's Bay before Greyjoy's port order resolves
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="ship", to="the_golden_sound"),))))
    assert gains(step)[-1] == ("greyjoy", "port_of_pyke", "power", 1)  # The Golden Sound is not Pyke's sea
    s2 = game()
    put(s2, "riverrun", "lannister", "footman", order="consolidate*")
    put(s2, "port_of_pyke", "greyjoy", "ship", order="consolidate")
    put(s2, "pyke", "greyjoy", "footman")
    step = run(at_action(s2), entry("lannister", Consolidate(area="riverrun", muster=(MusterAction(unit="ship", to="ironmans_bay"),))))
    assert "enemy ships are in Ironman's Bay (R164)" in gains(step)[-1][2]


@pytest.mark.skipif(not HAS_MUSTERING, reason="the mustering rules (rules/mustering.py) are not in the tree yet")
def test_ruling_17_a_special_consolidate_may_muster_a_ship_under_the_ship_rules():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="ship", to="port_of_lannisport"),))))
    assert units(step.state, "port_of_lannisport") == ["ship"]
    put(s, "the_golden_sound", "greyjoy", "ship")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="ship", to="the_golden_sound"),))))
    assert any("(R075)" in e.reason for e in unusable(step, "lannister"))
