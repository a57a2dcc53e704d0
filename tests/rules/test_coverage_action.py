"""The action phase, the tracks that order it, ports and rivers (R064-R096, R251-R258), one test per rule.

Raids, marches and consolidations run through ``advance`` with the combat stand-in of
``helpers.py``; combats that matter run for real through the harness of ``test_combat_harness``.
Turn order (6 players) unless a test sets it: Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import PowerChanged
from adjudicator.engine.core.context import Context, NeedAnswers, pool_entry
from adjudicator.engine.events import AnswerUnusable
from adjudicator.engine.events.action import ConsolidateResolved, RaidResolved
from adjudicator.engine.events.combat import (
    CombatStrengths,
    PortCaptured,
    SupportDeclared,
)
from adjudicator.engine.events.westeros import UnitsMustered
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import westeros
from adjudicator.game.commands import (
    AssignOrder,
    Consolidate,
    March,
    Move,
    Muster,
    MusterAction,
    Raid,
    Raven,
    RavenKeep,
    Support,
    UnitSpec,
)
from adjudicator.game.setup import new_game

from .helpers import (  # noqa: F401
    BOARD,
    at_action,
    combat,
    entry,
    game,
    of,
    phases,
    put,
    run,
    units,
    unusable,
)
from .test_combat_harness import battle, duel, everyone, play, say  # noqa: F401

_ids = itertools.count()


def reasons(step: Any, house: str) -> list[str]:
    return [e.reason for e in unusable(step, house)]


def move(origin: str, dest: str, *unit_types: str, leave_power: bool = False) -> March:
    return March(origin=origin, leave_power=leave_power,
                 moves=(Move(destination=dest, units=tuple(UnitSpec(u) for u in unit_types)),))


# --- R064: no action beyond the current supply limit ----------------------------------------------


BARRELS = ("greywater_watch", "the_stony_shore", "widows_watch", "seagard", "the_fingers")  # one barrel each


@pytest.mark.usefixtures("phases", "combat")
def test_R064_a_march_is_held_to_the_supply_token_not_to_the_barrels_held():
    s = game()
    s.houses["stark"].supply = 1  # armies of 3 and 2
    for area in BARRELS:
        put(s, area, "stark", "knight")  # five more barrels: the token has not moved yet (R063)
    put(s, "winterfell", "stark", "footman", "footman", "footman", order="march+0")
    put(s, "white_harbor", "stark", "footman", "footman")
    put(s, "castle_black", "stark", "footman")
    step = run(at_action(s), entry("stark", move("winterfell", "castle_black", "footman")))
    assert reasons(step, "stark") == ["the march would leave your armies beyond your supply limit (R153, ruling 6)"]
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]
    assert units(step.state, "castle_black") == ["footman"]


@pytest.mark.usefixtures("phases")
def test_R064_special_mustering_is_held_to_the_supply_token():
    s = game()
    s.houses["stark"].supply = 1
    for area in BARRELS:
        put(s, area, "stark", "knight")
    put(s, "winterfell", "stark", "footman", "footman", "footman", order="consolidate*")
    put(s, "white_harbor", "stark", "footman", "footman")
    step = run(at_action(s), entry("stark", Consolidate(area="winterfell", muster=(MusterAction(unit="footman"),))))
    assert reasons(step, "stark") == ["a footman in Winterfell would exceed your supply limit (R072)"]
    step = run(step.state, entry("stark", Consolidate(area="winterfell", muster=(MusterAction(unit="siege_engine", upgrade=True),))))
    assert units(step.state, "winterfell") == ["footman", "footman", "siege_engine"], "an upgrade keeps the army at 3"


# --- R090: the Iron Throne track is the turn order ------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
@pytest.mark.parametrize("throne, first", [
    (["tyrell", "martell", "greyjoy", "stark", "lannister", "baratheon"], "greyjoy"),
    (["stark", "lannister", "baratheon", "tyrell", "greyjoy", "martell"], "stark"),
])
def test_R090_marches_follow_the_iron_throne_track(throne, first):
    s = game()
    s.tracks["iron_throne"] = throne
    put(s, "pyke", "greyjoy", "footman", order="march+0")
    put(s, "winterfell", "stark", "footman", order="march+0")
    step = run(at_action(s))
    assert [(r.kind, r.house) for r in step.requests] == [("march", first)]
    assert s.dominance()["iron_throne"]["holder"] == throne[0]


# --- R096: the Messenger Raven -------------------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R096_the_raven_serves_the_kings_court_leader_once_a_round_and_is_refreshed_at_clean_up():
    s = game()
    s.phase = "planning"
    s.tracks["kings_court"] = ["tyrell", "stark", "lannister", "martell", "baratheon", "greyjoy"]
    put(s, "winterfell", "stark", "footman")
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="march+0")))
    assert [(r.kind, r.house) for r in step.requests] == [("raven", "tyrell")]
    step = run(step.state, entry("tyrell", Raven(action="look")), entry("tyrell", RavenKeep(choice="top")))
    assert [(r.kind, r.house) for r in step.requests] == [("march", "stark")]
    assert step.state.raven_used, "used: face down until clean-up"
    step = run(step.state, entry("stark", March(origin="winterfell")))
    assert step.state.round == 2 and not step.state.raven_used
    used = step.state
    used.segment, used.pending, used.phase = None, [], "planning"
    used.raven_used = True  # e.g. handed over already used (R097): no second use this round
    step = run(used, entry("stark", AssignOrder(area="winterfell", token="defense+1"), round=2))
    assert ("raven", "tyrell") not in [(r.kind, r.house) for r in step.requests]


# --- R251: mustering into ports ------------------------------------------------------------------


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


def test_R251_a_port_takes_ships_despite_enemy_ships_in_its_sea_but_never_a_fourth(monkeypatch):
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})
    s = new_game(["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"], seed="r251")
    s.round, s.phase, s.wildling_threat = 2, "westeros", 0
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    for deck, card in enumerate(("mustering", "game_of_thrones", "storm_of_swords"), 1):
        s.westeros_decks[str(deck)].remove(card)
        s.westeros_decks[str(deck)].insert(0, card)
    put(s, "port_of_sunspear", "martell", "ship", "ship")
    put(s, "east_summer_sea", "tyrell", "ship")
    s.houses["martell"].supply = 6

    def ships(*to: str) -> Muster:
        return Muster(area="sunspear", actions=tuple(MusterAction(unit="ship", to=t) for t in to))

    passes = [pool_entry(id=f"p{h}", house=h, round=2, command=Muster(area=a))
              for h, a in (("baratheon", "dragonstone"), ("lannister", "lannisport"), ("stark", "winterfell"))]
    # The newest answer is read first: the two refused ones are sent after the legal one.
    tries = [ships("port_of_sunspear", "sea_of_dorne"), ships("port_of_sunspear", "port_of_sunspear"),
             ships("port_of_sunspear", "east_summer_sea")]
    step = advance(s, [*passes, *(pool_entry(id=f"m{i}", house="martell", round=2, command=c) for i, c in enumerate(tries))])
    assert [e.reason for e in of(step.events, AnswerUnusable) if e.house == "martell"] == [
        "East Summer Sea holds enemy ships; no ship can be mustered there (R075)",
        "Port of Sunspear already holds 3 ships (R077)",
    ]
    placed = [e.placed for e in of(step.events, UnitsMustered) if e.house == "martell"]
    assert placed == [(("ship", "port_of_sunspear"), ("ship", "sea_of_dorne"))]
    assert units(step.state, "port_of_sunspear") == ["ship"] * 3


# --- R252: ports take orders; defense there does nothing; no attack on a port --------------------


def test_R252_a_defense_order_in_the_port_adds_nothing_to_its_land_area(battle):
    state = duel("stark", "lannister", attack=("knight",), defend=(), area="lannisport",
                 origin="stoney_sept", areas="""
