"""A Feast for Crows' deck I, one test at least per card, named after it (F020-F027; rulings 405,
413, 414). Each runs round 2's Westeros phase of the scenario with the card on top of deck I."""

from __future__ import annotations

import pytest
from rules.helpers import entry, of, reasons, run

from adjudicator.engine import machine
from adjudicator.engine.events.objectives import ObjectivesDealt, VictoryPointsLost
from adjudicator.engine.events.westeros import WildlingThreatMoved
from adjudicator.engine.rules import westeros
from adjudicator.game.cards import CARDS
from adjudicator.game.commands import Muster, ReturnObjective, TakeObjective, WesterosChoice
from adjudicator.game.state import GameState

from .helpers import setup

QUIET = ("last_days_of_summer", "sea_of_storms")  # decks II and III: nothing to answer


@pytest.fixture(autouse=True)
def westeros_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop when the Planning Phase would begin."""
    from adjudicator.engine.core.context import NeedAnswers, Request

    def stop(ctx):
        raise NeedAnswers([Request(key="stop", kind="orders", house="stark", prompt="(not under test)")])

    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": stop})


def round_2(card: str) -> GameState:
    """The scenario at round 2's Westeros phase, ``card`` on top of deck I, three objectives each."""
    s = setup()
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for deck, top in enumerate((card, *QUIET), 1):
        s.westeros_decks[str(deck)].remove(top)
        s.westeros_decks[str(deck)].insert(0, top)
    for h in s.turn_order():
        s.objective_deck += s.objectives[h][3:]
        s.objectives[h] = s.objectives[h][:3]
    return s


def requests(step, kind: str) -> list:
    return [r for r in step.requests if r.kind == kind]


def test_F020_the_box_shuffles_its_own_deck_i_and_the_base_decks_ii_and_iii():
    s = setup()
    assert sorted(s.westeros_decks["1"]) == sorted(CARDS.westeros_deck(1, "affc"))
    assert sorted(s.westeros_decks["2"]) == sorted(CARDS.westeros_deck(2))
    assert "mustering" not in s.westeros_decks["1"] and s.check() == []


def test_mustering_affc_musters_as_the_base_card_with_a_wildling_icon():
    s = round_2("mustering_affc")
    step = run(s)
    assert step.state.wildling_threat == 2 * (1 + CARDS.westeros_card(2, QUIET[0]).wildling_icon
                                              + CARDS.westeros_card(3, QUIET[1]).wildling_icon)
    musters = requests(step, "muster")
    assert musters and musters[0].house == "baratheon"  # first in turn order
    assert CARDS.westeros_card(1, "mustering_affc").wildling_icon and not CARDS.westeros_card(1, "mustering").wildling_icon


def test_rally_the_men_musters_one_point_in_castles_only():
    s = round_2("rally_the_men")
    step = run(s)
    [asked] = requests(step, "muster")
    # Baratheon, first in turn order, holds Dragonstone (a stronghold: nothing) and Storm's End (a castle)
    assert (asked.house, asked.context["area"], asked.context["then"], asked.context["points"]) == (
        "baratheon", "storms_end", [], 1)
    step = run(s, entry("baratheon", Muster(area="storms_end", actions=())))
    [asked] = requests(step, "muster")
    assert (asked.house, [asked.context["area"], *asked.context["then"]]) == ("lannister", ["harrenhal"])
    board = s.board()
    assert all(board.area(a).fortification == "castle" for a in [asked.context["area"], *asked.context["then"]])


def test_the_burden_of_power_the_iron_throne_chooses_the_wildlings_back_to_0():
    s = round_2("the_burden_of_power")
    s.wildling_threat = 6
    step = run(s)
    [asked] = requests(step, "westeros_choice")
    assert asked.house == "baratheon" and {o.option for o in asked.options} == {"muster", "wildlings"}
    step = run(s, entry("baratheon", WesterosChoice(card="the_burden_of_power", option="wildlings")))
    assert step.state.wildling_threat == 0
    assert any(e.new == 0 and e.cause == "The Burden of Power" for e in of(step.events, WildlingThreatMoved))
    assert requests(step, "muster") == []


def test_the_burden_of_power_or_everyone_musters_the_deadlines_choice():
    s = round_2("the_burden_of_power")
    step = run(s, entry("baratheon", WesterosChoice(card="the_burden_of_power", option="muster")))
    assert requests(step, "muster")
    keys = frozenset(r.key for r in run(s).requests)
    step = run(s, deadline=keys)
    assert requests(step, "muster")  # ruling 413: the deadline musters


