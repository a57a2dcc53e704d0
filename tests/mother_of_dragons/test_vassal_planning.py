"""Choosing vassals (M030-M038) and ordering them (M039-M042), through the engine."""

from __future__ import annotations

from rules.helpers import entry, of, put, reasons

from adjudicator.engine.events import AnswerUnusable, AnswerUsed
from adjudicator.engine.events.action import OrdersRevealed
from adjudicator.engine.events.vassals import VassalCommanded, VassalSetPassed
from adjudicator.engine.machine import advance
from adjudicator.game.commands import AssignOrder, CommandVassal, LeaveUnordered, Raven
from adjudicator.game.state import Order
from mother_of_dragons.vassal_helpers import for_vassal, mod_game


def _choices(state, *pairs):
    return [entry(h, CommandVassal(vassal=v)) for h, v in pairs]


def test_M032_every_command_ends_at_the_start_of_planning():
    s = mod_game()
    s.commanders = {"tyrell": "stark", "greyjoy": "stark"}
    step = advance(s, [])
    assert step.state.commanders == {}
    assert [r.kind for r in step.requests][:1] == ["vassal_choice"]


def test_M033_sets_go_to_the_highest_players_and_the_highest_takes_a_fourth_with_three_players():
    s = mod_game()
    step = advance(s, [])
    assert s.turn_order()[:3] == ["baratheon", "lannister", "stark"]
    assert step.state.vassal_sets == ["baratheon", "baratheon", "lannister", "stark"]
    assert step.requests[0].house == "baratheon" and step.requests[0].kind == "vassal_choice"


def test_M033_M034_the_sets_are_held_in_iron_throne_order_not_by_name():
    s = mod_game()
    track = s.tracks["iron_throne"]
    players = [h for h in track if h not in s.vassals]
    s.tracks["iron_throne"] = [*reversed(players), *[h for h in track if h in s.vassals]]
    step = advance(s, [])
    assert step.state.vassal_sets == ["stark", "stark", "lannister", "baratheon"]
    assert (step.requests[0].house, step.requests[0].kind) == ("stark", "vassal_choice")


def test_M035_a_set_passed_down_keeps_the_sets_in_iron_throne_order():
    s = mod_game()
    track = s.tracks["iron_throne"]
    players = [h for h in track if h not in s.vassals]
    s.tracks["iron_throne"] = [*reversed(players), *[h for h in track if h in s.vassals]]
    step = advance(s, [entry("stark", CommandVassal(vassal=None))])
    assert step.state.vassal_sets == ["stark", "lannister", "lannister", "baratheon"]
    assert (step.requests[0].house, step.requests[0].kind) == ("stark", "vassal_choice")  # its second set


def test_M034_a_set_holder_chooses_a_vassal_nobody_commands_in_turn_order():
    s = mod_game()
    step = advance(s, _choices(s, ("baratheon", "tyrell")))
    assert step.state.commanders.get("tyrell") == "baratheon"
    assert step.requests[0].house == "baratheon"  # its second set (M036)
    step = advance(step.state, _choices(s, ("baratheon", "tyrell")))
    assert any("commanded by Baratheon already" in r and "(M034)" in r for r in reasons(step, "baratheon"))


def test_M034_a_house_that_is_no_vassal_is_refused():
    s = mod_game()
    step = advance(s, _choices(s, ("baratheon", "stark")))
    assert any("is not a vassal" in r and "(M034)" in r for r in reasons(step, "baratheon"))


def test_M034_ruling_296_each_refused_choice_names_the_vassals_still_free_word_for_word():
    s = mod_game()
    step = advance(s, _choices(s, ("baratheon", "tyrell")))
    free = [v for v in step.state.turn_order() if v in step.state.vassals and v not in step.state.commanders]
    listed = ", ".join(v.title() for v in free)
    assert len(free) == 3
    taken, twice, stranger = (entry("baratheon", CommandVassal(vassal="tyrell")),
                              entry("baratheon", CommandVassal(vassal="tyrell", otherwise=("tyrell",))),
                              entry("baratheon", CommandVassal(vassal="stark")))
    step = advance(step.state, [taken, twice, stranger])
    assert sorted(reasons(step, "baratheon")) == sorted([
        f"Tyrell is commanded by Baratheon already; choose one of {listed} or pass (M034)",
        f"none of Tyrell, Tyrell is free now; choose one of {listed} or pass (M034, ruling 296)",
        f"Stark is not a vassal; the vassals nobody commands yet are {listed} (M034)"])