lannisport = { units = ["lannister footman"], garrison = 2 }
port_of_lannisport = { units = ["lannister ship"], order = "defense+2" }
""")
    b = battle(state, everyone(state, "stark", area="lannisport", origin="stoney_sept"))
    b.run()
    assert b.of(CombatStrengths)[0].defender_strength == (("units:footman", 1), ("garrison", 2))


@pytest.mark.usefixtures("phases", "combat")
def test_R252_ships_in_a_port_need_an_order_and_no_march_may_attack_a_port():
    s = game()
    s.phase = "planning"
    put(s, "port_of_lannisport", "lannister", "ship")
    put(s, "the_golden_sound", "greyjoy", "ship", "ship")
    step = run(s)
    lannister = next(r for r in step.requests if r.house == "lannister")
    assert lannister.context["areas"] == ["port_of_lannisport"]
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship")
    put(s, "the_golden_sound", "greyjoy", "ship", "ship", order="march+0")
    step = run(at_action(s), entry("greyjoy", move("the_golden_sound", "port_of_lannisport", "ship")))
    assert reasons(step, "greyjoy") == [
        "ships may enter only a port whose land area you control, not Port of Lannisport (R145, R253)"]
    assert units(step.state, "port_of_lannisport") == ["ship"]


# --- R254: support from a port ---------------------------------------------------------------------


PORT_SUPPORT = 'port_of_lannisport = { units = ["lannister ship", "lannister ship"], order = "support+0" }\n'


def test_R254_port_ships_support_a_combat_in_their_sea_but_not_on_their_land_area(battle):
    land = duel("stark", "lannister", attack=("knight",), defend=(), area="lannisport", origin="stoney_sept",
                areas='lannisport = { units = ["lannister footman"], garrison = 2 }\n' + PORT_SUPPORT)
    b = battle(land, everyone(land, "stark", area="lannisport", origin="stoney_sept"))
    b.run()
    assert not b.of(SupportDeclared) and ("support", "lannister") not in b.asked()
    assert ("support:lannister:port_of_lannisport", 2) not in b.of(CombatStrengths)[0].defender_strength
    sea = duel("greyjoy", "stark", attack=("ship", "ship"), defend=("ship",), area="the_golden_sound",
               origin="ironmans_bay", areas=PORT_SUPPORT)
    b = battle(sea, everyone(sea, "greyjoy", area="the_golden_sound", origin="ironmans_bay"))
    b.run()
    assert b.asked() == [("support", "lannister")]
    b.run(say("lannister", Support(side="stark")))
    assert [(d.area, d.side, d.strength) for d in b.of(SupportDeclared)] == [("port_of_lannisport", "stark", 2)]


# --- R255: raids from a port -------------------------------------------------------------------------


@pytest.mark.usefixtures("phases", "combat")
def test_R255_a_special_raid_from_a_port_may_remove_a_defense_order_in_its_sea_and_nothing_on_land():
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="raid*")
    put(s, "lannisport", "lannister", "footman", order="support+0")
    put(s, "the_golden_sound", "greyjoy", "ship", order="defense+1")
    s = at_action(s)
    step = run(s)
    assert step.requests[0].context["targets"] == {"port_of_lannisport": ["the_golden_sound"]}
    step = run(s, entry("lannister", Raid(origin="port_of_lannisport", targets=("lannisport",))))
    assert reasons(step, "lannister") == ["ships in Port of Lannisport may raid only the sea area it opens onto (R137)"]
    step = run(s, entry("lannister", Raid(origin="port_of_lannisport", targets=("the_golden_sound",))))
    assert [(e.target, e.target_token) for e in of(step.events, RaidResolved)] == [("the_golden_sound", "defense+1")]


# --- R256: consolidate power in a port -----------------------------------------------------------------


@pytest.mark.usefixtures("phases")
def test_R256_a_special_consolidate_in_a_port_takes_one_power_and_never_musters():
    s = game()
    put(s, "port_of_lannisport", "lannister", "ship", order="consolidate*")
    s = at_action(s)
    step = run(s, entry("lannister", Consolidate(area="port_of_lannisport", muster=(MusterAction(unit="ship"),))))
    assert reasons(step, "lannister") == [
        'the only legal answer, "consolidate in Port of Lannisport", was taken without asking; '
        "a special consolidate power order in Port of Lannisport cannot muster, only take power (R165)"]
    assert [(e.area, e.result, e.gained) for e in of(step.events, ConsolidateResolved)] == [
        ("port_of_lannisport", "power", 1)]
    assert step.state.houses["lannister"].power == 6 and units(step.state, "port_of_lannisport") == ["ship"]


# --- R257: capturing a port; trade with the Free Cities ------------------------------------------------


def test_R257_a_conqueror_without_ships_left_removes_the_ships_in_the_port(battle):
    six = "\n".join(f'{sea} = ["stark ship", "stark ship"]' for sea in ("bay_of_ice", "the_shivering_sea", "the_narrow_sea"))
    state = duel("stark", "lannister", attack=("knight", "knight"), defend=(), area="lannisport",
                 origin="stoney_sept", areas=f"""
