"""Resolving raid orders (R129-R140). Turn order (6 players): Baratheon, Lannister, Stark, Martell,
Greyjoy, Tyrell."""

from __future__ import annotations

import pytest

from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.events import OnlyOption
from adjudicator.engine.events.action import RaidResolved
from adjudicator.game.commands import March, Raid

from .helpers import at_action, entry, game, of, phases, put, run, token, unusable  # noqa: F401

pytestmark = pytest.mark.usefixtures("phases")


def raids(step):
    return [(e.house, e.origin, e.target) for e in of(step.events, RaidResolved)]


def position():
    """Lannister raids from Stoney Sept; Tyrell has support in Blackwater and consolidate power in
    the Searoad Marches, both next to it."""
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "blackwater", "tyrell", "footman", order="support+0")
    put(s, "searoad_marches", "tyrell", "footman", order="consolidate")
    return at_action(s)


def test_R129_raids_cycle_through_the_turn_order_one_at_a_time():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "riverrun", "lannister", "footman", order="raid")
    put(s, "blackwater", "tyrell", "footman", order="support+0")
    put(s, "harrenhal", "tyrell", "footman", order="support+0")
    put(s, "crackclaw_point", "stark", "footman", order="raid")
    s = at_action(s)
    step = run(s)
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "lannister")]  # Baratheon has none: skipped
    step = run(step.state, entry("lannister", Raid(origin="stoney_sept", targets=("blackwater",))))
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "stark")]
    step = run(step.state, entry("stark", Raid(origin="crackclaw_point", targets=("harrenhal",))))
    # Lannister's second raid comes round again; with no target left it resolves by itself
    assert raids(step) == [("stark", "crackclaw_point", "harrenhal"), ("lannister", "riverrun", "")]
    assert step.state.round == 2


def test_R130_a_raid_removes_an_adjacent_enemy_order_and_itself():
    step = run(position(), entry("lannister", Raid(origin="stoney_sept", targets=("blackwater",))))
    assert raids(step) == [("lannister", "stoney_sept", "blackwater")]
    ev = of(step.events, RaidResolved)[0]
    assert (ev.target_house, ev.target_token, ev.visible_to) == ("tyrell", "support+0", "public")
    # the Searoad Marches' consolidate order was not touched: Tyrell consolidated it later
    assert [e.house for e in of(step.events, PowerChanged)] == ["tyrell"]


def test_R131_pillaging_a_consolidate_order_gains_one_power_and_costs_the_victim_one():
    s = position()
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("searoad_marches",))))
    changes = [(e.house, e.amount) for e in of(step.events, PowerChanged)]
    assert changes == [("lannister", 1), ("tyrell", -1)]
    assert step.state.houses["lannister"].power == 6 and step.state.houses["tyrell"].power == 4


def test_R131_pillage_gains_even_when_the_victim_has_no_power():
    s = position()
    s.houses["tyrell"].power = 0
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("searoad_marches",))))
    assert step.state.houses["lannister"].power == 6 and step.state.houses["tyrell"].power == 0
    assert [(e.house, e.amount) for e in of(step.events, PowerChanged)] == [("lannister", 1)]  # Tyrell loses nothing


def test_R131_a_victim_with_one_power_left_loses_it():
    s = position()
    s.houses["tyrell"].power = 1
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("searoad_marches",))))
    assert [(e.house, e.amount) for e in of(step.events, PowerChanged)] == [("lannister", 1), ("tyrell", -1)]
    assert step.state.houses["tyrell"].power == 0


def test_R129_a_house_is_asked_for_one_raid_with_each_orders_targets():
    import re

    step = run(position())
    [asked] = step.requests
    assert (asked.kind, asked.house) == ("raid", "lannister")
    assert re.fullmatch(r"r1\.action\.\d+\.raid\.lannister", asked.key)  # as pending.json names it
    assert asked.prompt == "resolve one of your raid orders: name the order and its target, or no effect"
    assert asked.context == {"raid_orders": {"stoney_sept": "raid"},
                             "targets": {"stoney_sept": ["blackwater", "searoad_marches"]}}


def test_R129_a_raid_answer_naming_an_area_without_the_houses_own_raid_order_is_refused():
    s = position()
    put(s, "harrenhal", "lannister", "footman", order="support+0")  # its own order, not a raid
    put(s, "riverrun", "stark", "footman", order="raid")  # a raid order, not its own
    for origin, name in (("harrenhal", "Harrenhal"), ("riverrun", "Riverrun")):
        step = run(s, entry("lannister", Raid(origin=origin, targets=(None,))))
        assert any(e.reason.startswith(f"you have no raid order in {name} ") and "(R129, R140)" in e.reason
                   for e in unusable(step, "lannister")), origin
        assert token(step.state, origin) is not None and token(step.state, "stoney_sept") == "lannister raid"
        assert [(r.kind, r.house) for r in step.requests] == [("raid", "lannister")]  # asked again