def test_M035_a_player_who_passes_hands_the_set_to_the_next_player_below():
    s = mod_game()
    step = advance(s, [entry("baratheon", CommandVassal(vassal=None))])
    assert of(step.events, VassalSetPassed)[0].to == "lannister"
    assert step.state.vassal_sets == ["baratheon", "lannister", "lannister", "stark"]


def test_M036_a_player_with_two_sets_chooses_for_each():
    s = mod_game()
    step = advance(s, _choices(s, ("baratheon", "tyrell"), ("lannister", "arryn"), ("baratheon", "greyjoy")))
    # stark is last on the Iron Throne track: its set takes the rest (M037)
    assert step.state.commanders["tyrell"] == "baratheon" or step.state.commanders["greyjoy"] == "baratheon"
    assert sorted(v for v, c in step.state.commanders.items() if c == "baratheon") == ["greyjoy", "tyrell"]


def test_M037_the_last_player_cannot_pass_and_takes_every_vassal_left():
    s = mod_game()
    step = advance(s, [entry(h, CommandVassal(vassal=None)) for h in ("baratheon", "baratheon", "lannister", "lannister", "lannister", "lannister")])
    rest = [e for e in of(step.events, VassalCommanded) if e.rest]
    assert {e.vassal for e in rest} == {"greyjoy", "tyrell", "martell", "arryn"}
    assert set(step.state.commanders.values()) == {"stark"}
    assert step.state.vassal_sets == []


def test_M038_planning_goes_on_when_every_vassal_is_commanded_and_the_commands_are_public():
    s = mod_game()
    step = advance(s, [], deadline=lambda r: r.kind == "vassal_choice")
    assert all(e.visible_to == "public" for e in of(step.events, VassalCommanded))
    assert len(step.state.commanders) == 4 and "vassal_choice" not in {r.kind for r in step.requests}


def _commanded(seed="vassals"):
    s = mod_game(seed=seed)
    put(s, "highgarden", "tyrell", "footman", "knight")
    put(s, "oldtown", "tyrell", "footman")
    put(s, "winterfell", "stark", "footman")
    return s, [entry(h, CommandVassal(vassal=None)) for h in ("baratheon", "baratheon", "lannister", "lannister", "lannister", "lannister")]


def test_M039_the_commander_orders_its_vassal_with_up_to_two_tokens_in_secret():
    s, picks = _commanded()
    step = advance(s, picks)
    ask = next(r for r in step.requests if r.vassal == "tyrell")
    assert ask.house == "stark" and ask.secret and ask.kind == "orders"
    lines = [for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="vassal_march")),
             for_vassal("stark", "tyrell", AssignOrder(area="oldtown", token="vassal_defense")),
             entry("stark", AssignOrder(area="winterfell", token="defense+1"))]
    step = advance(step.state, lines, deadline=lambda r: r.house != "stark")
    assert step.state.area("highgarden").order == Order("tyrell", "vassal_march")
    assert step.state.area("oldtown").order == Order("tyrell", "vassal_defense")



def test_M030_the_commander_s_confirmation_of_its_vassal_s_orders_says_for_the_vassal():
    """Was "taken for: assign up to 2 of your vassal's order tokens ...", naming no vassal: a
    commander of two could not tell which; the turn file's line says ``for VASSAL:``, so does this."""
    s, picks = _commanded()
    step = advance(s, picks)
    lines = [for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="vassal_march")),
             entry("stark", AssignOrder(area="winterfell", token="defense+1"))]
    step = advance(step.state, lines, deadline=lambda r: r.house != "stark")
    used = [e for e in of(step.events, AnswerUsed) if "vassal" in e.answer]
    assert [(e.house, e.visible_to) for e in used] == [("stark", "stark")]
    assert used[0].decision.startswith("for Tyrell: ") and "was taken for: for Tyrell: " in used[0].describe()