lannisport = {{ units = ["lannister footman"] }}
port_of_lannisport = ["lannister ship", "lannister ship"]
{six}
""")
    b = battle(state, everyone(state, "stark", area="lannisport", origin="stoney_sept"))
    b.run(play("stark", "eddard_stark"), play("lannister", "cersei_lannister"))
    assert b.done and b.results()[0].attacker_won
    assert ("port_ships", "stark") not in b.asked()
    captured = b.of(PortCaptured)[0]
    assert (captured.house, captured.replaced, captured.removed) == ("stark", 0, 2)
    assert b.units("port_of_lannisport") == []


def test_R257_game_of_thrones_pays_a_port_with_a_ship_while_no_enemy_ship_is_in_its_sea(monkeypatch):
    monkeypatch.setattr(machine, "_runners", lambda: {"westeros": westeros.run, "planning": _stop})

    def collected(enemy: bool) -> int:
        s = new_game(["stark", "lannister", "baratheon"], seed="r257")
        s.round, s.phase, s.wildling_threat = 2, "westeros", 0
        for st in s.areas.values():
            st.units.clear()
        s.tidy()
        for deck, card in enumerate(("last_days_of_summer", "game_of_thrones", "storm_of_swords"), 1):
            s.westeros_decks[str(deck)].remove(card)
            s.westeros_decks[str(deck)].insert(0, card)
        put(s, "port_of_lannisport", "lannister", "ship")
        if enemy:
            put(s, "the_golden_sound", "stark", "ship")
        step = advance(s, [])
        return sum(e.amount for e in of(step.events, PowerChanged) if e.house == "lannister")

    assert collected(enemy=False) == 1, "Lannisport has no crown: the one power is the port's trade"
    assert collected(enemy=True) == 0


# --- R258: rivers --------------------------------------------------------------------------------------


def test_R258_areas_the_board_does_not_join_are_not_adjacent_for_support(battle):
    """Rivers are applied in the board data: a pair split by a river without a bridge is left out
    of the borders. Harrenhal and The Twins are such a pair there. The engine must take adjacency
    from that data alone for every purpose; here, supporting."""
    assert not BOARD.adjacent("harrenhal", "the_twins")
    state = duel("stark", "lannister", attack=("knight",), defend=("footman",), area="the_twins", origin="moat_cailin",
                 areas="""
