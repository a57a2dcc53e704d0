"""A Feast for Crows' objectives in play: three kept of five (F033), the four steps after every
Action Phase (F040-F044), the win at 7 (F045), the end of round 10 (F046), and the answers refused
with their rule (rulings 409-412)."""

from __future__ import annotations

from rules.helpers import entry, of, reasons, run

from adjudicator.engine.events.common import GameWon
from adjudicator.engine.events.objectives import ObjectiveScored, ObjectivesDealt, ObjectivesKept
from adjudicator.game.commands import KeepObjectives, ScoreObjective
from adjudicator.game.state import GameState

from .helpers import put, setup


def keep(house: str, *objectives: str) -> dict:
    return entry(house, KeepObjectives(objectives=objectives))


def score(house: str, objective: str | None) -> dict:
    return entry(house, ScoreObjective(objective=objective))


def at_the_end_of_action(hands: dict[str, list[str]] | None = None) -> GameState:
    """The scenario's setup moved to an Action Phase with no order on the board, each house holding
    three objectives: the phase goes straight to the steps after it."""
    state = setup()
    state.phase, state.step = "action", ""
    deck = [*state.objective_deck, *(o for h in state.objectives.values() for o in h)]
    hands = hands or {"stark": ["a_riper_fruit", "take_the_black", "arbor_gold"],
                      "lannister": ["hold_court", "the_raven", "land_grab"],
                      "baratheon": ["the_throne", "crossing_guard", "home_invasion"],
                      "arryn": ["a_mountainous_task", "the_blade", "friendly_confines"]}
    mine = {o for h in hands.values() for o in h}
    state.objectives = {h: list(o) for h, o in hands.items()}
    state.objective_deck = sorted(set(deck) - mine)
    return state


def dealt(state: GameState, house: str) -> list[str]:
    return list(state.objectives[house])


# --- F033: five dealt, three kept ----------------------------------------------------------------


def test_F033_each_house_is_dealt_five_and_keeps_three_before_the_first_orders():
    state = setup()
    step = run(state)
    assert sorted(r.kind for r in step.requests) == ["objectives_kept"] * 4
    assert all(r.secret for r in step.requests)
    answers = [keep(h, *dealt(state, h)[:3]) for h in state.turn_order()]
    step = run(state, *answers)
    after = step.state
    assert {h: after.objectives[h] for h in after.turn_order()} == {h: dealt(state, h)[:3] for h in state.turn_order()}
    returned = {o for h in state.turn_order() for o in dealt(state, h)[3:]}
    assert len(after.objective_deck) == 28 - 12 and set(after.objective_deck) == set(state.objective_deck) | returned
    assert {r.kind for r in step.requests} == {"orders"}
    assert [e.returned for e in of(step.events, ObjectivesKept)] == [2, 2, 2, 2]
    assert all(e.visible_to == e.house for e in of(step.events, ObjectivesDealt))
    assert after.check() == []


def test_F033_keeping_a_card_not_dealt_or_not_three_is_refused_with_the_rule():
    state = setup()
    other = dealt(state, "lannister")[0]
    step = run(state, keep("stark", *dealt(state, "stark")[:2]), keep("stark", other, *dealt(state, "stark")[:2]))
    why = reasons(step, "stark")
    assert any("keep three different objectives" in w and "(F033)" in w for w in why), why
    assert any("is not one of the objectives dealt to you" in w for w in why), why
    assert step.state.objectives["stark"] == dealt(state, "stark")  # nothing changed


def test_ruling_409_the_deadline_keeps_the_three_worth_most_to_the_house():
    from adjudicator.game.objective_cards import OBJECTIVES

    state = setup()
    step = run(state, deadline=frozenset(r.key for r in run(state).requests))
    assert {r.kind for r in step.requests} == {"orders"}

    for h in state.turn_order():
        kept, hand = step.state.objectives[h], dealt(state, h)
        worth = sorted((OBJECTIVES[o].points[h] for o in hand), reverse=True)
        assert sorted((OBJECTIVES[o].points[h] for o in kept), reverse=True) == worth[:3]


# --- F040-F044: the steps after the Action Phase ------------------------------------------------------