def test_R130_a_raid_naming_its_own_area_is_refused():
    step = run(position(), entry("lannister", Raid(origin="stoney_sept", targets=("stoney_sept",))))
    assert [e.reason for e in unusable(step, "lannister")] == ["a raid cannot target its own area (R130)"]


def test_R132_a_raid_on_land_cannot_raid_a_sea_area():
    s = position()
    put(s, "the_golden_sound", "greyjoy", "ship", order="support+0")
    s.area_mut("stoney_sept").order = None
    put(s, "lannisport", "lannister", "footman", order="raid")
    step = run(s, entry("lannister", Raid(origin="lannisport", targets=("the_golden_sound",))))
    assert any("cannot raid the sea area The Golden Sound (R132)" in e.reason for e in unusable(step, "lannister"))
    assert token(step.state, "the_golden_sound") == "greyjoy support+0"
    assert [r.kind for r in step.requests] == ["raid"]


def test_R132_a_raid_at_sea_may_raid_land_or_sea():
    s = game()
    put(s, "the_golden_sound", "lannister", "ship", order="raid")
    put(s, "sunset_sea", "lannister", "ship", order="raid")
    put(s, "searoad_marches", "tyrell", "footman", order="support+0")
    put(s, "ironmans_bay", "greyjoy", "ship", order="support+0")
    step = run(at_action(s), entry("lannister", Raid(origin="the_golden_sound", targets=("searoad_marches",))),
               entry("lannister", Raid(origin="sunset_sea", targets=("ironmans_bay",))))
    assert sorted(raids(step)) == [("lannister", "sunset_sea", "ironmans_bay"), ("lannister", "the_golden_sound", "searoad_marches")]


def test_R133_special_orders_of_a_raidable_kind_can_be_raided():
    s = position()
    s.area_mut("blackwater").order.token = "support+1"
    s.area_mut("searoad_marches").order.token = "consolidate*"
    put(s, "lannisport", "lannister", "footman", order="raid")
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("blackwater",))),
               entry("lannister", Raid(origin="lannisport", targets=("searoad_marches",))))
    assert {e.target_token for e in of(step.events, RaidResolved)} == {"support+1", "consolidate*"}


def test_R134_a_raid_with_no_eligible_target_is_removed_without_asking():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "blackwater", "tyrell", "footman", order="march+0")
    step = run(at_action(s), entry("tyrell", March(origin="blackwater")))
    assert raids(step) == [("lannister", "stoney_sept", "")]
    assert [e for e in of(step.events, OnlyOption) if e.house == "lannister"]


def test_R135_a_raider_may_choose_no_effect_despite_targets():
    step = run(position(), entry("lannister", Raid(origin="stoney_sept", targets=(None,))))
    assert raids(step) == [("lannister", "stoney_sept", "")]
    assert [e.house for e in of(step.events, PowerChanged)] == ["tyrell"]  # its consolidate resolved


def test_R136_a_special_raid_may_remove_a_defense_order_a_normal_raid_may_not():
    s = game()
    put(s, "stoney_sept", "baratheon", "footman", order="raid")
    put(s, "lannisport", "lannister", "footman", order="defense+1")
    step = run(at_action(s), entry("baratheon", Raid(origin="stoney_sept", targets=("lannisport",))))
    assert any("only a special raid may remove the defense order in Lannisport (R139, R136)" in e.reason
               for e in unusable(step, "baratheon"))
    s.area_mut("stoney_sept").order.token = "raid*"
    step = run(s, entry("baratheon", Raid(origin="stoney_sept", targets=("lannisport",))))
    assert raids(step) == [("baratheon", "stoney_sept", "lannisport")]


def test_R137_ships_in_a_port_raid_only_their_sea():
    s = game()
    put(s, "sunspear", "martell", "footman", order="defense+1")
    put(s, "port_of_sunspear", "martell", "ship", order="raid")
    put(s, "salt_shore", "tyrell", "footman", order="support+0")
    put(s, "east_summer_sea", "tyrell", "ship", order="support+0")
    step = run(at_action(s), entry("martell", Raid(origin="port_of_sunspear", targets=("sunspear",))))
    assert any("may raid only the sea area it opens onto (R137)" in e.reason for e in unusable(step, "martell"))
    step = run(s, entry("martell", Raid(origin="port_of_sunspear", targets=("east_summer_sea",))))
    assert raids(step) == [("martell", "port_of_sunspear", "east_summer_sea")]