def test_the_burden_of_power_refuses_another_choice():
    s = round_2("the_burden_of_power")
    step = run(s, entry("baratheon", WesterosChoice(card="the_burden_of_power", option="supply")))
    assert reasons(step, "baratheon") == [
        "'supply' is not a choice of The Burden of Power: choose muster or wildlings (F023)"]


def test_famine_every_house_one_space_down_the_supply_track():
    s = round_2("famine")
    before = {h: s.houses[h].supply for h in s.turn_order()}
    step = run(s, deadline=True)
    assert {h: step.state.houses[h].supply for h in s.turn_order()} == {h: max(0, n - 1) for h, n in before.items()}


def test_ironborn_raid_a_house_with_two_scored_objectives_loses_a_point():
    s = round_2("ironborn_raid")
    two = s.objective_deck[:3]
    s.objective_deck = s.objective_deck[3:]
    s.objectives_scored["stark"], s.objectives_scored["arryn"] = two[:2], two[2:]
    s.victory_points.update({"stark": 4, "arryn": 2})
    step = run(s)
    assert step.state.victory_points["stark"] == 3 and step.state.victory_points["arryn"] == 2
    assert [(e.house, e.total) for e in of(step.events, VictoryPointsLost)] == [("stark", 3)]
    assert step.state.check() == []


def test_new_information_each_draws_one_then_gives_one_back():
    s = round_2("new_information")
    step = run(s)
    asked = requests(step, "objective_returned")
    assert len(asked) == 4 and all(r.secret and len(r.context["objectives"]) == 4 for r in asked)
    stark = asked[[r.house for r in asked].index("stark")].context["objectives"]
    answers = [entry(r.house, ReturnObjective(objective=r.context["objectives"][0])) for r in asked]
    step = run(s, *answers)
    assert stark[0] in step.state.objective_deck and len(step.state.objectives["stark"]) == 3
    assert all(e.visible_to == e.house for e in of(step.events, ObjectivesDealt))
    assert step.state.check() == []


def test_new_information_refuses_an_objective_not_in_the_hand():
    s = round_2("new_information")
    step = run(s, entry("stark", ReturnObjective(objective=s.objectives["lannister"][0])))
    assert any("is not an objective in your hand (New Information, F026)" in w for w in reasons(step, "stark"))


def test_shifting_ambitions_a_pool_of_one_each_taken_back_in_turn_order():
    s = round_2("shifting_ambitions")
    gives = [entry(h, ReturnObjective(objective=s.objectives[h][0])) for h in s.turn_order()]
    step = run(s, *gives)
    [first] = requests(step, "objective_taken")
    pool = first.context["pool"]
    assert first.house == "baratheon" and sorted(pool) == sorted(s.objectives[h][0] for h in s.turn_order())
    takes: list[dict] = []
    for house in s.turn_order():
        [r] = requests(run(s, *gives, *takes), "objective_taken")
        assert r.house == house and len(r.context["pool"]) == 4 - len(takes)
        takes.append(entry(house, TakeObjective(objective=r.context["pool"][-1])))
    step = run(s, *gives, *takes)
    assert requests(step, "objective_taken") == [] and step.state.check() == []
    assert sorted(o for h in s.turn_order() for o in step.state.objectives[h]) == sorted(
        o for h in s.turn_order() for o in s.objectives[h])


def test_shifting_ambitions_refuses_a_card_not_in_the_pool():
    s = round_2("shifting_ambitions")
    gives = [entry(h, ReturnObjective(objective=s.objectives[h][0])) for h in s.turn_order()]
    wrong = s.objectives["baratheon"][1]
    step = run(s, *gives, entry("baratheon", TakeObjective(objective=wrong)))
    assert any("is not in the pool of Shifting Ambitions" in w for w in reasons(step, "baratheon"))


def test_a_muster_answer_fits_rally_the_men():
    s = round_2("rally_the_men")
    step = run(s)
    first = requests(step, "muster")[0]
    step = run(s, entry(first.house, Muster(area=first.context["area"], actions=())))
    assert not reasons(step, first.house)


def test_F020_every_card_of_the_deck_has_its_function_and_its_name_in_the_scenario_only():
    from adjudicator.engine.cards.westeros_affc import WESTEROS_AFFC
    from adjudicator.turnfile.names import lookup

    assert set(WESTEROS_AFFC) == set(CARDS.westeros_deck(1, "affc"))
    assert lookup("westeros_card", "Mustering", "a-feast-for-crows").id == "mustering_affc"
    assert lookup("westeros_card", "Mustering").id == "mustering"
    assert lookup("westeros_card", "Famine").id is None  # not a card of the base game