def test_F040_F041_supply_is_updated_then_the_special_objectives_score_one_point():
    state = at_the_end_of_action()
    from adjudicator.engine.core.supply import supply_count

    state.houses["lannister"].supply = 2
    step = run(state)
    assert step.state.houses["lannister"].supply == supply_count(state, state.board(), "lannister") == 5
    specials = [e for e in of(step.events, ObjectiveScored) if e.objective.startswith("special_")]
    assert [(e.house, e.points) for e in specials] == [("lannister", 1)]  # Lannisport and King's Landing
    assert sorted(r.kind for r in step.requests) == ["objective"] * 4


def test_F042_F043_each_house_scores_one_met_objective_from_its_hand_face_up():
    state = at_the_end_of_action()
    step = run(state, score("lannister", "hold_court"), score("stark", "a_riper_fruit"),
               score("baratheon", "the_throne"), score("arryn", "a_mountainous_task"))
    after = step.state
    assert after.victory_points == {"baratheon": 0, "lannister": 2, "arryn": 0, "stark": 0}  # 1 special + 1
    assert after.objectives_scored["lannister"] == ["hold_court"] and "hold_court" not in after.objectives["lannister"]
    assert after.objectives_scored["stark"] == ["a_riper_fruit"]  # worth 0 to Stark, scored all the same
    assert [e.house for e in of(step.events, ObjectiveScored) if not e.objective.startswith("special_")] == [
        "baratheon", "lannister", "arryn", "stark"]  # in turn order
    assert after.check() == []


def test_F042_an_objective_not_met_is_refused_with_its_condition():
    state = at_the_end_of_action()
    step = run(state, score("stark", "take_the_black"))
    assert reasons(step, "stark") == ["Take the Black is not met: you control Castle Black (F042)"]
    assert step.state.objectives == state.objectives


def test_F042_an_objective_not_in_the_hand_is_refused():
    state = at_the_end_of_action()
    step = run(state, score("stark", "the_throne"))
    assert reasons(step, "stark") == ["The Throne is not an objective in your hand (F042)"]


def test_F042_a_second_objective_in_one_step_is_refused_with_the_rule():
    state = at_the_end_of_action()
    put(state, "stark", "the_arbor")
    step = run(state, score("stark", "a_riper_fruit"), score("stark", "arbor_gold"),
               score("lannister", None), score("baratheon", None), score("arryn", None))
    assert step.state.objectives_scored["stark"] == ["arbor_gold"]  # the later line, as any answer replaces
    assert reasons(step, "stark") == [
        "a house scores one objective in each step after the Action Phase, and yours is chosen (F042)"]


def test_F044_a_house_with_fewer_than_three_draws_one_in_turn_order():
    state = at_the_end_of_action()
    top = state.objective_deck[0]
    step = run(state, score("lannister", "hold_court"), score("stark", None), score("baratheon", None),
               score("arryn", None))
    assert step.state.objectives["lannister"] == ["the_raven", "land_grab", top]
    assert len(step.state.objective_deck) == len(state.objective_deck) - 1
    drawn = of(step.events, ObjectivesDealt)
    assert [(e.house, e.objectives, e.visible_to) for e in drawn] == [("lannister", (top,), "lannister")]


def test_ruling_410_the_deadline_scores_the_objective_worth_most_that_the_house_meets():
    state = at_the_end_of_action()
    state.area_mut("the_eyrie").units = []
    put(state, "lannister", "the_eyrie")  # Lannister holds the Eyrie and King's Landing
    state.objectives["lannister"] = ["hold_court", "a_mountainous_task", "land_grab"]
    state.objectives["arryn"] = ["the_raven", "the_blade", "friendly_confines"]
    step = run(state)
    keys = {r.key for r in step.requests}
    step = run(state, deadline=frozenset(keys))
    assert step.state.objectives_scored["lannister"] == ["a_mountainous_task"]  # 4 points; Hold Court 1
    assert step.state.objectives_scored["stark"] == ["a_riper_fruit"]  # met, though worth 0 to Stark


# --- F045, F046: the end ------------------------------------------------------------------------------


def test_F045_seven_points_after_the_draw_win():
    state = at_the_end_of_action()
    state.victory_points = {"baratheon": 0, "lannister": 5, "arryn": 0, "stark": 0}
    step = run(state, score("lannister", "hold_court"), deadline=True)
    won = of(step.events, GameWon)
    assert step.state.phase == "game_over" and step.state.winner == "lannister" and won
    assert "7 victory points of objectives" in won[0].reason


