"""A whole first round of a 6-player game, driven only through ``advance``; and clean-up (R167, R168).

Turn order: Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell. King's Court stars: Lannister 3,
Stark 3, Martell 2, Baratheon 1, Tyrell 0, Greyjoy 0. Combats go to the stand-in of ``helpers.py``.
"""

from __future__ import annotations

import importlib.util

import pytest

from adjudicator.engine.core.common import GameWon
from adjudicator.engine.events import PhaseStarted
from adjudicator.engine.events.action import (
    AttackDeclared,
    OrdersRemoved,
    OrdersRevealed,
    RaidResolved,
    RoundEnded,
    UnitsRallied,
)
from adjudicator.game.commands import (
    AssignOrder,
    Consolidate,
    March,
    Move,
    Raid,
    Raven,
    UnitSpec,
)
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState

from .helpers import (  # noqa: F401
    BOARD,
    SIX,
    StandInCombat,
    answers,
    at_action,
    combat,
    combat_answer,
    entry,
    game,
    of,
    phases,
    put,
    run,
    token,
    units,
)

pytestmark = pytest.mark.usefixtures("phases", "combat")


def orders(house, **by_area):
    return answers(house, *(AssignOrder(area=a, token=t) for a, t in by_area.items()))


def go(origin, dest, *unit_types, leave_power=False):
    return March(origin=origin, leave_power=leave_power,
                 moves=(Move(destination=dest, units=tuple(UnitSpec(u) for u in unit_types)),) if dest else ())


ROUND_1_ORDERS = [
    *orders("stark", winterfell="march+1", white_harbor="support+0", the_shivering_sea="raid"),
    *orders("lannister", lannisport="defense+2", stoney_sept="march+1", the_golden_sound="raid",
            port_of_lannisport="consolidate"),
    *orders("greyjoy", pyke="consolidate", greywater_watch="march-1", ironmans_bay="consolidate",
            port_of_pyke="support+0"),
    *orders("tyrell", highgarden="defense+1", dornish_marches="consolidate", redwyne_straights="support+0"),
    *orders("baratheon", dragonstone="consolidate*", kingswood="march+0", shipbreaker_bay="support+0"),
    *orders("martell", sunspear="consolidate*", salt_shore="defense+1", sea_of_dorne="raid"),
]


