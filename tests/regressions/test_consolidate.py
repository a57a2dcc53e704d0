"""Review of consolidate power (R161-R166): ports, special mustering and the 20 power tokens (Q11).

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Turn order (6 players): Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import pytest
from rules.helpers import at_action, entry, game, of, phases, put, run, units, unusable  # noqa: F401

from adjudicator.engine.events.action import ConsolidateResolved
from adjudicator.game.commands import Consolidate, MusterAction

pytestmark = pytest.mark.usefixtures("phases")


def gains(step):
    return [(e.house, e.area, e.result, e.gained) for e in of(step.events, ConsolidateResolved)]


def test_R164_routed_enemy_ships_in_the_sea_still_void_a_port_consolidate():
    """R164 speaks of enemy ships in the sea, routed or not: the port order is removed without effect."""
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate")
    put(s, "the_golden_sound", "greyjoy", "ship", routed=1)
    step = run(at_action(s))
    assert gains(step) == [("lannister", "port_of_lannisport", "no effect: enemy ships are in The Golden Sound (R164)", 0)]
    assert step.state.houses["lannister"].power == 5


def test_R164_own_ships_in_the_sea_leave_a_port_consolidate_its_one_power():
    """Only enemy ships void it; a port counts as land without power icons: +1 (R164)."""
    s = game()
    put(s, "lannisport", "lannister", "footman")
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate*")
    put(s, "the_golden_sound", "lannister", "ship")
    step = run(at_action(s))
    assert gains(step) == [("lannister", "port_of_lannisport", "power", 1)]


def test_R244_a_power_token_is_no_power_icon_for_consolidate():
    """A house's own power token in the area adds nothing to what consolidate power gives (R244)."""
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="consolidate")  # one power icon
    s.area_mut("stoney_sept").power_token = "lannister"
    step = run(at_action(s))
    assert gains(step) == [("lannister", "stoney_sept", "power", 2)]


def test_Q11_power_tokens_on_the_board_count_among_the_twenty():
    """Available power and tokens on the board make the 20: 15 + 4 on the board leaves room for 1 (Q11, R011)."""
    s = game()
    put(s, "kings_landing", "baratheon", "footman", order="consolidate")  # would give 3
    s.houses["baratheon"].power = 15
    for area in ("kingswood", "the_reach", "blackwater", "crackclaw_point"):
        s.area_mut(area).power_token = "baratheon"
    step = run(at_action(s))
    assert gains(step) == [("baratheon", "kings_landing", "power", 1)]
    assert step.state.houses["baratheon"].power + step.state.power_on_board("baratheon") == 20


def test_R076_R165_a_special_consolidate_musters_a_ship_into_its_port_despite_enemy_ships_in_the_sea():
    """Special mustering follows the mustering rules (R165): the port takes a ship even with the sea held (R076)."""
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    put(s, "the_golden_sound", "greyjoy", "ship")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport",
                                                            muster=(MusterAction(unit="ship", to="port_of_lannisport"),))))
    assert units(step.state, "port_of_lannisport") == ["ship"]
    assert gains(step) == [("lannister", "lannisport", "muster", 0)]


def test_R165_special_mustering_stays_within_the_supply_limit():
    """A special muster that would make an army the supply track does not allow is refused (R072, R165, R238)."""
    s = game()
    s.houses["lannister"].supply = 0  # two armies of 2
    put(s, "lannisport", "lannister", "footman", "footman", order="consolidate*")
    put(s, "stoney_sept", "lannister", "footman", "footman")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport", muster=(MusterAction(unit="footman"),))))
    assert any("(R072)" in e.reason for e in unusable(step, "lannister"))
    assert units(step.state, "lannisport") == ["footman", "footman"]


def test_R165_a_special_consolidate_may_still_take_power_in_a_castle_area():
    """The special order works as a normal one too: no muster named, power taken (R165, D30)."""
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    step = run(at_action(s), entry("lannister", Consolidate(area="lannisport")))
    assert gains(step) == [("lannister", "lannisport", "power", 1)]  # Lannisport has no power icon
    assert step.state.houses["lannister"].power == 6
