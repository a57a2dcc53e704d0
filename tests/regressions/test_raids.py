"""Review of raid orders (R129-R140): ports, the special raid, pillage and the 20 power tokens.

One test per trap checked, whether the code was right or not; where it was wrong the docstring says
what was wrong. Turn order (6 players): Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import pytest
from rules.helpers import at_action, entry, game, of, phases, put, run, unusable  # noqa: F401

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events.action import RaidResolved
from adjudicator.engine.machine import Step
from adjudicator.game.commands import Raid

pytestmark = pytest.mark.usefixtures("phases")


def reasons(step, house):
    return [e.reason for e in unusable(step, house)]


def removed(step):
    return [(e.house, e.origin, e.target, e.target_token) for e in of(step.events, RaidResolved)]


def port_position(raid="raid"):
    """Greyjoy ships raid from The Golden Sound; Lannister holds Lannisport and its port."""
    s = game()
    put(s, "the_golden_sound", "greyjoy", "ship", order=raid)
    put(s, "lannisport", "lannister", "footman", order="defense+1")
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate")
    return at_action(s)


def test_R137_a_raid_from_the_connected_sea_pillages_a_port():
    """Ships in the connected sea may raid a port (R137); a consolidate order there is pillaged (R131)."""
    step = run(port_position(), entry("greyjoy", Raid(origin="the_golden_sound", targets=("port_of_lannisport",))))
    assert removed(step) == [("greyjoy", "the_golden_sound", "port_of_lannisport", "consolidate")]
    assert [(e.house, e.amount) for e in of(step.events, PowerChanged)] == [("greyjoy", 1), ("lannister", -1)]


def test_R132_a_raid_at_sea_reaches_the_land_next_to_it_but_never_its_port_from_land():
    """From the sea a raid reaches land (R132); the land area never raids its own port (R137)."""
    step = run(port_position(), entry("greyjoy", Raid(origin="the_golden_sound", targets=("lannisport",))))
    assert any("only a special raid may remove the defense order in Lannisport (R139, R136)" in r
               for r in reasons(step, "greyjoy"))
    step = run(port_position("raid*"), entry("greyjoy", Raid(origin="the_golden_sound", targets=("lannisport",))))
    assert removed(step) == [("greyjoy", "the_golden_sound", "lannisport", "defense+1")]


def test_R136_a_special_raid_works_as_a_normal_raid_too():
    """The special raid may remove a consolidate order as a plain raid does, and pillages (R131, R136)."""
    step = run(port_position("raid*"), entry("greyjoy", Raid(origin="the_golden_sound", targets=("port_of_lannisport",))))
    assert removed(step) == [("greyjoy", "the_golden_sound", "port_of_lannisport", "consolidate")]
    assert step.state.houses["greyjoy"].power == 6


def test_R137_ships_in_a_port_never_raid_their_own_land_area_or_another_sea():
    """A port raids only the sea it opens onto (R137), even with a special raid against defense (ruling 12)."""
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="raid*")
    put(s, "lannisport", "lannister", "footman")
    put(s, "riverrun", "stark", "footman", order="support+0")
    step = run(at_action(s), entry("lannister", Raid(origin="port_of_lannisport", targets=("riverrun",))))
    assert any("Riverrun is not adjacent to Port of Lannisport" in r for r in reasons(step, "lannister"))


def raid_with_twenty_tokens_out() -> Step:
    """Lannister (18 power in hand, 2 on the board: all 20 out) raids Tyrell's consolidate order."""
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "searoad_marches", "tyrell", "footman", order="consolidate")
    s.houses["lannister"].power = 18
    s.area_mut("riverrun").power_token = "lannister"
    s.area_mut("harrenhal").power_token = "lannister"
    return run(at_action(s), entry("lannister", Raid(origin="stoney_sept", targets=("searoad_marches",))))


def test_R131_a_raider_with_twenty_tokens_gains_nothing_and_the_victim_still_loses_one():
    """Pillage takes from the pool: a house with all 20 tokens out gets none; the victim still discards (R131, Q11)."""
    step = raid_with_twenty_tokens_out()
    assert step.state.houses["lannister"].power == 18 and step.state.houses["tyrell"].power == 4


def test_R131_pillaging_a_consolidate_order_at_sea_still_pillages():
    """A consolidate order at sea does nothing (R163), but raiding it is still pillaging (R131)."""
    s = game()
    put(s, "the_golden_sound", "greyjoy", "ship", order="raid")
    put(s, "sunset_sea", "lannister", "ship", order="consolidate")
    step = run(at_action(s), entry("greyjoy", Raid(origin="the_golden_sound", targets=("sunset_sea",))))
    assert step.state.houses["greyjoy"].power == 6 and step.state.houses["lannister"].power == 4


def test_R140_a_raid_removed_by_a_raid_earlier_in_the_cycle_never_resolves():
    """Two raids facing each other: the first in turn order removes the other, which is skipped (R140)."""
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "searoad_marches", "tyrell", "footman", order="raid")
    step = run(at_action(s), entry("lannister", Raid(origin="stoney_sept", targets=("searoad_marches",))),
               entry("tyrell", Raid(origin="searoad_marches", targets=("stoney_sept",))))
    assert removed(step) == [("lannister", "stoney_sept", "searoad_marches", "raid")]
    # Tyrell's answer can no longer be used: refused as soon as its raid order is gone (ruling 161)
    refused = [e for e in step.events if type(e).__name__ == "AnswerUnusable"]
    assert [(e.house, e.rule) for e in refused] == [("tyrell", "R129")] and "R140" in refused[0].reason
    assert step.state.round == 2


def test_Q11_a_raider_with_twenty_tokens_out_is_told_it_gains_none():
    """Pillage with all 20 tokens out gains nothing (Q11), and the raider's report says so."""
    step = raid_with_twenty_tokens_out()
    (gained,) = [e for e in of(step.events, PowerChanged) if e.house == "lannister"]
    assert (gained.amount, gained.power) == (0, 18)
    assert gained.describe().startswith("Lannister has all 20 power tokens out and gains none")
