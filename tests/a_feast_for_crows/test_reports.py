"""A Feast for Crows' objectives in the reports: a house's hand in its own private report only, the
points and scored objectives for everybody (F032b, F043)."""

from __future__ import annotations

import json

from adjudicator.game.objective_cards import OBJECTIVES
from adjudicator.reports.report import public_state, render_report

from .helpers import setup

UNIQUE = {o.id: o.name for o in OBJECTIVES.values()
          if o.name not in ("The Throne", "The Blade", "The Raven")}  # names that read as the dominance tokens


def names_in(text: str, house: str, state) -> set[str]:
    return {UNIQUE[o] for o in state.objectives[house] if o in UNIQUE and UNIQUE[o] in text}


def test_F032b_a_hand_of_objectives_is_in_its_houses_report_only():
    state = setup()
    state.objectives_scored["lannister"] = []
    public = render_report(state, [], viewer=None)
    for house in state.turn_order():
        own = render_report(state, [], viewer=house)
        assert "YOUR OBJECTIVES" in own and names_in(own, house, state) == {UNIQUE[o] for o in state.objectives[house]
                                                                            if o in UNIQUE}
        assert names_in(public, house, state) == set()
        for other in state.turn_order():
            if other != house:
                assert names_in(render_report(state, [], viewer=other), house, state) == set()


def test_F032b_the_public_json_holds_each_hands_size_and_the_viewers_own():
    state = setup()
    public = public_state(state, viewer=None)["a_feast_for_crows"]
    assert public["objectives"] == dict.fromkeys(state.turn_order(), 5) and public["objective_deck"] == 8
    own = public_state(state, viewer="stark")["a_feast_for_crows"]
    assert own["objectives"]["stark"] == state.objectives["stark"] and own["objectives"]["arryn"] == 5
    whole = json.dumps(public_state(state, viewer=None))
    assert not any(o in whole for h in state.turn_order() for o in state.objectives[h])


def test_F043_scored_objectives_and_points_are_public():
    state = setup()
    state.objectives_scored["lannister"] = ["hold_court"]
    state.victory_points["lannister"] = 3
    public = render_report(state, [], viewer=None)
    assert "OBJECTIVES (the Castles column above counts their points; 7 win, F045)" in public
    assert "Lannister   3 points; holds 5 objectives; scored: Hold Court." in public


def test_a_base_games_report_has_no_objectives():
    from adjudicator.game.variants import variant

    state = variant("classic").setup(["stark", "lannister", "baratheon"], seed="crows")
    assert "OBJECTIVES" not in render_report(state, [], viewer=None) + render_report(state, [], viewer="stark")
    assert "a_feast_for_crows" not in public_state(state, viewer=None)