def test_round_1_of_a_six_player_game_runs_through_planning_and_action():
    state = new_game(SIX, seed="round-1")
    assert state.phase == "planning" and state.round == 1

    # Planning: five houses answer at once; nothing is revealed until Martell's orders are in.
    step = run(state, *[e for e in ROUND_1_ORDERS if e["house"] != "martell"])
    assert [(r.kind, r.house) for r in step.requests] == [("orders", "martell")]
    assert not of(step.events, OrdersRevealed)
    step = run(step.state, *[e for e in ROUND_1_ORDERS if e["house"] == "martell"], entry("lannister", Raven(action="pass")))
    assert len(of(step.events, OrdersRevealed)[0].orders) == 20
    assert of(step.events, PhaseStarted)[-1].phase == "action"

    # Raids: Lannister pillages Greyjoy's consolidate in Ironman's Bay; Stark's and Martell's raids
    # have nothing next to them and go by themselves.
    assert [(r.kind, r.house) for r in step.requests] == [("raid", "lannister")]
    step = run(step.state, entry("lannister", Raid(origin="the_golden_sound", targets=("ironmans_bay",))))
    assert [(e.house, e.target) for e in of(step.events, RaidResolved)] == [
        ("lannister", "ironmans_bay"), ("stark", ""), ("martell", "")]
    assert step.state.houses["lannister"].power == 6 and step.state.houses["greyjoy"].power == 4

    # Marches, in turn order: Baratheon to Storm's End, Lannister to Harrenhal, Stark to Moat Cailin,
    # then Greyjoy attacks Stark in Moat Cailin and loses.
    assert [(r.kind, r.house) for r in step.requests] == [("march", "baratheon")]
    step = run(step.state, entry("baratheon", go("kingswood", "storms_end", "footman", leave_power=True)),
               entry("lannister", go("stoney_sept", "harrenhal", "footman")),
               entry("stark", go("winterfell", "moat_cailin", "footman", "knight")))
    assert [(r.kind, r.house) for r in step.requests] == [("march", "greyjoy")]
    step = run(step.state, entry("greyjoy", go("greywater_watch", "moat_cailin", "footman")))
    assert of(step.events, AttackDeclared)[0].defender == "stark"
    assert [(r.kind, r.house) for r in step.requests] == [("card_choice", "greyjoy")]
    step = run(step.state, entry("greyjoy", combat_answer("moat_cailin", win=False)))
    assert of(step.events, StandInCombat)[0].attacker_won is False

    # Consolidate power: the two special orders ask (they could muster); the rest resolve alone.
    assert [(r.kind, r.house) for r in step.requests] == [("consolidate", "baratheon")]
    step = run(step.state, entry("baratheon", Consolidate(area="dragonstone")),
               entry("martell", Consolidate(area="sunspear")))

    end = step.state
    assert end.round == 2 and end.phase == "westeros" and step.requests[0].kind == "westeros_choice"
    assert of(step.events, RoundEnded)[0].round == 1
    assert not any(st.order for st in end.areas.values())
    assert not any(u.routed for st in end.areas.values() for u in st.units)
    assert of(step.events, UnitsRallied)[0].units == (("greywater_watch", "greyjoy", 1),)
    assert units(end, "moat_cailin") == ["footman", "knight"] and units(end, "harrenhal") == ["footman"]
    assert end.area("kingswood").power_token == "baratheon"
    assert end.controller("storms_end", BOARD) == "baratheon"
    # power: Baratheon 5 - 1 token + 2 (Dragonstone); Lannister +1 pillage +1 port; Greyjoy -1 +2 (Pyke);
    # Tyrell +2 (Dornish Marches); Martell +2 (Sunspear); Stark unchanged
    assert {h: end.houses[h].power for h in SIX} == {
        "stark": 5, "lannister": 7, "greyjoy": 6, "tyrell": 7, "baratheon": 6, "martell": 7}
    assert end.check() == []
    assert GameState.from_toml(end.to_toml()) == end


def test_round_1_at_the_deadline_takes_every_default():
    step = run(new_game(SIX, seed="deadline"), deadline=True)
    assert step.state.round == 2 and step.state.phase == "westeros"
    assert step.state.check() == []


def test_R167_clean_up_removes_support_and_defense_rallies_and_refreshes_raven_and_blade():
    s = game()
    put(s, "winterfell", "stark", "footman", "knight", order="defense+2", routed=1)
    put(s, "white_harbor", "stark", "footman", order="support+0")
    s.raven_used = s.blade_used = True
    step = run(at_action(s))
    assert set(of(step.events, OrdersRemoved)[0].orders) == {("winterfell", "stark", "defense+2"),
                                                             ("white_harbor", "stark", "support+0")}
    assert token(step.state, "winterfell") is None and token(step.state, "white_harbor") is None
    assert not any(u.routed for u in step.state.area("winterfell").units)
    assert step.state.raven_used is False and step.state.blade_used is False


def test_R168_after_a_round_before_the_tenth_the_next_round_begins():
    s = at_action(game())
    s.round = 9
    step = run(s)
    assert (step.state.round, step.state.phase) == (10, "westeros")


def test_R168_the_game_ends_after_round_ten():
    s = at_action(game())
    s.round = 10
    put(s, "harrenhal", "lannister", "footman")
    step = run(s)
    assert step.state.phase == "game_over" and step.state.round == 10
    assert of(step.events, RoundEnded)[0].last is True
    assert step.requests == []



@pytest.mark.skipif(importlib.util.find_spec("adjudicator.engine.rules.endgame") is None,
                    reason="the end-of-game rules (rules/endgame.py) are not in the tree yet")
def test_R168_after_round_ten_the_end_of_game_rules_name_the_winner():
    s = at_action(game())
    s.round = 10
    put(s, "harrenhal", "lannister", "footman")  # Lannister: Lannisport and Harrenhal; everyone else one castle
    step = run(s)
    won = of(step.events, GameWon)
    assert won and won[0].winner == "lannister" and step.state.winner == "lannister"