def test_R137_ships_in_the_connected_sea_may_raid_a_port():
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="support+0")
    put(s, "the_golden_sound", "greyjoy", "ship", order="raid")
    step = run(at_action(s))
    assert step.requests[0].context["targets"] == {"the_golden_sound": ["port_of_lannisport"]}
    step = run(step.state, entry("greyjoy", Raid(origin="the_golden_sound", targets=("port_of_lannisport",))))
    assert raids(step) == [("greyjoy", "the_golden_sound", "port_of_lannisport")]


def test_R137_land_next_to_its_own_port_cannot_raid_it():
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="support+0")
    put(s, "lannisport", "tyrell", "footman", order="raid")  # an odd position, but the rule is the point
    step = run(at_action(s), entry("tyrell", Raid(origin="lannisport", targets=("port_of_lannisport",))))
    assert any("units on land cannot raid Port of Lannisport" in e.reason and "(R137)" in e.reason
               for e in unusable(step, "tyrell"))


def test_R138_ship_transport_does_not_make_areas_adjacent_for_raids():
    s = game()
    put(s, "highgarden", "tyrell", "footman", order="raid")
    put(s, "redwyne_straights", "tyrell", "ship", order="support+0")
    put(s, "west_summer_sea", "tyrell", "ship", order="support+0")
    put(s, "east_summer_sea", "tyrell", "ship", order="support+0")
    put(s, "sunspear", "martell", "footman", order="consolidate")
    step = run(at_action(s), entry("tyrell", Raid(origin="highgarden", targets=("sunspear",))))
    # nothing adjacent to raid, so the raid resolved by itself; the answer could not be used
    assert raids(step) == [("tyrell", "highgarden", "")]
    assert any("Sunspear is not adjacent to Highgarden" in e.reason for e in unusable(step, "tyrell"))
    assert step.state.houses["martell"].power == 7  # its consolidate resolved (+2), never pillaged


def test_R138_a_non_adjacent_target_is_refused():
    s = position()
    put(s, "kings_landing", "tyrell", "footman", order="support+0")
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("kings_landing",))))
    assert any("King's Landing is not adjacent to Stoney Sept" in e.reason and e.reason.endswith("(R130)")
               for e in unusable(step, "lannister"))
    assert [r.kind for r in step.requests] == ["raid"]
    assert token(step.state, "kings_landing") == "tyrell support+0"


def test_R138_land_areas_linked_by_ship_transport_are_not_adjacent_for_a_raid():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="raid")
    put(s, "the_golden_sound", "lannister", "ship")
    put(s, "sunset_sea", "lannister", "ship")
    put(s, "ironmans_bay", "lannister", "ship")
    put(s, "seagard", "stark", "footman", order="support+0")
    put(s, "stoney_sept", "stark", "footman", order="support+0")  # a target next to Lannisport: the raid is asked
    step = run(at_action(s), entry("lannister", Raid(origin="lannisport", targets=("seagard",))))
    assert [(e.reason, e.rule) for e in unusable(step, "lannister")] == [
        ("Seagard is not adjacent to Lannisport; ship transport never makes areas adjacent for a raid (R138)", "R138")]
    assert token(step.state, "seagard") == "stark support+0"


def test_R139_march_orders_cannot_be_raided():
    s = position()
    s.area_mut("blackwater").order.token = "march+0"
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("blackwater",))))
    assert any("(R139)" in e.reason for e in unusable(step, "lannister"))
    assert "blackwater" not in step.requests[0].context["targets"]["stoney_sept"]


def test_R139_a_regular_raid_cannot_hit_a_defense_order():
    s = game()
    put(s, "stoney_sept", "baratheon", "footman", order="raid")
    put(s, "lannisport", "lannister", "footman", order="defense+1")
    put(s, "harrenhal", "stark", "footman", order="support+0")
    step = run(at_action(s), entry("baratheon", Raid(origin="stoney_sept", targets=("lannisport",))))
    assert any(e.reason.endswith("(R139, R136)") and e.rule == "R139" for e in unusable(step, "baratheon"))
    assert step.requests[0].context["targets"]["stoney_sept"] == ["harrenhal"]  # the defense order is no target
    assert token(step.state, "lannisport") == "lannister defense+1"