def test_M039_three_orders_or_a_token_twice_are_refused():
    s, picks = _commanded()
    put(s, "dornish_marches", "tyrell", "footman")
    lines = [for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="vassal_march")),
             for_vassal("stark", "tyrell", AssignOrder(area="oldtown", token="vassal_march"))]
    step = advance(s, picks + lines)
    assert "a vassal's set holds one token of each kind (M039, ruling 230)" in reasons(step, "stark")
    [refused] = [e for e in of(step.events, AnswerUnusable) if "one token of each kind" in e.reason]
    assert refused.ids == tuple(line["id"] for line in lines)  # both lines judged, by their ids
    assert refused.answer == "; ".join(line["text"] for line in lines)
    lines.append(for_vassal("stark", "tyrell", AssignOrder(area="oldtown", token="vassal_defense")))
    lines.append(for_vassal("stark", "tyrell", AssignOrder(area="dornish_marches", token="vassal_raid_support")))
    step = advance(s, picks + lines)
    assert any("at most 2 orders" in r and "(M039)" in r for r in reasons(step, "stark"))


def test_M039_a_vassal_takes_only_vassal_tokens_and_a_player_never_does():
    s, picks = _commanded()
    step = advance(s, picks + [for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="march+1")),
                               entry("stark", AssignOrder(area="winterfell", token="vassal_march"))])
    why = reasons(step, "stark")
    assert ("a vassal is ordered only with its vassal order tokens: vassal march, vassal raid support, "
            "vassal defense muster, vassal defense 3 (M039, ruling 230)") in why
    assert any("no order token 'vassal_march'" in r for r in why)


def test_M040_a_vassal_order_goes_only_on_an_area_with_its_units_and_areas_may_stay_empty():
    s, picks = _commanded()
    lines = [for_vassal("stark", "tyrell", AssignOrder(area="winterfell", token="vassal_march")),
             for_vassal("stark", "tyrell", LeaveUnordered(area="highgarden")),
             entry("stark", AssignOrder(area="winterfell", token="defense+1"))]
    step = advance(s, picks + lines, deadline=lambda r: r.house != "stark")
    assert "Tyrell has no units in Winterfell; a vassal order goes only on its own units (M040)" in reasons(step, "stark")
    assert [e.ids for e in of(step.events, AnswerUnusable) if "(M040)" in e.reason] == [(lines[0]["id"],)]
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert revealed == (("winterfell", "stark", "defense+1"),)


def test_ruling_233_M046_a_westeros_ban_on_one_half_of_a_vassal_token_forbids_the_token():
    s, picks = _commanded()
    s.restrictions = ["support"]  # Web of Lies: no support orders; Raid/Support is one
    step = advance(s, picks + [for_vassal("stark", "tyrell", AssignOrder(area="highgarden", token="vassal_raid_support"))])
    assert "a Westeros card forbids an order this token is this round (ruling 233, M046, M050)" in reasons(step, "stark")


def test_M039_default_is_no_vassal_order():
    s, picks = _commanded()
    step = advance(s, picks, deadline=True)
    revealed = of(step.events, OrdersRevealed)[0].orders
    assert [h for _, h, _ in revealed] == ["stark"]


def test_M042_the_raven_never_swaps_a_vassals_order():
    s, _ = _commanded()
    s.step = "raven"
    s.area_mut("highgarden").order = Order("tyrell", "vassal_march")
    holder = s.holder("kings_court")
    step = advance(s, [entry(holder, Raven(action="swap", area="highgarden", token="march+1"))])
    assert any("(M042" in r for r in reasons(step, holder))
    assert of(step.events, AnswerUnusable)