def test_every_event_of_a_round_has_a_sentence_and_survives_report_json():
    from adjudicator.engine.events import from_dict

    s = new_game(SIX, seed="events")
    step = run(s, *ROUND_1_ORDERS, entry("lannister", Raven(action="swap", area="stoney_sept", token="march+0")),
               entry("lannister", Raid(origin="the_golden_sound", targets=("ironmans_bay",))),
               entry("baratheon", go("kingswood", "storms_end", "footman", leave_power=True)),
               entry("lannister", go("stoney_sept", "harrenhal", "footman")),
               entry("stark", go("winterfell", "moat_cailin", "footman", "knight")),
               entry("greyjoy", go("greywater_watch", "moat_cailin", "footman")),
               entry("greyjoy", combat_answer("moat_cailin", win=True)),
               entry("baratheon", Consolidate(area="dragonstone")), entry("martell", Consolidate(area="sunspear")))
    assert step.state.round == 2
    names = {type(e).__name__ for e in step.events}
    assert {"OrdersRevealed", "OrderSwapped", "RaidResolved", "UnitsMoved", "PowerTokenPlaced", "AttackDeclared",
            "MarchResolved", "ConsolidateResolved", "OrdersRemoved", "RoundEnded"} <= names
    for e in step.events:
        assert e.describe() and not e.describe().startswith(type(e).__name__)
        assert from_dict(e.to_dict()) == e


def test_R128_raids_then_marches_then_consolidate_power_then_clean_up():
    s = game()
    put(s, "lannisport", "lannister", "footman", order="consolidate")
    put(s, "stoney_sept", "lannister", "footman", order="march+0")
    put(s, "riverrun", "lannister", "footman", order="raid")
    put(s, "harrenhal", "lannister", "footman", order="defense+1")
    step = run(at_action(s), entry("lannister", go("stoney_sept", "blackwater", "footman")))
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("RaidResolved") < kinds.index("UnitsMoved") < kinds.index("ConsolidateResolved") \
        < kinds.index("OrdersRemoved") < kinds.index("RoundEnded")


BAD_ANSWERS = [
    ("stark", AssignOrder(area="atlantis", token="raid")),
    ("stark", AssignOrder(area="winterfell", token="")),
    ("lannister", Raid(origin="atlantis", targets=("winterfell",))),
    ("lannister", Raid(origin="stoney_sept", targets=("atlantis",))),
    ("lannister", March(origin="riverrun", moves=(Move(destination="atlantis", units=(UnitSpec("footman"),)),))),
    ("lannister", March(origin="riverrun", moves=(Move(destination="seagard", units=(UnitSpec("dragon"),)),))),
    ("lannister", March(origin="riverrun", moves=(Move(destination="seagard", units=(UnitSpec("footman", 0),)),))),
    ("lannister", March(origin="riverrun", moves=(Move(destination="seagard", units=(UnitSpec("footman", -2),)),))),
    ("lannister", Consolidate(area="atlantis")),
]


@pytest.mark.parametrize("house,command", BAD_ANSWERS)
def test_bad_input_is_refused_with_a_reason_and_changes_nothing(house, command):
    s = game()
    put(s, "winterfell", "stark", "footman")
    put(s, "stoney_sept", "lannister", "footman", order="raid")
    put(s, "riverrun", "lannister", "footman", order="march+0")
    put(s, "lannisport", "lannister", "footman", order="consolidate*")
    put(s, "blackwater", "tyrell", "footman", order="support+0")
    if isinstance(command, AssignOrder):
        s.areas["stoney_sept"].order = s.areas["riverrun"].order = s.areas["lannisport"].order = None
        s.areas["blackwater"].order = None
    else:
        s = at_action(s)
        put(s, "winterfell", "stark", order="defense+1")
        if isinstance(command, March):
            s.areas["stoney_sept"].order = None
        if isinstance(command, Consolidate):
            s.areas["stoney_sept"].order = s.areas["riverrun"].order = None
    before = run(s)
    after = run(s, entry(house, command))
    refused = [e for e in after.events if type(e).__name__ == "AnswerUnusable"]
    assert refused and refused[0].house == house and refused[0].reason
    assert [r.key for r in after.requests] == [r.key for r in before.requests]
    assert after.state.areas == before.state.areas