def test_F045_a_tie_on_seven_goes_to_more_land_areas_then_the_iron_throne():
    state = at_the_end_of_action()
    state.victory_points = {"baratheon": 7, "lannister": 0, "arryn": 0, "stark": 7}
    state.objectives = {h: [] for h in state.objectives}
    step = run(state, deadline=True)
    # Stark holds 4 land areas (Winterfell, White Harbor, Moat Cailin, Seagard), Baratheon 3
    assert step.state.winner == "stark" and step.state.round == 1
    assert "ahead of" in of(step.events, GameWon)[0].reason


def test_F045_castles_never_win_the_scenario():
    state = at_the_end_of_action()
    for area in ("riverrun", "the_reach", "castle_black", "pyke", "highgarden", "oldtown"):
        put(state, "stark", area)  # a test position: castles enough, blocked or not
    step = run(state, *(score(h, None) for h in state.turn_order()))
    assert state.castles("stark", state.board()) >= 7
    assert step.state.phase == "westeros" and step.state.round == 2 and step.state.winner is None


def test_F046_after_round_10_the_most_points_win_ties_by_the_iron_throne():
    state = at_the_end_of_action()
    state.round = 10
    state.victory_points = {"baratheon": 4, "lannister": 3, "arryn": 0, "stark": 4}
    state.objectives = {h: [] for h in state.objectives}
    state.area_mut("kings_landing").units, state.area_mut("kings_landing").power_token = [], None  # no special
    step = run(state, deadline=True)
    assert step.state.phase == "game_over" and step.state.winner == "baratheon"  # first on the Iron Throne
    assert "higher on the Iron Throne track (F046)" in of(step.events, GameWon)[0].reason


def test_F045_F043_the_invariants_catch_a_win_not_taken_and_a_scored_card_taken_back():
    from adjudicator.engine.invariants import check_change, check_invariants

    state = at_the_end_of_action()
    step = run(state)
    assert check_invariants(step.state) == []
    ahead = GameState.from_dict(step.state.to_dict())
    ahead.pending, ahead.victory_points["stark"] = [dict(p) for p in step.state.pending if p["kind"] == "orders"], 7
    assert "stark holds 7 points of objectives but the game goes on" in check_invariants(ahead)
    before = GameState.from_dict(state.to_dict())
    before.objectives_scored["stark"] = ["hold_court"]
    assert any("scored objectives went back" in p for p in check_change(before, state))
    late = GameState.from_dict(state.to_dict())
    late.round = 11
    assert "round 11 is past the game's last, round 10" in check_invariants(late)


def test_ruling_410_the_objective_to_score_comes_up_ahead_and_its_answer_waits_for_its_step():
    from adjudicator.engine.ahead import upcoming

    state = setup()
    kept = [keep(h, *dealt(state, h)[:3]) for h in state.turn_order()]
    planning = run(state, *kept).state
    [coming] = [u for u in upcoming(planning, "lannister", planning.pending) if u.request.kind == "objective"]
    assert coming.request.secret and "after this round's Action Phase" in coming.why
    asked = [*planning.pending, {"kind": "objective", "house": "lannister", "key": "x", "prompt": ""}]
    assert [u for u in upcoming(planning, "lannister", asked) if u.request.kind == "objective"] == []


def test_F033_objective_lines_in_a_game_without_objectives_are_refused_saying_so():
    from adjudicator.turnfile.parser import parse_turn_file

    tf = parse_turn_file("score objective: Hold Court\nkeep objectives: Hold Court, Land Grab, The Raven\n",
                         variant="classic")
    assert tf.commands == () and [p.where.line for p in tf.problems] == [1, 2]
    assert all("The base game has no objective cards: they are A Feast for Crows' (F033)" in p.render()
               for p in tf.problems)


def test_F042_objective_lines_read_and_print_back_in_the_scenario():
    from adjudicator.turnfile.names import vocabulary
    from adjudicator.turnfile.parser import parse_turn_file
    from adjudicator.turnfile.printer import format_command

    text = ("keep objectives: Hold Court, The Throne, Nothing but Ghosts\nscore objective: nothing but ghosts\n"
            "score objective: none\nreturn objective: Land Grab\ntake objective: A Riper Fruit\n")
    tf = parse_turn_file(text, variant="a-feast-for-crows")
    assert not tf.problems and len(tf.commands) == 5
    with vocabulary("a-feast-for-crows"):
        printed = "\n".join(format_command(c) for c in tf.commands) + "\n"
    assert parse_turn_file(printed, variant="a-feast-for-crows").commands == tf.commands
    assert tf.commands[1] == ScoreObjective(objective="nothing_but_ghosts") and tf.commands[2] == ScoreObjective()