def test_R140_a_raided_raid_is_skipped_and_its_answer_is_never_used():
    s = game()
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "harrenhal", "stark", "footman", order="support+0")
    put(s, "blackwater", "tyrell", "footman", order="raid")
    put(s, "kings_landing", "baratheon", "footman", order="raid")
    s = at_action(s)
    step = run(s, entry("baratheon", Raid(origin="kings_landing", targets=("blackwater",))),
               entry("tyrell", Raid(origin="blackwater", targets=("stoney_sept",))))
    # Baratheon removed Tyrell's raid before Tyrell's turn: Lannister raids next, and Tyrell is skipped
    assert raids(step) == [("baratheon", "kings_landing", "blackwater")]
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "lannister")]
    # no decision of the round can use it any more: Tyrell is told so at once (ruling 161)
    refused = [e for e in step.events if type(e).__name__ == "AnswerUnusable" and e.house == "tyrell"]
    assert [e.reason for e in refused] == [
        "you have no raid order in Blackwater (never placed, or already removed) (R129, R140)"]
    assert not [a for a in step.state.answers if a["house"] == "tyrell"]
    step = run(step.state, entry("lannister", Raid(origin="stoney_sept", targets=("harrenhal",))))
    assert raids(step) == [("lannister", "stoney_sept", "harrenhal")]


def test_ruling_8_a_target_whose_order_is_gone_is_not_legal_but_a_preference_list_falls_through():
    s = position()
    put(s, "harrenhal", "baratheon", "footman", order="raid")  # Baratheon raids first
    step = run(s, entry("baratheon", Raid(origin="harrenhal", targets=("blackwater",))),
               entry("lannister", Raid(origin="stoney_sept", targets=("blackwater",))))
    assert any("no order (left) in Blackwater to raid (R130, ruling 8)" in e.reason for e in unusable(step, "lannister"))
    step = run(step.state, entry("lannister", Raid(origin="stoney_sept", targets=("blackwater", "searoad_marches"))))
    assert ("lannister", "stoney_sept", "searoad_marches") in raids(step)


def test_a_raid_cannot_target_the_raiders_own_order():
    s = position()
    put(s, "lannisport", "lannister", "footman", order="support+0")
    step = run(s, entry("lannister", Raid(origin="stoney_sept", targets=("lannisport",))))
    assert any("is your own; raids remove enemy orders (R130)" in e.reason for e in unusable(step, "lannister"))


def test_answering_for_another_houses_raid_is_refused():
    s = position()
    put(s, "harrenhal", "stark", "footman", order="support+0")
    step = run(s, entry("tyrell", Raid(origin="stoney_sept", targets=("harrenhal",))))
    # the answer sits in Tyrell's answers; Lannister is the one asked, and Tyrell's line never fits
    assert [r.house for r in step.requests] == ["lannister"]
    s.area_mut("blackwater").order.token = "raid"
    step = run(s, entry("tyrell", Raid(origin="stoney_sept", targets=("harrenhal",))),
               entry("lannister", Raid(origin="stoney_sept", targets=(None,))))
    assert any("no raid order in Stoney Sept" in e.reason for e in unusable(step, "tyrell"))


def test_deadline_default_is_the_first_raid_in_board_order_with_no_effect():
    s = position()
    put(s, "lannisport", "lannister", "footman", order="raid")
    step = run(s, deadline=True)
    lann = [r for r in raids(step) if r[0] == "lannister"]
    assert lann == [("lannister", "lannisport", ""), ("lannister", "stoney_sept", "")]


def test_ruling_12_a_special_raid_on_a_defense_order_keeps_the_raid_adjacency_rules():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="raid*")
    put(s, "the_golden_sound", "greyjoy", "ship", order="defense+1")
    put(s, "searoad_marches", "tyrell", "footman", order="defense+1")
    step = run(at_action(s), entry("lannister", Raid(origin="lannisport", targets=("the_golden_sound",))))
    assert any("cannot raid the sea area The Golden Sound (R132)" in e.reason for e in unusable(step, "lannister"))
    assert step.requests[0].context["targets"] == {"lannisport": ["searoad_marches"]}


def test_ruling_14_equivalent_raid_choices_are_not_asked():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="raid")
    put(s, "stoney_sept", "lannister", "footman", order="raid*")
    step = run(at_action(s))
    assert raids(step) == [("lannister", "lannisport", ""), ("lannister", "stoney_sept", "")]
    assert step.state.round == 2