harrenhal = { units = ["tyrell knight"], order = "support+0" }
the_fingers = { units = ["greyjoy knight"], order = "support+0" }
""")
    b = battle(state, everyone(state, "stark", area="the_twins", origin="moat_cailin"))
    b.run()
    assert b.asked() == [("support", "greyjoy")], "Harrenhal's support order is not next to The Twins"


@pytest.mark.usefixtures("phases", "combat")
def test_R258_areas_the_board_does_not_join_are_not_adjacent_for_raids_or_marches():
    """The same pair as above, for raiding and for marching (no ship links them)."""
    s = game()
    put(s, "harrenhal", "lannister", "footman", order="raid")
    put(s, "the_twins", "stark", "footman", order="support+0")
    put(s, "blackwater", "stark", "footman", order="support+0")
    s = at_action(s)
    step = run(s)
    assert step.requests[0].context["targets"] == {"harrenhal": ["blackwater"]}
    step = run(s, entry("lannister", Raid(origin="harrenhal", targets=("the_twins",))))
    assert any("is not adjacent to Harrenhal" in r and r.endswith("(R130)") for r in reasons(step, "lannister"))
    s = game()
    put(s, "harrenhal", "lannister", "footman", order="march+0")
    step = run(at_action(s), entry("lannister", move("harrenhal", "the_twins", "footman")))
    assert reasons(step, "lannister") == [
        "The Twins is not adjacent to Harrenhal and no chain of your ships links them (R144, R157, R159)"]
    assert "the_twins" not in step.requests[0].context["destinations"]["harrenhal"]


@pytest.mark.usefixtures("phases", "combat")
def test_R096_a_raven_answer_from_a_house_without_the_raven_is_refused_with_the_reason():
    s = game()
    s.phase = "planning"
    put(s, "winterfell", "stark", "footman")
    holder = s.holder("kings_court")
    assert holder == "lannister"
    step = run(s, entry("stark", AssignOrder(area="winterfell", token="march+0")),
               entry("stark", Raven(action="swap", area="winterfell", token="defense+1")),
               entry("stark", RavenKeep(choice="bottom")))
    assert [(r.kind, r.house) for r in step.requests] == [("raven", "lannister")]
    assert sorted((e.reason, e.rule) for e in unusable(step, "stark")) == [
        ("only the holder of the Messenger Raven (Lannister) uses it (R096, R125)", "R096")] * 2
    assert not [a for a in step.state.answers if a["command"]["type"] in ("Raven", "RavenKeep")], "refused on arrival"
    deck = list(step.state.wildling_deck)
    step = run(step.state, entry("lannister", Raven(action="pass")))
    assert step.state.area("winterfell").order.token == "march+0" and step.state.wildling_deck == deck
    assert not unusable(step, "stark"), "told once, when they arrived"
    assert not [e for e in step.events if type(e).__name__ == "AnswersExpired"]
